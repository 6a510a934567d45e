// Registered accounts: Argon2id hashes in SQLite, names found by confusable key, the
// operator's reset and delete, and the upgrade of a games database that had no accounts.
#include "server/identity/account_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "protocol/limits.h"

namespace xq::server {
namespace {

using Result = AccountStore::Result;

class AccountStoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("xq_accounts_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        file_ = dir_ / "xiangqi.sqlite3";
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    std::unique_ptr<AccountStore> open() {
        std::string error;
        auto s = AccountStore::open(file_, names_, &error, AccountStore::Cost::Minimal);
        EXPECT_TRUE(s) << error;
        return s;
    }

    NamePolicy names_;
    std::filesystem::path dir_, file_;
};

TEST_F(AccountStoreTest, RegisterAndLogIn) {
    auto s = open();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->create("Alice", "correct horse"), Result::Ok);
    Account a;
    EXPECT_EQ(s->verify("Alice", "correct horse", 1234, &a), Result::Ok);
    EXPECT_EQ(a.name, "Alice");
    EXPECT_EQ(a.last_login_ms, 1234);
    EXPECT_EQ(s->verify("Alice", "correct horsE", 1, nullptr), Result::WrongPassword);
    EXPECT_EQ(s->verify("Alice", "", 1, nullptr), Result::WrongPassword);
    EXPECT_EQ(s->verify("bob", "correct horse", 1, nullptr), Result::NoSuchAccount);
}

TEST_F(AccountStoreTest, StoredHashIsArgon2idNotThePassword) {
    {
        auto s = open();
        ASSERT_TRUE(s);
        ASSERT_EQ(s->create("alice", "correct horse"), Result::Ok);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file_.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* q = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT hash FROM accounts", -1, &q, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(q), SQLITE_ROW);
    const std::string hash = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    EXPECT_TRUE(hash.starts_with("$argon2id$")) << hash;
    EXPECT_EQ(hash.find("correct horse"), std::string::npos);
}

TEST_F(AccountStoreTest, LookAlikeNamesAreTheSameAccount) {
    auto s = open();
    ASSERT_TRUE(s);
    ASSERT_EQ(s->create("mallory", "hunter2hunter2"), Result::Ok);
    for (const std::string other : {"Mallory", "MALLORY", "rnallory", "ｍａｌｌｏｒｙ"})
        EXPECT_EQ(s->create(other, "anotherpassword"), Result::NameTaken) << other;
    // The registered spelling comes back whatever spelling logs in.
    Account a;
    EXPECT_EQ(s->verify("MALLORY", "hunter2hunter2", 5, &a), Result::Ok);
    EXPECT_EQ(a.name, "mallory");
    EXPECT_EQ(s->verify("mal\u200blory", "hunter2hunter2", 5, nullptr), Result::Ok);
    ASSERT_TRUE(s->find("Mallory"));
    EXPECT_FALSE(s->find("malory"));
}

TEST_F(AccountStoreTest, RefusesBadNamesAndPasswords) {
    auto s = open();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->create("server", "long enough"), Result::BadName);
    EXPECT_EQ(s->create("\u202ealice", "long enough"), Result::BadName);
    EXPECT_EQ(s->create("alice", "short"), Result::BadPassword);
    EXPECT_EQ(s->create("alice", std::string(proto::MAX_ACCOUNT_PASSWORD_BYTES + 1, 'x')), Result::BadPassword);
    EXPECT_EQ(s->create("alice", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8"), Result::BadPassword);
    EXPECT_FALSE(AccountStore::check_password("").empty());
    EXPECT_TRUE(AccountStore::check_password("eight888").empty());
    EXPECT_TRUE(s->list().empty());
}

TEST_F(AccountStoreTest, ChangeResetDeleteList) {
    auto s = open();
    ASSERT_TRUE(s);
    ASSERT_EQ(s->create("alice", "first password"), Result::Ok);
    ASSERT_EQ(s->create("小明", "second password"), Result::Ok);
    EXPECT_EQ(s->change_password("alice", "wrong password", "third password"), Result::WrongPassword);
    EXPECT_EQ(s->change_password("alice", "first password", "short"), Result::BadPassword);
    EXPECT_EQ(s->change_password("alice", "first password", "third password"), Result::Ok);
    EXPECT_EQ(s->verify("alice", "first password", 1, nullptr), Result::WrongPassword);
    EXPECT_EQ(s->verify("alice", "third password", 1, nullptr), Result::Ok);

    std::string fresh;
    EXPECT_EQ(s->reset("ALICE", &fresh), Result::Ok);
    EXPECT_GE(fresh.size(), proto::MIN_ACCOUNT_PASSWORD_BYTES);
    EXPECT_EQ(s->verify("alice", "third password", 1, nullptr), Result::WrongPassword);
    EXPECT_EQ(s->verify("alice", fresh, 1, nullptr), Result::Ok);
    EXPECT_EQ(s->reset("nobody here", &fresh), Result::NoSuchAccount);

    auto all = s->list();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, "alice");
    EXPECT_EQ(all[1].name, "小明");
    EXPECT_EQ(s->remove("Alice"), Result::Ok);
    EXPECT_EQ(s->remove("alice"), Result::NoSuchAccount);
    EXPECT_EQ(s->list().size(), 1u);
    // A deleted name is free to register again.
    EXPECT_EQ(s->create("alice", "a new owner"), Result::Ok);
}

TEST_F(AccountStoreTest, AccountsSurviveReopening) {
    {
        auto s = open();
        ASSERT_TRUE(s);
        ASSERT_EQ(s->create("alice", "correct horse"), Result::Ok);
    }
    auto s = open();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->verify("alice", "correct horse", 1, nullptr), Result::Ok);
}

// A games database from before accounts (storage schema 2: `meta` and `tables` only) gains
// the accounts table on open and keeps everything it had.
TEST_F(AccountStoreTest, UpgradesAGamesDatabaseWithoutAccounts) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "PRAGMA journal_mode=WAL;"
                           "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                           "INSERT INTO meta VALUES('schema', '2');"
                           "CREATE TABLE tables(id INTEGER PRIMARY KEY, name TEXT NOT NULL);"
                           "INSERT INTO tables VALUES(7, 'club table');",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    {
        auto s = open();
        ASSERT_TRUE(s);
        EXPECT_EQ(s->create("alice", "correct horse"), Result::Ok);
    }
    auto scalar = [&](const char* sql) {
        sqlite3_stmt* q = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &q, nullptr), SQLITE_OK) << sql;
        std::string v;
        if (q && sqlite3_step(q) == SQLITE_ROW) v = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
        sqlite3_finalize(q);
        return v;
    };
    EXPECT_EQ(scalar("SELECT value FROM meta WHERE key='schema'"), "2");
    EXPECT_EQ(scalar("SELECT value FROM meta WHERE key='accounts_schema'"), std::to_string(ACCOUNTS_SCHEMA_VERSION));
    EXPECT_EQ(scalar("SELECT name FROM tables WHERE id=7"), "club table");
    EXPECT_EQ(scalar("SELECT name FROM accounts"), "alice");
    sqlite3_close(db);
}

TEST_F(AccountStoreTest, KeysAreRecomputedWhenUnicodeDataChanges) {
    {
        auto s = open();
        ASSERT_TRUE(s);
        ASSERT_EQ(s->create("Alice", "correct horse"), Result::Ok);
    }
    // Stale keys, as a database written under another ICU version might hold.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "UPDATE accounts SET key_folded='stale1', key_shaped='stale2';"
                           "UPDATE meta SET value='0.0' WHERE key='accounts_unicode';",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    auto s = open();
    ASSERT_TRUE(s);
    EXPECT_EQ(s->verify("alice", "correct horse", 1, nullptr), Result::Ok);
}

// Accounts schema 1 (before bans and ratings): its accounts keep their passwords and start
// unrated; the ban and the rating history work at once.
TEST_F(AccountStoreTest, UpgradesAccountsSchemaOne) {
    {
        auto s = open();
        ASSERT_TRUE(s);
        ASSERT_EQ(s->create("alice", "correct horse"), Result::Ok);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file_.c_str(), &db), SQLITE_OK);
    // Back to schema 1's shape: the accounts table without the columns version 2 added.
    ASSERT_EQ(sqlite3_exec(db,
                           "CREATE TABLE old AS SELECT id, name, key_folded, key_shaped, hash, created_ms, "
                           "last_login_ms FROM accounts;"
                           "DROP TABLE accounts; DROP TABLE rating_history;"
                           "ALTER TABLE old RENAME TO accounts;"
                           "UPDATE meta SET value='1' WHERE key='accounts_schema';",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    auto s = open();
    ASSERT_TRUE(s);
    Account a;
    ASSERT_EQ(s->verify("alice", "correct horse", 5, &a), Result::Ok);
    EXPECT_EQ(a.rating, 1500.0);
    EXPECT_EQ(a.rd, 350.0);
    EXPECT_FALSE(a.banned);
    EXPECT_EQ(s->set_banned("ALICE", true), Result::Ok);
    EXPECT_TRUE(s->find("alice")->banned);
    EXPECT_EQ(s->record_rating(a.id, RatingEntry{42, 7, 1600.5, 200.25, 0.059}), Result::Ok);
    const auto h = s->rating_history(a.id);
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(h[0].game_id, 42);
    EXPECT_EQ(h[0].rating, 1600.5);
    EXPECT_EQ(s->find("alice")->rated_games, 1);
    EXPECT_EQ(s->record_rating(a.id + 100, RatingEntry{43, 8, 1, 1, 0.06}), Result::NoSuchAccount);
}

TEST_F(AccountStoreTest, RefusesANewerAccountsSchema) {
    {
        auto s = open();
        ASSERT_TRUE(s);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(file_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE meta SET value='99' WHERE key='accounts_schema';", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    std::string error;
    EXPECT_FALSE(AccountStore::open(file_, names_, &error, AccountStore::Cost::Minimal));
    EXPECT_NE(error.find("99"), std::string::npos) << error;
}

}  // namespace
}  // namespace xq::server
