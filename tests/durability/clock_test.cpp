// Clock arithmetic per clock type on made-up steady-clock instants (no sleeping), and a table
// clock paused by an arbiter on a real timer.
#include <gtest/gtest.h>

#include <thread>

#include "server/table/game_clock.h"
#include "server/table/table_game_clock.h"
#include "engine/time_budget.h"
#include <boost/asio/io_context.hpp>

using namespace xq;
using namespace xq::server;
using namespace std::chrono_literals;

namespace {

TimePoint at(Ms ms) { return TimePoint{} + 1h + ms; }  // an arbitrary origin

ClockConfig spec(std::string_view text) {
    std::string err;
    auto c = parse_clock_spec(text, &err);
    EXPECT_TRUE(c.has_value()) << text << ": " << err;
    return c.value_or(ClockConfig{});
}

}  // namespace

TEST(ClockSpec, ParsesAndPrintsEveryKind) {
    EXPECT_EQ(spec("none").kind, ClockKind::None);
    ClockConfig f = spec("fischer:300+5");
    EXPECT_EQ(f.kind, ClockKind::Fischer);
    EXPECT_EQ(f.base, 300s);
    EXPECT_EQ(f.increment, 5s);
    EXPECT_EQ(clock_spec(f), "fischer:300+5");
    ClockConfig a = spec("asian:1200/120/60");
    EXPECT_EQ(a.kind, ClockKind::Asian);
    EXPECT_EQ(a.base, 1200s);
    EXPECT_EQ(a.move_limit, 120s);
    EXPECT_EQ(a.countdown, 60s);
    EXPECT_EQ(clock_spec(a), "asian:1200/120/60");
    EXPECT_EQ(parse_clock_spec(clock_spec(a)), a);
}

TEST(ClockSpec, RejectsMalformedWithAMessage) {
    for (std::string_view bad : {"fischer", "fischer:300", "fischer:-1+2", "fischer:0+5", "fischer:3x+1",
                                 "asian:1/2", "asian:a/b/c", "asian:0/10/0", "blitz", "fischer:99999999+1",
                                 "fischer:36001+0", "fischer: 300+5"}) {
        std::string err;
        EXPECT_FALSE(parse_clock_spec(bad, &err).has_value()) << bad;
        EXPECT_FALSE(err.empty()) << bad;
    }
}

TEST(Clock, NoneNeverFlags) {
    GameClock c(ClockConfig{});
    c.start(RED, at(0ms));
    EXPECT_FALSE(c.running());
    EXPECT_FALSE(c.flag_fallen(at(Ms(10'000'000))).has_value());
    EXPECT_TRUE(c.on_move(at(Ms(10'000'000))));
    EXPECT_FALSE(c.until_flag(at(0ms)).has_value());
}

TEST(Clock, FischerChargesAddsIncrementAndSwitches) {
    GameClock c(spec("fischer:60+2"));
    c.start(RED, at(0ms));
    EXPECT_EQ(c.side_time(RED, at(10s)).main, 50s);
    EXPECT_EQ(c.side_time(BLACK, at(10s)).main, 60s);
    ASSERT_TRUE(c.on_move(at(10s)));  // Red used 10 s, gains 2 s
    EXPECT_EQ(c.turn(), BLACK);
    EXPECT_EQ(c.side_time(RED, at(10s)).main, 52s);
    EXPECT_EQ(c.until_flag(at(10s)), std::optional<Ms>(60s));
    ASSERT_TRUE(c.on_move(at(Ms(40'500))));  // Black used 30.5 s
    EXPECT_EQ(c.side_time(BLACK, at(Ms(40'500))).main, Ms(31'500));
    EXPECT_EQ(c.turn(), RED);
}

TEST(Clock, FischerFlagFallsExactlyAtZero) {
    GameClock c(spec("fischer:10+0"));
    c.start(RED, at(0ms));
    EXPECT_FALSE(c.flag_fallen(at(Ms(9'999))).has_value());
    EXPECT_EQ(c.flag_fallen(at(10s)), std::optional<Color>(RED));
    EXPECT_FALSE(c.on_move(at(Ms(10'001))));  // a late move is refused, nothing changes
    EXPECT_EQ(c.turn(), RED);
    EXPECT_EQ(c.until_flag(at(11s)), std::optional<Ms>(0ms));
}

TEST(Clock, AsianPerMoveLimitFlagsWhileMainTimeLasts) {
    GameClock c(spec("asian:600/30/20"));
    c.start(RED, at(0ms));
    EXPECT_EQ(c.until_flag(at(0ms)), std::optional<Ms>(30s));
    EXPECT_FALSE(c.flag_fallen(at(Ms(29'999))).has_value());
    EXPECT_EQ(c.flag_fallen(at(30s)), std::optional<Color>(RED));  // 570 s of main time left, still lost
}

TEST(Clock, AsianCountdownAfterMainTimeIsSpent) {
    GameClock c(spec("asian:10/0/5"));
    c.start(RED, at(0ms));
    // Red spends 12 s: main time (10 s) runs out during the move, 2 s of the countdown used.
    EXPECT_FALSE(c.flag_fallen(at(12s)).has_value());
    SideTime t = c.side_time(RED, at(12s));
    EXPECT_TRUE(t.in_countdown);
    EXPECT_EQ(t.main, 0ms);
    EXPECT_EQ(t.move_left, 3s);
    ASSERT_TRUE(c.on_move(at(12s)));
    EXPECT_TRUE(c.side_time(RED, at(12s)).in_countdown);
    EXPECT_EQ(c.side_time(RED, at(12s)).move_left, 5s);  // next move gets the full countdown
    ASSERT_TRUE(c.on_move(at(13s)));                     // Black, 1 s of main time
    // Every Red move from now on gets 5 s afresh.
    ASSERT_TRUE(c.on_move(at(Ms(17'900))));
    ASSERT_TRUE(c.on_move(at(Ms(18'000))));
    EXPECT_FALSE(c.flag_fallen(at(Ms(22'999))).has_value());
    EXPECT_EQ(c.flag_fallen(at(23s)), std::optional<Color>(RED));
    EXPECT_FALSE(c.on_move(at(23s)));
}

TEST(Clock, AsianWithoutCountdownFlagsWhenMainTimeEnds) {
    GameClock c(spec("asian:10/0/0"));
    c.start(BLACK, at(0ms));
    EXPECT_FALSE(c.flag_fallen(at(Ms(9'999))).has_value());
    EXPECT_EQ(c.flag_fallen(at(10s)), std::optional<Color>(BLACK));
}

TEST(Clock, StateSurvivesRestoreAndRestartDoesNotChargeDownTime) {
    GameClock c(spec("fischer:100+0"));
    c.start(RED, at(0ms));
    ASSERT_TRUE(c.on_move(at(30s)));
    ClockState saved = c.state(at(50s));  // Black has used 20 s so far
    EXPECT_EQ(saved.main[RED], 70s);
    EXPECT_EQ(saved.main[BLACK], 80s);

    GameClock back(spec("fischer:100+0"));
    back.restore(saved);
    back.start(BLACK, at(Ms(1'000'000)));  // server down for a long time
    EXPECT_EQ(back.side_time(BLACK, at(Ms(1'000'000))).main, 80s);
    EXPECT_EQ(back.until_flag(at(Ms(1'000'000))), std::optional<Ms>(80s));
}

TEST(Clock, TakebackHandsTurnBackWithoutIncrement) {
    GameClock c(spec("fischer:60+10"));
    c.start(RED, at(0ms));
    ASSERT_TRUE(c.on_move(at(5s)));  // Red 65 s
    c.set_turn(RED, at(8s));         // Black used 3 s, no increment for a takeback
    EXPECT_EQ(c.turn(), RED);
    EXPECT_EQ(c.side_time(BLACK, at(8s)).main, 57s);
    EXPECT_EQ(c.side_time(RED, at(8s)).main, 65s);
}

TEST(Clock, StopFreezesTime) {
    GameClock c(spec("fischer:60+0"));
    c.start(RED, at(0ms));
    c.stop(at(15s));
    EXPECT_FALSE(c.running());
    EXPECT_EQ(c.side_time(RED, at(100s)).main, 45s);
    EXPECT_FALSE(c.flag_fallen(at(1000s)).has_value());
}

// An arbiter's pause is a stop and a start of the side to move: the paused time is nobody's.
TEST(Clock, ArbiterPauseChargesNobodyAndAddTimeExtendsTheFlag) {
    GameClock c(spec("fischer:300+5"));
    c.start(RED, at(0ms));
    c.stop(at(10s));                // paused after 10 s of Red's move
    c.start(c.turn(), at(70s));     // resumed a minute later
    EXPECT_EQ(c.side_time(RED, at(80s)).main, 280s);
    EXPECT_EQ(c.until_flag(at(80s)), std::optional<Ms>(280s));
    c.add_time(RED, 60s);           // while running: the flag moves too
    EXPECT_EQ(c.side_time(RED, at(80s)).main, 340s);
    EXPECT_EQ(c.until_flag(at(80s)), std::optional<Ms>(340s));
    c.add_time(BLACK, 30s);         // the waiting side
    EXPECT_EQ(c.side_time(BLACK, at(80s)).main, 330s);
    c.add_time(BLACK, Ms(0));       // nothing
    c.add_time(BLACK, -5s);         // nothing
    EXPECT_EQ(c.side_time(BLACK, at(80s)).main, 330s);
    c.add_time(BLACK, MAX_CLOCK_PERIOD);  // capped
    EXPECT_EQ(c.side_time(BLACK, at(80s)).main, MAX_CLOCK_PERIOD);
    EXPECT_EQ(c.state(at(80s)).main[RED], 340s);
}

TEST(Clock, AddTimeTakesAnAsianSideOutOfItsCountdown) {
    GameClock c(spec("asian:10/0/5"));
    c.start(RED, at(0ms));
    ASSERT_TRUE(c.on_move(at(12s)));  // Red spent its main time: countdown from now on
    ASSERT_TRUE(c.on_move(at(13s)));
    EXPECT_TRUE(c.side_time(RED, at(13s)).in_countdown);
    c.add_time(RED, 20s);
    const SideTime t = c.side_time(RED, at(13s));
    EXPECT_FALSE(t.in_countdown);
    EXPECT_EQ(t.main, 20s);
    // 20 s of main time and then the 5 s countdown before Red's flag falls.
    EXPECT_FALSE(c.flag_fallen(at(Ms(37'999))).has_value());
    EXPECT_EQ(c.flag_fallen(at(38s)), std::optional<Color>(RED));
}

// What an AI seat budgets from (issue #13): the mover's main time, the increment, the Asian
// per-move limit and countdown, and whether the countdown has begun.
TEST(TableClockAiView, GivesTheAiTheClockItMovesOn) {
    boost::asio::io_context io;
    auto no_flag = [](Color) {};
    TableGameClock asian(io, *parse_clock_spec("asian:5/3/10"), no_flag);
    asian.game_started(RED);
    const engine::ClockView a = asian.ai_view(RED);
    EXPECT_EQ(a.type, engine::ClockType::Asian);
    EXPECT_LE(a.main_ms, 5000);
    EXPECT_GT(a.main_ms, 4000);
    EXPECT_EQ(a.move_limit_ms, 3000);
    EXPECT_EQ(a.countdown_ms, 10000);
    EXPECT_FALSE(a.in_countdown);
    EXPECT_LT(engine::plan_move_time(a).hard_ms, 3000);  // the per-move limit binds

    TableGameClock countdown(io, *parse_clock_spec("asian:0/0/10"), no_flag);
    countdown.game_started(RED);
    EXPECT_TRUE(countdown.ai_view(RED).in_countdown);
    EXPECT_LT(engine::plan_move_time(countdown.ai_view(RED)).hard_ms, 10000);

    TableGameClock fischer(io, *parse_clock_spec("fischer:60+2"), no_flag);
    fischer.game_started(RED);
    const engine::ClockView f = fischer.ai_view(BLACK);
    EXPECT_EQ(f.type, engine::ClockType::Fischer);
    EXPECT_EQ(f.main_ms, 60000);
    EXPECT_EQ(f.increment_ms, 2000);
    asian.game_over();
    countdown.game_over();
    fischer.game_over();
}

// A paused table clock never flags (its timer is gone), and after the resume the side to
// move has the time it had: here a one-second clock flags about a second after the resume.
TEST(TableClockPause, APausedClockDoesNotFlagAndResumesWhereItStood) {
    boost::asio::io_context io;
    std::optional<Color> flagged;
    TableGameClock clock(io, *parse_clock_spec("fischer:1+0"), [&](Color c) { flagged = c; });
    clock.game_started(RED);
    clock.pause();
    proto::Clocks c = clock.state();
    EXPECT_TRUE(c.paused);
    EXPECT_FALSE(c.running.has_value());
    const std::int64_t left = c.red_ms;
    EXPECT_GT(left, 0);
    std::this_thread::sleep_for(1200ms);  // longer than the whole clock
    io.poll();
    EXPECT_FALSE(flagged.has_value());
    EXPECT_EQ(clock.state().red_ms, left);
    clock.add_time(BLACK, 5000);
    EXPECT_EQ(clock.state().black_ms, 6000);
    const auto resumed = std::chrono::steady_clock::now();
    clock.unpause();
    EXPECT_FALSE(clock.state().paused);
    EXPECT_EQ(clock.state().running, std::optional<Color>(RED));
    io.restart();
    while (!flagged && std::chrono::steady_clock::now() - resumed < 10s) io.run_for(50ms);
    EXPECT_EQ(flagged, std::optional<Color>(RED));
    // Not before the time it had left at the pause.
    EXPECT_GE(std::chrono::steady_clock::now() - resumed, Ms(left));
}

// A held turn (its line waits for a commit) charges nobody and cannot flag; the release starts
// it where it stood. An arbiter's pause during the hold keeps it stopped until the unpause;
// a move made during the hold (an AI seat) costs the mover nothing.
TEST(TableClockHold, AHeldTurnChargesNobodyUntilItsRelease) {
    boost::asio::io_context io;
    std::optional<Color> flagged;
    TableGameClock clock(io, *parse_clock_spec("fischer:1+0"), [&](Color c) { flagged = c; });
    clock.game_started(RED);
    clock.hold_turn();
    const proto::Clocks held = clock.state();
    EXPECT_EQ(held.running, std::optional<Color>(RED));  // the side to move's, though waiting
    std::this_thread::sleep_for(1200ms);  // longer than the whole clock
    io.poll();
    EXPECT_FALSE(flagged.has_value());
    EXPECT_EQ(clock.state().red_ms, held.red_ms);
    // Paused during the hold: the release leaves it stopped, the unpause starts it.
    clock.pause();
    clock.release_turn();
    std::this_thread::sleep_for(100ms);
    EXPECT_EQ(clock.state().red_ms, held.red_ms);
    EXPECT_TRUE(clock.state().paused);
    const auto resumed = std::chrono::steady_clock::now();
    clock.unpause();
    io.restart();
    while (!flagged && std::chrono::steady_clock::now() - resumed < 10s) io.run_for(50ms);
    EXPECT_EQ(flagged, std::optional<Color>(RED));
    EXPECT_GE(std::chrono::steady_clock::now() - resumed, Ms(held.red_ms));

    TableGameClock other(io, *parse_clock_spec("fischer:60+0"), [](Color) {});
    other.game_started(RED);
    other.hold_turn();
    const std::int64_t red = other.state().red_ms;
    std::this_thread::sleep_for(200ms);
    const proto::Clocks after = other.move_made(RED);  // Red moves before its turn's line left
    EXPECT_EQ(after.red_ms, red);
    EXPECT_EQ(after.running, std::optional<Color>(BLACK));
    other.game_over();
}
