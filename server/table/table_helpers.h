// Small helpers the table's files share (outcomes, refusals, names in messages). Private to
// server/table/: nothing outside this folder includes it.
#pragma once

#include <string>

#include "server/table/table.h"

namespace xq::server {

inline std::string ai_name(int level) { return "AI level " + std::to_string(level); }

inline Outcome win_for(Color c) { return c == RED ? Outcome::RedWins : Outcome::BlackWins; }

inline bool board_decided(EndReason r) {
    switch (r) {
    case EndReason::Checkmate:
    case EndReason::Stalemate:
    case EndReason::PerpetualCheck:
    case EndReason::PerpetualChase:
    case EndReason::Repetition:
    case EndReason::MoveLimit:
    case EndReason::InsufficientMaterial: return true;
    default: return false;
    }
}

inline Rejection reject(proto::ErrorCode c, std::string msg) { return Rejection{c, std::move(msg)}; }

inline std::string side_name(Color c) { return std::string(color_name(c)); }

}  // namespace xq::server
