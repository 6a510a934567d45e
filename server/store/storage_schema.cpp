// The schema: every table the store keeps, and the upgrades from versions 1 to 6.
#include "server/store/storage_schema.h"

#include <optional>

#include "server/store/storage.h"

namespace xq::server {

namespace {

constexpr const char* SCHEMA = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  clock TEXT NOT NULL,
  grace_ms INTEGER NOT NULL,
  ai_holds_seat INTEGER NOT NULL,
  closed INTEGER NOT NULL DEFAULT 0,
  hold_level INTEGER NOT NULL DEFAULT 5,
  takebacks INTEGER NOT NULL DEFAULT 1,
  rated INTEGER NOT NULL DEFAULT 0,
  hints INTEGER NOT NULL DEFAULT 0,
  creator TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS games(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  table_id INTEGER NOT NULL,
  start_fen TEXT NOT NULL,
  clock TEXT NOT NULL,
  red TEXT NOT NULL,
  black TEXT NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0,
  result TEXT NOT NULL DEFAULT '*',
  reason TEXT NOT NULL DEFAULT '',
  result_text TEXT NOT NULL DEFAULT '',
  started_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL DEFAULT 0,
  red_rating INTEGER,
  black_rating INTEGER);
CREATE INDEX IF NOT EXISTS games_unfinished ON games(finished, id);
CREATE TABLE IF NOT EXISTS moves(
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  move TEXT NOT NULL,
  at INTEGER NOT NULL,
  red_ms INTEGER NOT NULL,
  black_ms INTEGER NOT NULL,
  red_countdown INTEGER NOT NULL,
  black_countdown INTEGER NOT NULL,
  PRIMARY KEY(game_id, ply)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seats(
  game_id INTEGER NOT NULL REFERENCES games(id),
  color INTEGER NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  token TEXT NOT NULL,
  ai_level INTEGER NOT NULL,
  PRIMARY KEY(game_id, color)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_events(
  game_id INTEGER NOT NULL REFERENCES games(id),
  ply INTEGER NOT NULL,
  at INTEGER NOT NULL,
  text TEXT NOT NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  red_ms INTEGER,
  black_ms INTEGER,
  red_countdown INTEGER,
  black_countdown INTEGER,
  kind TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS game_events_game ON game_events(game_id, ply);
CREATE TABLE IF NOT EXISTS tokens(
  token TEXT PRIMARY KEY,
  nick TEXT NOT NULL,
  last_seen INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_analysis(
  game_id INTEGER PRIMARY KEY REFERENCES games(id),
  nodes INTEGER NOT NULL,
  evals TEXT NOT NULL,
  best TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments(
  id INTEGER PRIMARY KEY,
  state TEXT NOT NULL,
  game_tables TEXT NOT NULL,
  updated INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS book_learned(
  key INTEGER NOT NULL,
  move INTEGER NOT NULL,
  plays INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  draws INTEGER NOT NULL,
  losses INTEGER NOT NULL,
  PRIMARY KEY(key, move)) WITHOUT ROWID;
)sql";

using Stmt = SqliteStatement;

}  // namespace

bool prepare_schema(SqliteDatabase& db, const std::filesystem::path& file, std::string& error) {
    auto fail = [&](std::string m) {
        error = std::move(m);
        return false;
    };
    if (!db.exec(SCHEMA)) return fail("cannot prepare " + file.string() + ": " + db.error());
    std::optional<std::string> found;
    {
        Stmt q = db.statement("SELECT value FROM meta WHERE key='schema'");
        if (!q) return fail(db.error());
        if (q.row()) found = q.text(0);
    }
    if (!found) {
        Stmt ins = db.statement("INSERT INTO meta(key, value) VALUES('schema', ?1)");
        if (!ins || !ins.bind(1, std::to_string(STORAGE_SCHEMA_VERSION)).run()) return fail(db.error());
    } else if (*found == "1" || *found == "2" || *found == "3" || *found == "4" || *found == "5" || *found == "6") {
        // Version 1 had no per-table hold level or takeback switch, version 2 no rated
        // switch, version 3 no ratings with its games, version 4 no clocks with its game
        // events, version 5 no hints switch nor event kinds: add them with their defaults, so
        // an existing database (and its unfinished games) keeps working; its games read as
        // unrated, its events as arbiter's actions leaving the game unpaused, its tables
        // without hints; version 6 no creator with its tables (a restored table's creator is
        // then its game's Red player, as before).
        std::string sql;
        if (*found == "1")
            sql += "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                   "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;";
        if (*found == "1" || *found == "2") sql += "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;";
        if (*found != "4" && *found != "5" && *found != "6")
            sql += "ALTER TABLE games ADD COLUMN red_rating INTEGER;"
                   "ALTER TABLE games ADD COLUMN black_rating INTEGER;";
        if (*found != "6") sql += "ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;";
        sql += "ALTER TABLE tables ADD COLUMN creator TEXT NOT NULL DEFAULT '';";
        // game_events came without a version of its own: it is new (made above with every
        // column) in a file from before it, or lacks the columns added in versions 5 and 6.
        bool has_paused = false, has_kind = false;
        {
            Stmt q = db.statement("SELECT name FROM pragma_table_info('game_events')");
            if (!q) return fail(db.error());
            while (q.row()) {
                const std::string column = q.text(0);
                has_paused = has_paused || column == "paused";
                has_kind = has_kind || column == "kind";
            }
        }
        if (!has_paused)
            sql += "ALTER TABLE game_events ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;"
                   "ALTER TABLE game_events ADD COLUMN red_ms INTEGER;"
                   "ALTER TABLE game_events ADD COLUMN black_ms INTEGER;"
                   "ALTER TABLE game_events ADD COLUMN red_countdown INTEGER;"
                   "ALTER TABLE game_events ADD COLUMN black_countdown INTEGER;";
        if (!has_kind) sql += "ALTER TABLE game_events ADD COLUMN kind TEXT NOT NULL DEFAULT '';";
        sql += "UPDATE meta SET value='7' WHERE key='schema';";
        SqliteTransaction upgrade(db);
        if (!upgrade || !db.exec(sql.c_str()) || !upgrade.commit())
            return fail("cannot upgrade " + file.string() + " to schema version 7: " + db.error());
    } else if (*found != std::to_string(STORAGE_SCHEMA_VERSION)) {
        return fail(file.string() + " has schema version " + *found + ", this server knows " +
                         std::to_string(STORAGE_SCHEMA_VERSION));
    }
    return true;
}

}  // namespace xq::server
