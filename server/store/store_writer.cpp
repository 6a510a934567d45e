// StoreWriter: the writer thread's loop. Each turn takes every job queued so far and runs
// them in one transaction (BEGIN IMMEDIATE ... COMMIT): one WAL append and one lock round
// for all of them instead of one per write. A job that fails is logged and counted; the
// others still commit (a failing statement undoes only itself, and a job of several
// statements is a savepoint of its own, see SqliteTransaction).
#include "server/store/store_writer.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <utility>

namespace xq::server {

StoreWriter::StoreWriter(std::unique_ptr<Storage> storage, std::function<void(std::uint64_t)> queued,
                         std::function<void(std::uint64_t)> committed)
    : storage_(std::move(storage)), queued_(std::move(queued)), committed_(std::move(committed)),
      thread_([this] { run(); }) {}

StoreWriter::~StoreWriter() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::uint64_t StoreWriter::post(const char* what, Job job) {
    std::uint64_t ticket = 0;
    bool wake = false;
    {
        std::lock_guard lock(mutex_);
        ticket = ++posted_;
        queue_.push_back(Entry{ticket, what, std::move(job)});
        wake = std::exchange(idle_, false);
    }
    // Only a sleeping writer needs the signal (a futex call): a busy one finds the job when
    // its batch is done.
    if (wake) wake_.notify_one();
    if (queued_) queued_(ticket);
    return ticket;
}

std::uint64_t StoreWriter::drain() {
    std::unique_lock lock(mutex_);
    const std::uint64_t until = posted_;
    drained_.wait(lock, [&] { return done_ >= until; });
    return done_;
}

void StoreWriter::run() {
    pthread_setname_np(pthread_self(), "xq-store");  // tells it apart in top -H and perf
    std::vector<Entry> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
        idle_ = true;
        wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        idle_ = false;
        if (queue_.empty()) return;  // stopping, and everything is done
        batch.swap(queue_);
        lock.unlock();
        run_batch(batch);
        const std::uint64_t last = batch.back().ticket;
        done_jobs_ += batch.size();
        batch.clear();
        if (committed_) committed_(last);  // before drain() returns for it
        lock.lock();
        done_ = last;
        drained_.notify_all();
    }
}

void StoreWriter::run_batch(std::vector<Entry>& batch) {
    SqliteDatabase& db = storage_->database();
    // Jobs run in the open transaction since it began (lost if it cannot commit).
    std::size_t in_transaction = 0;
    bool open = db.exec("BEGIN IMMEDIATE");
    if (!open) spdlog::error("database: cannot begin a transaction ({}); writing one by one", db.error());
    auto lost = [&](const char* why) {
        failed_ += in_transaction;
        spdlog::error("database: {} writes lost: {}", in_transaction, why);
        in_transaction = 0;
    };
    for (Entry& e : batch) {
        const bool ok = e.job(*storage_);
        if (!ok) {
            ++failed_;
            spdlog::error("database: {} failed: {}", e.what, storage_->last_error());
        }
        if (!open) continue;
        if (!db.in_transaction()) {
            // SQLite rolled the whole transaction back (disk full, I/O error): what ran in it
            // is gone; the rest goes on in a new one.
            lost(db.error().c_str());
            open = db.exec("BEGIN IMMEDIATE");
            continue;
        }
        if (ok) ++in_transaction;
    }
    if (!open) return;
    if (db.exec("COMMIT")) {
        ++commits_;
        return;
    }
    const std::string why = db.error();
    db.exec("ROLLBACK");
    lost(why.c_str());
}

}  // namespace xq::server
