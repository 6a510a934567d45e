// Runs engine searches for AI seats on a small pool of worker threads, fairly across tables:
// the queue is served by earliest expected finish (submit time + search time), so short
// searches go first yet long ones are never starved, and a quick lane of extra workers takes
// only short searches, so a level-1 reply never waits behind a level-10 search. Callbacks run
// on a worker thread: the caller posts them back to its own thread (the server's io thread)
// and judges the move there like a human's.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::server {

struct AiJob {
    Position start;
    std::vector<Move> moves;
    engine::Limits limits;
    // When the job was handed over: on a clock (limits.hard_ms > 0) the time spent waiting
    // for a worker is taken off the budget, since the table's clock runs meanwhile.
    std::chrono::steady_clock::time_point queued_at = std::chrono::steady_clock::now();
    std::shared_ptr<std::atomic<bool>> stop;  // set to cancel; a cancelled job reports nothing
    std::function<void(const engine::Progress&)> on_progress;
    std::function<void(const engine::Result&)> on_done;
    // When set, runs on the worker instead of the plain search (the opening book: a checked
    // book move, else the search); it gets the worker's engine and this job, budget adjusted.
    std::function<engine::Result(engine::Engine&, const AiJob&)> think;
};

class AiPool {
public:
    // workers == 0 picks max(1, hardware threads - 1). quick_workers more threads take only
    // searches expected to last at most quick_ms. hash_mb is per worker.
    explicit AiPool(int workers = 0, std::size_t hash_mb = 16, int quick_workers = 0, int quick_ms = 600);
    ~AiPool();  // cancels everything and joins the workers
    AiPool(const AiPool&) = delete;
    AiPool& operator=(const AiPool&) = delete;

    void submit(AiJob job);
    std::size_t workers() const { return threads_.size(); }
    std::size_t queued() const;
    std::size_t running() const { return running_.load(); }

    // How long a search with these limits is expected to take (its place in the queue).
    static std::chrono::milliseconds expected_time(const engine::Limits& limits);

private:
    using Clock = std::chrono::steady_clock;
    struct Queued {
        AiJob job;
        Clock::time_point due;  // submit time + expected time: earliest first
        bool quick = false;
    };

    void run(std::size_t index, bool quick_lane);
    // The next job this worker may take, or none (under mutex_).
    std::vector<Queued>::iterator next(bool quick_lane);

    int general_workers_;
    int quick_ms_;
    std::size_t hash_mb_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Queued> queue_;
    bool stopping_ = false;
    std::atomic<std::size_t> running_{0};
    std::vector<std::shared_ptr<std::atomic<bool>>> current_stop_;  // per worker, under mutex_
    std::vector<std::thread> threads_;
};

}  // namespace xq::server
