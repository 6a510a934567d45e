// Fair AI scheduling: the AI pool serves the earliest expected finish first and its quick
// lane answers short searches while long ones run; the lobby caps AI-versus-AI tables per
// creator and per server.
#include "harness.h"

#include <future>
#include <mutex>
#include <thread>

namespace xq::test {
namespace {

using proto::ErrorCode;

// A job that searches the start position for `movetime_ms` and records its name when done.
server::AiJob timed_job(int movetime_ms, std::function<void()> done) {
    server::AiJob job;
    job.limits.movetime_ms = movetime_ms;
    job.stop = std::make_shared<std::atomic<bool>>(false);
    job.on_done = [done = std::move(done)](const engine::Result&) { done(); };
    return job;
}

TEST(AiSchedule, ExpectedTimeComesFromTheLimits) {
    engine::Limits l;
    l.movetime_ms = 250;
    EXPECT_EQ(server::AiPool::expected_time(l).count(), 250);
    engine::Limits clock;
    clock.time_ms[RED] = 60'000;
    clock.inc_ms[RED] = 1'000;
    EXPECT_EQ(server::AiPool::expected_time(clock).count(), 60'000 / 20 + 1'000);
    engine::Limits budget;  // a table clock's plan replaces movetime
    budget.movetime_ms = 5'000;
    budget.soft_ms = 400;
    budget.hard_ms = 1'200;
    EXPECT_EQ(server::AiPool::expected_time(budget).count(), 400);
}

TEST(AiSchedule, SearchThreadsSettingReachesTheWorkersEngines) {
    for (const int threads : {1, 2}) {
        server::AiPool pool(1, 1, 0, 600, threads);
        std::promise<int> seen;
        std::promise<engine::Result> result;
        server::AiJob job = timed_job(100, [] {});
        job.think = [&seen](engine::Engine& e, const server::AiJob& j) {
            seen.set_value(e.threads());
            return e.search(j.start, j.moves, j.limits, j.on_progress, j.stop.get());
        };
        job.on_done = [&result](const engine::Result& r) { result.set_value(r); };
        pool.submit(std::move(job));
        auto seen_f = seen.get_future();
        auto result_f = result.get_future();
        ASSERT_EQ(result_f.wait_for(20s), std::future_status::ready);
        EXPECT_EQ(seen_f.get(), threads);
        MoveList legal;
        Position().generate_legal(legal);
        EXPECT_TRUE(legal.contains(result_f.get().best)) << threads << " threads";
    }
}

TEST(AiSchedule, ShortSearchGoesBeforeALongerOneQueuedEarlier) {
    server::AiPool pool(1, 1, 0);
    std::mutex m;
    std::vector<std::string> order;
    std::promise<void> short_done;
    auto record = [&](const std::string& name) {
        std::lock_guard lock(m);
        order.push_back(name);
    };
    pool.submit(timed_job(300, [&] { record("blocker"); }));
    // The others are queued only once the blocker runs: both then wait for the one worker.
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (pool.running() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
    ASSERT_EQ(pool.running(), 1u) << "the blocker never started";
    server::AiJob long_job = timed_job(5000, [&] { record("long"); });
    auto long_stop = long_job.stop;
    pool.submit(std::move(long_job));
    pool.submit(timed_job(50, [&] {
        record("short");
        short_done.set_value();
    }));
    ASSERT_EQ(short_done.get_future().wait_for(20s), std::future_status::ready);
    long_stop->store(true);  // cancelled: it reports nothing
    std::lock_guard lock(m);
    EXPECT_EQ(order, (std::vector<std::string>{"blocker", "short"}));
}

TEST(AiSchedule, QuickLaneAnswersWhileALongSearchRuns) {
    server::AiPool pool(1, 1, 1, 600);
    EXPECT_EQ(pool.workers(), 2u);
    std::atomic<bool> long_finished{false};
    std::promise<void> short_done;
    server::AiJob long_job = timed_job(8000, [&] { long_finished = true; });
    auto long_stop = long_job.stop;
    pool.submit(std::move(long_job));
    pool.submit(timed_job(50, [&] { short_done.set_value(); }));
    ASSERT_EQ(short_done.get_future().wait_for(6s), std::future_status::ready);
    EXPECT_FALSE(long_finished.load());
    long_stop->store(true);
}

// Creates a table watched by its creator and asks for both AI seats; returns the table.
proto::TableId ai_table(Client& creator) {
    creator.send(proto::CreateTable{"", proto::Role::Spectator, ""});
    const auto table = creator.expect<proto::TableSnapshot>().table.id;
    creator.send(proto::RequestAi{table, RED, 1});
    return table;
}

TEST(AiSchedule, AiVersusAiTablesAreCappedPerCreatorAndPerServer) {
    TestServer s;
    s.on_server([](server::Server& srv) {
        srv.lobby().set_ai_table_caps(server::AiTableCaps{2, 1});
        return 0;
    });

    auto ann = Client::login(s.port(), "ann");
    const auto first = ai_table(*ann);
    ann->send(proto::RequestAi{first, BLACK, 1});
    ann->expect<proto::MoveMade>(30000ms);  // the first AI-versus-AI table plays
    auto fan = Client::login(s.port(), "fan");  // keeps it open after ann moves on
    fan->send(proto::Join{first, proto::Role::Spectator});
    fan->expect<proto::TableSnapshot>();
    ann->send(proto::Leave{first});

    const auto second = ai_table(*ann);
    ann->send(proto::RequestAi{second, BLACK, 1});
    const auto per_user = ann->expect_error(ErrorCode::NotAllowed);
    EXPECT_NE(per_user.message.find("per user"), std::string::npos) << per_user.message;

    auto bob = Client::login(s.port(), "bob");
    const auto third = ai_table(*bob);
    bob->send(proto::RequestAi{third, BLACK, 1});
    bob->expect<proto::MoveMade>(30000ms);  // two AI-versus-AI tables now: the server's cap

    auto cy = Client::login(s.port(), "cy");
    const auto fourth = ai_table(*cy);
    cy->send(proto::RequestAi{fourth, BLACK, 1});
    const auto per_server = cy->expect_error(ErrorCode::NotAllowed);
    EXPECT_NE(per_server.message.find("at most 2"), std::string::npos) << per_server.message;
    // A human against the AI is never capped.
    auto dan = Client::login(s.port(), "dan");
    dan->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto fifth = dan->expect<proto::TableSnapshot>().table.id;
    dan->until_pong();  // dan's own arrival is announced first
    dan->send(proto::RequestAi{fifth, BLACK, 1});
    EXPECT_EQ(dan->expect<proto::PlayerJoined>().ai_level, 1);
}

}  // namespace
}  // namespace xq::test
