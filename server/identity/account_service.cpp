#include "server/identity/account_service.h"

#include <boost/asio/post.hpp>

namespace xq::server {

std::shared_ptr<AccountService> AccountService::open(const std::filesystem::path& db_file, std::string* error,
                                                     AccountStore::Cost cost) {
    std::shared_ptr<AccountService> s(new AccountService());
    s->store_ = AccountStore::open(db_file, s->names_, error, cost);
    if (!s->store_) return nullptr;
    return s;
}

AccountService::~AccountService() {
    // Every queued job runs first: a rating written just before a shutdown is kept. The queue
    // is bounded (MAX_PENDING_ACCOUNT_JOBS hashes at most, plus the rating writes), and the
    // answers are posted to owners that check they are alive.
    pool_.join();
}

bool AccountService::submit(std::function<void(AccountStore&)> job) {
    if (pending_.load() >= MAX_PENDING_ACCOUNT_JOBS) return false;
    submit_always(std::move(job));
    return true;
}

void AccountService::submit_always(std::function<void(AccountStore&)> job) {
    ++pending_;
    boost::asio::post(pool_, [this, job = std::move(job)] {
        job(*store_);
        --pending_;
    });
}

}  // namespace xq::server
