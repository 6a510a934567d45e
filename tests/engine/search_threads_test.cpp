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

}  // namespace
