#include "server/store/game_recorder.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>
#include <map>

#include "protocol/utf8.h"
#include "server/store/archive.h"
#include "server/table/restored_seat.h"
#include "server/table/table_game_clock.h"

namespace xq::server {

namespace {

SeatKind seat_kind(const Seat& s) {
    if (s.ai()) return s.engine.empty() ? SeatKind::Ai : SeatKind::Engine;
    return SeatKind::Human;
}

Outcome win_for(Color c) { return c == RED ? Outcome::RedWins : Outcome::BlackWins; }

std::string clock_text(std::int64_t ms) {
    const std::int64_t s = std::max<std::int64_t>(0, ms) / 1000;
    const std::int64_t sec = s % 60;
    return std::to_string(s / 60) + ":" + (sec < 10 ? "0" : "") + std::to_string(sec);
}

// An arbiter's action in words for the game record, e.g. "alice paused the game (Red 4:31,
// Black 5:00)"; at most MAX_STORED_TEXT bytes.
std::string arbiter_event_text(const proto::ArbiterAction& a) {
    using K = proto::ArbiterKind;
    std::string t = a.by;
    switch (a.action) {
    case K::Pause: t += " paused the game"; break;
    case K::Resume: t += " resumed the game"; break;
    case K::AddTime:
        t += " added " + std::to_string(a.seconds.value_or(0)) + " s to " +
             (a.side.value_or(RED) == RED ? "Red" : "Black") + "'s clock";
        break;
    case K::Adjudicate: t += " adjudicated " + std::string(outcome_pgn(a.result.value_or(Outcome::Draw))); break;
    case K::Cancel: t += " cancelled the game"; break;
    }
    if (a.clocks) t += " (Red " + clock_text(a.clocks->red_ms) + ", Black " + clock_text(a.clocks->black_ms) + ")";
    if (!a.reason.empty()) t += ": " + a.reason;
    std::size_t cps = proto::count_code_points(t);
    while (t.size() > MAX_STORED_TEXT && cps > 0) t = proto::cut_code_points(t, --cps);
    return t;
}

}  // namespace

GameRecorder::GameRecorder(boost::asio::io_context& io, Lobby& lobby, Storage* storage,
                           const ClockConfig& default_clock, std::chrono::milliseconds seat_grace, StoreWriter* writer)
    : io_(io), lobby_(lobby), storage_(storage), default_clock_(default_clock), seat_grace_(seat_grace),
      writer_(storage ? writer : nullptr) {}

void GameRecorder::write_failed(const char* what) {
    ++failed_writes_;
    spdlog::error("database: {} failed: {}", what, storage_ ? storage_->last_error() : "no storage");
}

void GameRecorder::write(proto::TableId about, const char* what, StoreWriter::Job job) {
    if (!storage_) return;
    if (!writer_) {
        if (!job(*storage_)) write_failed(what);
        return;
    }
    const std::uint64_t ticket = writer_->post(what, std::move(job));
    if (hold_) hold_(about, ticket);
}

void GameRecorder::sync() const {
    if (writer_) writer_->drain();
}

GameRecorder::GameRefPtr GameRecorder::game_of(proto::TableId table) const {
    const auto it = games_.find(table);
    return it != games_.end() ? it->second : nullptr;
}

void GameRecorder::attach_clock(Table& t, const ClockConfig& config) {
    table_clocks_[t.id()] = config;
    if (config.kind == ClockKind::None) return;
    const proto::TableId id = t.id();
    Lobby* lobby = &lobby_;
    t.set_clock(std::make_unique<TableGameClock>(io_, config, [lobby, id](Color side) {
        // Looked up afresh: the table may be gone by the time the flag falls.
        if (Table* table = lobby->table(id))
            table->finish_external(win_for(~side), EndReason::Timeout,
                                   std::string(color_name(side)) + " ran out of time: " + std::string(color_name(side)) +
                                       " loses");
    }));
}

std::int64_t GameRecorder::game_id_at(proto::TableId table) const {
    const GameRefPtr g = game_of(table);
    if (!g) return 0;
    if (g->id.load() == 0) sync();  // its game is still queued (a moment after it started)
    return g->id.load();
}

ClockState GameRecorder::clock_state(const Table& t) const {
    if (auto* c = dynamic_cast<const TableGameClock*>(t.clock())) return c->persisted_state();
    return ClockState{};
}

namespace {
TableRecord table_record(const Table& t) {
    const TableRules& r = t.rules();
    TableRecord rec;
    rec.id = std::int64_t(t.id());
    rec.name = t.name();
    rec.clock = r.clock;
    rec.grace_ms = r.grace.count();
    rec.ai_holds_seat = r.abandon == proto::AbandonPolicy::Ai;
    rec.hold_level = r.hold_level;
    rec.takebacks = r.takebacks;
    rec.rated = r.rated;
    rec.hints = r.hints;
    rec.creator = t.creator();
    return rec;
}
}  // namespace

void GameRecorder::table_created(const Table& t) {
    // The lobby checked the table's clock text; a bad one here would be a bug: no clock.
    if (Table* mt = lobby_.table(t.id())) attach_clock(*mt, parse_clock_spec(t.rules().clock).value_or(ClockConfig{}));
    write(t.id(), "saving a table", [rec = table_record(t)](Storage& s) { return s.save_table(rec); });
}

void GameRecorder::game_started(const Table& t) {
    if (!storage_) return;
    GameRecord g;
    g.table_id = t.id();
    g.start_fen = t.game().start_position().fen();
    auto it = table_clocks_.find(t.id());
    g.clock = clock_spec(it == table_clocks_.end() ? ClockConfig{} : it->second);
    g.red = t.seat(RED).name;
    g.black = t.seat(BLACK).name;
    g.started_at_ms = unix_ms_now();
    if (t.rules().rated) {
        g.red_rating = t.seat(RED).rating;
        g.black_rating = t.seat(BLACK).rating;
    }
    for (Color c : {RED, BLACK}) {
        const Seat& s = t.seat(c);
        if (!s.empty()) g.seats.push_back(SeatRecord{c, seat_kind(s), s.name, s.resume_token, s.ai_level});
        if (s.human() && !s.resume_token.empty())
            write(t.id(), "saving a resume token",
                  [token = s.resume_token, name = s.name, at = g.started_at_ms](Storage& st) {
                      return st.save_token(token, name, at);
                  });
    }
    auto ref = std::make_shared<GameRef>();
    games_[t.id()] = ref;
    write(t.id(), "storing a new game", [ref, g = std::move(g)](Storage& s) {
        const auto id = s.create_game(g);
        if (id) ref->id = *id;
        return id.has_value();
    });
}

void GameRecorder::move_accepted(const Table& t, const proto::MoveMade& mm) {
    if (!storage_) return;
    GameRefPtr g = game_of(t.id());
    if (!g) return;
    MoveRecord m;
    m.ply = mm.ply - 1;
    m.move = mm.move;
    m.at_ms = unix_ms_now();
    m.clock = clock_state(t);
    // Queued here; the move_made the table sends next leaves once this is committed.
    write(t.id(), "committing a move", [g = std::move(g), m = std::move(m), counter = committed_moves_](Storage& s) {
        const std::int64_t id = g->id.load();
        if (id == 0) return true;  // its game was not stored (logged then)
        if (!s.append_move(id, m)) return false;
        ++*counter;
        return true;
    });
}

void GameRecorder::takeback(const Table& t, int) {
    if (!storage_) return;
    if (GameRefPtr g = game_of(t.id()))
        write(t.id(), "a takeback", [g, from = t.game().ply()](Storage& s) {
            const std::int64_t id = g->id.load();
            return id == 0 || s.truncate_moves(id, from);
        });
}

void GameRecorder::game_over(const Table& t, const proto::GameOver& go) {
    if (!storage_) return;
    GameRefPtr g = game_of(t.id());
    if (!g) return;
    write(t.id(), "archiving a result",
          [g, result = std::string(outcome_pgn(go.result.outcome)), reason = go.result.reason, text = go.result.text,
           at = unix_ms_now()](Storage& s) {
        const std::int64_t id = g->id.load();
        return id == 0 || s.finish_game(id, result, reason, text, at);
    });
    // A takeback after a board-decided end reopens the game: keep the id until a new game.
}

void GameRecorder::arbiter_action(const Table& t, const proto::ArbiterAction& a) {
    if (!storage_) return;
    GameRefPtr g = game_of(t.id());
    if (!g) return;
    GameEvent e{a.ply, unix_ms_now(), arbiter_event_text(a), a.paused, std::nullopt, ""};
    if (t.clock()) e.clock = clock_state(t);
    write(t.id(), "recording an arbiter's action", [g, e = std::move(e)](Storage& s) {
        const std::int64_t id = g->id.load();
        return id == 0 || s.add_event(id, e);
    });
}

void GameRecorder::hint_shown(const Table& t, Color side, int ply, const std::string& move) {
    if (!storage_) return;
    GameRefPtr g = game_of(t.id());
    if (!g) return;
    GameEvent e{ply, unix_ms_now(), t.seat(side).name + " (" + (side == RED ? "Red" : "Black") + ") was shown " + move,
                false, std::nullopt, "hint"};
    if (t.clock()) e.clock = clock_state(t);
    std::size_t cps = proto::count_code_points(e.text);
    while (e.text.size() > MAX_STORED_TEXT && cps > 0) e.text = proto::cut_code_points(e.text, --cps);
    write(t.id(), "recording a hint", [g, e = std::move(e)](Storage& s) {
        const std::int64_t id = g->id.load();
        return id == 0 || s.add_event(id, e);
    });
}

void GameRecorder::seats_changed(const Table& t) {
    if (!storage_) return;
    GameRefPtr g = game_of(t.id());
    if (!g || t.status() != proto::TableStatus::Playing) return;
    for (Color c : {RED, BLACK}) {
        const Seat& s = t.seat(c);
        if (s.empty()) continue;
        const SeatRecord seat{c, seat_kind(s), s.name, s.resume_token, s.ai_level};
        write(t.id(), "saving a seat", [g, seat](Storage& st) {
            const std::int64_t id = g->id.load();
            return id == 0 || st.set_seat(id, seat);
        });
    }
}

void GameRecorder::table_closed(const Table& t) {
    games_.erase(t.id());
    table_clocks_.erase(t.id());
    write(t.id(), "closing a table", [id = std::int64_t(t.id())](Storage& s) { return s.close_table(id); });
}

int GameRecorder::restore() {
    if (!storage_) return 0;
    std::map<std::int64_t, TableRecord> tables;
    for (auto& t : storage_->open_tables()) tables[t.id] = t;
    auto games = storage_->unfinished_games();
    // One game per table: the newest; older leftovers (a crash between a result and the
    // next game) are closed without a result.
    std::map<std::int64_t, std::size_t> newest;
    for (std::size_t i = 0; i < games.size(); ++i) newest[games[i].table_id] = i;
    int restored = 0;
    const std::int64_t now_ms = unix_ms_now();
    for (std::size_t i = 0; i < games.size(); ++i) {
        const GameRecord& g = games[i];
        bool has_human = false;
        for (const auto& s : g.seats) has_human |= s.kind == SeatKind::Human && !s.token.empty();
        if (newest[g.table_id] != i || !has_human || g.table_id <= 0) {
            storage_->finish_game(g.id, "*", "", "the server stopped before the game ended", now_ms);
            continue;
        }
        Position start;
        std::vector<Move> moves;
        bool ok = start.set_fen(g.start_fen) == FenError::None;
        if (ok) {
            Game check(start);
            for (const auto& m : g.moves) {
                Move mv(square_from_string(std::string_view(m.move).substr(0, 2)),
                        square_from_string(std::string_view(m.move).substr(2, 2)));
                if (m.move.size() != 4 || !check.play(mv)) {
                    ok = false;
                    break;
                }
                moves.push_back(mv);
            }
            ok = ok && !check.over();
        }
        if (!ok) {
            spdlog::warn("game {} cannot be restored (damaged or already decided); closed", g.id);
            storage_->finish_game(g.id, "*", "", "could not be restored", now_ms);
            continue;
        }
        RestoredSeat seats[COLOR_NB];
        for (const auto& s : g.seats) {
            RestoredSeat& r = seats[s.color];
            r.kind = s.kind == SeatKind::Human ? RestoredSeat::Kind::Human : RestoredSeat::Kind::Ai;
            r.name = s.name;
            r.token = s.token;
            r.ai_level = s.ai_level;
            if (s.kind == SeatKind::Engine) r.engine = s.name;  // an engine seat is named after its engine
        }
        auto trow = tables.find(g.table_id);
        std::string name = trow != tables.end() ? trow->second.name : "Table " + std::to_string(g.table_id);
        // The creator as stored with the table (schema 7); a table from an older file: Red.
        std::string creator = trow != tables.end() && !trow->second.creator.empty() ? trow->second.creator : g.red;
        // The table's settings as stored with it (a row from before settings existed reads
        // as the defaults); the game's own clock is the one it was started with.
        TableRules rules;
        rules.grace = seat_grace_;
        if (trow != tables.end()) {
            const TableRecord& tr = trow->second;
            rules.grace = std::chrono::milliseconds(std::clamp<std::int64_t>(tr.grace_ms, 0, proto::MAX_GRACE_S * 1000LL));
            rules.abandon = tr.ai_holds_seat ? proto::AbandonPolicy::Ai : proto::AbandonPolicy::Claim;
            rules.hold_level = std::clamp(tr.hold_level, proto::AI_LEVEL_MIN, proto::AI_LEVEL_MAX);
            rules.takebacks = tr.takebacks;
            rules.rated = tr.rated;
            rules.hints = tr.hints;
        }
        ClockConfig cc = parse_clock_spec(g.clock).value_or(ClockConfig{});
        rules.clock = clock_spec(cc);
        Table* t = lobby_.restore_table(proto::TableId(g.table_id), name, creator, start, moves, seats, rules);
        if (!t) {
            storage_->finish_game(g.id, "*", "", "could not be restored", now_ms);
            continue;
        }
        games_[t->id()] = std::make_shared<GameRef>(g.id);
        attach_clock(*t, cc);
        // An arbiter's action since the last move (a pause, added time) has the newer clocks;
        // the last action says whether the game stands paused (nothing moves while it does).
        const GameEvent* since_move = nullptr;
        if (!g.events.empty() && g.events.back().ply == static_cast<int>(moves.size())) since_move = &g.events.back();
        if (auto* clock = dynamic_cast<TableGameClock*>(t->clock())) {
            ClockState state;
            if (since_move && since_move->clock) state = *since_move->clock;
            else if (!g.moves.empty()) state = g.moves.back().clock;
            else state = GameClock(cc).state(Clock::now());
            clock->resume(state, t->game().side_to_move());
        }
        if (since_move && since_move->paused) t->restore_pause();
        ++restored;
        spdlog::info("restored game {} at table {} ({} plies); seats held for their players", g.id, g.table_id,
                     moves.size());
    }
    return restored;
}

namespace {
proto::GameSummary summary_of(std::int64_t id, const std::string& red, const std::string& black,
                              const std::string& result, const std::string& reason, int plies,
                              std::int64_t started, std::int64_t ended, std::optional<int> red_rating,
                              std::optional<int> black_rating) {
    proto::GameSummary s;
    s.id = id;
    s.red = red;
    s.black = black;
    for (Outcome o : {Outcome::RedWins, Outcome::BlackWins, Outcome::Draw})
        if (outcome_pgn(o) == result) s.result = o;
    s.reason = reason;
    s.plies = plies;
    s.started = started;
    s.ended = ended;
    s.red_rating = red_rating;
    s.black_rating = black_rating;
    return s;
}
}  // namespace

proto::Games GameRecorder::list_games(const proto::ListGames& q) {
    proto::Games out;
    if (!storage_) return out;
    GameFilter f;
    f.player = q.player;
    f.before_id = q.before;
    const int cap = int(proto::GAMES_PER_LINE);
    f.limit = q.limit <= 0 || q.limit > cap ? cap : q.limit;
    f.limit += 1;  // one more than asked tells whether older games exist
    sync();
    auto rows = storage_->list_games(f);
    if (int(rows.size()) == f.limit) {
        out.more = true;
        rows.pop_back();
    }
    for (const auto& g : rows)
        out.games.push_back(summary_of(g.id, g.red, g.black, g.result, g.reason, g.plies, g.started_at_ms,
                                       g.ended_at_ms, g.red_rating, g.black_rating));
    return out;
}

std::optional<proto::GameRecord> GameRecorder::get_game(std::int64_t id) {
    if (!storage_) return std::nullopt;
    sync();
    auto g = storage_->get_game(id);
    if (!g) return std::nullopt;
    proto::GameRecord r;
    r.game = summary_of(g->id, g->red, g->black, g->result, g->reason, int(g->moves.size()), g->started_at_ms,
                        g->ended_at_ms, g->red_rating, g->black_rating);
    r.start_fen = g->start_fen;
    r.text = g->result_text;
    for (const auto& m : g->moves) {
        if (r.moves.size() >= proto::SNAPSHOT_MOVES_PER_LINE) break;
        r.moves.push_back(m.move);
    }
    Position start;
    const Color first = start.set_fen(g->start_fen) == FenError::None ? start.side_to_move() : RED;
    for (const auto& e : g->events)
        if (e.kind == "hint") ++((e.ply % 2 == 0) == (first == RED) ? r.red_hints : r.black_hints);
    std::size_t bytes = 0;
    for (const auto& e : g->events) {
        bytes += e.text.size();
        if (r.events.size() >= proto::GAME_EVENTS_PER_LINE || bytes > proto::GAME_EVENTS_BYTES) {
            r.more_events = true;
            break;
        }
        r.events.push_back(proto::GameEventInfo{e.ply, e.at_ms, e.text, e.kind});
    }
    return r;
}

std::optional<proto::Analysis> GameRecorder::analysis(std::int64_t id) {
    if (!storage_) return std::nullopt;
    sync();
    auto a = storage_->analysis(id);
    if (!a) return std::nullopt;
    return proto::Analysis{a->game_id, a->nodes, a->evals, a->best, a->losses};
}

void GameRecorder::save_analysis(const proto::Analysis& a) {
    pgn_texts_.clear();  // a tournament game's moves may carry it as comments
    const StoredAnalysis stored{a.id, a.nodes, a.evals, a.best, a.losses};
    write(EVERY_LINE, "storing an analysis", [stored](Storage& s) { return s.save_analysis(stored); });
}

std::shared_ptr<const TournamentPgnText> GameRecorder::tournament_pgn(std::uint32_t id, proto::PgnNotation notation,
                                                                      std::string* error) {
    if (!storage_) return GameArchive::tournament_pgn(id, notation, error);
    if (auto it = pgn_texts_.find({id, notation}); it != pgn_texts_.end()) return it->second;
    sync();
    const Notation n = notation == proto::PgnNotation::Wxf       ? Notation::Wxf
                       : notation == proto::PgnNotation::Chinese ? Notation::Chinese
                                                                 : Notation::Iccs;
    auto text = tournament_games_pgn(*storage_, id, n, "LAN", error);
    if (!text) return nullptr;
    // FNV-1a, 64 bits: tells two texts apart, no secret to keep.
    std::uint64_t h = 14695981039346656037ull;
    for (unsigned char c : *text) h = (h ^ c) * 1099511628211ull;
    static constexpr char HEX[] = "0123456789abcdef";
    std::string digest(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) digest[std::size_t(i)] = HEX[h & 15];
    auto made = std::make_shared<const TournamentPgnText>(TournamentPgnText{std::move(*text), std::move(digest)});
    if (pgn_texts_.size() >= 8) pgn_texts_.clear();
    pgn_texts_[{id, notation}] = made;
    return made;
}

void GameRecorder::save_tournament(std::uint32_t id, const SavedTournament& t) {
    std::erase_if(pgn_texts_, [id](const auto& e) { return e.first.first == id; });
    if (!storage_) return;
    StoredTournament st{id, t.state, {}};
    for (proto::TableId table : t.tables) st.game_tables.push_back(std::int64_t(table));
    write(EVERY_LINE, "saving a tournament", [st = std::move(st)](Storage& s) { return s.save_tournament(st); });
}

void GameRecorder::forget_tournament(std::uint32_t id) {
    std::erase_if(pgn_texts_, [id](const auto& e) { return e.first.first == id; });
    write(EVERY_LINE, "forgetting a tournament", [id](Storage& s) { return s.forget_tournament(id); });
}

std::vector<SavedTournament> GameRecorder::saved_tournaments() {
    std::vector<SavedTournament> out;
    if (!storage_) return out;
    sync();
    for (auto& t : storage_->tournaments()) {
        SavedTournament s{std::move(t.state), {}};
        for (std::int64_t table : t.game_tables)
            s.tables.push_back(table > 0 && table <= std::int64_t(std::numeric_limits<proto::TableId>::max()) ? proto::TableId(table) : 0);
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace xq::server
