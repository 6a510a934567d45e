// Search tests with threads: engines searching side by side in their own threads, and one
// engine searching with two threads (legal moves, stop, determinism of the lower levels).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/bench.h"
#include "engine/search.h"
#include "engine_test_position.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

TEST(Search, EnginesSearchInParallelThreads) {
    std::vector<std::thread> threads;
    std::vector<Result> results(3);
    for (int i = 0; i < 3; ++i)
        threads.emplace_back([&results, i] {
            Engine e(2);
            Limits lim;
            lim.depth = 5;
            results[std::size_t(i)] = e.search(Position(), {}, lim);
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(results[0].best, results[1].best);
    EXPECT_EQ(results[1].best, results[2].best);
    EXPECT_EQ(results[0].nodes, results[2].nodes);
}

TEST(Search, TwoThreadsReturnLegalMoves) {
    Engine engine(4);
    engine.set_threads(2);
    EXPECT_EQ(engine.threads(), 2);
    for (std::string_view fen : bench_fens()) {
        const Position pos = from_fen(std::string(fen));
        Limits lim;
        lim.depth = 6;
        const Result r = engine.search(pos, {}, lim);
        MoveList legal;
        pos.generate_legal(legal);
        EXPECT_TRUE(legal.contains(r.best)) << fen;
        EXPECT_EQ(r.depth, 6) << fen;
    }
    engine.set_threads(1);
    EXPECT_EQ(engine.threads(), 1);
}

TEST(Search, TwoThreadsStopOnStop) {
    Engine engine(4);
    engine.set_threads(2);
    std::atomic<bool> stop{false};
    Limits lim;
    lim.infinite = true;
    Result r;
    const Position start = from_fen("r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1");
    std::thread t([&] { r = engine.search(start, {}, lim, {}, &stop); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
    t.join();  // returns only when the main thread and the helper have both stopped
    MoveList legal;
    start.generate_legal(legal);
    EXPECT_TRUE(legal.contains(r.best));
    EXPECT_GT(r.depth, 0);
}

TEST(Search, LowerLevelsStayDeterministicWithThreads) {
    Limits lim;
    lim.level = 7;
    lim.seed = 3;
    Engine a, b;
    b.set_threads(2);
    const Result ra = a.search(Position(), {}, lim);
    const Result rb = b.search(Position(), {}, lim);
    EXPECT_EQ(ra.best, rb.best);
    EXPECT_EQ(ra.nodes, rb.nodes);
}

Result voter(Move m, int depth, int cp, int mate = 0) {
    Result r;
    r.best = m;
    r.depth = depth;
    r.score_cp = cp;
    r.mate_in = mate;
    return r;
}

TEST(Search, PickThreadVotesByDepthAndScore) {
    const Move a = xq::engine_test::mv("h2e2"), b = xq::engine_test::mv("b2e2");
    // Agreeing threads, or a helper no deeper and no better: the main thread.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 10, 40)}), 0u);
    // Threads agreeing on the move: the deepest one's line is reported.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(a, 11, 60)}), 1u);
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 10, 40)}), 0u);
    // A deeper helper with a clearly better score for another move wins the vote.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 11, 80)}), 1u);
    // A deeper helper whose move scores far worse does not.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 11, -200)}), 0u);
    // A mate found by the helper beats any score; being mated loses to any score.
    EXPECT_EQ(pick_thread({voter(a, 12, 300), voter(b, 9, 30000, 4)}), 1u);
    EXPECT_EQ(pick_thread({voter(a, 8, -500), voter(b, 12, -30000, -3)}), 0u);
    // A helper that completed no iteration has no vote.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 0, 900)}), 0u);
    // Two helpers agreeing outvote the main thread.
    EXPECT_EQ(pick_thread({voter(a, 10, 50), voter(b, 10, 50), voter(b, 11, 50)}), 2u);
}

TEST(Search, TwoThreadsTimedSearchReturnsLegalMove) {
    Engine engine(4);
    engine.set_threads(2);
    Limits lim;
    lim.movetime_ms = 150;
    for (std::string_view fen : bench_fens()) {
        const Position pos = from_fen(std::string(fen));
        const Result r = engine.search(pos, {}, lim);
        MoveList legal;
        pos.generate_legal(legal);
        EXPECT_TRUE(legal.contains(r.best)) << fen;
        ASSERT_FALSE(r.pv.empty()) << fen;
        EXPECT_EQ(r.pv[0], r.best) << fen;
        EXPECT_GT(r.depth, 0) << fen;
    }
}

}  // namespace
