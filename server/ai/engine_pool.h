// The host's external engines (--engine NAME=PATH) for AI seats: each is checked once at
// start, then searches run on a few worker threads, each driving one child process at a
// time (idle processes are kept for the next search, a failed one is replaced). Searches are
// queued as the built-in AI's are (worker_queue.h): shortest expected finish first. Callbacks
// run on a worker thread: the table posts them back to the I/O thread and referees there.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "server/ai/external_engine.h"
#include "server/ai/worker_queue.h"

namespace xq::server {

// Most engines one server may name on its command line.
constexpr std::size_t MAX_ENGINES = 16;

struct EngineJob {
    std::string engine;  // one of EnginePool::names()
    Position start;
    std::vector<Move> moves;
    int level = 5;       // 1..10: sets the engine's "Skill Level" when it has one
    EngineMs movetime{1000};
    std::shared_ptr<std::atomic<bool>> stop;            // set to cancel; a cancelled job reports nothing
    std::function<void(const EngineInfo&)> on_info;    // worker thread
    std::function<void(const EngineReply&)> on_done;   // worker thread; failures included
};

class EnginePool {
public:
    explicit EnginePool(std::vector<EngineSpec> specs, int workers = 2);
    ~EnginePool();  // cancels everything, joins the workers, ends every engine process
    EnginePool(const EnginePool&) = delete;
    EnginePool& operator=(const EnginePool&) = delete;

    // Starts every engine once to check it speaks UCI or UCCI (the process is kept for the
    // first search). False and a message naming the engine when one does not.
    bool start(std::string* error);
    const std::vector<std::string>& names() const { return names_; }
    bool has(std::string_view name) const;
    void submit(EngineJob job);
    std::size_t workers() const { return queue_.threads(); }
    // Engine processes alive now (idle and searching).
    std::size_t processes() const;

    // Skill Level for level 1..10 within an engine's range (the negative part of a range
    // such as Fairy-Stockfish's -20..20 is left out: level 1 is skill 0).
    static int skill_for_level(int level, const ExternalEngine::SpinRange& range);

private:
    void run(std::size_t index);
    std::unique_ptr<ExternalEngine> take(const std::string& name, std::string* error);
    void give_back(std::unique_ptr<ExternalEngine> e);

    std::map<std::string, EngineSpec, std::less<>> specs_;
    std::vector<std::string> names_;
    int worker_count_;
    mutable std::mutex mutex_;  // the processes below (the queue has its own)
    bool stopping_ = false;                                                                // under mutex_
    std::map<std::string, std::vector<std::unique_ptr<ExternalEngine>>, std::less<>> idle_;  // under mutex_
    std::size_t busy_ = 0;                                                                 // under mutex_
    WorkerQueue<EngineJob> queue_;  // last: its workers stop before the processes go
};

}  // namespace xq::server
