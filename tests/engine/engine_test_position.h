// Positions and moves from text for the engine's tests: a FEN the rules refuse fails the test
// that gave it; a move is ICCS text ("h2e2"), not checked for legality.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "xiangqi/position.h"

namespace xq::engine_test {

inline Position from_fen(std::string_view fen) {
    Position p;
    EXPECT_EQ(p.set_fen(fen), FenError::None) << fen;
    return p;
}

inline Move mv(const char* t) {
    return Move(square_from_string(std::string_view(t, 2)), square_from_string(std::string_view(t + 2, 2)));
}

}  // namespace xq::engine_test
