// Temporary WXF and Chinese move text for move_made until common/xiangqi/notation.h lands
// on main; then the server calls xq::to_wxf / xq::to_chinese and this file goes away.
#pragma once

#include <string>

#include "xiangqi/position.h"

namespace xq::server::fallback {

std::string to_wxf(const Position& pos, Move m);
std::string to_chinese(const Position& pos, Move m);

}  // namespace xq::server::fallback
