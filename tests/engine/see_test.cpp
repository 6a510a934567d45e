// Static exchange evaluation on small hand-checked positions.
#include <gtest/gtest.h>

#include "engine/see.h"

namespace xq::engine {
namespace {

Move mv(const char* text) {
    const std::string_view t(text);
    return Move(square_from_string(t.substr(0, 2)), square_from_string(t.substr(2, 2)));
}

Position from_fen(const char* fen) {
    Position p;
    EXPECT_EQ(p.set_fen(fen), FenError::None) << fen;
    return p;
}

TEST(See, UndefendedPawnIsWon) {
    const Position p = from_fen("3k5/9/9/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(see(p, mv("a0a5")), 90);
}

TEST(See, PawnDefendedByHorseCostsTheRook) {
    const Position p = from_fen("3k5/9/1n7/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(see(p, mv("a0a5")), 90 - 950);
}

TEST(See, PawnDefendedByCannonOverAScreenCostsTheRook) {
    // The black cannon on a9 recaptures over the horse on a7.
    const Position p = from_fen("c2k5/9/n8/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(see(p, mv("a0a5")), 90 - 950);
    // Without the screen the cannon cannot recapture.
    const Position q = from_fen("c2k5/9/9/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(see(q, mv("a0a5")), 90);
}

TEST(See, CheaperRecaptureEndsTheExchange) {
    // Horse takes a rook defended by a horse: it is recaptured, Red has nothing more.
    const Position p = from_fen("3k5/9/2n6/r8/9/1N7/9/9/9/5K3 w - - 0 1");
    EXPECT_EQ(see(p, mv("b4a6")), 950 - 420);
}

TEST(See, QuietMoveOntoAnAttackedPointLosesThePiece) {
    const Position p = from_fen("3k5/9/9/9/p8/9/9/9/9/R4K3 w - - 0 1");
    EXPECT_EQ(see(p, mv("a0a4")), -950);  // the pawn on a5 steps onto a4
    EXPECT_EQ(see(p, mv("a0a3")), 0);
}

}  // namespace
}  // namespace xq::engine
