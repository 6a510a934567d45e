// Small helpers shared by the rules tests: positions from FEN, moves from ICCS text.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/game.h"
#include "xiangqi/position.h"

namespace xq::test {

inline Position fen_pos(std::string_view fen) {
    Position p;
    const FenError e = p.set_fen(fen);
    EXPECT_EQ(e, FenError::None) << fen << ": " << fen_error_message(e);
    return p;
}

inline Move iccs(std::string_view text) {
    return Move(square_from_string(text.substr(0, 2)), square_from_string(text.substr(2, 2)));
}

inline Square sq(std::string_view text) { return square_from_string(text); }

// Legal moves of the piece on `from`, as sorted ICCS strings.
inline std::set<std::string> moves_from(const Position& p, std::string_view from) {
    MoveList l;
    p.generate_legal(l);
    std::set<std::string> out;
    for (Move m : l)
        if (m.from() == square_from_string(from)) out.insert(move_to_iccs(m));
    return out;
}

inline std::set<std::string> all_moves(const Position& p) {
    MoveList l;
    p.generate_legal(l);
    std::set<std::string> out;
    for (Move m : l) out.insert(move_to_iccs(m));
    return out;
}

// Plays ICCS moves in a game; each must be legal.
inline void play_all(Game& g, std::initializer_list<std::string_view> moves) {
    for (auto t : moves) ASSERT_TRUE(g.play(iccs(t))) << "illegal or refused: " << t << " at ply " << g.ply();
}

}  // namespace xq::test
