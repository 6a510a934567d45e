// Limits password guessing per remote address: after `max_failures` wrong passwords within
// `window` the address is locked out for `lockout` (every hello from it is refused).
// Time is passed in so tests can drive it; the table of addresses is bounded.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace xq::server {

// Longest server password accepted (flag or environment).
constexpr std::size_t MAX_PASSWORD_BYTES = 128;

// Compares in time independent of where the texts differ (a password guess learns nothing).
bool password_matches(std::string_view expected, std::string_view given);

class PasswordGuard {
public:
    using Clock = std::chrono::steady_clock;

    PasswordGuard(int max_failures, Clock::duration window, Clock::duration lockout, std::size_t max_addresses)
        : max_failures_(max_failures), window_(window), lockout_(lockout), max_addresses_(max_addresses) {}

    // Time left in the lockout of `address`; zero when it may try.
    Clock::duration locked_for(const std::string& address, Clock::time_point now) const {
        const auto it = entries_.find(address);
        if (it == entries_.end() || it->second.locked_until <= now) return Clock::duration::zero();
        return it->second.locked_until - now;
    }

    // A wrong password from `address`. True when this failure locked the address out.
    bool failed(const std::string& address, Clock::time_point now) {
        if (max_failures_ <= 0) return false;
        if (entries_.size() >= max_addresses_ && !entries_.count(address)) prune(now);
        // Still full of live entries: the oldest-looking one gives way (bounded memory wins).
        if (entries_.size() >= max_addresses_ && !entries_.count(address)) entries_.erase(entries_.begin());
        Entry& e = entries_[address];
        while (!e.failures.empty() && now - e.failures.front() >= window_) e.failures.pop_front();
        e.failures.push_back(now);
        if (static_cast<int>(e.failures.size()) >= max_failures_) {
            e.failures.clear();
            e.locked_until = now + lockout_;
            return true;
        }
        return false;
    }

    std::size_t tracked() const { return entries_.size(); }

private:
    struct Entry {
        std::deque<Clock::time_point> failures;
        Clock::time_point locked_until{};
    };

    void prune(Clock::time_point now) {
        for (auto it = entries_.begin(); it != entries_.end();) {
            const Entry& e = it->second;
            const bool stale = e.locked_until <= now && (e.failures.empty() || now - e.failures.back() >= window_);
            it = stale ? entries_.erase(it) : std::next(it);
        }
    }

    int max_failures_;
    Clock::duration window_;
    Clock::duration lockout_;
    std::size_t max_addresses_;
    std::unordered_map<std::string, Entry> entries_;
};

}  // namespace xq::server
