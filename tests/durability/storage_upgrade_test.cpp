// The database schema upgrade: a version 1 file (made here with the version 1 schema, as an
// older server left it) opens with this server, keeps its tables and unfinished games, and
// gains the per-table hold level and takeback switch with their defaults.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "server/store/storage.h"
#include "temp_dir.h"

using namespace xq;
using namespace xq::server;
using xq::test::TempDir;

namespace {

// The version 1 schema (before tables.hold_level and tables.takebacks) with one open table
// and one unfinished game of two moves.
constexpr const char* V1_DATABASE = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('schema', '1');
CREATE TABLE tables(id INTEGER PRIMARY KEY, name TEXT NOT NULL, clock TEXT NOT NULL,
  grace_ms INTEGER NOT NULL, ai_holds_seat INTEGER NOT NULL, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE games(id INTEGER PRIMARY KEY AUTOINCREMENT, table_id INTEGER NOT NULL,
  start_fen TEXT NOT NULL, clock TEXT NOT NULL, red TEXT NOT NULL, black TEXT NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0, result TEXT NOT NULL DEFAULT '*', reason TEXT NOT NULL DEFAULT '',
  result_text TEXT NOT NULL DEFAULT '', started_at INTEGER NOT NULL, ended_at INTEGER NOT NULL DEFAULT 0);
CREATE INDEX games_unfinished ON games(finished, id);
CREATE TABLE moves(game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL, move TEXT NOT NULL,
  at INTEGER NOT NULL, red_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, red_countdown INTEGER NOT NULL,
  black_countdown INTEGER NOT NULL, PRIMARY KEY(game_id, ply)) WITHOUT ROWID;
CREATE TABLE seats(game_id INTEGER NOT NULL REFERENCES games(id), color INTEGER NOT NULL, kind TEXT NOT NULL,
  name TEXT NOT NULL, token TEXT NOT NULL, ai_level INTEGER NOT NULL, PRIMARY KEY(game_id, color)) WITHOUT ROWID;
CREATE TABLE tokens(token TEXT PRIMARY KEY, nick TEXT NOT NULL, last_seen INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO tables VALUES(4, 'old club', 'fischer:300+5', 90000, 1, 0);
INSERT INTO games(id, table_id, start_fen, clock, red, black, started_at) VALUES(1, 4,
  'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1', 'fischer:300+5', 'ann', 'bob', 1000);
INSERT INTO moves VALUES(1, 0, 'h2e2', 1001, 300000, 300000, 0, 0);
INSERT INTO moves VALUES(1, 1, 'h9g7', 1002, 305000, 300000, 0, 0);
INSERT INTO seats VALUES(1, 0, 'human', 'ann', 'tok-ann', 0);
INSERT INTO seats VALUES(1, 1, 'human', 'bob', 'tok-bob', 0);
)sql";

// Runs `sql` on the database file in `dir` (created if missing), as an older server would
// have left it.
bool run_sql(const std::filesystem::path& dir, const char* sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open((dir / std::string(DATABASE_FILE)).c_str(), &db) != SQLITE_OK) {
        sqlite3_close(db);
        return false;
    }
    const bool ok = sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

bool make_v1(const std::filesystem::path& dir) { return run_sql(dir, V1_DATABASE); }

// A version-5 file: version 1 with every column up to version 5 and one arbiter's event.
bool make_v5(const std::filesystem::path& dir) {
    return make_v1(dir) &&
           run_sql(dir,
                   "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                   "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;"
                   "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                   "ALTER TABLE games ADD COLUMN red_rating INTEGER;"
                   "ALTER TABLE games ADD COLUMN black_rating INTEGER;"
                   "CREATE TABLE game_events(game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                   "  at INTEGER NOT NULL, text TEXT NOT NULL, paused INTEGER NOT NULL DEFAULT 0, red_ms INTEGER,"
                   "  black_ms INTEGER, red_countdown INTEGER, black_countdown INTEGER);"
                   "INSERT INTO game_events(game_id, ply, at, text) VALUES(1, 2, 1003, 'carl paused the game');"
                   "UPDATE meta SET value='5' WHERE key='schema';");
}

std::string schema_of(const std::filesystem::path& dir) {
    sqlite3* db = nullptr;
    std::string v;
    if (sqlite3_open((dir / std::string(DATABASE_FILE)).c_str(), &db) == SQLITE_OK) {
        sqlite3_stmt* q = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='schema'", -1, &q, nullptr) == SQLITE_OK &&
            sqlite3_step(q) == SQLITE_ROW)
            v = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return v;
}

bool has_table(const std::filesystem::path& dir, const char* name) {
    sqlite3* db = nullptr;
    bool found = false;
    if (sqlite3_open((dir / std::string(DATABASE_FILE)).c_str(), &db) == SQLITE_OK) {
        sqlite3_stmt* q = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type='table' AND name=?1", -1, &q, nullptr) ==
            SQLITE_OK) {
            sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
            found = sqlite3_step(q) == SQLITE_ROW;
        }
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return found;
}

}  // namespace

TEST(StorageUpgrade, VersionOneDatabaseKeepsItsGamesAndGainsTheNewSettings) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].id, 4);
    EXPECT_EQ(tables[0].name, "old club");
    EXPECT_EQ(tables[0].clock, "fischer:300+5");
    EXPECT_EQ(tables[0].grace_ms, 90'000);
    EXPECT_TRUE(tables[0].ai_holds_seat);
    EXPECT_EQ(tables[0].hold_level, 5);   // the defaults of the new columns
    EXPECT_TRUE(tables[0].takebacks);
    auto games = s->unfinished_games();
    ASSERT_EQ(games.size(), 1u);
    ASSERT_EQ(games[0].moves.size(), 2u);
    EXPECT_EQ(games[0].moves[1].move, "h9g7");
    // The new columns take values, and the file now says the current version (opened again: no
    // change).
    TableRecord t = tables[0];
    t.hold_level = 8;
    t.takebacks = false;
    ASSERT_TRUE(s->save_table(t));
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].hold_level, 8);
    EXPECT_FALSE(tables[0].takebacks);
}

// Version 2 (hold level and takebacks, no rated switch) gains tables.rated, off.
TEST(StorageUpgrade, VersionTwoDatabaseGainsTheRatedSwitch) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(),
                        "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                        "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;"
                        "UPDATE tables SET takebacks=0;"
                        "UPDATE meta SET value='2' WHERE key='schema';"));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_FALSE(tables[0].takebacks);  // kept
    EXPECT_FALSE(tables[0].rated);      // the new column's default
    EXPECT_EQ(s->unfinished_games().size(), 1u);
    TableRecord t = tables[0];
    t.rated = true;
    ASSERT_TRUE(s->save_table(t));
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_TRUE(tables[0].rated);
}

// A version 3 file as the server before analyses left it (no game_analysis table): the table
// is created when the file opens (the schema's tables are all "IF NOT EXISTS"), the file is
// upgraded to the current version, and an analysis is kept across a reopen.
TEST(StorageUpgrade, VersionThreeDatabaseGainsTheAnalysisTable) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(),
                        "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                        "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;"
                        "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                        "UPDATE meta SET value='3' WHERE key='schema';"));
    EXPECT_FALSE(has_table(tmp.path(), "game_analysis"));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    EXPECT_EQ(s->unfinished_games().size(), 1u);
    EXPECT_FALSE(s->analysis(1).has_value());
    StoredAnalysis a;
    a.game_id = 1;
    a.nodes = 30000;
    a.evals = {20, -35, 40};
    a.best = {"h2e2", "", "b0c2"};
    ASSERT_TRUE(s->save_analysis(a)) << s->last_error();
    s.reset();
    EXPECT_TRUE(has_table(tmp.path(), "game_analysis"));
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    const auto back = s->analysis(1);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->nodes, 30000);
    EXPECT_EQ(back->evals, a.evals);
    EXPECT_EQ(back->best, a.best);
    EXPECT_TRUE(back->losses.empty()) << "stored without losses";
    // With the losses of its moves (after a '|' in the evals column), read back as written.
    a.losses = {0, 120};
    ASSERT_TRUE(s->save_analysis(a)) << s->last_error();
    const auto with = s->analysis(1);
    ASSERT_TRUE(with.has_value());
    EXPECT_EQ(with->evals, a.evals);
    EXPECT_EQ(with->losses, a.losses);
}

// Version 3 (no ratings with the games) gains games.red_rating and games.black_rating: its
// games read as unrated, new games keep their ratings.
TEST(StorageUpgrade, VersionThreeDatabaseGainsTheGamesRatings) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(),
                        "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                        "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;"
                        "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                        "UPDATE tables SET rated=1;"
                        "UPDATE meta SET value='3' WHERE key='schema';"));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_TRUE(tables[0].rated);  // kept
    auto old_games = s->unfinished_games();
    ASSERT_EQ(old_games.size(), 1u);
    EXPECT_EQ(old_games[0].red_rating, std::nullopt);
    GameRecord g;
    g.table_id = tables[0].id;
    g.start_fen = old_games[0].start_fen;
    g.red = "alice";
    g.black = "bob";
    g.red_rating = 1612;
    g.black_rating = 1388;
    const auto id = s->create_game(g);
    ASSERT_TRUE(id) << s->last_error();
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    const auto back = s->get_game(*id);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->red_rating, std::optional<int>(1612));
    EXPECT_EQ(back->black_rating, std::optional<int>(1388));
    const auto listed = s->list_games(GameFilter{});
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].black_rating, std::optional<int>(1388));
    EXPECT_EQ(listed[1].black_rating, std::nullopt);
}

TEST(StorageUpgrade, UnknownNewerSchemaIsRefused) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(), "UPDATE meta SET value='99' WHERE key='schema'"));
    std::string err;
    EXPECT_FALSE(Storage::open(tmp.path(), &err));
    EXPECT_NE(err.find("schema version 99"), std::string::npos) << err;
}

// Version 4 (game_events with words only) gains the event's pause and clocks: an old event
// reads as leaving the game unpaused and without clocks, a new one keeps both.
TEST(StorageUpgrade, VersionFourDatabaseGainsTheClocksOfItsGameEvents) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v1(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(),
                        "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                        "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;"
                        "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                        "ALTER TABLE games ADD COLUMN red_rating INTEGER;"
                        "ALTER TABLE games ADD COLUMN black_rating INTEGER;"
                        "CREATE TABLE game_events(game_id INTEGER NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
                        "  at INTEGER NOT NULL, text TEXT NOT NULL);"
                        "INSERT INTO game_events VALUES(1, 2, 1003, 'carl paused the game');"
                        "UPDATE meta SET value='4' WHERE key='schema';"));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto games = s->unfinished_games();
    ASSERT_EQ(games.size(), 1u);
    ASSERT_EQ(games[0].events.size(), 1u);
    EXPECT_EQ(games[0].events[0].text, "carl paused the game");
    EXPECT_FALSE(games[0].events[0].paused);
    EXPECT_FALSE(games[0].events[0].clock.has_value());
    ClockState c;
    c.main[RED] = Ms(241'000);
    c.main[BLACK] = Ms(365'000);
    c.in_countdown[BLACK] = true;
    ASSERT_TRUE(s->add_event(1, GameEvent{2, 1004, "carl added 60 s to Black's clock", true, c})) << s->last_error();
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    const auto back = s->get_game(1);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->events.size(), 2u);
    EXPECT_TRUE(back->events[1].paused);
    ASSERT_TRUE(back->events[1].clock.has_value());
    EXPECT_EQ(back->events[1].clock->main[RED], Ms(241'000));
    EXPECT_EQ(back->events[1].clock->main[BLACK], Ms(365'000));
    EXPECT_FALSE(back->events[1].clock->in_countdown[RED]);
    EXPECT_TRUE(back->events[1].clock->in_countdown[BLACK]);
}

// Version 5 gains the tables' hints switch (off) and the events' kind (an arbiter's action).
TEST(StorageUpgrade, VersionFiveDatabaseGainsHintsAndEventKinds) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v5(tmp.path()));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_FALSE(tables[0].hints);
    tables[0].hints = true;
    ASSERT_TRUE(s->save_table(tables[0])) << s->last_error();
    ASSERT_TRUE(s->add_event(1, GameEvent{2, 1004, "ann (Red) was shown h0g2", false, std::nullopt, "hint"}));
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    EXPECT_TRUE(s->open_tables()[0].hints);
    const auto back = s->get_game(1);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->events.size(), 2u);
    EXPECT_EQ(back->events[0].kind, "");
    EXPECT_EQ(back->events[1].kind, "hint");
}

// Version 6 gains the tables' creator (empty: a restored table's creator is then its game's
// Red player, as before); a saved creator reads back.
TEST(StorageUpgrade, VersionSixDatabaseGainsTheTablesCreator) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    ASSERT_TRUE(make_v5(tmp.path()));
    ASSERT_TRUE(run_sql(tmp.path(),
                        "ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;"
                        "UPDATE tables SET hints=1;"
                        "ALTER TABLE game_events ADD COLUMN kind TEXT NOT NULL DEFAULT '';"
                        "UPDATE meta SET value='6' WHERE key='schema';"));
    std::string err;
    auto s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_TRUE(tables[0].hints);  // kept
    EXPECT_EQ(tables[0].creator, "");
    EXPECT_EQ(s->unfinished_games().size(), 1u);
    tables[0].creator = "dave";
    ASSERT_TRUE(s->save_table(tables[0])) << s->last_error();
    s.reset();
    EXPECT_EQ(schema_of(tmp.path()), std::to_string(STORAGE_SCHEMA_VERSION));
    s = Storage::open(tmp.path(), &err);
    ASSERT_TRUE(s) << err;
    EXPECT_EQ(s->open_tables()[0].creator, "dave");
}
