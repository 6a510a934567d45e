// Runs engine searches for AI seats on a small pool of worker threads, fairly across tables
// (worker_queue.h): by earliest expected finish (submit time + search time), and a quick lane
// of extra workers takes only short searches, so a level-1 reply never waits behind a
// level-10 search. Callbacks run
// on a worker thread: the caller posts them back to its own thread (the server's io thread)
// and judges the move there like a human's.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/search.h"
#include "server/ai/worker_queue.h"
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
    // searches expected to last at most quick_ms. hash_mb is per worker. Each worker's level-10
    // searches run on search_threads threads (Lazy SMP; lower levels on one).
    explicit AiPool(int workers = 0, std::size_t hash_mb = 16, int quick_workers = 0, int quick_ms = 600,
                    int search_threads = 1);
    ~AiPool();  // cancels everything and joins the workers
    AiPool(const AiPool&) = delete;
    AiPool& operator=(const AiPool&) = delete;

    void submit(AiJob job);
    std::size_t workers() const { return queue_.threads(); }
    std::size_t queued() const { return queue_.queued(); }
    std::size_t running() const { return queue_.running(); }

    // How long a search with these limits is expected to take (its place in the queue).
    static std::chrono::milliseconds expected_time(const engine::Limits& limits);

private:
    void run(std::size_t index, bool quick_lane);

    int quick_ms_;
    std::size_t hash_mb_;
    int search_threads_;
    WorkerQueue<AiJob> queue_;  // last: its workers stop before the members above go
};

}  // namespace xq::server
