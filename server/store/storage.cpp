#include "server/store/storage.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <limits>
#include <sstream>
#include <system_error>

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
  rated INTEGER NOT NULL DEFAULT 0);
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
  black_countdown INTEGER);
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

// A rating stored with a game; NULL for an unrated game.
std::optional<int> rating_at(const Stmt& q, int column) {
    const std::optional<std::int64_t> v = q.optional_i64(column);
    if (!v) return std::nullopt;
    return static_cast<int>(std::clamp<std::int64_t>(*v, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

std::optional<SeatKind> seat_kind_from(std::string_view s) {
    if (s == "human") return SeatKind::Human;
    if (s == "ai") return SeatKind::Ai;
    if (s == "engine") return SeatKind::Engine;
    return std::nullopt;
}


}  // namespace

std::int64_t unix_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::filesystem::path default_data_dir() {
    std::error_code ec;
    auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return std::filesystem::current_path(ec) / "xiangqi-data";
    return exe.parent_path() / "xiangqi-data";
}

std::string_view seat_kind_name(SeatKind k) {
    switch (k) {
    case SeatKind::Human: return "human";
    case SeatKind::Ai: return "ai";
    case SeatKind::Engine: return "engine";
    }
    return "human";
}

std::unique_ptr<Storage> Storage::open(const std::filesystem::path& data_dir, std::string* error, Sync sync) {
    auto set_error = [&](std::string m) {
        if (error) *error = std::move(m);
        return nullptr;
    };
    std::error_code ec;
    std::filesystem::create_directories(data_dir, ec);
    if (ec) return set_error("cannot create data directory " + data_dir.string() + ": " + ec.message());
    // A folder owned by someone else (typically a host folder bind-mounted into the Docker
    // image, which runs as uid 10001) would only fail later inside SQLite with "unable to
    // open database file"; say what is wrong and how to fix it instead.
    const std::filesystem::path db_file = data_dir / DATABASE_FILE;
    const bool dir_ok = ::access(data_dir.c_str(), W_OK | X_OK) == 0;
    const bool file_ok = dir_ok && (::access(db_file.c_str(), F_OK) != 0 || ::access(db_file.c_str(), R_OK | W_OK) == 0);
    if (!dir_ok || !file_ok) {
        const std::string ids = std::to_string(::geteuid()) + ":" + std::to_string(::getegid());
        return set_error((dir_ok ? db_file : data_dir).string() + " is not writable by this server (uid " +
                         std::to_string(::geteuid()) + "); give it to the server's user: `chown " +
                         (dir_ok ? "-R " : "") + ids + " " + data_dir.string() +
                         "` (for a host folder bind-mounted into the Docker image, whose user is 10001, run "
                         "`chown " + (dir_ok ? "-R " : "") + "10001:10001 HOST_FOLDER` on the host)");
    }
    // The database holds resume tokens: only the server's user may read it.
    ::chmod(data_dir.c_str(), 0700);

    std::unique_ptr<Storage> s(new Storage());
    s->path_ = data_dir / DATABASE_FILE;
    s->db_ = SqliteDatabase::open(s->path_, error);
    if (!s->db_) return nullptr;
    SqliteDatabase& db = *s->db_;
    const char* sync_sql = sync == Sync::Full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;";
    if (!db.exec("PRAGMA journal_mode=WAL;") || !db.exec(sync_sql) || !db.exec("PRAGMA foreign_keys=ON;") ||
        !db.exec(SCHEMA))
        return set_error("cannot prepare " + s->path_.string() + ": " + db.error());
    {
        std::optional<std::string> found;
        {
            Stmt q = db.statement("SELECT value FROM meta WHERE key='schema'");
            if (!q) return set_error(db.error());
            if (q.row()) found = q.text(0);
        }
        if (!found) {
            Stmt ins = db.statement("INSERT INTO meta(key, value) VALUES('schema', ?1)");
            if (!ins || !ins.bind(1, std::to_string(STORAGE_SCHEMA_VERSION)).run()) return set_error(db.error());
        } else if (*found == "1" || *found == "2" || *found == "3" || *found == "4") {
            // Version 1 had no per-table hold level or takeback switch, version 2 no rated
            // switch, version 3 no ratings with its games, version 4 no clocks with its game
            // events: add them with their defaults, so an existing database (and its
            // unfinished games) keeps working; its games read as unrated, its events as
            // leaving the game unpaused.
            std::string sql;
            if (*found == "1")
                sql += "ALTER TABLE tables ADD COLUMN hold_level INTEGER NOT NULL DEFAULT 5;"
                       "ALTER TABLE tables ADD COLUMN takebacks INTEGER NOT NULL DEFAULT 1;";
            if (*found == "1" || *found == "2") sql += "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;";
            if (*found != "4")
                sql += "ALTER TABLE games ADD COLUMN red_rating INTEGER;"
                       "ALTER TABLE games ADD COLUMN black_rating INTEGER;";
            // game_events came without a version of its own: it is new (made above with every
            // column) in a file from before it, or lacks the columns added in version 5.
            bool has_paused = false;
            {
                Stmt q = db.statement("SELECT name FROM pragma_table_info('game_events')");
                if (!q) return set_error(db.error());
                while (q.row()) has_paused = has_paused || q.text(0) == "paused";
            }
            if (!has_paused)
                sql += "ALTER TABLE game_events ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;"
                       "ALTER TABLE game_events ADD COLUMN red_ms INTEGER;"
                       "ALTER TABLE game_events ADD COLUMN black_ms INTEGER;"
                       "ALTER TABLE game_events ADD COLUMN red_countdown INTEGER;"
                       "ALTER TABLE game_events ADD COLUMN black_countdown INTEGER;";
            sql += "UPDATE meta SET value='5' WHERE key='schema';";
            SqliteTransaction upgrade(db);
            if (!upgrade || !db.exec(sql.c_str()) || !upgrade.commit())
                return set_error("cannot upgrade " + s->path_.string() + " to schema version 5: " + db.error());
        } else if (*found != std::to_string(STORAGE_SCHEMA_VERSION)) {
            return set_error(s->path_.string() + " has schema version " + *found + ", this server knows " +
                             std::to_string(STORAGE_SCHEMA_VERSION));
        }
    }
    // Check that WAL really is on (it is refused on some file systems).
    {
        Stmt q = db.statement("PRAGMA journal_mode;");
        if (!q || !q.row() || q.text(0) != "wal")
            return set_error(s->path_.string() + ": the file system refused WAL mode");
    }
    return s;
}

bool Storage::check_text(std::string_view text, const char* what) {
    if (text.size() > MAX_STORED_TEXT) return db_->fail(std::string(what) + " is too long to store");
    return true;
}

bool Storage::save_table(const TableRecord& t) {
    if (!check_text(t.name, "table name") || !check_text(t.clock, "clock")) return false;
    Stmt q = db_->statement("INSERT INTO tables(id, name, clock, grace_ms, ai_holds_seat, closed, hold_level, takebacks, rated) "
                            "VALUES(?1,?2,?3,?4,?5,0,?6,?7,?8) "
                            "ON CONFLICT(id) DO UPDATE SET name=?2, clock=?3, grace_ms=?4, ai_holds_seat=?5, closed=0, "
                            "hold_level=?6, takebacks=?7, rated=?8");
    if (!q) return false;
    q.bind(1, t.id).bind(2, t.name).bind(3, t.clock).bind(4, t.grace_ms).bind(5, std::int64_t(t.ai_holds_seat))
        .bind(6, std::int64_t(t.hold_level)).bind(7, std::int64_t(t.takebacks)).bind(8, std::int64_t(t.rated));
    return q.run();
}

bool Storage::close_table(std::int64_t table_id) {
    Stmt q = db_->statement("UPDATE tables SET closed=1 WHERE id=?1");
    if (!q) return false;
    return q.bind(1, table_id).run();
}

std::vector<TableRecord> Storage::open_tables() {
    std::vector<TableRecord> out;
    Stmt q = db_->statement("SELECT id, name, clock, grace_ms, ai_holds_seat, hold_level, takebacks, rated FROM tables "
                            "WHERE closed=0 ORDER BY id");
    if (!q) return out;
    while (q.row()) {
        TableRecord t;
        t.id = q.i64(0);
        t.name = q.text(1);
        t.clock = q.text(2);
        t.grace_ms = q.i64(3);
        t.ai_holds_seat = q.i64(4) != 0;
        t.hold_level = int(q.i64(5));
        t.takebacks = q.i64(6) != 0;
        t.rated = q.i64(7) != 0;
        out.push_back(std::move(t));
    }
    return out;
}

std::int64_t Storage::max_table_id() {
    Stmt q = db_->statement("SELECT max(m) FROM (SELECT max(id) AS m FROM tables UNION ALL SELECT max(table_id) FROM games)");
    if (!q || !q.row()) return 0;
    return q.i64(0);
}

std::optional<std::int64_t> Storage::create_game(const GameRecord& g) {
    for (auto [text, what] : std::array<std::pair<std::string_view, const char*>, 4>{
             {{g.start_fen, "FEN"}, {g.clock, "clock"}, {g.red, "red name"}, {g.black, "black name"}}})
        if (!check_text(text, what)) return std::nullopt;
    SqliteTransaction transaction(*db_);
    if (!transaction) return std::nullopt;
    std::int64_t id = 0;
    {
        Stmt q = db_->statement("INSERT INTO games(table_id, start_fen, clock, red, black, started_at, red_rating, "
                                "black_rating) VALUES(?1,?2,?3,?4,?5,?6,?7,?8)");
        if (!q || !q.bind(1, g.table_id).bind(2, g.start_fen).bind(3, g.clock).bind(4, g.red).bind(5, g.black)
                       .bind(6, g.started_at_ms).bind(7, g.red_rating).bind(8, g.black_rating).run())
            return std::nullopt;
        id = db_->last_insert_id();
    }
    for (const SeatRecord& s : g.seats)
        if (!set_seat(id, s)) return std::nullopt;
    if (!transaction.commit()) return std::nullopt;
    return id;
}

bool Storage::append_move(std::int64_t game_id, const MoveRecord& m) {
    if (!check_text(m.move, "move")) return false;
    // One statement is one implicit transaction: committed (in the WAL) when step() returns.
    // The SELECT guards the ply: only the next ply of an unfinished game is accepted.
    Stmt q = db_->statement("INSERT INTO moves(game_id, ply, move, at, red_ms, black_ms, red_countdown, black_countdown) "
                            "SELECT ?1,?2,?3,?4,?5,?6,?7,?8 FROM games WHERE id=?1 AND finished=0 AND "
                            "(SELECT count(*) FROM moves WHERE game_id=?1)=?2");
    if (!q) return false;
    q.bind(1, game_id).bind(2, std::int64_t(m.ply)).bind(3, m.move).bind(4, m.at_ms)
        .bind(5, std::int64_t(m.clock.main[RED].count())).bind(6, std::int64_t(m.clock.main[BLACK].count()))
        .bind(7, std::int64_t(m.clock.in_countdown[RED])).bind(8, std::int64_t(m.clock.in_countdown[BLACK]));
    if (!q.run()) return false;
    if (db_->changes() != 1)
        return db_->fail("move " + std::to_string(m.ply) + " is not the next ply of unfinished game " +
                    std::to_string(game_id));
    return true;
}

bool Storage::add_event(std::int64_t game_id, const GameEvent& e) {
    if (!check_text(e.text, "event")) return false;
    Stmt q = db_->statement("INSERT INTO game_events(game_id, ply, at, text, paused, red_ms, black_ms, red_countdown, "
                            "black_countdown) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)");
    if (!q) return false;
    q.bind(1, game_id).bind(2, std::int64_t(e.ply)).bind(3, e.at_ms).bind(4, e.text).bind(5, std::int64_t(e.paused));
    using Column = std::optional<std::int64_t>;
    const auto& c = e.clock;
    q.bind(6, c ? Column(c->main[RED].count()) : std::nullopt).bind(7, c ? Column(c->main[BLACK].count()) : std::nullopt)
        .bind(8, c ? Column(c->in_countdown[RED]) : std::nullopt)
        .bind(9, c ? Column(c->in_countdown[BLACK]) : std::nullopt);
    return q.run();
}

bool Storage::truncate_moves(std::int64_t game_id, int from_ply) {
    Stmt q = db_->statement("DELETE FROM moves WHERE game_id=?1 AND ply>=?2");
    if (!q) return false;
    return q.bind(1, game_id).bind(2, std::int64_t(from_ply)).run();
}

bool Storage::set_seat(std::int64_t game_id, const SeatRecord& s) {
    if (!check_text(s.name, "seat name") || !check_text(s.token, "token")) return false;
    Stmt q = db_->statement("INSERT INTO seats(game_id, color, kind, name, token, ai_level) VALUES(?1,?2,?3,?4,?5,?6) "
                            "ON CONFLICT(game_id, color) DO UPDATE SET kind=?3, name=?4, token=?5, ai_level=?6");
    if (!q) return false;
    q.bind(1, game_id).bind(2, std::int64_t(s.color)).bind(3, seat_kind_name(s.kind)).bind(4, s.name)
        .bind(5, s.token).bind(6, std::int64_t(s.ai_level));
    return q.run();
}

bool Storage::finish_game(std::int64_t game_id, std::string_view result, std::string_view reason,
                          std::string_view text, std::int64_t ended_at_ms) {
    if (!check_text(result, "result") || !check_text(reason, "reason") || !check_text(text, "result text"))
        return false;
    Stmt q = db_->statement("UPDATE games SET finished=1, result=?2, reason=?3, result_text=?4, ended_at=?5 "
                            "WHERE id=?1 AND finished=0");
    if (!q) return false;
    q.bind(1, game_id).bind(2, result).bind(3, reason).bind(4, text).bind(5, ended_at_ms);
    if (!q.run()) return false;
    if (db_->changes() != 1) return db_->fail("game " + std::to_string(game_id) + " is not an unfinished game");
    return true;
}

bool Storage::load_details(GameRecord& g) {
    {
        Stmt q = db_->statement("SELECT color, kind, name, token, ai_level FROM seats WHERE game_id=?1 ORDER BY color");
        if (!q) return false;
        q.bind(1, g.id);
        while (q.row()) {
            SeatRecord s;
            s.color = q.i64(0) == BLACK ? BLACK : RED;
            s.kind = seat_kind_from(q.text(1)).value_or(SeatKind::Human);
            s.name = q.text(2);
            s.token = q.text(3);
            s.ai_level = int(q.i64(4));
            g.seats.push_back(std::move(s));
        }
    }
    {
        Stmt q = db_->statement("SELECT ply, at, text, paused, red_ms, black_ms, red_countdown, black_countdown "
                                "FROM game_events WHERE game_id=?1 ORDER BY rowid");
        if (!q) return false;
        q.bind(1, g.id);
        while (q.row()) {
            GameEvent e{int(q.i64(0)), q.i64(1), q.text(2), q.i64(3) != 0, std::nullopt};
            const auto red_ms = q.optional_i64(4), black_ms = q.optional_i64(5);
            if (red_ms && black_ms) {
                ClockState c;
                c.main[RED] = Ms(*red_ms);
                c.main[BLACK] = Ms(*black_ms);
                c.in_countdown[RED] = q.optional_i64(6).value_or(0) != 0;
                c.in_countdown[BLACK] = q.optional_i64(7).value_or(0) != 0;
                e.clock = c;
            }
            g.events.push_back(std::move(e));
        }
    }
    Stmt q = db_->statement("SELECT ply, move, at, red_ms, black_ms, red_countdown, black_countdown FROM moves "
                            "WHERE game_id=?1 ORDER BY ply");
    if (!q) return false;
    q.bind(1, g.id);
    while (q.row()) {
        MoveRecord m;
        m.ply = int(q.i64(0));
        m.move = q.text(1);
        m.at_ms = q.i64(2);
        m.clock.main[RED] = Ms(q.i64(3));
        m.clock.main[BLACK] = Ms(q.i64(4));
        m.clock.in_countdown[RED] = q.i64(5) != 0;
        m.clock.in_countdown[BLACK] = q.i64(6) != 0;
        g.moves.push_back(std::move(m));
    }
    return true;
}

#define XQ_GAME_COLUMNS \
    "id, table_id, start_fen, clock, red, black, finished, result, reason, result_text, started_at, ended_at, " \
    "red_rating, black_rating"

namespace {
GameRecord read_game(const Stmt& q) {
    GameRecord g;
    g.id = q.i64(0);
    g.table_id = q.i64(1);
    g.start_fen = q.text(2);
    g.clock = q.text(3);
    g.red = q.text(4);
    g.black = q.text(5);
    g.finished = q.i64(6) != 0;
    g.result = q.text(7);
    g.reason = q.text(8);
    g.result_text = q.text(9);
    g.started_at_ms = q.i64(10);
    g.ended_at_ms = q.i64(11);
    g.red_rating = rating_at(q, 12);
    g.black_rating = rating_at(q, 13);
    return g;
}
}  // namespace

std::optional<GameRecord> Storage::get_game(std::int64_t game_id) {
    GameRecord g;
    {
        Stmt q = db_->statement("SELECT " XQ_GAME_COLUMNS " FROM games WHERE id=?1");
        if (!q) return std::nullopt;
        if (!q.bind(1, game_id).row()) {
            db_->fail("no game " + std::to_string(game_id));
            return std::nullopt;
        }
        g = read_game(q);
    }
    if (!load_details(g)) return std::nullopt;
    return g;
}

std::vector<GameRecord> Storage::unfinished_games() {
    std::vector<GameRecord> out;
    {
        Stmt q = db_->statement("SELECT " XQ_GAME_COLUMNS " FROM games WHERE finished=0 ORDER BY id");
        if (!q) return out;
        while (q.row()) out.push_back(read_game(q));
    }
    for (GameRecord& g : out) load_details(g);
    return out;
}

std::vector<GameSummary> Storage::list_games(const GameFilter& f) {
    std::vector<GameSummary> out;
    Stmt q = db_->statement("SELECT id, table_id, red, black, result, reason, finished, started_at, ended_at, "
                            "(SELECT count(*) FROM moves WHERE game_id=games.id), red_rating, black_rating FROM games "
                            "WHERE (?1='' OR red=?1 OR black=?1) AND (?2=0 OR finished=1) AND (?3=0 OR id<?3) "
                            "ORDER BY id DESC LIMIT ?4");
    if (!q) return out;
    q.bind(1, std::string_view(f.player).substr(0, MAX_STORED_TEXT)).bind(2, std::int64_t(f.finished_only))
        .bind(3, f.before_id).bind(4, std::int64_t(std::clamp(f.limit, 1, MAX_GAME_LIST)));
    while (q.row()) {
        GameSummary s;
        s.id = q.i64(0);
        s.table_id = q.i64(1);
        s.red = q.text(2);
        s.black = q.text(3);
        s.result = q.text(4);
        s.reason = q.text(5);
        s.finished = q.i64(6) != 0;
        s.started_at_ms = q.i64(7);
        s.ended_at_ms = q.i64(8);
        s.plies = int(q.i64(9));
        s.red_rating = rating_at(q, 10);
        s.black_rating = rating_at(q, 11);
        out.push_back(std::move(s));
    }
    return out;
}

bool Storage::save_token(std::string_view token, std::string_view nick, std::int64_t now_ms) {
    if (!check_text(token, "token") || !check_text(nick, "nick")) return false;
    Stmt q = db_->statement("INSERT INTO tokens(token, nick, last_seen) VALUES(?1,?2,?3) "
                            "ON CONFLICT(token) DO UPDATE SET nick=?2, last_seen=?3");
    if (!q) return false;
    return q.bind(1, token).bind(2, nick).bind(3, now_ms).run();
}

std::optional<std::string> Storage::token_nick(std::string_view token) {
    Stmt q = db_->statement("SELECT nick FROM tokens WHERE token=?1");
    if (!q || !q.bind(1, token.substr(0, MAX_STORED_TEXT)).row()) return std::nullopt;
    return q.text(0);
}

int Storage::prune_tokens(std::int64_t cutoff_ms) {
    Stmt q = db_->statement("DELETE FROM tokens WHERE last_seen<?1 AND token NOT IN "
                            "(SELECT s.token FROM seats s JOIN games g ON g.id=s.game_id WHERE g.finished=0)");
    if (!q || !q.bind(1, cutoff_ms).run()) return 0;
    return db_->changes();
}

bool Storage::learn_book(const std::vector<LearnedBookMove>& moves) {
    if (moves.empty()) return true;
    SqliteTransaction transaction(*db_);
    if (!transaction) return false;
    Stmt q = db_->statement("INSERT INTO book_learned(key, move, plays, wins, draws, losses) VALUES(?1, ?2, ?3, ?4, ?5, ?6) "
                            "ON CONFLICT(key, move) DO UPDATE SET plays=plays+excluded.plays, wins=wins+excluded.wins, "
                            "draws=draws+excluded.draws, losses=losses+excluded.losses");
    if (!q) return false;
    for (const auto& m : moves) {
        const bool done = q.bind(1, static_cast<std::int64_t>(m.key))
                              .bind(2, std::int64_t(m.move))
                              .bind(3, std::int64_t(m.plays))
                              .bind(4, std::int64_t(m.wins))
                              .bind(5, std::int64_t(m.draws))
                              .bind(6, std::int64_t(m.losses))
                              .run();
        q.reset();
        if (!done) return false;
    }
    return transaction.commit();
}

std::vector<LearnedBookMove> Storage::learned_book() {
    std::vector<LearnedBookMove> out;
    Stmt q = db_->statement("SELECT key, move, plays, wins, draws, losses FROM book_learned ORDER BY key, move");
    if (!q) return out;
    auto count = [](std::int64_t v) {
        return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, std::numeric_limits<std::uint32_t>::max()));
    };
    while (q.row()) {
        LearnedBookMove m;
        m.key = static_cast<std::uint64_t>(q.i64(0));
        const std::int64_t move = q.i64(1);
        if (move <= 0 || move > 0xFFFF) continue;  // not a move this program wrote
        m.move = static_cast<std::uint16_t>(move);
        m.plays = count(q.i64(2));
        m.wins = count(q.i64(3));
        m.draws = count(q.i64(4));
        m.losses = count(q.i64(5));
        out.push_back(m);
    }
    return out;
}

int Storage::forget_learned_book() {
    Stmt q = db_->statement("DELETE FROM book_learned");
    if (!q) return -1;
    if (!q.run()) return -1;
    return db_->changes();
}

bool Storage::save_analysis(const StoredAnalysis& a) {
    if (a.evals.size() != a.best.size()) return db_->fail("an analysis needs one best move per evaluation");
    std::ostringstream evals, best;
    for (std::size_t i = 0; i < a.evals.size(); ++i) {
        if (a.best[i].size() > 4) return db_->fail("a best move is not ICCS");
        if (i > 0) {
            evals << ' ';
            best << ' ';
        }
        evals << a.evals[i];
        best << (a.best[i].empty() ? std::string_view("-") : std::string_view(a.best[i]));
    }
    if (!a.losses.empty()) {
        evals << " |";
        for (int l : a.losses) evals << ' ' << l;
    }
    Stmt q = db_->statement("INSERT OR REPLACE INTO game_analysis(game_id, nodes, evals, best) VALUES(?1, ?2, ?3, ?4)");
    if (!q) return false;
    const std::string evals_text = evals.str(), best_text = best.str();
    return q.bind(1, a.game_id)
        .bind(2, a.nodes)
        .bind(3, std::string_view(evals_text))
        .bind(4, std::string_view(best_text))
        .run();
}

std::optional<StoredAnalysis> Storage::analysis(std::int64_t game_id) {
    Stmt q = db_->statement("SELECT nodes, evals, best FROM game_analysis WHERE game_id=?1");
    if (!q || !q.bind(1, game_id).row()) return std::nullopt;
    StoredAnalysis a;
    a.game_id = game_id;
    a.nodes = q.i64(0);
    const std::string evals_text = q.text(1);
    const std::size_t bar = evals_text.find('|');
    std::istringstream evals(evals_text.substr(0, bar)), best(q.text(2));
    int e = 0;
    while (evals >> e) a.evals.push_back(std::clamp(e, -30000, 30000));
    if (bar != std::string::npos) {
        std::istringstream losses(evals_text.substr(bar + 1));
        while (losses >> e) a.losses.push_back(std::clamp(e, 0, 30000));
    }
    std::string m;
    while (best >> m) a.best.push_back(m == "-" ? std::string() : m.substr(0, 4));
    if (a.evals.size() != a.best.size()) return std::nullopt;  // damaged: as if none
    return a;
}

bool Storage::save_tournament(const StoredTournament& t) {
    if (t.state.size() > MAX_TOURNAMENT_STATE || t.game_tables.size() > MAX_TOURNAMENT_STATE)
        return db_->fail("the state of tournament " + std::to_string(t.id) + " is over " +
                         std::to_string(MAX_TOURNAMENT_STATE) + " bytes");
    std::string tables;
    for (std::int64_t table : t.game_tables) {
        if (!tables.empty()) tables += ',';
        tables += std::to_string(table);
    }
    Stmt q = db_->statement("INSERT INTO tournaments(id, state, game_tables, updated) VALUES(?1,?2,?3,?4) "
                            "ON CONFLICT(id) DO UPDATE SET state=?2, game_tables=?3, updated=?4");
    if (!q) return false;
    return q.bind(1, t.id).bind(2, t.state).bind(3, tables).bind(4, unix_ms_now()).run();
}

bool Storage::forget_tournament(std::int64_t id) {
    Stmt q = db_->statement("DELETE FROM tournaments WHERE id=?1");
    if (!q) return false;
    return q.bind(1, id).run();
}

std::vector<StoredTournament> Storage::tournaments() {
    std::vector<StoredTournament> out;
    Stmt q = db_->statement("SELECT id, state, game_tables FROM tournaments ORDER BY id");
    if (!q) return out;
    while (q.row()) {
        StoredTournament t{q.i64(0), q.text(1), {}};
        std::istringstream in(q.text(2));
        for (std::string item; std::getline(in, item, ',');) {
            std::int64_t table = 0;
            const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), table);
            t.game_tables.push_back(ec == std::errc() && end == item.data() + item.size() ? table : 0);
        }
        out.push_back(std::move(t));
    }
    return out;
}

std::optional<std::int64_t> Storage::finished_game_at(std::int64_t table_id) {
    Stmt q = db_->statement("SELECT id FROM games WHERE table_id=?1 AND finished=1 AND result<>'*' "
                            "ORDER BY id DESC LIMIT 1");
    if (!q) return std::nullopt;
    q.bind(1, table_id);
    if (!q.row()) return std::nullopt;
    return q.i64(0);
}

}  // namespace xq::server
