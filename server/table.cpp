#include "server/table.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <random>

#include "server/ai_pool.h"
#include "server/engine_pool.h"
#include "xiangqi/notation.h"

namespace xq::server {

namespace {
std::string ai_name(int level) { return "AI level " + std::to_string(level); }

Outcome win_for(Color c) { return c == RED ? Outcome::RedWins : Outcome::BlackWins; }

bool board_decided(EndReason r) {
    switch (r) {
    case EndReason::Checkmate:
    case EndReason::Stalemate:
    case EndReason::PerpetualCheck:
    case EndReason::PerpetualChase:
    case EndReason::Repetition:
    case EndReason::MoveLimit:
    case EndReason::InsufficientMaterial: return true;
    default: return false;
    }
}

Rejection reject(proto::ErrorCode c, std::string msg) { return Rejection{c, std::move(msg)}; }

std::string side_name(Color c) { return std::string(color_name(c)); }

// A search's progress, reported from its worker thread: at most one ai_progress line per
// AI_PROGRESS_INTERVAL. It also keeps the last score seen (engine seats answer draw offers
// with it). Shared by the built-in AI and external engine seats.
struct ProgressThrottle {
    std::mutex m;
    Clock::time_point last{};
    int score = 0;

    bool due(int new_score) {
        std::lock_guard lock(m);
        score = new_score;
        const auto now = Clock::now();
        if (now - last < AI_PROGRESS_INTERVAL) return false;
        last = now;
        return true;
    }
    int last_score() {
        std::lock_guard lock(m);
        return score;
    }
};

proto::AiProgress progress_line(proto::TableId id, Color side, int level, int depth, int score, int percent,
                                std::uint64_t nodes) {
    proto::AiProgress msg;
    msg.table = id;
    msg.seat = side;
    msg.level = level;
    msg.depth = std::clamp(depth, 0, 1000);
    msg.score = std::clamp(score, -1000000, 1000000);
    msg.percent = std::clamp(percent, 0, 100);
    msg.nodes = nodes;
    return msg;
}

}  // namespace

Buffer make_buffer(const proto::ServerMessage& m) {
    return std::make_shared<const std::string>(proto::encode_line(m));
}

proto::TableSettings TableRules::settings() const {
    proto::TableSettings s;
    s.clock = clock;
    s.grace = static_cast<int>(grace.count() / 1000);
    s.abandon = abandon;
    s.hold_level = hold_level;
    s.takebacks = takebacks;
    return s;
}

Table::Table(TableContext ctx, proto::TableId id, std::string name, std::string creator, const Position& start,
             TableRules rules)
    : ctx_(ctx), id_(id), name_(std::move(name)), creator_(std::move(creator)), rules_(std::move(rules)),
      start_(start), game_(start), ai_timer_(ctx.io) {}

Table::~Table() { close(); }

void Table::close() {
    cancel_ai();
    for (Seat& s : seats_)
        if (s.grace) s.grace->cancel();
}

proto::TableStatus Table::status() const {
    if (game_.over()) return proto::TableStatus::Over;
    return started_ ? proto::TableStatus::Playing : proto::TableStatus::Waiting;
}

proto::TableInfo Table::info() const {
    proto::TableInfo t;
    t.id = id_;
    t.name = name_;
    t.creator = creator_;
    for (Color c : {RED, BLACK}) {
        const Seat& s = seats_[c];
        if (s.empty()) continue;
        auto& out = c == RED ? t.red : t.black;
        out = proto::SeatInfo{s.name, s.ai_level, s.connected};
        out->engine = s.engine;
        if (s.waiting_for_return()) {
            if (s.abandoned) {
                out->abandoned = true;
                out->hold_level = s.hold_level;
            } else if (s.grace) {
                // The countdown as it stands now, so late arrivals see it too.
                const auto left = std::chrono::duration_cast<Millis>(s.grace_until - Clock::now());
                out->grace_ms = std::max<std::int64_t>(0, left.count());
            }
        }
    }
    t.spectators = static_cast<int>(spectators_.size());
    t.status = status();
    t.ply = game_.ply();
    t.settings = rules_.settings();
    return t;
}

std::optional<Color> Table::seat_of(SessionId s) const {
    for (Color c : {RED, BLACK})
        if (seats_[c].human() && seats_[c].session == s) return c;
    return std::nullopt;
}

std::optional<proto::Role> Table::role_of(SessionId s) const {
    if (auto c = seat_of(s)) return proto::role_of(*c);
    for (const auto& sp : spectators_)
        if (sp.session == s) return proto::Role::Spectator;
    return std::nullopt;
}

bool Table::wanted() const {
    if (!spectators_.empty()) return true;
    for (const Seat& s : seats_)
        if (s.human()) return true;  // connected, or disconnected within its grace
    return false;
}

proto::Role Table::open_role() const {
    if (seats_[RED].empty()) return proto::Role::Red;
    if (seats_[BLACK].empty()) return proto::Role::Black;
    return proto::Role::Spectator;
}

void Table::send_to(SessionId s, const proto::ServerMessage& m) const { ctx_.host.send(s, make_buffer(m)); }

void Table::broadcast(const Buffer& b) const {
    for (const Seat& s : seats_)
        if (s.human() && s.connected) ctx_.host.send(s.session, b);
    for (const auto& sp : spectators_) ctx_.host.send(sp.session, b);
}

// ---- Membership ------------------------------------------------------------------------

Verdict Table::can_join(proto::Role as) const {
    if (as == proto::Role::Spectator) {
        if (spectators_.size() >= ctx_.config.max_spectators)
            return reject(proto::ErrorCode::TableFull, "this table has its maximum of " +
                                                           std::to_string(ctx_.config.max_spectators) + " spectators");
        return std::nullopt;
    }
    const Color c = as == proto::Role::Red ? RED : BLACK;
    if (!seats_[c].empty())
        return reject(proto::ErrorCode::SeatTaken, "the " + std::string(proto::color_wire_name(c)) +
                                                       " seat is taken by " + seats_[c].name);
    return std::nullopt;
}

void Table::join(SessionId s, const std::string& name, const std::string& token, proto::Role as) {
    if (as == proto::Role::Spectator) {
        spectators_.push_back(Spectator{s, name});
    } else {
        Seat& seat = seats_[as == proto::Role::Red ? RED : BLACK];
        seat = Seat{};
        seat.kind = Seat::Kind::Human;
        seat.session = s;
        seat.name = name;
        seat.resume_token = token;
    }
    // The joiner gets its snapshot first, then hears of itself like everyone else.
    send_snapshot(s);
    broadcast(proto::PlayerJoined{id_, name, as, 0});
    if (as != proto::Role::Spectator && !maybe_start_game()) seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::leave(SessionId s) {
    const auto role = role_of(s);
    if (!role) return;
    if (*role == proto::Role::Spectator) {
        const auto it = std::find_if(spectators_.begin(), spectators_.end(),
                                     [&](const Spectator& sp) { return sp.session == s; });
        const std::string name = it->name;
        spectators_.erase(it);
        broadcast(proto::PlayerLeft{id_, name, *role, proto::LeaveReason::Left});
        ctx_.host.table_changed(*this);
        return;
    }
    const Color c = *seat_of(s);
    const std::string name = seats_[c].name;
    if (status() == proto::TableStatus::Playing)
        finish(win_for(~c), EndReason::Resignation, side_name(c) + " left the table and resigns");
    // The leaver still gets its player_left (it is sent before the seat is emptied).
    broadcast(proto::PlayerLeft{id_, name, *role, proto::LeaveReason::Left});
    free_seat(c);
    seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::disconnect(SessionId s, proto::LeaveReason reason) {
    const auto role = role_of(s);
    if (!role) return;
    if (*role == proto::Role::Spectator) {
        const auto it = std::find_if(spectators_.begin(), spectators_.end(),
                                     [&](const Spectator& sp) { return sp.session == s; });
        const std::string name = it->name;
        spectators_.erase(it);
        broadcast(proto::PlayerLeft{id_, name, *role, reason});
        ctx_.host.table_changed(*this);
        return;
    }
    const Color c = *seat_of(s);
    Seat& seat = seats_[c];
    seat.connected = false;
    const bool keep = status() == proto::TableStatus::Playing;
    proto::PlayerLeft left{id_, seat.name, *role, reason};
    if (keep) left.grace_ms = rules_.grace.count();
    broadcast(left);
    if (keep) start_grace(c, rules_.grace);
    else free_seat(c);  // nothing runs that the player could return to
    seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::start_grace(Color c, Millis grace) {
    Seat& seat = seats_[c];
    seat.abandoned = false;
    seat.hold_level = 0;
    if (seat.grace) seat.grace->cancel();
    seat.grace_until = Clock::now() + grace;
    seat.grace = std::make_unique<boost::asio::steady_timer>(ctx_.io, grace);
    std::weak_ptr<Table> weak = weak_from_this();
    const std::string token = seat.resume_token;
    seat.grace->async_wait([weak, c, token](const boost::system::error_code& ec) {
        if (ec) return;
        auto self = weak.lock();
        if (!self) return;
        const Seat& st = self->seats_[c];
        // The player came back, or the seat changed hands, in the meantime.
        if (!st.waiting_for_return() || st.abandoned || st.resume_token != token) return;
        if (self->status() != proto::TableStatus::Playing) {
            self->free_seat(c);
            self->seats_changed();
            self->ctx_.host.table_changed(*self);
            return;
        }
        self->abandon_seat(c);
    });
}

void Table::abandon_seat(Color c) {
    Seat& seat = seats_[c];
    seat.abandoned = true;
    const Seat& opp = seats_[~c];
    // "ai" needs the server's AI; without it the seat is claimable instead.
    const bool ai_holds = rules_.abandon == proto::AbandonPolicy::Ai && ctx_.ai;
    seat.hold_level = ai_holds ? rules_.hold_level : 0;
    broadcast(proto::SeatAbandoned{id_, c, seat.name, !ai_holds, seat.hold_level});
    if (opp.ai()) {
        // Nobody is left to play against the AI: it takes the win at once.
        finish(win_for(~c), EndReason::Abandonment,
               side_name(c) + " left and did not return: " + side_name(~c) + " wins");
    } else if (opp.waiting_for_return() && opp.abandoned) {
        // Both players are gone past their grace: nobody can claim, nobody would play on.
        finish(Outcome::Draw, EndReason::Abandonment, "Both players left and did not return: draw");
    } else {
        seats_changed();
        maybe_start_ai();
    }
    ctx_.host.table_changed(*this);
}

std::optional<proto::Role> Table::reattach(const std::string& token, SessionId s) {
    if (token.empty()) return std::nullopt;
    for (Color c : {RED, BLACK}) {
        Seat& seat = seats_[c];
        if (!seat.human() || seat.connected || seat.resume_token != token) continue;
        // The AI holding the seat stops; a search under way is dropped with its result.
        if (seat.held_by_ai() && ai_busy_ && game_.side_to_move() == c) cancel_ai();
        seat.connected = true;
        seat.session = s;
        seat.abandoned = false;
        seat.hold_level = 0;
        if (seat.grace) seat.grace->cancel();
        seat.grace.reset();
        broadcast(proto::PlayerReturned{id_, seat.name, proto::role_of(c)});
        seats_changed();
        send_snapshot(s);
        ctx_.host.table_changed(*this);
        return proto::role_of(c);
    }
    return std::nullopt;
}

void Table::free_seat(Color c) {
    Seat& seat = seats_[c];
    if (seat.grace) seat.grace->cancel();
    seat = Seat{};
    if (new_game_offer_ == c) new_game_offer_.reset();
    if (ai_busy_ && game_.side_to_move() == c) cancel_ai();
}

void Table::seats_changed() {
    broadcast(proto::TableUpdate{info()});
    notify([&](TableObserver& o) { o.seats_changed(*this); });
}

void Table::send_snapshot(SessionId s) {
    proto::TableSnapshot snap;
    snap.table = info();
    snap.you = role_of(s).value_or(proto::Role::Spectator);
    snap.start_fen = start_.fen();
    snap.fen = game_.position().fen();
    snap.ply = game_.ply();
    const auto& moves = game_.moves();
    const std::size_t first_chunk = std::min(moves.size(), proto::SNAPSHOT_MOVES_PER_LINE);
    snap.moves.reserve(first_chunk);
    for (std::size_t i = 0; i < first_chunk; ++i) snap.moves.push_back(move_to_iccs(moves[i]));
    if (game_.over()) {
        const GameResult& r = game_.result();
        snap.result = proto::ResultInfo{r.outcome, std::string(end_reason_name(r.reason)), r.text};
    }
    // Recent chat, newest first until a budget is spent, then put back in order.
    std::size_t bytes = 0;
    for (auto it = chat_.rbegin(); it != chat_.rend() && snap.chat.size() < proto::SNAPSHOT_CHAT_LINES; ++it) {
        bytes += it->from.size() + it->text.size();
        if (bytes > proto::SNAPSHOT_CHAT_BYTES) break;
        snap.chat.push_back(*it);
    }
    std::reverse(snap.chat.begin(), snap.chat.end());
    if (clock_) snap.clocks = clock_->state();
    snap.draw_offer = draw_offer_;
    snap.takeback_offer = takeback_offer_;
    snap.new_game_offer = new_game_offer_;
    send_to(s, snap);
    for (std::size_t from = first_chunk; from < moves.size(); from += proto::SNAPSHOT_MOVES_PER_LINE) {
        proto::SnapshotMoves more;
        more.table = id_;
        more.from = static_cast<int>(from);
        const std::size_t end = std::min(moves.size(), from + proto::SNAPSHOT_MOVES_PER_LINE);
        for (std::size_t i = from; i < end; ++i) more.moves.push_back(move_to_iccs(moves[i]));
        send_to(s, more);
    }
}

// ---- Game flow -------------------------------------------------------------------------

bool Table::maybe_start_game() {
    if (started_ || game_.over() || seats_[RED].empty() || seats_[BLACK].empty()) return false;
    started_ = true;
    position_since_ = Clock::now();
    if (clock_) clock_->game_started(game_.side_to_move());
    notify([&](TableObserver& o) { o.game_started(*this); });
    seats_changed();
    maybe_start_ai();
    return true;
}

void Table::position_changed() {
    draw_offer_.reset();
    takeback_offer_.reset();
    position_since_ = Clock::now();
}

Verdict Table::referee(std::optional<Color> mover, int ply, std::string_view text) {
    using proto::ErrorCode;
    if (status() != proto::TableStatus::Playing)
        return reject(ErrorCode::GameNotInProgress,
                      game_.over() ? "the game is over" : "the game has not started (a seat is empty)");
    if (!mover) return reject(ErrorCode::NotSeated, "only the seated players move");
    if (game_.side_to_move() != *mover)
        return reject(ErrorCode::NotYourTurn, "it is " + side_name(game_.side_to_move()) + "'s turn");
    if (ply != game_.ply())
        return reject(ErrorCode::WrongPly,
                      "the game is at ply " + std::to_string(game_.ply()) + ", not " + std::to_string(ply));
    if (!proto::is_iccs_syntax(text))
        return reject(ErrorCode::BadMoveText, "move must be ICCS coordinates such as h2e2");
    const Move m(square_from_string(text.substr(0, 2)), square_from_string(text.substr(2, 2)));
    if (!game_.legal_moves().contains(m))
        return reject(ErrorCode::IllegalMove, std::string(text) + " is not a legal move here");
    apply_move(*mover, m);
    return std::nullopt;
}

Verdict Table::move(SessionId s, int ply, std::string_view text) { return referee(seat_of(s), ply, text); }

void Table::apply_move(Color c, Move m) {
    const Position& before = game_.position();
    proto::MoveMade mm;
    mm.table = id_;
    mm.move = move_to_iccs(m);
    mm.wxf = to_wxf(before, m);
    mm.chinese = to_chinese(before, m);
    mm.capture = before.is_capture(m);
    mm.by = c;
    game_.play(m);
    mm.ply = game_.ply();
    mm.fen = game_.position().fen();
    mm.check = game_.position().in_check();
    position_changed();
    cancel_ai();
    if (clock_) mm.clocks = clock_->move_made(c);
    notify([&](TableObserver& o) { o.move_accepted(*this, mm); });
    broadcast(mm);
    if (game_.over()) game_ended();
    else maybe_start_ai();
}

void Table::finish(Outcome outcome, EndReason reason, std::string text) {
    if (game_.over()) return;
    game_.finish(outcome, reason, std::move(text));
    game_ended();
}

void Table::finish_external(Outcome outcome, EndReason reason, std::string text) {
    if (status() != proto::TableStatus::Playing) return;
    finish(outcome, reason, std::move(text));
    ctx_.host.table_changed(*this);
}

void Table::game_ended() {
    cancel_ai();
    draw_offer_.reset();
    takeback_offer_.reset();
    new_game_offer_.reset();
    if (clock_) clock_->game_over();
    const GameResult& r = game_.result();
    proto::GameOver go;
    go.table = id_;
    go.result = proto::ResultInfo{r.outcome, std::string(end_reason_name(r.reason)), r.text};
    go.ply = game_.ply();
    notify([&](TableObserver& o) { o.game_over(*this, go); });
    broadcast(go);
    // Players who lost their connection have nothing left to return to.
    for (Color c : {RED, BLACK})
        if (seats_[c].human() && !seats_[c].connected) free_seat(c);
    seats_changed();
}

Verdict Table::resign(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can resign");
    if (status() != proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameNotInProgress, "no game is running");
    finish(win_for(~*c), EndReason::Resignation, side_name(*c) + " resigns");
    ctx_.host.table_changed(*this);
    return std::nullopt;
}

Verdict Table::offer_draw(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can offer a draw");
    if (status() != proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameNotInProgress, "no game is running");
    if (draw_offer_ == *c) return reject(proto::ErrorCode::OfferPending, "your draw offer is still open");
    if (draw_offer_ == ~*c) return answer_draw(s, true);
    broadcast(proto::DrawOffered{id_, *c});
    const Seat& opp = seats_[~*c];
    if (opp.ai()) {
        const bool accept = opp.ai_last_score <= ctx_.config.ai_accept_draw_cp;
        broadcast(proto::DrawAnswered{id_, ~*c, accept});
        if (accept) {
            finish(Outcome::Draw, EndReason::Agreement, "Draw by agreement");
            ctx_.host.table_changed(*this);
        }
        return std::nullopt;
    }
    draw_offer_ = *c;
    return std::nullopt;
}

Verdict Table::answer_draw(SessionId s, bool accept) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can answer a draw offer");
    if (draw_offer_ != ~*c) return reject(proto::ErrorCode::NoOffer, "there is no draw offer to answer");
    draw_offer_.reset();
    broadcast(proto::DrawAnswered{id_, *c, accept});
    if (accept) {
        finish(Outcome::Draw, EndReason::Agreement, "Draw by agreement");
        ctx_.host.table_changed(*this);
    }
    return std::nullopt;
}

Verdict Table::request_takeback(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can ask for a takeback");
    if (!rules_.takebacks) return reject(proto::ErrorCode::NotAllowed, "takebacks are off at this table");
    const auto st = status();
    if (!(st == proto::TableStatus::Playing ||
          (st == proto::TableStatus::Over && started_ && board_decided(game_.result().reason))))
        return reject(proto::ErrorCode::GameNotInProgress, "no game to take a move back in");
    const bool moved = start_.side_to_move() == *c ? game_.ply() >= 1 : game_.ply() >= 2;
    if (!moved) return reject(proto::ErrorCode::NothingToTakeBack, "you have not moved yet");
    if (takeback_offer_)
        return reject(proto::ErrorCode::OfferPending,
                      takeback_offer_ == *c ? "your takeback request is still open"
                                            : "answer your opponent's takeback request first");
    broadcast(proto::TakebackRequested{id_, *c});
    if (seats_[~*c].ai()) {
        broadcast(proto::TakebackAnswered{id_, ~*c, true});
        do_takeback(*c);
        return std::nullopt;
    }
    takeback_offer_ = *c;
    return std::nullopt;
}

Verdict Table::answer_takeback(SessionId s, bool accept) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can answer a takeback request");
    if (takeback_offer_ != ~*c) return reject(proto::ErrorCode::NoOffer, "there is no takeback request to answer");
    takeback_offer_.reset();
    broadcast(proto::TakebackAnswered{id_, *c, accept});
    if (accept) do_takeback(~*c);
    return std::nullopt;
}

void Table::do_takeback(Color requester) {
    const bool was_over = game_.over();
    const int plies = game_.side_to_move() == requester ? 2 : 1;
    cancel_ai();
    for (int i = 0; i < plies; ++i) game_.undo();
    position_changed();
    if (clock_) clock_->position_reset(game_.side_to_move());
    notify([&](TableObserver& o) { o.takeback(*this, plies); });
    broadcast(proto::TakebackDone{id_, plies, game_.ply(), game_.position().fen()});
    if (was_over) {
        seats_changed();
        ctx_.host.table_changed(*this);
    }
    maybe_start_ai();
}

Verdict Table::new_game(SessionId s, const std::string& user_name) {
    if (status() == proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameInProgress, "finish or resign the current game first");
    const auto c = seat_of(s);
    if (!c) {
        const bool no_humans = !seats_[RED].human() && !seats_[BLACK].human();
        if (user_name == creator_ && no_humans) {
            start_new_game();
            return std::nullopt;
        }
        return reject(proto::ErrorCode::NotAllowed, "only the seated players (or the creator of an AI table) start a new game");
    }
    const Seat& opp = seats_[~*c];
    if (opp.empty() || opp.ai() || new_game_offer_ == ~*c) {
        start_new_game();
        return std::nullopt;
    }
    if (new_game_offer_ == *c) return reject(proto::ErrorCode::OfferPending, "your new game request is still open");
    new_game_offer_ = *c;
    broadcast(proto::NewGameOffered{id_, *c});
    return std::nullopt;
}

Verdict Table::claim_win(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NoClaim, "only a seated player can claim a win");
    if (status() != proto::TableStatus::Playing) return reject(proto::ErrorCode::NoClaim, "no game is running");
    const Seat& opp = seats_[~*c];
    if (!opp.waiting_for_return())
        return reject(proto::ErrorCode::NoClaim, side_name(~*c) + "'s seat is not abandoned");
    if (!opp.abandoned) {
        const auto left = std::chrono::duration_cast<std::chrono::seconds>(opp.grace_until - Clock::now());
        return reject(proto::ErrorCode::NoClaim, side_name(~*c) + " may still return (" +
                                                     std::to_string(std::max<std::int64_t>(0, left.count())) +
                                                     " s of grace left)");
    }
    if (opp.hold_level > 0)
        return reject(proto::ErrorCode::NoClaim,
                      "the AI holds " + side_name(~*c) + "'s seat until the player returns (this table's rule)");
    finish(win_for(*c), EndReason::Abandonment,
           side_name(~*c) + " left and did not return: " + side_name(*c) + " wins");
    ctx_.host.table_changed(*this);
    return std::nullopt;
}

void Table::start_new_game() {
    cancel_ai();
    std::swap(seats_[RED], seats_[BLACK]);
    game_.reset(start_);
    started_ = false;
    new_game_offer_.reset();
    position_changed();
    if (clock_) clock_->position_reset(game_.side_to_move());
    for (const Seat& s : seats_)
        if (s.human() && s.connected) send_snapshot(s.session);
    for (const auto& sp : spectators_) send_snapshot(sp.session);
    if (!maybe_start_game()) seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::chat(const std::string& from, const std::string& text) {
    proto::ChatLine line{proto::ChatScope::Table, id_, from, text};
    chat_.push_back(line);
    while (chat_.size() > CHAT_HISTORY_LINES) chat_.pop_front();
    broadcast(line);
}

// ---- AI seats --------------------------------------------------------------------------

Verdict Table::request_ai(SessionId s, const std::string& user_name, Color c, int level, const std::string& engine) {
    if (!engine.empty() && !(ctx_.engines && ctx_.engines->has(engine))) {
        std::string known;
        if (ctx_.engines)
            for (const auto& n : ctx_.engines->names()) known += (known.empty() ? "" : ", ") + n;
        return reject(proto::ErrorCode::NoSuchEngine,
                      "no engine named '" + engine + "' on this server" +
                          (known.empty() ? std::string(" (it has none)") : " (engines: " + known + ")"));
    }
    if (engine.empty() && !ctx_.ai) return reject(proto::ErrorCode::NotAllowed, "this server has no AI seats");
    if (!seat_of(s) && user_name != creator_)
        return reject(proto::ErrorCode::NotAllowed, "only a seated player or the table's creator can ask for an AI");
    Seat& seat = seats_[c];
    if (seat.human())
        return reject(proto::ErrorCode::SeatTaken, "the " + std::string(proto::color_wire_name(c)) +
                                                       " seat is taken by " + seat.name);
    const bool was_ai = seat.ai();
    if (was_ai && ai_busy_ && game_.side_to_move() == c) cancel_ai();
    seat = Seat{};
    seat.kind = Seat::Kind::Ai;
    seat.name = engine.empty() ? ai_name(level) : engine;
    seat.ai_level = level;
    seat.engine = engine;
    announce_ai(c);
    if (!maybe_start_game()) seats_changed();
    maybe_start_ai();
    ctx_.host.table_changed(*this);
    return std::nullopt;
}

void Table::announce_ai(Color c) {
    broadcast(proto::PlayerJoined{id_, seats_[c].name, proto::role_of(c), seats_[c].ai_level, seats_[c].engine});
}

void Table::cancel_ai() {
    if (ai_stop_) ai_stop_->store(true);
    ai_stop_.reset();
    ai_busy_ = false;
    ++ai_epoch_;
    ai_timer_.cancel();
}

void Table::maybe_start_ai() {
    if (ai_busy_ || status() != proto::TableStatus::Playing) return;
    const Color side = game_.side_to_move();
    const Seat& seat = seats_[side];
    if (!seat.ai() && !seat.held_by_ai()) return;
    const bool external = seat.ai() && !seat.engine.empty();
    if (external ? !ctx_.engines : !ctx_.ai) return;
    ai_busy_ = true;
    const std::uint64_t epoch = ++ai_epoch_;
    ai_stop_ = std::make_shared<std::atomic<bool>>(false);
    if (external) {
        start_engine(epoch, side);
        return;
    }
    // The built-in AI: an AI seat at its level, or an abandoned seat it holds (policy ai).
    const int level = seat.ai() ? seat.ai_level : seat.hold_level;

    AiJob job;
    job.start = start_;
    job.moves = game_.moves();
    job.limits.level = level;
    job.limits.movetime_ms = ctx_.config.ai_movetime_ms[static_cast<std::size_t>(level)];
    job.limits.seed = std::random_device{}();
    job.stop = ai_stop_;
    const int ply = game_.ply();
    std::weak_ptr<Table> weak = weak_from_this();
    boost::asio::io_context& io = ctx_.io;
    const proto::TableId id = id_;

    auto throttle = std::make_shared<ProgressThrottle>();
    job.on_progress = [weak, &io, epoch, side, level, id, throttle](const engine::Progress& p) {
        if (!throttle->due(p.score_cp)) return;
        const int percent = p.root_total > 0 ? p.root_done * 100 / p.root_total : 0;
        post_progress(weak, io, epoch, progress_line(id, side, level, p.depth, p.score_cp, percent, p.nodes));
    };
    job.on_done = [weak, &io, epoch, side, ply](const engine::Result& r) {
        boost::asio::post(io, [weak, epoch, side, ply, r] {
            auto self = weak.lock();
            if (!self) return;
            self->ai_done(epoch, side, ply, r);
        });
    };
    ctx_.ai->submit(std::move(job));
}

void Table::post_progress(const std::weak_ptr<Table>& weak, boost::asio::io_context& io, std::uint64_t epoch,
                          const proto::AiProgress& msg) {
    boost::asio::post(io, [weak, epoch, msg] {
        auto self = weak.lock();
        if (!self || self->ai_epoch_ != epoch) return;
        self->broadcast(msg);
    });
}

void Table::ai_done(std::uint64_t epoch, Color side, int ply, const engine::Result& r) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    seats_[side].ai_last_score = r.score_cp;
    const auto since = Clock::now() - position_since_;
    if (since < ctx_.config.ai_min_move) {
        ai_timer_.expires_after(ctx_.config.ai_min_move - since);
        std::weak_ptr<Table> weak = weak_from_this();
        const Move m = r.best;
        ai_timer_.async_wait([weak, epoch, side, ply, m](const boost::system::error_code& ec) {
            if (ec) return;
            if (auto self = weak.lock()) self->ai_play(epoch, side, ply, m);
        });
        return;
    }
    ai_play(epoch, side, ply, r.best);
}

void Table::ai_play(std::uint64_t epoch, Color side, int ply, Move m) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    ai_busy_ = false;
    ai_stop_.reset();
    // The engine's move is judged exactly like a human's: a bad one cannot corrupt the game.
    const std::string text = m ? move_to_iccs(m) : std::string("none");
    const Verdict v = referee(side, ply, text);
    if (v && !seats_[side].engine.empty()) {
        engine_failed(side, "answered a move the referee refused (" + v->message + ")");
    } else if (v) {
        spdlog::error("table {}: AI ({}) produced a refused move {}: {}", id_, side_name(side), move_to_iccs(m),
                      v->message);
        finish(win_for(~side), EndReason::Resignation, side_name(side) + " (AI) could not move and resigns");
        ctx_.host.table_changed(*this);
    }
}

// ---- External engine seats -------------------------------------------------------------

void Table::start_engine(std::uint64_t epoch, Color side) {
    const Seat& seat = seats_[side];
    EngineJob job;
    job.engine = seat.engine;
    job.start = start_;
    job.moves = game_.moves();
    job.level = std::clamp(seat.ai_level, 1, 10);
    job.movetime = EngineMs(ctx_.config.ai_movetime_ms[static_cast<std::size_t>(job.level)]);
    job.stop = ai_stop_;
    const int ply = game_.ply();
    const int level = job.level;
    const auto movetime = job.movetime;
    std::weak_ptr<Table> weak = weak_from_this();
    boost::asio::io_context& io = ctx_.io;
    const proto::TableId id = id_;

    auto state = std::make_shared<ProgressThrottle>();
    job.on_info = [weak, &io, epoch, side, level, id, movetime, state](const EngineInfo& info) {
        if (!state->due(info.score_cp)) return;
        // An engine does not say how far through its move list it is: time spent stands in.
        const int percent = movetime.count() > 0 ? static_cast<int>(std::clamp<long long>(
                                                        info.elapsed.count() * 100 / movetime.count(), 0, 100))
                                                  : 0;
        post_progress(weak, io, epoch, progress_line(id, side, level, info.depth, info.score_cp, percent, info.nodes));
    };
    job.on_done = [weak, &io, epoch, side, ply, state](const EngineReply& r) {
        const int score = state->last_score();
        boost::asio::post(io, [weak, epoch, side, ply, r, score] {
            if (auto self = weak.lock()) self->engine_done(epoch, side, ply, r, score);
        });
    };
    ctx_.engines->submit(std::move(job));
}

void Table::engine_done(std::uint64_t epoch, Color side, int ply, const EngineReply& r, int score) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    if (r.failure != EngineFailure::None) {
        ai_busy_ = false;
        ai_stop_.reset();
        std::string what;
        switch (r.failure) {
        case EngineFailure::Crashed: what = "crashed"; break;
        case EngineFailure::Hung: what = "did not answer within its time"; break;
        case EngineFailure::BadMove: what = "answered an illegal move"; break;
        case EngineFailure::NoMove: what = "claimed to have no move"; break;
        default: what = "failed"; break;
        }
        if (!r.detail.empty()) what += " (" + r.detail.substr(0, 160) + ")";
        engine_failed(side, what);
        return;
    }
    engine::Result res;
    res.best = r.move;
    res.score_cp = score;
    ai_done(epoch, side, ply, res);
}

void Table::engine_failed(Color side, const std::string& what) {
    const std::string engine = seats_[side].engine;
    spdlog::warn("table {}: engine '{}' ({}) {}", id_, engine, side_name(side), what);
    finish(win_for(~side), EndReason::EngineFailure,
           side_name(side) + "'s engine " + engine + " " + what + ": " + side_name(side) + " loses");
    ctx_.host.table_changed(*this);
}

}  // namespace xq::server
