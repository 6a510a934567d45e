// The store's writer: a thread with its own SQLite connection that runs the writes the I/O
// thread queues, in the order queued, and commits all those queued since its last commit in
// one transaction (group commit). The I/O thread never waits for SQLite on a move; what it
// must not say before a write is durable waits for that write's ticket (net/ Server's
// hold_table / release, wired by ServerRuntime and GameRecorder), so a line of a table that a
// client reads still follows the commit of every write of that table queued before it.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "server/store/storage.h"

namespace xq::server {

class StoreWriter {
public:
    // One write: false when it failed (its Storage's last_error() says why).
    using Job = std::function<bool(Storage&)>;
    // `queued(ticket)` runs on the posting thread right after a job is queued; `committed(ticket)`
    // on the writer thread after each commit, with the last ticket it made durable (every
    // ticket up to it is done, committed or failed).
    StoreWriter(std::unique_ptr<Storage> storage, std::function<void(std::uint64_t)> queued,
                std::function<void(std::uint64_t)> committed);
    ~StoreWriter();  // commits what is queued, then stops the thread
    StoreWriter(const StoreWriter&) = delete;
    StoreWriter& operator=(const StoreWriter&) = delete;

    // Queues `job` (`what` names it in the log when it fails); returns its ticket (1, 2, ...).
    std::uint64_t post(const char* what, Job job);
    // Waits until every job posted so far is done (and `committed` has run for it); returns
    // the last ticket done.
    std::uint64_t drain();

    std::uint64_t failed() const { return failed_.load(); }
    std::uint64_t done() const { return done_jobs_.load(); }          // jobs committed or failed
    std::uint64_t commits() const { return commits_.load(); }        // transactions committed

private:
    struct Entry {
        std::uint64_t ticket;
        const char* what;
        Job job;
    };
    void run();
    void run_batch(std::vector<Entry>& batch);

    std::unique_ptr<Storage> storage_;  // used by the writer thread only
    std::function<void(std::uint64_t)> queued_, committed_;
    std::mutex mutex_;
    std::condition_variable wake_;     // the writer: work or stop
    std::condition_variable drained_;  // drain(): a batch is done
    std::vector<Entry> queue_;
    std::uint64_t posted_ = 0;  // last ticket given
    std::uint64_t done_ = 0;    // last ticket done
    bool stop_ = false;
    bool idle_ = false;         // the writer waits for work
    std::atomic<std::uint64_t> failed_{0}, done_jobs_{0}, commits_{0};
    std::thread thread_;  // last: started once the members it reads are set
};

}  // namespace xq::server
