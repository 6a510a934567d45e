// Handicap games (让子棋): the start positions the create-table dialog offers besides the
// standard one. The set and the positions are those of XQWLight (象棋小巫师, www.xqbase.com,
// 2004-2008), whose "先走让子" choice removes pieces from the side that moves first:
// Red gives the pieces and Red moves first; the chariot handicaps (让单车, 让双车) follow the same
// convention. docs/RULES.md, "Handicap games", names them.
#pragma once

#include <span>
#include <string_view>

#include "core/strings.h"
#include "xiangqi/position.h"

namespace xq::client {

struct HandicapInfo {
    std::string_view key;  // the script's and the docs' name: none, left_horse, ...
    std::string_view fen;  // empty for the standard start
    Str name;              // 不让子, 让左马, ...
    Str detail;            // which pieces Red gives; Red moves first
};

// Every handicap the dialog offers, the standard start first.
std::span<const HandicapInfo> handicaps();
// The handicap with this key, or nullptr.
const HandicapInfo* find_handicap(std::string_view key);
// The handicap a game starts from ("none" for the standard start), or nullptr for any other
// set-up position.
const HandicapInfo* handicap_of(const Position& start);

}  // namespace xq::client
