#include "server/ai/ai_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace xq::server {

AiPool::AiPool(int workers, std::size_t hash_mb, int quick_workers, int quick_ms, int search_threads)
    : quick_ms_(quick_ms), hash_mb_(hash_mb), search_threads_(std::max(1, search_threads)) {
    if (workers <= 0) workers = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    queue_.start(workers, quick_workers, [this](std::size_t index, bool quick_lane) { run(index, quick_lane); });
}

AiPool::~AiPool() { queue_.stop(); }

std::chrono::milliseconds AiPool::expected_time(const engine::Limits& limits) {
    // A table clock's budget replaces movetime: the search usually stops at the soft bound.
    if (limits.hard_ms > 0) return std::chrono::milliseconds(limits.soft_ms > 0 ? limits.soft_ms : limits.hard_ms);
    if (limits.movetime_ms > 0) return std::chrono::milliseconds(limits.movetime_ms);
    // Clock-budgeted searches spend about a twentieth of the clock plus the increment.
    const int clock = std::max(limits.time_ms[RED], limits.time_ms[BLACK]);
    const int inc = std::max(limits.inc_ms[RED], limits.inc_ms[BLACK]);
    if (clock > 0) return std::chrono::milliseconds(clock / 20 + inc);
    return std::chrono::milliseconds(1000);  // depth- or node-bounded: a middling guess
}

void AiPool::submit(AiJob job) {
    const auto expected = expected_time(job.limits);
    const auto due = job.queued_at + expected;
    queue_.push(std::move(job), due, expected.count() <= quick_ms_);
}

void AiPool::run(std::size_t index, bool quick_lane) {
    // Searches yield to the I/O thread: a human's move latency matters more than AI speed.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    engine::Engine engine(hash_mb_);
    engine.set_threads(search_threads_);
    while (auto taken = queue_.take(index, quick_lane)) {
        AiJob& job = *taken;
        if (job.limits.hard_ms > 0) {
            const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - job.queued_at).count();
            job.limits.hard_ms = static_cast<int>(std::max<long long>(1, job.limits.hard_ms - waited));
            job.limits.soft_ms = std::min(job.limits.soft_ms, job.limits.hard_ms);
        }
        const engine::Result r = job.think ? job.think(engine, job)
                                           : engine.search(job.start, job.moves, job.limits, job.on_progress,
                                                           job.stop.get());
        queue_.finished(index);
        if (!(job.stop && job.stop->load()) && job.on_done) job.on_done(r);
    }
}

}  // namespace xq::server
