// The worker threads and the fair queue that both AI pools (the built-in AiPool and the
// external EnginePool) run their searches on: jobs are served by earliest due time (submit
// time + expected search time), so short searches go first yet long ones are never starved,
// and an optional quick lane of extra workers takes only the jobs marked quick.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace xq::server {

// Job: movable, with a member `stop` (std::shared_ptr<std::atomic<bool>>, may be null): set
// to cancel it. A cancelled job is never handed out, and stop() sets every job's flag.
template <class Job>
class WorkerQueue {
public:
    using Clock = std::chrono::steady_clock;
    // The body of a worker thread: it loops on take() until that returns nothing, keeping its
    // own state (an engine, its hash table) on its stack.
    using Body = std::function<void(std::size_t worker, bool quick_lane)>;

    WorkerQueue() = default;
    ~WorkerQueue() { stop(); }
    WorkerQueue(const WorkerQueue&) = delete;
    WorkerQueue& operator=(const WorkerQueue&) = delete;

    // Starts `general` workers that take any job and `quick` more that take only quick jobs.
    void start(int general, int quick, const Body& body) {
        const int total = general + std::max(0, quick);
        {
            std::lock_guard lock(mutex_);
            current_stop_.resize(static_cast<std::size_t>(total));
        }
        for (int i = 0; i < total; ++i)
            threads_.emplace_back([body, i, general] { body(static_cast<std::size_t>(i), i >= general); });
    }

    // Queues `job` unless the queue is stopping (then it is dropped: false).
    bool push(Job job, Clock::time_point due, bool quick) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_) return false;
            queue_.push_back(Queued{std::move(job), due, quick});
        }
        // Every worker looks: a quick-lane worker may not take what was queued.
        cv_.notify_all();
        return true;
    }

    // Waits for the next job this worker may take; nothing once the queue stops. The job
    // counts as running on this worker until finished(worker).
    std::optional<Job> take(std::size_t worker, bool quick_lane) {
        std::unique_lock lock(mutex_);
        for (;;) {
            cv_.wait(lock, [&] { return stopping_ || next(quick_lane) != queue_.end(); });
            if (stopping_) return std::nullopt;
            const auto it = next(quick_lane);
            Job job = std::move(it->job);
            queue_.erase(it);
            if (job.stop && job.stop->load()) continue;
            current_stop_[worker] = job.stop;
            ++running_;
            return job;
        }
    }

    void finished(std::size_t worker) {
        std::lock_guard lock(mutex_);
        current_stop_[worker].reset();
        --running_;
    }

    // Cancels the queued and the running jobs and joins the workers (again: nothing to do).
    void stop() {
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
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }

    std::size_t threads() const { return threads_.size(); }
    std::size_t queued() const {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }
    std::size_t running() const { return running_.load(); }

private:
    struct Queued {
        Job job;
        Clock::time_point due;  // earliest first
        bool quick = false;
    };

    // The next job a worker of this lane may take (under mutex_).
    typename std::vector<Queued>::iterator next(bool quick_lane) {
        auto best = queue_.end();
        for (auto it = queue_.begin(); it != queue_.end(); ++it) {
            if (quick_lane && !it->quick) continue;
            if (best == queue_.end() || it->due < best->due) best = it;
        }
        return best;
    }

    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Queued> queue_;
    bool stopping_ = false;
    std::atomic<std::size_t> running_{0};
    std::vector<std::shared_ptr<std::atomic<bool>>> current_stop_;  // per worker, under mutex_
    std::vector<std::thread> threads_;
};

}  // namespace xq::server
