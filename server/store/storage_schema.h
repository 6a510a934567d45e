// The database's tables at schema version STORAGE_SCHEMA_VERSION, and the upgrade of a file
// written by an older server in place (its unfinished games keep working). Used by
// Storage::open only.
#pragma once

#include <filesystem>
#include <string>

#include "server/sqlite/sqlite_database.h"

namespace xq::server {

// Creates the tables that are missing, then records the schema version of a new file or
// upgrades an older one. False with `error` set when the file cannot be used (a newer
// schema, or SQLite's error).
bool prepare_schema(SqliteDatabase& db, const std::filesystem::path& file, std::string& error);

}  // namespace xq::server
