// The AI pools' shared queue (server/ai/worker_queue.h): earliest due first, the quick lane
// takes only quick jobs, cancelled jobs are never handed out, stop() cancels and joins.
#include "server/ai/worker_queue.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <string>
#include <vector>

namespace xq::test {
namespace {

using namespace std::chrono_literals;

struct TestJob {
    std::string name;
    std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
    std::function<void()> work;  // runs on the worker
};

using Queue = server::WorkerQueue<TestJob>;

// Workers that run each job's work and record its name and lane, in order.
struct Recorder {
    std::mutex m;
    std::vector<std::string> done;
    Queue::Body body(Queue& q) {
        return [this, &q](std::size_t worker, bool quick_lane) {
            while (auto job = q.take(worker, quick_lane)) {
                if (job->work) job->work();
                q.finished(worker);
                std::lock_guard lock(m);
                done.push_back(job->name + (quick_lane ? "@quick" : ""));
            }
        };
    }
    std::vector<std::string> wait_for(std::size_t n) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        for (;;) {
            {
                std::lock_guard lock(m);
                if (done.size() >= n || std::chrono::steady_clock::now() > deadline) return done;
            }
            std::this_thread::sleep_for(1ms);
        }
    }
};

// A job that holds its worker until released, and says when it started.
struct Blocker {
    std::promise<void> started, release;
    TestJob job(std::string name) {
        return TestJob{std::move(name), std::make_shared<std::atomic<bool>>(false), [this] {
                           started.set_value();
                           release.get_future().wait();
                       }};
    }
};

TEST(WorkerQueue, EarliestDueFirstWhateverTheOrderQueued) {
    Recorder rec;
    Blocker blocker;
    Queue q;  // last: its workers are joined before the recorder goes
    const auto now = Queue::Clock::now();
    ASSERT_TRUE(q.push(blocker.job("blocker"), now, false));
    q.start(1, 0, rec.body(q));
    ASSERT_EQ(blocker.started.get_future().wait_for(10s), std::future_status::ready);
    EXPECT_EQ(q.running(), 1u);
    q.push(TestJob{"late"}, now + 3s, false);
    q.push(TestJob{"soon"}, now + 1s, false);
    TestJob cancelled{"cancelled"};
    cancelled.stop->store(true);
    q.push(std::move(cancelled), now, false);
    q.push(TestJob{"middle"}, now + 2s, false);
    EXPECT_EQ(q.queued(), 4u);
    blocker.release.set_value();
    EXPECT_EQ(rec.wait_for(4), (std::vector<std::string>{"blocker", "soon", "middle", "late"}));
    EXPECT_EQ(q.queued(), 0u);
    EXPECT_EQ(q.running(), 0u);
}

TEST(WorkerQueue, TheQuickLaneTakesOnlyQuickJobs) {
    Recorder rec;
    Blocker blocker;
    Queue q;  // last: its workers are joined before the recorder goes
    q.start(1, 1, rec.body(q));
    EXPECT_EQ(q.threads(), 2u);
    const auto now = Queue::Clock::now();
    q.push(blocker.job("long"), now + 10s, false);
    ASSERT_EQ(blocker.started.get_future().wait_for(10s), std::future_status::ready);
    // The general worker is busy: a quick job goes to the quick lane, a slow one waits.
    q.push(TestJob{"slow"}, now + 5s, false);
    q.push(TestJob{"short"}, now + 50ms, true);
    EXPECT_EQ(rec.wait_for(1), (std::vector<std::string>{"short@quick"}));
    EXPECT_EQ(q.queued(), 1u) << "the quick lane left the slow job queued";
    blocker.release.set_value();
    EXPECT_EQ(rec.wait_for(3), (std::vector<std::string>{"short@quick", "long", "slow"}));
}

TEST(WorkerQueue, StopCancelsQueuedAndRunningJobsAndRefusesNewOnes) {
    Recorder rec;
    std::promise<void> started;
    Queue q;
    TestJob running{"running"};
    auto running_stop = running.stop;
    // Runs until its stop flag is set, as a search does.
    running.work = [&started, flag = running.stop] {
        started.set_value();
        while (!flag->load()) std::this_thread::sleep_for(1ms);
    };
    q.start(1, 0, rec.body(q));
    q.push(std::move(running), Queue::Clock::now(), false);
    ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
    TestJob queued{"queued"};
    auto queued_stop = queued.stop;
    q.push(std::move(queued), Queue::Clock::now(), false);
    q.stop();  // returns once the worker is joined
    EXPECT_TRUE(running_stop->load());
    EXPECT_TRUE(queued_stop->load());
    EXPECT_EQ(rec.wait_for(1), (std::vector<std::string>{"running"})) << "the queued job never ran";
    EXPECT_FALSE(q.push(TestJob{"after"}, Queue::Clock::now(), false));
    EXPECT_EQ(q.queued(), 0u);
    q.stop();  // again: nothing to do
}

}  // namespace
}  // namespace xq::test
