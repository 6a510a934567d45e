// Registered accounts: a nickname owned by whoever knows its password, kept in the server's
// SQLite database (table `accounts`) with an Argon2id hash (libsodium). Names are found by
// their confusable key (name_policy.h), so "Alice" and "ALICE" are the same account.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/identity/name_policy.h"
#include "server/sqlite/sqlite_database.h"

namespace xq::server {

// Version of the accounts part of the database (meta key `accounts_schema`); the games part
// keeps its own version (meta key `schema`), so either side upgrades alone.
// Version 2 added the operator's account ban and the Glicko-2 rating (with its history).
inline constexpr int ACCOUNTS_SCHEMA_VERSION = 2;

struct Account {
    std::int64_t id = 0;
    std::string name;  // as registered (NFC)
    std::int64_t created_ms = 0;
    std::int64_t last_login_ms = 0;  // 0: never logged in since registering or a reset
    bool banned = false;             // the operator's ban: the account cannot log in
    // Glicko-2 on Glickman's display scale (rating 1500, deviation 350, volatility 0.06 new).
    double rating = 1500.0;
    double rd = 350.0;
    double volatility = 0.06;
    int rated_games = 0;
};

// One line of a player's rating history: the rating after a rated game.
struct RatingEntry {
    std::int64_t game_id = 0;  // the archive's game id (0: unknown)
    std::int64_t at_ms = 0;
    double rating = 0, rd = 0, volatility = 0;
};

class AccountStore {
public:
    // How hard Argon2id works per hash. Interactive: libsodium's interactive limits
    // (64 MiB, 2 passes). Minimal: for tests only.
    enum class Cost { Interactive, Minimal };
    enum class Result { Ok, NameTaken, NoSuchAccount, WrongPassword, BadPassword, BadName, Failed };

    // Opens (creating or upgrading the `accounts` table) the SQLite file `db_file`, which may
    // be the games database of storage.h. nullptr and a message on failure.
    static std::unique_ptr<AccountStore> open(const std::filesystem::path& db_file, const NamePolicy& names,
                                              std::string* error, Cost cost = Cost::Interactive);
    AccountStore(const AccountStore&) = delete;
    AccountStore& operator=(const AccountStore&) = delete;

    // Why a password is unacceptable ("" when fine): length in bytes and UTF-8 only.
    static std::string check_password(std::string_view password);

    // Registers `name` (already accepted by NamePolicy::check) with `password`.
    Result create(std::string_view name, std::string_view password);
    // The account whose name is `name` or looks like it, if any.
    std::optional<Account> find(std::string_view name);
    // Checks the password of the account named like `name`; on success `out` gets it and
    // its last login time is set to `now_ms`.
    Result verify(std::string_view name, std::string_view password, std::int64_t now_ms, Account* out = nullptr);
    Result change_password(std::string_view name, std::string_view old_password, std::string_view new_password);
    // A password for the operator to read out (14 characters without look-alikes, from
    // libsodium's generator): resets and accounts the operator creates.
    static std::string random_password();
    // The operator's reset: a new random password, returned in `password_out`.
    Result reset(std::string_view name, std::string* password_out);
    Result remove(std::string_view name);
    // The operator's account ban (kept in the database, unlike nick bans).
    Result set_banned(std::string_view name, bool banned);
    // Stores an account's rating after a rated game and appends it to its history.
    Result record_rating(std::int64_t account_id, const RatingEntry& after);
    std::vector<RatingEntry> rating_history(std::int64_t account_id);
    std::vector<Account> list();

    const std::string& last_error() const { return db_->error(); }

private:
    AccountStore(const NamePolicy& names, Cost cost) : names_(names), cost_(cost) {}
    std::optional<std::string> hash(std::string_view password);
    // Ids and hashes of every account whose key matches either form of `key`.
    std::vector<std::pair<Account, std::string>> matches(const NameKey& key);
    bool rekey();

    const NamePolicy& names_;
    Cost cost_;
    std::unique_ptr<SqliteDatabase> db_;
};

std::string_view account_result_text(AccountStore::Result r);

}  // namespace xq::server
