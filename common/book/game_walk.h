// A game walked forward once for its analysis, position by position: analyse_game and the
// server's analysis jobs search each position from the walk instead of replaying the game.
#pragma once

#include <atomic>
#include <vector>

#include "book/game_analysis.h"
#include "xiangqi/position.h"

namespace xq::book {

// The position reached, and what the engine needs to judge repetitions there: the position
// after the last capture (no position before it can repeat, so the engine looks no further
// back) and the moves since. Searching from these gives the same results as searching from the
// whole game so far, without replaying the game's prefix for every position (which made a
// game's analysis quadratic in its length).
class GameWalk {
public:
    explicit GameWalk(const Position& start) : pos_(start), base_(start) {}
    // Plays `m` when it is legal here and returns true; false (nothing changes) when not.
    bool step(Move m);
    const Position& position() const { return pos_; }
    const Position& base() const { return base_; }
    const std::vector<Move>& since_base() const { return since_; }

private:
    Position pos_;
    Position base_;
    std::vector<Move> since_;
};

// analyse_position for the position a walk has reached (the search starts from its base).
PositionEval analyse_position(engine::Engine& engine, const GameWalk& at, Move played,
                              const AnalysisBudget& budget = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace xq::book
