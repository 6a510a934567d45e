#include "server/ai/ai_pool.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>

namespace xq::server {

AiPool::AiPool(int workers, std::size_t hash_mb) : hash_mb_(hash_mb) {
    if (workers <= 0) {
        const int hw = static_cast<int>(std::thread::hardware_concurrency());
        workers = std::max(1, hw - 1);
    }
    current_stop_.resize(static_cast<std::size_t>(workers));
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this, i] { run(static_cast<std::size_t>(i)); });
}

AiPool::~AiPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (auto& j : queue_)
            if (j.stop) j.stop->store(true);
        queue_.clear();
        for (auto& s : current_stop_)
            if (s) s->store(true);
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
}

void AiPool::submit(AiJob job) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        queue_.push_back(std::move(job));
    }
    cv_.notify_one();
}

std::size_t AiPool::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void AiPool::run(std::size_t index) {
    // Searches yield to the I/O thread: a human's move latency matters more than AI speed.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
    engine::Engine engine(hash_mb_);
    for (;;) {
        AiJob job;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = std::move(queue_.front());
            queue_.pop_front();
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
        const engine::Result r =
            engine.search(job.start, job.moves, job.limits, job.on_progress, job.stop.get());
        {
            std::lock_guard lock(mutex_);
            current_stop_[index].reset();
            --running_;
        }
        if (!(job.stop && job.stop->load()) && job.on_done) job.on_done(r);
    }
}

}  // namespace xq::server
