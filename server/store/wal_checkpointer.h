// Checkpoints the database's write-ahead log on a thread and connection of its own, so the
// store writer's commits never wait for a checkpoint (SQLite would otherwise run one, copying
// pages and syncing the file, inside the commit that crosses its auto-checkpoint size).
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

namespace xq::server {

class WalCheckpointer {
public:
    // Starts checkpointing `file` (a database in WAL mode) every `period`.
    WalCheckpointer(std::filesystem::path file, std::chrono::milliseconds period);
    ~WalCheckpointer();  // stops the thread and waits for it
    WalCheckpointer(const WalCheckpointer&) = delete;
    WalCheckpointer& operator=(const WalCheckpointer&) = delete;

private:
    void run();

    std::filesystem::path file_;
    std::chrono::milliseconds period_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::thread thread_;  // last: started once the members it reads are set
};

}  // namespace xq::server
