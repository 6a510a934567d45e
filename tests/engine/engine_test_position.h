// Positions and moves from text for the engine's tests: a FEN the rules refuse fails the test
// that gave it; a move is ICCS text ("h2e2"), not checked for legality. Also positions of
// random games, the same for the same seed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "xiangqi/game.h"
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

// `count` positions of games of random legal moves (a linear congruential generator from
// `seed`), each game at most `max_plies` long; the positions after each move until it ends.
inline std::vector<Position> random_game_positions(int count, std::uint64_t seed, int max_plies) {
    std::vector<Position> out;
    std::uint64_t state = seed;
    auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return state >> 33;
    };
    while (int(out.size()) < count) {
        Game game;
        for (int ply = 0; ply < max_plies && !game.over(); ++ply) {
            const MoveList moves = game.legal_moves();
            if (moves.empty()) break;
            game.play(moves[int(next() % std::uint64_t(moves.size()))]);
            if (!game.over()) out.push_back(game.position());
        }
    }
    out.resize(std::size_t(count));
    return out;
}

}  // namespace xq::engine_test
