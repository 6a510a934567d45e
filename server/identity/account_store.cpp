#include "server/identity/account_store.h"

#include <sodium.h>
#include <unicode/uversion.h>

#include <chrono>

#include "protocol/limits.h"
#include "protocol/utf8.h"

namespace xq::server {

namespace {

// `meta` is shared with the games database (storage.cpp creates the same table).
constexpr const char* SCHEMA = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  key_folded TEXT NOT NULL UNIQUE,
  key_shaped TEXT NOT NULL UNIQUE,
  hash TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  last_login_ms INTEGER NOT NULL DEFAULT 0,
  banned INTEGER NOT NULL DEFAULT 0,
  rating REAL NOT NULL DEFAULT 1500,
  rd REAL NOT NULL DEFAULT 350,
  volatility REAL NOT NULL DEFAULT 0.06,
  rated_games INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS rating_history(
  id INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL,
  game_id INTEGER NOT NULL,
  at_ms INTEGER NOT NULL,
  rating REAL NOT NULL,
  rd REAL NOT NULL,
  volatility REAL NOT NULL);
CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account_id, id);
)sql";

// Version 1 had no ban and no rating: its accounts start unrated.
constexpr const char* UPGRADE_1_TO_2 = R"sql(
ALTER TABLE accounts ADD COLUMN banned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN rating REAL NOT NULL DEFAULT 1500;
ALTER TABLE accounts ADD COLUMN rd REAL NOT NULL DEFAULT 350;
ALTER TABLE accounts ADD COLUMN volatility REAL NOT NULL DEFAULT 0.06;
ALTER TABLE accounts ADD COLUMN rated_games INTEGER NOT NULL DEFAULT 0;
UPDATE meta SET value = '2' WHERE key = 'accounts_schema';
)sql";

constexpr const char* ACCOUNT_COLUMNS = "id, name, created_ms, last_login_ms, banned, rating, rd, volatility, rated_games";

// Keys depend on ICU's confusable data: a database written under another Unicode version
// gets its keys computed again on open.
constexpr const char* UNICODE_VERSION = U_ICU_VERSION;

// Characters of a reset password: no 0/O, 1/l/I, so it can be read out to the player.
constexpr std::string_view RESET_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
constexpr std::size_t RESET_LENGTH = 14;

using Query = SqliteStatement;

// A row of ACCOUNT_COLUMNS, from column `first`.
Account account_row(const Query& q, int first = 0) {
    Account a;
    a.id = q.i64(first);
    a.name = q.text(first + 1);
    a.created_ms = q.i64(first + 2);
    a.last_login_ms = q.i64(first + 3);
    a.banned = q.i64(first + 4) != 0;
    a.rating = q.f64(first + 5);
    a.rd = q.f64(first + 6);
    a.volatility = q.f64(first + 7);
    a.rated_games = static_cast<int>(q.i64(first + 8));
    return a;
}

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::string_view account_result_text(AccountStore::Result r) {
    switch (r) {
    case AccountStore::Result::Ok: return "ok";
    case AccountStore::Result::NameTaken: return "that name (or one that looks like it) is registered already";
    case AccountStore::Result::NoSuchAccount: return "no account has that name";
    case AccountStore::Result::WrongPassword: return "wrong password";
    case AccountStore::Result::BadPassword: return "the password is not acceptable";
    case AccountStore::Result::BadName: return "the name is not acceptable";
    case AccountStore::Result::Failed: return "the account database failed";
    }
    return "?";
}

std::unique_ptr<AccountStore> AccountStore::open(const std::filesystem::path& db_file, const NamePolicy& names,
                                                 std::string* error, Cost cost) {
    auto set_error = [&](std::string m) {
        if (error) *error = std::move(m);
        return nullptr;
    };
    if (sodium_init() < 0) return set_error("libsodium cannot initialize");
    std::unique_ptr<AccountStore> s(new AccountStore(names, cost));
    s->db_ = SqliteDatabase::open(db_file, error);
    if (!s->db_) return nullptr;
    SqliteDatabase& db = *s->db_;
    if (!db.exec("PRAGMA journal_mode=WAL;") || !db.exec(SCHEMA))
        return set_error("cannot prepare accounts in " + db_file.string() + ": " + db.error());

    std::optional<std::string> version, unicode;
    {
        Query q = db.statement("SELECT key, value FROM meta WHERE key IN ('accounts_schema', 'accounts_unicode')");
        if (!q) return set_error(db.error());
        while (q.row()) (q.text(0) == "accounts_schema" ? version : unicode) = q.text(1);
    }
    if (version == "1") {
        SqliteTransaction upgrade(db);
        if (!upgrade || !db.exec(UPGRADE_1_TO_2) || !upgrade.commit())
            return set_error("cannot upgrade the accounts of " + db_file.string() + ": " + db.error());
        version = std::to_string(ACCOUNTS_SCHEMA_VERSION);
    }
    if (version && *version != std::to_string(ACCOUNTS_SCHEMA_VERSION))
        return set_error(db_file.string() + " has accounts schema version " + *version + ", this server knows " +
                         std::to_string(ACCOUNTS_SCHEMA_VERSION));
    if (!version) {
        Query q = db.statement("INSERT INTO meta(key, value) VALUES('accounts_schema', ?1)");
        if (!q || !q.bind(1, std::to_string(ACCOUNTS_SCHEMA_VERSION)).run()) return set_error(db.error());
    }
    if (unicode != std::string(UNICODE_VERSION) && !s->rekey())
        return set_error("cannot renew the name keys of " + db_file.string() + ": " + db.error());
    return s;
}

bool AccountStore::rekey() {
    SqliteTransaction transaction(*db_);
    if (!transaction) return false;
    std::vector<std::pair<std::int64_t, std::string>> rows;
    {
        Query q = db_->statement("SELECT id, name FROM accounts");
        while (q && q.row()) rows.emplace_back(q.i64(0), q.text(1));
    }
    // Temporary keys first, so that swapping two keys never trips the unique indexes.
    if (!db_->exec("UPDATE accounts SET key_folded = '#' || id, key_shaped = '#' || id;")) return false;
    for (const auto& [id, name] : rows) {
        const NameKey k = names_.key(name);
        if (k.empty()) return db_->fail("the account name '" + name + "' has no key");
        Query q = db_->statement("UPDATE accounts SET key_folded = ?1, key_shaped = ?2 WHERE id = ?3");
        if (!q || !q.bind(1, k.folded).bind(2, k.shaped).bind(3, id).run()) return false;
    }
    Query v = db_->statement("INSERT OR REPLACE INTO meta(key, value) VALUES('accounts_unicode', ?1)");
    if (!v || !v.bind(1, std::string_view(UNICODE_VERSION)).run()) return false;
    return transaction.commit();
}

std::string AccountStore::check_password(std::string_view password) {
    if (password.size() < proto::MIN_ACCOUNT_PASSWORD_BYTES)
        return "a password needs at least " + std::to_string(proto::MIN_ACCOUNT_PASSWORD_BYTES) + " bytes";
    if (password.size() > proto::MAX_ACCOUNT_PASSWORD_BYTES)
        return "a password has at most " + std::to_string(proto::MAX_ACCOUNT_PASSWORD_BYTES) + " bytes";
    if (!proto::valid_utf8(password)) return "a password must be valid UTF-8";
    return {};
}

std::optional<std::string> AccountStore::hash(std::string_view password) {
    const bool minimal = cost_ == Cost::Minimal;
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(),
                              minimal ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              minimal ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE,
                              crypto_pwhash_ALG_ARGON2ID13) != 0) {
        db_->fail("out of memory while hashing a password");
        return std::nullopt;
    }
    return std::string(out);
}

std::vector<std::pair<Account, std::string>> AccountStore::matches(const NameKey& key) {
    std::vector<std::pair<Account, std::string>> out;
    Query q = db_->statement(std::string("SELECT ") + ACCOUNT_COLUMNS +
                             ", hash FROM accounts WHERE key_folded = ?1 OR key_shaped = ?2 ORDER BY id");
    if (!q) return out;
    q.bind(1, key.folded).bind(2, key.shaped);
    while (q.row()) out.push_back({account_row(q), q.text(9)});
    return out;
}

AccountStore::Result AccountStore::create(std::string_view name, std::string_view password) {
    const NameCheck c = names_.check(name);
    if (!c.ok()) return Result::BadName;
    if (!check_password(password).empty()) return Result::BadPassword;
    if (!matches(c.key).empty()) return Result::NameTaken;
    const auto h = hash(password);
    if (!h) return Result::Failed;
    Query q = db_->statement("INSERT INTO accounts(name, key_folded, key_shaped, hash, created_ms) VALUES(?1, ?2, ?3, ?4, ?5)");
    if (!q) return Result::Failed;
    if (q.bind(1, c.name).bind(2, c.key.folded).bind(3, c.key.shaped).bind(4, *h).bind(5, now_ms()).run())
        return Result::Ok;
    // Registered meanwhile by another connection: the unique keys refuse the second one.
    return db_->constraint_failed() ? Result::NameTaken : Result::Failed;
}

std::optional<Account> AccountStore::find(std::string_view name) {
    const NameKey key = names_.key(name);
    if (key.empty()) return std::nullopt;
    auto m = matches(key);
    if (m.empty()) return std::nullopt;
    return m.front().first;
}

AccountStore::Result AccountStore::verify(std::string_view name, std::string_view password, std::int64_t at_ms,
                                          Account* out) {
    const NameKey key = names_.key(name);
    if (key.empty()) return Result::NoSuchAccount;
    const auto m = matches(key);
    if (m.empty()) return Result::NoSuchAccount;
    if (password.size() > proto::MAX_ACCOUNT_PASSWORD_BYTES) return Result::WrongPassword;
    // A name can look like two accounts (one by each key): the password says which.
    for (const auto& [account, stored] : m) {
        if (crypto_pwhash_str_verify(stored.c_str(), password.data(), password.size()) != 0) continue;
        Query q = db_->statement("UPDATE accounts SET last_login_ms = ?1 WHERE id = ?2");
        if (!q || !q.bind(1, at_ms).bind(2, account.id).run()) return Result::Failed;
        if (out) {
            *out = account;
            out->last_login_ms = at_ms;
        }
        return Result::Ok;
    }
    return Result::WrongPassword;
}

AccountStore::Result AccountStore::change_password(std::string_view name, std::string_view old_password,
                                                   std::string_view new_password) {
    if (!check_password(new_password).empty()) return Result::BadPassword;
    Account a;
    if (const Result r = verify(name, old_password, now_ms(), &a); r != Result::Ok) return r;
    const auto h = hash(new_password);
    if (!h) return Result::Failed;
    Query q = db_->statement("UPDATE accounts SET hash = ?1 WHERE id = ?2");
    if (!q || !q.bind(1, *h).bind(2, a.id).run()) return Result::Failed;
    return Result::Ok;
}

std::string AccountStore::random_password() {
    std::string password;
    for (std::size_t i = 0; i < RESET_LENGTH; ++i)
        password += RESET_ALPHABET[randombytes_uniform(static_cast<std::uint32_t>(RESET_ALPHABET.size()))];
    return password;
}

AccountStore::Result AccountStore::reset(std::string_view name, std::string* password_out) {
    const auto a = find(name);
    if (!a) return Result::NoSuchAccount;
    std::string password = random_password();
    const auto h = hash(password);
    if (!h) return Result::Failed;
    Query q = db_->statement("UPDATE accounts SET hash = ?1, last_login_ms = 0 WHERE id = ?2");
    if (!q || !q.bind(1, *h).bind(2, a->id).run()) return Result::Failed;
    if (password_out) *password_out = std::move(password);
    return Result::Ok;
}

AccountStore::Result AccountStore::remove(std::string_view name) {
    const auto a = find(name);
    if (!a) return Result::NoSuchAccount;
    SqliteTransaction transaction(*db_);
    Query h = db_->statement("DELETE FROM rating_history WHERE account_id = ?1");
    Query q = db_->statement("DELETE FROM accounts WHERE id = ?1");
    if (!transaction || !h || !h.bind(1, a->id).run() || !q || !q.bind(1, a->id).run() || !transaction.commit())
        return Result::Failed;
    return Result::Ok;
}

std::vector<Account> AccountStore::list() {
    std::vector<Account> out;
    Query q = db_->statement(std::string("SELECT ") + ACCOUNT_COLUMNS + " FROM accounts ORDER BY name COLLATE NOCASE, id");
    while (q && q.row()) out.push_back(account_row(q));
    return out;
}

AccountStore::Result AccountStore::set_banned(std::string_view name, bool banned) {
    const auto a = find(name);
    if (!a) return Result::NoSuchAccount;
    Query q = db_->statement("UPDATE accounts SET banned = ?1 WHERE id = ?2");
    if (!q || !q.bind(1, std::int64_t(banned ? 1 : 0)).bind(2, a->id).run()) return Result::Failed;
    return Result::Ok;
}

AccountStore::Result AccountStore::record_rating(std::int64_t account_id, const RatingEntry& after) {
    SqliteTransaction transaction(*db_);
    if (!transaction) return Result::Failed;
    Query u = db_->statement(
        "UPDATE accounts SET rating = ?1, rd = ?2, volatility = ?3, rated_games = rated_games + 1 WHERE id = ?4");
    if (!u || !u.bind(1, after.rating).bind(2, after.rd).bind(3, after.volatility).bind(4, account_id).run())
        return Result::Failed;
    if (db_->changes() != 1) return Result::NoSuchAccount;
    Query h = db_->statement("INSERT INTO rating_history(account_id, game_id, at_ms, rating, rd, volatility) "
                             "VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
    if (!h || !h.bind(1, account_id).bind(2, after.game_id).bind(3, after.at_ms).bind(4, after.rating)
                   .bind(5, after.rd).bind(6, after.volatility).run())
        return Result::Failed;
    return transaction.commit() ? Result::Ok : Result::Failed;
}

std::vector<RatingEntry> AccountStore::rating_history(std::int64_t account_id) {
    std::vector<RatingEntry> out;
    Query q = db_->statement("SELECT game_id, at_ms, rating, rd, volatility FROM rating_history WHERE account_id = ?1 ORDER BY id");
    if (!q) return out;
    q.bind(1, account_id);
    while (q.row()) out.push_back(RatingEntry{q.i64(0), q.i64(1), q.f64(2), q.f64(3), q.f64(4)});
    return out;
}

}  // namespace xq::server
