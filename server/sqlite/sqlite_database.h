// One SQLite connection as the server's stores use it (store/storage, identity/account_store):
// statements kept prepared and reset however a scope ends, transactions that roll back unless
// committed, and the last failure's message kept for the caller to report.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace xq::server {

class SqliteDatabase;

// A statement of SqliteDatabase::statement(), bound and stepped within one scope; at its end
// the statement is reset and its bindings cleared, ready for the next use.
class SqliteStatement {
public:
    ~SqliteStatement();
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement& operator=(SqliteStatement&&) = delete;

    // False when the SQL could not be prepared (the database's error() says why).
    explicit operator bool() const { return s_ != nullptr; }

    SqliteStatement& bind(int index, std::int64_t value);
    SqliteStatement& bind(int index, double value);
    SqliteStatement& bind(int index, std::string_view value);  // copied by SQLite
    SqliteStatement& bind(int index, std::optional<std::int64_t> value);  // NULL when absent

    // One step: true while it gives a row. At the end, or on a failure (its message kept
    // in the database's error()), false.
    bool row();
    // Runs a statement that gives no row: true when done, else false with the message kept.
    bool run();
    // Resets the statement to step it again (with new bindings).
    void reset();

    std::int64_t i64(int column) const;
    double f64(int column) const;
    std::string text(int column) const;
    // Whether the column holds NULL (i64() and text() read it as 0 and "").
    bool is_null(int column) const;
    // The column's integer, absent when it holds NULL.
    std::optional<std::int64_t> optional_i64(int column) const;

private:
    friend class SqliteDatabase;
    SqliteStatement(SqliteDatabase* db, sqlite3_stmt* s) : db_(db), s_(s) {}

    SqliteDatabase* db_;
    sqlite3_stmt* s_;
};

class SqliteDatabase {
public:
    // Opens `file` (created when missing) for use by one thread at a time, waiting up to 2 s
    // for another connection's lock. nullptr and a message on failure.
    static std::unique_ptr<SqliteDatabase> open(const std::filesystem::path& file, std::string* error);
    ~SqliteDatabase();  // finalizes every statement, then closes
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;

    // Runs SQL text of one or more statements; false with the message kept.
    bool exec(const char* sql);
    // The statement for `sql`, prepared on first use and kept for the connection's life (each
    // SQL text once; do not hold the same text twice at a time). Test it with operator bool.
    SqliteStatement statement(std::string_view sql);

    std::int64_t last_insert_id() const;
    // Whether a transaction is open (BEGIN without its COMMIT or ROLLBACK yet).
    bool in_transaction() const;
    int changes() const;  // rows the last INSERT, UPDATE or DELETE changed

    // What the last failure met (SQLite's message or the caller's words).
    const std::string& error() const { return error_; }
    // Keeps `message` as error(); returns false, for `return db.fail("...")`.
    bool fail(std::string message);
    // Keeps SQLite's message for the last failed call; returns false.
    bool fail_with_sqlite_message();
    // Whether the last failed call broke a constraint (a UNIQUE key taken, ...).
    bool constraint_failed() const;

private:
    SqliteDatabase() = default;

    sqlite3* db_ = nullptr;
    std::unordered_map<std::string, sqlite3_stmt*> statements_;
    std::string error_;
};

// BEGIN IMMEDIATE when made; ROLLBACK when its scope ends unless commit() succeeded. The
// database's error() keeps the failure that made it roll back. Inside a transaction already
// open (the store writer's group commit) it is a savepoint instead: commit() releases it into
// the outer transaction, and a rollback undoes only what was done since it was made.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteDatabase& db);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;

    // False when BEGIN failed (error() says why).
    explicit operator bool() const { return open_; }
    bool commit();

private:
    SqliteDatabase& db_;
    bool nested_ = false;
    bool open_ = false;
};

}  // namespace xq::server
