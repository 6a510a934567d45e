#include "time_budget.h"

#include <algorithm>
#include <climits>

namespace xq::engine {

namespace {

// Sudden death: the share of the main time one move gets when nobody says how many moves are
// left. Xiangqi games run 40-80 moves a side; 1/40 of what is left shrinks geometrically, so
// the clock is never emptied however long the game.
constexpr int SUDDEN_DEATH_MOVES = 40;
// Asian main time is spread over fewer moves because the countdown follows it.
constexpr int ASIAN_MAIN_MOVES = 25;

}  // namespace

int move_deadline_ms(const ClockView& c) {
    switch (c.type) {
    case ClockType::None: return INT_MAX;
    case ClockType::Fischer: return std::max(0, c.main_ms);
    case ClockType::Asian: {
        if (c.in_countdown) return std::max(0, c.countdown_ms);
        // Main time may run out during this move; the countdown then continues it.
        long long d = std::max(0LL, static_cast<long long>(c.main_ms) + std::max(0, c.countdown_ms));
        if (c.move_limit_ms > 0) d = std::min<long long>(d, c.move_limit_ms);
        return static_cast<int>(std::min<long long>(d, INT_MAX));
    }
    }
    return INT_MAX;
}

TimeBudget plan_move_time(const ClockView& c, int overhead_ms) {
    if (c.type == ClockType::None) return {};
    const long long deadline = move_deadline_ms(c);
    // Safety: the fixed overhead plus 10% of the deadline (at most 1 s). Measured with
    // xiangqi-clock-matrix at load 13 on 2 cores: a search told to stop at 890 ms answered
    // after up to 1044 ms (the thread waits for a core), so short deadlines need a share.
    const long long margin = std::max(0, overhead_ms) + std::min(deadline / 10, 1000LL);
    const long long hard_cap = std::max(1LL, deadline - margin);

    long long soft = 0, hard = hard_cap;
    const long long main = std::max(0, c.main_ms);
    if (c.type == ClockType::Fischer) {
        const long long inc = std::max(0, c.increment_ms);
        const long long moves = c.moves_to_go > 0 ? std::min(c.moves_to_go, 40) : SUDDEN_DEATH_MOVES;
        soft = main / moves + inc * 3 / 4;
        // One move may take a few planned shares, but never a quarter of what is left.
        hard = std::min({hard_cap, soft * 4, main / 4 + inc});
        if (c.moves_to_go == 1) soft = hard = hard_cap;  // the last move before the control
    } else if (c.in_countdown) {
        // Each move has the same countdown: half of it on average, nearly all when needed.
        soft = (deadline - margin) / 2;
        hard = hard_cap;
    } else {
        const long long countdown = std::max(0, c.countdown_ms);
        soft = main / ASIAN_MAIN_MOVES + countdown / 2;
        hard = std::min(hard_cap, soft * 4);
        if (c.move_limit_ms > 0) soft = std::min(soft, (c.move_limit_ms - margin) / 2);
    }
    TimeBudget b;
    b.hard_ms = static_cast<int>(std::clamp(hard, 1LL, static_cast<long long>(INT_MAX)));
    b.soft_ms = static_cast<int>(std::clamp(soft, 1LL, static_cast<long long>(b.hard_ms)));
    return b;
}

}  // namespace xq::engine
