// Flood control: a sliding-window counter (chat: N per window) and a token bucket
// (all messages). Time is passed in, so tests and callers share one clock.
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

#include "server/config/server_config.h"

namespace xq::server {

// At most `limit` events in any `window`.
class WindowLimiter {
public:
    WindowLimiter(int limit, Clock::duration window) : limit_(limit), window_(window) {}
    bool allow(Clock::time_point now) {
        const auto live = std::find_if(times_.begin(), times_.end(), [&](auto t) { return now - t < window_; });
        times_.erase(times_.begin(), live);
        if (static_cast<int>(times_.size()) >= limit_) return false;
        times_.push_back(now);
        return true;
    }

private:
    int limit_;
    Clock::duration window_;
    // At most `limit_` entries; a vector allocates nothing until the first event (a deque
    // takes ~600 bytes at once, for every connection).
    std::vector<Clock::time_point> times_;
};

class TokenBucket {
public:
    TokenBucket(double rate_per_s, double burst) : rate_(rate_per_s), burst_(burst), tokens_(burst) {}
    bool take(Clock::time_point now) {
        if (started_) {
            const double dt = std::chrono::duration<double>(now - last_).count();
            tokens_ = std::min(burst_, tokens_ + dt * rate_);
        }
        started_ = true;
        last_ = now;
        if (tokens_ < 1.0) return false;
        tokens_ -= 1.0;
        return true;
    }

private:
    double rate_;
    double burst_;
    double tokens_;
    bool started_ = false;
    Clock::time_point last_{};
};

}  // namespace xq::server
