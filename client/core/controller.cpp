#include "core/controller.h"

namespace xq::client {

void Controller::reset() {
    selected_ = SQ_NONE;
    targets_.clear();
    pressed_ = dragging_ = awaiting_ = false;
}

void Controller::select(const BoardModel& model, Square s) {
    selected_ = s;
    targets_ = model.targets_from(s);
}

Intent Controller::refuse(IllegalReason r) {
    selected_ = SQ_NONE;
    targets_.clear();
    Intent i;
    i.kind = Intent::Kind::Refused;
    i.reason = r;
    return i;
}

Intent Controller::try_move(const BoardModel& model, Square to) {
    const Move m(selected_, to);
    if (targets_.contains(m)) {
        selected_ = SQ_NONE;
        targets_.clear();
        awaiting_ = true;
        Intent i;
        i.kind = Intent::Kind::Move;
        i.move = m;
        return i;
    }
    const IllegalReason why = explain_illegal(model.position(), m);
    if (why == IllegalReason::LeavesKingInCheck && model.checked_king() != SQ_NONE) return refuse(IllegalReason::InCheck);
    return refuse(why);
}

Intent Controller::press(const BoardModel& model, const BoardGeometry& geo, float x, float y) {
    const Square sq = geo.square_at(x, y);
    pressed_ = true;
    dragging_ = false;
    press_ = drag_ = {x, y};
    if (awaiting_) return refuse(IllegalReason::WaitingForServer);
    const Position& pos = model.position();
    const Piece pc = sq == SQ_NONE ? NO_PIECE : pos.piece_on(sq);
    const bool own = pc != NO_PIECE && model.seat() && color_of(pc) == *model.seat();

    if (selected_ != SQ_NONE && sq != SQ_NONE && sq != selected_ && !own) return try_move(model, sq);
    if (sq == SQ_NONE) {
        selected_ = SQ_NONE;
        targets_.clear();
        return {};
    }
    if (pc == NO_PIECE) return {};
    if (!model.seat()) return refuse(IllegalReason::Spectator);
    if (!own) return refuse(IllegalReason::NotYourPiece);
    if (!model.in_progress() || model.game().over()) return refuse(IllegalReason::GameNotInProgress);
    if (!model.my_turn()) return refuse(IllegalReason::NotYourTurn);
    // In check, a piece without a move is one that cannot answer the check: say so.
    if (!model.is_movable(sq))
        return refuse(model.checked_king() != SQ_NONE ? IllegalReason::InCheck : IllegalReason::NoLegalMove);
    // A click on the selected piece puts it down (on release, so it can still be dragged).
    pressed_selected_ = sq == selected_;
    if (!pressed_selected_) select(model, sq);
    return {};
}

void Controller::motion(float x, float y) {
    if (!pressed_ || selected_ == SQ_NONE) return;
    const float dx = x - press_.x, dy = y - press_.y;
    if (!dragging_ && dx * dx + dy * dy >= DRAG_THRESHOLD_PX * DRAG_THRESHOLD_PX) dragging_ = true;
    drag_ = {x, y};
}

Intent Controller::release(const BoardModel& model, const BoardGeometry& geo, float x, float y) {
    pressed_ = false;
    const bool put_down = pressed_selected_;
    pressed_selected_ = false;
    if (!dragging_) {
        if (put_down) {
            selected_ = SQ_NONE;
            targets_.clear();
        }
        return {};
    }
    dragging_ = false;
    const Square sq = geo.square_at(x, y);
    // Dropped back on its own point or off the board: the piece simply returns.
    if (sq == SQ_NONE || sq == selected_ || selected_ == SQ_NONE) return {};
    return try_move(model, sq);
}

}  // namespace xq::client
