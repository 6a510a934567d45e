// Turns pointer input on the board into intents (send this move, or say why not). It keeps
// only interaction state (selection, drag); it never edits the board model.
#pragma once

#include "core/board_geometry.h"
#include "core/board_model.h"

namespace xq::client {

struct Intent {
    enum class Kind { None, Move, Refused };
    Kind kind = Kind::None;
    Move move;
    IllegalReason reason = IllegalReason::None;
};

class Controller {
public:
    // A press becomes a drag once the pointer travels this far (pixels).
    static constexpr float DRAG_THRESHOLD_PX = 6.f;

    Intent press(const BoardModel& model, const BoardGeometry& geo, float x, float y);
    void motion(float x, float y);
    Intent release(const BoardModel& model, const BoardGeometry& geo, float x, float y);
    // The board changed (a move arrived, a snapshot, a takeback): drop stale interaction.
    void reset();
    // A move was sent; further input waits for the server's answer.
    bool awaiting_server() const { return awaiting_; }

    Square selected() const { return selected_; }
    const MoveList& targets() const { return targets_; }
    bool dragging() const { return dragging_; }
    PointF drag_point() const { return drag_; }

private:
    Intent refuse(IllegalReason r);
    Intent try_move(const BoardModel& model, Square to);
    void select(const BoardModel& model, Square s);

    Square selected_ = SQ_NONE;
    MoveList targets_;
    bool pressed_ = false;
    bool dragging_ = false;
    bool pressed_selected_ = false;  // the press was on the piece already selected
    bool awaiting_ = false;
    PointF press_{};
    PointF drag_{};
};

}  // namespace xq::client
