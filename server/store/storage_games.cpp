// Storage, the games: created with their seats, each move committed as it is played, events,
// takebacks, results, and the games read back (one, the unfinished ones, a filtered page).
#include "server/store/storage.h"

#include <algorithm>
#include <array>
#include <limits>

namespace xq::server {

namespace {

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
    // The SELECT guards the ply: only the next ply of an unfinished game is accepted. A game's
    // plies are always 0..n-1 (added only here, one past the last; a takeback cuts a tail),
    // so "no ply at or past it, and the one before it stored" is "it is the count", found by
    // two key look-ups instead of counting every move of the game on every move.
    Stmt q = db_->statement("INSERT INTO moves(game_id, ply, move, at, red_ms, black_ms, red_countdown, black_countdown) "
                            "SELECT ?1,?2,?3,?4,?5,?6,?7,?8 FROM games WHERE id=?1 AND finished=0 AND "
                            "NOT EXISTS(SELECT 1 FROM moves WHERE game_id=?1 AND ply>=?2) AND "
                            "(?2=0 OR EXISTS(SELECT 1 FROM moves WHERE game_id=?1 AND ply=?2-1))");
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
                            "black_countdown, kind) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)");
    if (!q) return false;
    q.bind(1, game_id).bind(2, std::int64_t(e.ply)).bind(3, e.at_ms).bind(4, e.text).bind(5, std::int64_t(e.paused));
    using Column = std::optional<std::int64_t>;
    const auto& c = e.clock;
    q.bind(6, c ? Column(c->main[RED].count()) : std::nullopt).bind(7, c ? Column(c->main[BLACK].count()) : std::nullopt)
        .bind(8, c ? Column(c->in_countdown[RED]) : std::nullopt)
        .bind(9, c ? Column(c->in_countdown[BLACK]) : std::nullopt).bind(10, e.kind);
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
        Stmt q = db_->statement("SELECT ply, at, text, paused, red_ms, black_ms, red_countdown, black_countdown, kind "
                                "FROM game_events WHERE game_id=?1 ORDER BY rowid");
        if (!q) return false;
        q.bind(1, g.id);
        while (q.row()) {
            GameEvent e{int(q.i64(0)), q.i64(1), q.text(2), q.i64(3) != 0, std::nullopt, q.text(8)};
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

std::optional<std::int64_t> Storage::finished_game_at(std::int64_t table_id) {
    Stmt q = db_->statement("SELECT id FROM games WHERE table_id=?1 AND finished=1 AND result<>'*' "
                            "ORDER BY id DESC LIMIT 1");
    if (!q) return std::nullopt;
    q.bind(1, table_id);
    if (!q.row()) return std::nullopt;
    return q.i64(0);
}

}  // namespace xq::server
