#include "server/ai/ai_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace xq::server {

AiPool::AiPool(int workers, std::size_t hash_mb, int quick_workers, int quick_ms)
    : general_workers_(workers), quick_ms_(quick_ms), hash_mb_(hash_mb) {
    if (general_workers_ <= 0) {
        const int hw = static_cast<int>(std::thread::hardware_concurrency());
        general_workers_ = std::max(1, hw - 1);
    }
    const int total = general_workers_ + std::max(0, quick_workers);
    current_stop_.resize(static_cast<std::size_t>(total));
    for (int i = 0; i < total; ++i)
        threads_.emplace_back([this, i] { run(static_cast<std::size_t>(i), i >= general_workers_); });
}

AiPool::~AiPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (auto& q : queue_)
            if (q.job.stop) q.job.stop->store(true);
        queue_.clear();
        for (auto& s : current_stop_)
            if (s) s->store(true);
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
}

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
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        const auto expected = expected_time(job.limits);
        const bool quick = expected.count() <= quick_ms_;
        const auto due = job.queued_at + expected;
        queue_.push_back(Queued{std::move(job), due, quick});
    }
    // Every worker looks: a quick-lane worker may not take what was queued.
    cv_.notify_all();
}

std::size_t AiPool::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

std::vector<AiPool::Queued>::iterator AiPool::next(bool quick_lane) {
    auto best = queue_.end();
    for (auto it = queue_.begin(); it != queue_.end(); ++it) {
        if (quick_lane && !it->quick) continue;
        if (best == queue_.end() || it->due < best->due) best = it;
    }
    return best;
}

void AiPool::run(std::size_t index, bool quick_lane) {
    // Searches yield to the I/O thread: a human's move latency matters more than AI speed.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    engine::Engine engine(hash_mb_);
    for (;;) {
        AiJob job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || next(quick_lane) != queue_.end(); });
            if (stopping_) return;
            const auto it = next(quick_lane);
            job = std::move(it->job);
            queue_.erase(it);
            if (job.stop && job.stop->load()) continue;
            current_stop_[index] = job.stop;
            ++running_;
        }
        if (job.limits.hard_ms > 0) {
            const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - job.queued_at).count();
            job.limits.hard_ms = static_cast<int>(std::max<long long>(1, job.limits.hard_ms - waited));
            job.limits.soft_ms = std::min(job.limits.soft_ms, job.limits.hard_ms);
        }
        const engine::Result r = job.think ? job.think(engine, job)
                                           : engine.search(job.start, job.moves, job.limits, job.on_progress,
                                                           job.stop.get());
        {
            std::lock_guard lock(mutex_);
            current_stop_[index].reset();
            --running_;
        }
        if (!(job.stop && job.stop->load()) && job.on_done) job.on_done(r);
    }
}

}  // namespace xq::server
