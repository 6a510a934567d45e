// server/sqlite: statements reset however their scope ends, transactions that roll back
// unless committed (keeping the failure's message), and clear errors.
#include "server/sqlite/sqlite_database.h"

#include <gtest/gtest.h>

#include "temp_dir.h"

namespace xq::test {
namespace {

using server::SqliteDatabase;
using server::SqliteTransaction;

std::unique_ptr<SqliteDatabase> open_with_table(const TempDir& dir) {
    std::string error;
    auto db = SqliteDatabase::open(dir.path() / "t.sqlite3", &error);
    if (!db) ADD_FAILURE() << error;
    else if (!db->exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE);"))
        ADD_FAILURE() << db->error();
    return db;
}

int rows(SqliteDatabase& db) {
    auto q = db.statement("SELECT count(*) FROM t");
    return q && q.row() ? static_cast<int>(q.i64(0)) : -1;
}

TEST(SqliteDatabase, AStatementIsKeptAndResetWhateverItsScopeLeftUndone) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    auto db = open_with_table(dir);
    ASSERT_TRUE(db);
    for (std::int64_t k = 1; k <= 3; ++k) {
        auto ins = db->statement("INSERT INTO t(k, v) VALUES(?1, ?2)");
        ASSERT_TRUE(ins);
        std::string v = "v";  // (not "v" + to_string: g++ 12 -O3 warns -Wrestrict on it)
        v += std::to_string(k);
        ASSERT_TRUE(ins.bind(1, k).bind(2, v).run()) << db->error();
        EXPECT_EQ(db->last_insert_id(), k);
        EXPECT_EQ(db->changes(), 1);
    }
    for (int pass = 0; pass < 2; ++pass) {
        // Left after its first row: the next use starts from the top again.
        auto q = db->statement("SELECT v FROM t ORDER BY k");
        ASSERT_TRUE(q.row());
        EXPECT_EQ(q.text(0), "v1");
    }
    auto q = db->statement("SELECT v FROM t WHERE k = ?1");
    std::vector<std::string> got;
    for (std::int64_t k : {3, 1}) {
        ASSERT_TRUE(q.bind(1, k).row());
        got.push_back(q.text(0));
        q.reset();
    }
    EXPECT_EQ(got, (std::vector<std::string>{"v3", "v1"}));
    auto d = db->statement("SELECT ?1 * 2.5");
    ASSERT_TRUE(d.bind(1, 2.0).row());
    EXPECT_DOUBLE_EQ(d.f64(0), 5.0);
}

TEST(SqliteDatabase, ATransactionRollsBackUnlessCommittedAndKeepsTheFailure) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    auto db = open_with_table(dir);
    ASSERT_TRUE(db);
    {
        SqliteTransaction t(*db);
        ASSERT_TRUE(t);
        ASSERT_TRUE(db->exec("INSERT INTO t(k, v) VALUES(1, 'a')"));
        auto dup = db->statement("INSERT INTO t(k, v) VALUES(2, ?1)");
        EXPECT_FALSE(dup.bind(1, "a").run());
        EXPECT_TRUE(db->constraint_failed());
    }  // rolled back
    EXPECT_EQ(rows(*db), 0);
    EXPECT_NE(db->error().find("UNIQUE"), std::string::npos) << db->error();
    {
        SqliteTransaction t(*db);
        ASSERT_TRUE(db->exec("INSERT INTO t(k, v) VALUES(1, 'a'); INSERT INTO t(k, v) VALUES(2, 'b');"));
        EXPECT_TRUE(t.commit());
    }
    EXPECT_EQ(rows(*db), 2);
    EXPECT_FALSE(db->constraint_failed());
}

TEST(SqliteDatabase, AnAbsentValueIsBoundAndReadAsNull) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    std::string error;
    auto db = SqliteDatabase::open(dir.path() / "n.sqlite3", &error);
    ASSERT_TRUE(db) << error;
    ASSERT_TRUE(db->exec("CREATE TABLE r(k INTEGER PRIMARY KEY, rating INTEGER);")) << db->error();
    const std::optional<int> none, some = 1612;
    auto ins = db->statement("INSERT INTO r(k, rating) VALUES(?1, ?2)");
    ASSERT_TRUE(ins.bind(1, std::int64_t(1)).bind(2, none).run()) << db->error();
    ins.reset();
    ASSERT_TRUE(ins.bind(1, std::int64_t(2)).bind(2, some).run()) << db->error();
    ins.reset();
    ASSERT_TRUE(ins.bind(1, std::int64_t(3)).bind(2, std::optional<std::int64_t>(0)).run()) << db->error();
    {
        auto nulls = db->statement("SELECT count(*) FROM r WHERE rating IS NULL");
        ASSERT_TRUE(nulls.row());
        EXPECT_EQ(nulls.i64(0), 1);  // NULL in SQL, not 0
    }
    auto q = db->statement("SELECT rating FROM r ORDER BY k");
    ASSERT_TRUE(q.row());
    EXPECT_TRUE(q.is_null(0));
    EXPECT_EQ(q.optional_i64(0), std::nullopt);
    ASSERT_TRUE(q.row());
    EXPECT_FALSE(q.is_null(0));
    EXPECT_EQ(q.optional_i64(0), std::optional<std::int64_t>(1612));
    ASSERT_TRUE(q.row());
    EXPECT_FALSE(q.is_null(0));  // zero is a value
    EXPECT_EQ(q.optional_i64(0), std::optional<std::int64_t>(0));
    EXPECT_FALSE(q.row());
}

TEST(SqliteDatabase, BadSqlAndUnopenableFilesSayWhy) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    std::string error;
    EXPECT_FALSE(SqliteDatabase::open(dir.path() / "missing" / "x.sqlite3", &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
    auto db = open_with_table(dir);
    ASSERT_TRUE(db);
    EXPECT_FALSE(db->statement("SELECT v FROM nowhere"));
    EXPECT_NE(db->error().find("nowhere"), std::string::npos) << db->error();
    EXPECT_FALSE(db->exec("NOT SQL"));
    EXPECT_NE(db->error().find("syntax"), std::string::npos) << db->error();
    EXPECT_FALSE(db->fail("a refused value"));
    EXPECT_EQ(db->error(), "a refused value");
}

}  // namespace
}  // namespace xq::test
