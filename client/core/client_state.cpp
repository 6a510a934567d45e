#include "core/client_state.h"

#include <algorithm>

namespace xq::client {

std::int64_t TableState::clock_now(Color c, std::chrono::steady_clock::time_point now) const {
    const std::int64_t base = clock_ms[c];
    if (base < 0) return -1;
    if (clock_running != c) return base;
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - clock_stamp).count();
    return std::max<std::int64_t>(0, base - elapsed);
}

void push_chat(std::deque<ChatLine>& chat, ChatLine line) {
    chat.push_back(std::move(line));
    while (chat.size() > MAX_CHAT_LINES) chat.pop_front();
}

}  // namespace xq::client
