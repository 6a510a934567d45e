// What a restarted server needs to rebuild one unfinished game's table: the seats as they
// were (humans get their resume tokens and a fresh grace period, AIs their level).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace xq::server {

struct RestoredSeat {
    enum class Kind { Empty, Human, Ai };
    Kind kind = Kind::Empty;
    std::string name;
    std::string token;  // humans: the resume token that reclaims the seat
    int ai_level = 0;
    std::string engine;  // AI seats played by an external engine: its name
    // A human seat under a registered account's name: that account and its rating, so the
    // seat shows the rating before its player comes back (filled by the lobby).
    std::int64_t account_id = 0;
    std::optional<int> rating;
};

}  // namespace xq::server
