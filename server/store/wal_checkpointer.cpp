// WalCheckpointer: a PASSIVE checkpoint per period (it never blocks the writer; frames a
// reader still needs wait for the next one), on its own SQLite connection.
#include "server/store/wal_checkpointer.h"

#include <string>

#include "server/sqlite/sqlite_database.h"

namespace xq::server {

WalCheckpointer::WalCheckpointer(std::filesystem::path file, std::chrono::milliseconds period)
    : file_(std::move(file)), period_(period), thread_([this] { run(); }) {}

WalCheckpointer::~WalCheckpointer() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void WalCheckpointer::run() {
    std::string error;
    const auto db = SqliteDatabase::open(file_, &error);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, period_, [this] { return stop_; })) {
        if (!db) continue;  // nothing to checkpoint with; the last connection's close still does it
        lock.unlock();
        db->exec("PRAGMA wal_checkpoint(PASSIVE);");  // a busy moment is retried next period
        lock.lock();
    }
}

}  // namespace xq::server
