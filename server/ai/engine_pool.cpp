#include "server/ai/engine_pool.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace xq::server {

EnginePool::EnginePool(std::vector<EngineSpec> specs, int workers) : worker_count_(std::clamp(workers, 1, 64)) {
    for (auto& s : specs) {
        if (specs_.count(s.name)) continue;
        names_.push_back(s.name);
        specs_.emplace(s.name, std::move(s));
    }
}

EnginePool::~EnginePool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;  // engines given back from now on are ended, not kept
    }
    queue_.stop();  // a running search notices its stop flag within ENGINE_CANCEL_POLL
    idle_.clear();  // each engine gets "quit", then SIGKILL if it lingers
}

bool EnginePool::start(std::string* error) {
    if (specs_.size() > MAX_ENGINES) {
        if (error) *error = "at most " + std::to_string(MAX_ENGINES) + " engines";
        return false;
    }
    for (const auto& name : names_) {
        std::string err;
        auto e = ExternalEngine::start(specs_.at(name), &err);
        if (!e) {
            if (error) *error = err + " (it must speak UCI or UCCI)";
            return false;
        }
        spdlog::info("engine '{}': {} ({}, {}){}", name, e->id_name().empty() ? e->spec().path : e->id_name(),
                     e->protocol() == EngineProtocol::Uci ? "UCI" : "UCCI", e->spec().path,
                     e->skill_level() ? " with Skill Level" : "");
        std::lock_guard lock(mutex_);
        idle_[name].push_back(std::move(e));
    }
    if (!specs_.empty() && queue_.threads() == 0)
        queue_.start(worker_count_, 0, [this](std::size_t index, bool) { run(index); });
    return true;
}

bool EnginePool::has(std::string_view name) const { return specs_.find(name) != specs_.end(); }

std::size_t EnginePool::processes() const {
    std::lock_guard lock(mutex_);
    std::size_t n = busy_;
    for (const auto& [name, list] : idle_) n += list.size();
    return n;
}

int EnginePool::skill_for_level(int level, const ExternalEngine::SpinRange& range) {
    const int lo = std::clamp(0, range.min, range.max);
    const int l = std::clamp(level, 1, 10);
    return lo + (range.max - lo) * (l - 1) / 9;
}

void EnginePool::submit(EngineJob job) {
    if (!job.stop) job.stop = std::make_shared<std::atomic<bool>>(false);
    const auto due = WorkerQueue<EngineJob>::Clock::now() + job.movetime;
    queue_.push(std::move(job), due, false);
}

std::unique_ptr<ExternalEngine> EnginePool::take(const std::string& name, std::string* error) {
    {
        std::lock_guard lock(mutex_);
        auto& list = idle_[name];
        while (!list.empty()) {
            auto e = std::move(list.back());
            list.pop_back();
            if (e->alive()) {
                ++busy_;
                return e;
            }
        }
    }
    const auto it = specs_.find(name);
    if (it == specs_.end()) {
        *error = "no engine named '" + name + "'";
        return nullptr;
    }
    auto e = ExternalEngine::start(it->second, error);
    if (e) {
        std::lock_guard lock(mutex_);
        ++busy_;
    }
    return e;
}

void EnginePool::give_back(std::unique_ptr<ExternalEngine> e) {
    std::unique_ptr<ExternalEngine> drop;  // ended outside the lock (it may take a moment)
    {
        std::lock_guard lock(mutex_);
        --busy_;
        auto& list = idle_[e->spec().name];
        // At most one idle process per worker and engine: enough for the next searches.
        if (!stopping_ && e->alive() && list.size() < static_cast<std::size_t>(worker_count_))
            list.push_back(std::move(e));
        else
            drop = std::move(e);
    }
}

void EnginePool::run(std::size_t index) {
    while (auto taken = queue_.take(index, false)) {
        EngineJob& job = *taken;
        std::string err;
        EngineReply reply;
        if (auto engine = take(job.engine, &err)) {
            if (const auto& range = engine->skill_level())
                engine->set_option("Skill Level", std::to_string(skill_for_level(job.level, *range)));
            EngineLimits limits;
            limits.movetime = job.movetime;
            limits.cancel = job.stop.get();
            limits.on_info = job.on_info;
            reply = engine->best_move(job.start, job.moves, limits);
            give_back(std::move(engine));
        } else {
            reply.failure = EngineFailure::Crashed;
            reply.detail = "could not be started again: " + err;
        }
        queue_.finished(index);
        if (!job.stop->load() && reply.failure != EngineFailure::Aborted && job.on_done) job.on_done(reply);
    }
}

}  // namespace xq::server
