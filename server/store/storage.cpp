// Storage: opening the database (permissions, WAL, the schema), the tables and the resume
// tokens. Games in storage_games.cpp, tournaments in storage_tournaments.cpp, analyses and the
// book's learning in storage_learning.cpp, the schema and its upgrades in storage_schema.cpp.
#include "server/store/storage.h"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <system_error>

#include "server/store/storage_schema.h"

namespace xq::server {

namespace {

using Stmt = SqliteStatement;

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

std::unique_ptr<Storage> Storage::open(const std::filesystem::path& data_dir, std::string* error, Sync sync,
                                       bool checkpoints) {
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
    if (!db.exec("PRAGMA journal_mode=WAL;") || !db.exec(sync_sql) || !db.exec("PRAGMA foreign_keys=ON;"))
        return set_error("cannot prepare " + s->path_.string() + ": " + db.error());
    if (std::string message; !prepare_schema(db, s->path_, message)) return set_error(std::move(message));
    // Check that WAL really is on (it is refused on some file systems).
    {
        Stmt q = db.statement("PRAGMA journal_mode;");
        if (!q || !q.row() || q.text(0) != "wal")
            return set_error(s->path_.string() + ": the file system refused WAL mode");
    }
    // Checkpoints run on their own thread (WalCheckpointer), not inside a move's commit on the
    // I/O thread: there one took 10-50 ms with its fsync and held up every table meanwhile.
    if (!db.exec("PRAGMA wal_autocheckpoint=0;")) return set_error("cannot prepare " + s->path_.string() + ": " + db.error());
    if (checkpoints) s->checkpointer_ = std::make_unique<WalCheckpointer>(s->path_, WAL_CHECKPOINT_PERIOD);
    return s;
}

bool Storage::check_text(std::string_view text, const char* what) {
    if (text.size() > MAX_STORED_TEXT) return db_->fail(std::string(what) + " is too long to store");
    return true;
}

bool Storage::save_table(const TableRecord& t) {
    if (!check_text(t.name, "table name") || !check_text(t.clock, "clock") || !check_text(t.creator, "table creator"))
        return false;
    Stmt q = db_->statement("INSERT INTO tables(id, name, clock, grace_ms, ai_holds_seat, closed, hold_level, takebacks, rated, "
                            "hints, creator) VALUES(?1,?2,?3,?4,?5,0,?6,?7,?8,?9,?10) "
                            "ON CONFLICT(id) DO UPDATE SET name=?2, clock=?3, grace_ms=?4, ai_holds_seat=?5, closed=0, "
                            "hold_level=?6, takebacks=?7, rated=?8, hints=?9, creator=?10");
    if (!q) return false;
    q.bind(1, t.id).bind(2, t.name).bind(3, t.clock).bind(4, t.grace_ms).bind(5, std::int64_t(t.ai_holds_seat))
        .bind(6, std::int64_t(t.hold_level)).bind(7, std::int64_t(t.takebacks)).bind(8, std::int64_t(t.rated))
        .bind(9, std::int64_t(t.hints)).bind(10, t.creator);
    return q.run();
}

bool Storage::close_table(std::int64_t table_id) {
    Stmt q = db_->statement("UPDATE tables SET closed=1 WHERE id=?1");
    if (!q) return false;
    return q.bind(1, table_id).run();
}

std::vector<TableRecord> Storage::open_tables() {
    std::vector<TableRecord> out;
    Stmt q = db_->statement("SELECT id, name, clock, grace_ms, ai_holds_seat, hold_level, takebacks, rated, hints, creator "
                            "FROM tables WHERE closed=0 ORDER BY id");
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
        t.hints = q.i64(8) != 0;
        t.creator = q.text(9);
        out.push_back(std::move(t));
    }
    return out;
}

std::int64_t Storage::max_table_id() {
    Stmt q = db_->statement("SELECT max(m) FROM (SELECT max(id) AS m FROM tables UNION ALL SELECT max(table_id) FROM games)");
    if (!q || !q.row()) return 0;
    return q.i64(0);
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

}  // namespace xq::server
