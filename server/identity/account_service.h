// The account store on a worker thread of its own: an Argon2id hash takes tens of
// milliseconds and 64 MiB, which the server's one I/O thread must never wait for. Jobs run
// one at a time (the store's SQLite connection is used by the worker only); each job posts
// its answer back to whoever asked.
#pragma once

#include <boost/asio/thread_pool.hpp>

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <string>

#include "server/identity/account_store.h"
#include "server/identity/name_policy.h"

namespace xq::server {

// Jobs waiting for the worker beyond which new ones are refused ("busy, try again"): a burst
// of logins cannot queue minutes of hashing or gigabytes of Argon2id memory.
inline constexpr int MAX_PENDING_ACCOUNT_JOBS = 32;

class AccountService {
public:
    // Opens the accounts in `db_file` (the games database, or ":memory:" for a server that
    // keeps nothing). nullptr and a message on failure.
    static std::shared_ptr<AccountService> open(const std::filesystem::path& db_file, std::string* error,
                                                AccountStore::Cost cost = AccountStore::Cost::Interactive);
    ~AccountService();
    AccountService(const AccountService&) = delete;
    AccountService& operator=(const AccountService&) = delete;

    // Queues `job` for the worker thread. False (job dropped) when MAX_PENDING_ACCOUNT_JOBS
    // are waiting already.
    bool submit(std::function<void(AccountStore&)> job);
    // Queues a write that must not be dropped (a rating after a game), whatever the queue.
    void submit_always(std::function<void(AccountStore&)> job);
    // Runs `f` on the worker and waits for its result: for setup and tests, never for a
    // request being served.
    template <class F>
    auto call(F f) {
        using R = decltype(f(std::declval<AccountStore&>()));
        auto p = std::make_shared<std::promise<R>>();
        auto fut = p->get_future();
        submit_always([p, f = std::move(f)](AccountStore& s) mutable { p->set_value(f(s)); });
        return fut.get();
    }
    int pending() const { return pending_.load(); }

private:
    AccountService() = default;

    NamePolicy names_;  // the worker's own: ICU objects are not shared across threads
    std::unique_ptr<AccountStore> store_;
    std::atomic<int> pending_{0};
    boost::asio::thread_pool pool_{1};
};

}  // namespace xq::server
