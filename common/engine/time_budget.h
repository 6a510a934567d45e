// How long the AI may think about one move, from the game clock as the side to move sees it.
// Pure arithmetic (no clock reading): the server's AI seats, the UCI front end and the
// clock-matrix tool all budget through plan_move_time().
#pragma once

namespace xq::engine {

enum class ClockType { None, Fischer, Asian };

// The mover's clock at the moment it starts thinking (times in milliseconds).
struct ClockView {
    ClockType type = ClockType::None;
    int main_ms = 0;        // main time left (Fischer: the whole clock)
    int increment_ms = 0;   // Fischer: added after each move
    int move_limit_ms = 0;  // Asian: longest single move while main time lasts (0: no limit)
    int countdown_ms = 0;   // Asian: time for each move once main time is spent (byoyomi)
    bool in_countdown = false;  // Asian: main time is spent
    int moves_to_go = 0;    // moves until the next time control (0: unknown, sudden death)
};

// `soft_ms`: start no new iteration past it (the search may stop earlier when the best move is
// stable). `hard_ms`: the search stops at once, whatever it is doing. Both 0: no clock.
struct TimeBudget {
    int soft_ms = 0;
    int hard_ms = 0;
};

// Time kept back from every deadline for what happens around the search: the reply's way to
// the referee, thread scheduling on a loaded machine. Callers with more latency pass more.
inline constexpr int DEFAULT_MOVE_OVERHEAD_MS = 60;

// The time by which this move must be on the referee's board (the flag falls after it).
int move_deadline_ms(const ClockView& clock);

// The budget for one move. Never more than the deadline less the overhead and a margin that
// grows with the deadline (so a 1+0 blitz cannot flag); at least 1 ms even when the flag is
// about to fall (the search then returns its first legal move).
TimeBudget plan_move_time(const ClockView& clock, int overhead_ms = DEFAULT_MOVE_OVERHEAD_MS);

}  // namespace xq::engine
