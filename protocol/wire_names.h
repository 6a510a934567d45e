// The wire names of the protocol's enums, in enum order, for the codec's encoder and decoder
// and the *_name functions of codec.h. Internal to protocol/ (codec.h is the interface).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace xq::proto::wire {

inline constexpr std::array<std::string_view, 3> ROLE_NAMES = {"red", "black", "spectator"};
inline constexpr std::array<std::string_view, 2> SCOPE_NAMES = {"lobby", "table"};
inline constexpr std::array<std::string_view, 3> STATUS_NAMES = {"waiting", "playing", "over"};
inline constexpr std::array<std::string_view, 4> LEAVE_NAMES = {"left", "disconnected", "dropped", "replaced"};
inline constexpr std::array<std::string_view, 2> COLOR_NAMES = {"red", "black"};
inline constexpr std::array<std::string_view, 2> ABANDON_NAMES = {"claim", "ai"};
inline constexpr std::array<std::string_view, 2> FORMAT_NAMES = {"round_robin", "swiss"};
inline constexpr std::array<std::string_view, 3> TOURNAMENT_STATE_NAMES = {"open", "running", "finished"};
inline constexpr std::array<std::string_view, 8> BOARD_RESULT_NAMES = {
    "*", "1-0", "1/2-1/2", "0-1", "red_forfeit", "black_forfeit", "double_forfeit", "bye"};
inline constexpr std::array<std::string_view, 3> OFFER_NAMES = {"draw", "takeback", "new_game"};
inline constexpr std::array<std::string_view, 5> ARBITER_NAMES = {"pause", "resume", "add_time", "adjudicate", "cancel"};
inline constexpr std::array<std::string_view, 4> OUTCOME_NAMES = {"*", "1-0", "0-1", "1/2-1/2"};
inline constexpr std::array<std::string_view, 3> NOTATION_NAMES = {"iccs", "wxf", "chinese"};

template <class E, std::size_t N>
bool enum_from(const std::array<std::string_view, N>& names, std::string_view s, E& out) {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == s) {
            out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

}  // namespace xq::proto::wire
