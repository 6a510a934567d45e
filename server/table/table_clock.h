// The clock slot of a table: a game clock plugged into it (the table works without one).
// The game recorder attaches a TableGameClock to every table that has a time control.
#pragma once

#include "engine/time_budget.h"
#include "protocol/messages.h"
#include "xiangqi/types.h"

namespace xq::server {

// A game clock plugged into a table (the table works without one). A clock that runs out
// ends the game through Table::finish_external(..., EndReason::Timeout, ...).
class TableClock {
public:
    virtual ~TableClock() = default;
    virtual void game_started(Color to_move) = 0;
    virtual proto::Clocks move_made(Color mover) = 0;  // stop mover, start the other side
    virtual void position_reset(Color to_move) = 0;    // takeback or new game
    virtual void game_over() = 0;
    virtual proto::Clocks state() const = 0;
    // An arbiter's tools: no side's time runs while paused; unpause starts the side to move
    // again; add_time gives `side` more main time (whole milliseconds).
    virtual void pause() {}
    virtual void unpause() {}
    virtual void add_time(Color /*side*/, std::int64_t /*ms*/) {}
    // The side to move's time waits, its figures as they are, until release_turn(): the line
    // that tells the players of their turn (a move_made, the game's start) may be held until
    // the server's database has committed it, and nobody is charged for that wait.
    virtual void hold_turn() {}
    virtual void release_turn() {}
    // The side's clock as an AI seat budgets its move (engine::plan_move_time).
    virtual engine::ClockView ai_view(Color) const { return {}; }
};

}  // namespace xq::server
