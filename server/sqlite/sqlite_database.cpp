#include "server/sqlite/sqlite_database.h"

#include <sqlite3.h>

#include <utility>

namespace xq::server {

// ---- SqliteStatement -------------------------------------------------------------------

SqliteStatement::~SqliteStatement() {
    if (!s_) return;
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
}

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), s_(std::exchange(other.s_, nullptr)) {}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
    sqlite3_bind_int64(s_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, double value) {
    sqlite3_bind_double(s_, index, value);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::string_view value) {
    sqlite3_bind_text(s_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::optional<std::int64_t> value) {
    if (value) sqlite3_bind_int64(s_, index, *value);
    else sqlite3_bind_null(s_, index);
    return *this;
}

bool SqliteStatement::row() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) db_->fail_with_sqlite_message();
    return false;
}

bool SqliteStatement::run() { return sqlite3_step(s_) == SQLITE_DONE || db_->fail_with_sqlite_message(); }

void SqliteStatement::reset() { sqlite3_reset(s_); }

std::int64_t SqliteStatement::i64(int column) const { return sqlite3_column_int64(s_, column); }

double SqliteStatement::f64(int column) const { return sqlite3_column_double(s_, column); }

std::string SqliteStatement::text(int column) const {
    const unsigned char* p = sqlite3_column_text(s_, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(sqlite3_column_bytes(s_, column)))
             : std::string();
}

bool SqliteStatement::is_null(int column) const { return sqlite3_column_type(s_, column) == SQLITE_NULL; }

std::optional<std::int64_t> SqliteStatement::optional_i64(int column) const {
    if (is_null(column)) return std::nullopt;
    return i64(column);
}

// ---- SqliteDatabase --------------------------------------------------------------------

std::unique_ptr<SqliteDatabase> SqliteDatabase::open(const std::filesystem::path& file, std::string* error) {
    std::unique_ptr<SqliteDatabase> d(new SqliteDatabase());
    const int rc = sqlite3_open_v2(file.c_str(), &d->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                   nullptr);
    if (rc != SQLITE_OK) {
        if (error) *error = "cannot open " + file.string() + ": " + (d->db_ ? sqlite3_errmsg(d->db_) : sqlite3_errstr(rc));
        return nullptr;
    }
    sqlite3_busy_timeout(d->db_, 2000);
    return d;
}

SqliteDatabase::~SqliteDatabase() {
    if (!db_) return;
    // sqlite3_open_v2 gives a handle even when it fails: closed here too.
    sqlite3_stmt* st = nullptr;
    while ((st = sqlite3_next_stmt(db_, nullptr)) != nullptr) sqlite3_finalize(st);
    sqlite3_close(db_);
}

bool SqliteDatabase::exec(const char* sql) {
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) == SQLITE_OK) return true;
    error_ = msg ? msg : sqlite3_errmsg(db_);
    sqlite3_free(msg);
    return false;
}

SqliteStatement SqliteDatabase::statement(std::string_view sql) {
    auto it = statements_.find(std::string(sql));
    if (it == statements_.end()) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &st,
                               nullptr) != SQLITE_OK) {
            fail_with_sqlite_message();
            return SqliteStatement(this, nullptr);
        }
        it = statements_.emplace(std::string(sql), st).first;
    }
    return SqliteStatement(this, it->second);
}

std::int64_t SqliteDatabase::last_insert_id() const { return sqlite3_last_insert_rowid(db_); }

int SqliteDatabase::changes() const { return sqlite3_changes(db_); }

bool SqliteDatabase::fail(std::string message) {
    error_ = std::move(message);
    return false;
}

bool SqliteDatabase::fail_with_sqlite_message() { return fail(sqlite3_errmsg(db_)); }

bool SqliteDatabase::constraint_failed() const { return sqlite3_errcode(db_) == SQLITE_CONSTRAINT; }

bool SqliteDatabase::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

// ---- SqliteTransaction -----------------------------------------------------------------

SqliteTransaction::SqliteTransaction(SqliteDatabase& db)
    : db_(db), nested_(db.in_transaction()), open_(db.exec(nested_ ? "SAVEPOINT xq_nested" : "BEGIN IMMEDIATE")) {}

SqliteTransaction::~SqliteTransaction() {
    if (!open_) return;
    std::string why = db_.error();  // what made it roll back, not the ROLLBACK's own words
    db_.exec(nested_ ? "ROLLBACK TO xq_nested; RELEASE xq_nested" : "ROLLBACK");
    db_.fail(std::move(why));
}

bool SqliteTransaction::commit() {
    if (!open_ || !db_.exec(nested_ ? "RELEASE xq_nested" : "COMMIT")) return false;
    open_ = false;
    return true;
}

}  // namespace xq::server
