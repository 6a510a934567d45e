// The AI's time budget from a table clock (plan_move_time): never past the flag, sensible
// shares of the main time, the Asian per-move limit and countdown honoured.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/search.h"
#include "engine/time_budget.h"
#include "xiangqi/position.h"

using namespace xq;
using namespace xq::engine;

namespace {

ClockView fischer(int main_ms, int inc_ms) {
    ClockView c;
    c.type = ClockType::Fischer;
    c.main_ms = main_ms;
    c.increment_ms = inc_ms;
    return c;
}

ClockView asian(int main_ms, int limit_ms, int countdown_ms, bool in_countdown) {
    ClockView c;
    c.type = ClockType::Asian;
    c.main_ms = main_ms;
    c.move_limit_ms = limit_ms;
    c.countdown_ms = countdown_ms;
    c.in_countdown = in_countdown;
    return c;
}

}  // namespace

TEST(TimeBudget, NoClockNoBudget) {
    const TimeBudget b = plan_move_time(ClockView{});
    EXPECT_EQ(b.soft_ms, 0);
    EXPECT_EQ(b.hard_ms, 0);
}

TEST(TimeBudget, DeadlinePerClockType) {
    EXPECT_EQ(move_deadline_ms(fischer(60000, 2000)), 60000);
    EXPECT_EQ(move_deadline_ms(asian(600000, 60000, 30000, false)), 60000);  // the move limit
    EXPECT_EQ(move_deadline_ms(asian(5000, 60000, 30000, false)), 35000);    // main runs into countdown
    EXPECT_EQ(move_deadline_ms(asian(0, 0, 10000, true)), 10000);           // countdown only
    EXPECT_EQ(move_deadline_ms(asian(5000, 0, 0, false)), 5000);
}

TEST(TimeBudget, FischerBlitzShares) {
    const TimeBudget b = plan_move_time(fischer(60000, 0));
    EXPECT_EQ(b.soft_ms, 1500);  // 1/40 of the clock
    EXPECT_EQ(b.hard_ms, 6000);  // four shares, far from the flag
    const TimeBudget inc = plan_move_time(fischer(180000, 2000));
    EXPECT_EQ(inc.soft_ms, 4500 + 1500);  // 1/40 + 3/4 of the increment
}

TEST(TimeBudget, NeverPastTheFlag) {
    const int overhead = DEFAULT_MOVE_OVERHEAD_MS;
    std::vector<ClockView> clocks;
    for (int main : {0, 1, 30, 61, 100, 250, 1000, 5000, 60000, 600000, 36000000})
        for (int inc : {0, 1000, 5000}) clocks.push_back(fischer(main, inc));
    for (int main : {0, 40, 1000, 5000, 600000})
        for (int limit : {0, 30000, 60000})
            for (int cd : {0, 100, 10000, 30000})
                for (bool in_cd : {false, true}) clocks.push_back(asian(main, limit, cd, in_cd));
    for (const ClockView& c : clocks) {
        const TimeBudget b = plan_move_time(c, overhead);
        const int deadline = move_deadline_ms(c);
        SCOPED_TRACE("main " + std::to_string(c.main_ms) + " deadline " + std::to_string(deadline));
        EXPECT_GE(b.soft_ms, 1);
        EXPECT_LE(b.soft_ms, b.hard_ms);
        if (deadline > overhead + 1) EXPECT_LE(b.hard_ms, deadline - overhead);
        else EXPECT_EQ(b.hard_ms, 1);
    }
}

TEST(TimeBudget, SuddenDeathGameNeverEmptiesTheClock) {
    // 1+0: a middle game of 40 moves each using the whole hard limit (the worst case), then
    // 150 moves each using 1.5 times the planned share, every move 5 ms late on top.
    int main = 60000;
    for (int move = 0; move < 40; ++move) {
        main -= plan_move_time(fischer(main, 0)).hard_ms + 5;
        ASSERT_GT(main, 0) << "move " << move;
    }
    main = 60000;
    for (int move = 0; move < 150; ++move) {
        main -= 3 * plan_move_time(fischer(main, 0)).soft_ms / 2 + 5;
        ASSERT_GT(main, 0) << "move " << move;
    }
    // Spending the planned share leaves a reserve for the long endgame.
    main = 60000;
    for (int move = 0; move < 100; ++move) main -= plan_move_time(fischer(main, 0)).soft_ms;
    EXPECT_GT(main, 60000 / 50);
}

TEST(TimeBudget, AsianMoveLimitAndCountdown) {
    const TimeBudget slow = plan_move_time(asian(600000, 60000, 30000, false));
    EXPECT_LT(slow.hard_ms, 60000);
    EXPECT_GE(slow.soft_ms, 20000);  // a slow clock is used: 10 minutes are not saved for nothing
    EXPECT_LE(slow.soft_ms, 30000);
    const TimeBudget cd = plan_move_time(asian(0, 0, 10000, true));
    EXPECT_LE(cd.hard_ms, 10000 - 1000);
    EXPECT_GE(cd.hard_ms, 8500);
    EXPECT_GE(cd.soft_ms, 4000);
    // Main time nearly spent: the countdown that follows may be used.
    const TimeBudget edge = plan_move_time(asian(200, 0, 30000, false));
    EXPECT_GT(edge.hard_ms, 20000);
    EXPECT_LT(edge.hard_ms, 30200);
}

TEST(TimeBudget, SearchHonoursTheHardLimit) {
    Engine engine;
    Limits lim;
    const TimeBudget b = plan_move_time(fischer(2000, 0));  // 2 s left: a 1+0 game's end
    lim.soft_ms = b.soft_ms;
    lim.hard_ms = b.hard_ms;
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = engine.search(Position::start(), {}, lim);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_TRUE(r.best);
    // The budget is a few hundred ms; far more means the limit was not polled. Generous for load.
    EXPECT_LT(ms, b.hard_ms + 1000);
    EXPECT_GE(r.depth, 1);
}
