// The referee of a table: starting a game, judging each move (in PROTOCOL.md's order),
// applying it (clock, observers, broadcast) and ending the game.
#include "server/table/table.h"

#include "server/table/table_helpers.h"
#include "xiangqi/notation.h"

namespace xq::server {

bool Table::maybe_start_game() {
    if (started_ || game_.over() || seats_[RED].empty() || seats_[BLACK].empty()) return false;
    started_ = true;
    position_since_ = Clock::now();
    if (clock_) clock_->game_started(game_.side_to_move());
    notify([&](TableObserver& o) { o.game_started(*this); });
    seats_changed();
    hold_turn_until_sent();  // the table_update that says the game started may wait for its commit
    maybe_start_ai();
    return true;
}

void Table::hold_turn_until_sent() {
    if (!clock_) return;
    clock_->hold_turn();
    const std::uint64_t serial = ++turn_hold_;
    ctx_.host.after_sent(id_, [weak = weak_from_this(), serial] {
        const auto t = weak.lock();
        if (t && t->clock_ && t->turn_hold_ == serial) t->clock_->release_turn();
    });
}

void Table::position_changed() {
    draw_offer_.reset();
    takeback_offer_.reset();
    position_since_ = Clock::now();
    drop_hints();
}

Verdict Table::referee(std::optional<Color> mover, int ply, std::string_view text) {
    using proto::ErrorCode;
    if (status() != proto::TableStatus::Playing)
        return reject(ErrorCode::GameNotInProgress,
                      game_.over() ? "the game is over" : "the game has not started (a seat is empty)");
    if (paused_) return reject(ErrorCode::GameNotInProgress, "the game is paused by the arbiter");
    if (!mover) return reject(ErrorCode::NotSeated, "only the seated players move");
    if (game_.side_to_move() != *mover)
        return reject(ErrorCode::NotYourTurn, "it is " + side_name(game_.side_to_move()) + "'s turn");
    if (ply != game_.ply())
        return reject(ErrorCode::WrongPly,
                      "the game is at ply " + std::to_string(game_.ply()) + ", not " + std::to_string(ply));
    if (!proto::is_iccs_syntax(text))
        return reject(ErrorCode::BadMoveText, "move must be ICCS coordinates such as h2e2");
    const Move m(square_from_string(text.substr(0, 2)), square_from_string(text.substr(2, 2)));
    // One move checked, not every legal move generated (the same answer: docs/scale.md).
    if (!game_.position().is_pseudo_legal(m) || !game_.position().is_legal(m))
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
    if (rules_.spectator_delay > 0) {
        send_players(make_buffer(mm));
        made_.push_back(std::move(mm));
        release_to_spectators();
    } else {
        broadcast(mm);
    }
    if (game_.over()) {
        game_ended();
        return;
    }
    // The figures in mm are what the clock keeps until the move's line has left.
    hold_turn_until_sent();
    maybe_start_ai();
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
    paused_ = false;
    draw_offer_.reset();
    takeback_offer_.reset();
    new_game_offer_.reset();
    if (clock_) clock_->game_over();
    const GameResult& r = game_.result();
    proto::GameOver go;
    go.table = id_;
    go.result = proto::ResultInfo{r.outcome, std::string(end_reason_name(r.reason)), r.text};
    go.ply = game_.ply();
    // The final times (the clock stopped above): every client shows the same figures.
    if (clock_) go.clocks = clock_->state();
    notify([&](TableObserver& o) { o.game_over(*this, go); });
    release_to_spectators();  // a delayed game: the spectators get the moves they lacked first
    broadcast(go);
    // Players who lost their connection have nothing left to return to.
    for (Color c : {RED, BLACK})
        if (seats_[c].human() && !seats_[c].connected) free_seat(c);
    seats_changed();
}

void Table::start_new_game(bool swap) {
    cancel_ai();
    if (swap) std::swap(seats_[RED], seats_[BLACK]);
    game_.reset(start_);
    made_.clear();
    shown_plies_ = 0;
    started_ = false;
    paused_ = false;
    new_game_offer_.reset();
    position_changed();
    if (clock_) clock_->position_reset(game_.side_to_move());
    for (const Seat& s : seats_)
        if (s.human() && s.connected) send_snapshot(s.session);
    for (const auto& sp : spectators_) send_snapshot(sp.session);
    if (!maybe_start_game()) seats_changed();
    ctx_.host.table_changed(*this);
}

}  // namespace xq::server
