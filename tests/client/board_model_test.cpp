#include <gtest/gtest.h>

#include "core/board_model.h"

using namespace xq;
using namespace xq::client;

namespace {

Move mv(const char* t) {
    return Move(square_from_string(std::string_view(t, 2)), square_from_string(std::string_view(t + 2, 2)));
}

}  // namespace

TEST(BoardModel, LoadsSnapshotAndRefusesBadOnes) {
    BoardModel m;
    EXPECT_EQ(m.load_snapshot("", {"h2e2", "h9g7"}), "");
    EXPECT_EQ(m.ply(), 2);
    EXPECT_EQ(m.last_move(), mv("h9g7"));
    EXPECT_EQ(m.position().piece_on(square_from_string("e2")), R_CANNON);

    const std::string err = m.load_snapshot("", {"h2e2", "e0e5"});
    EXPECT_NE(err.find("ply 2"), std::string::npos) << err;
    EXPECT_EQ(m.ply(), 2) << "a refused snapshot leaves the model unchanged";
    EXPECT_NE(m.load_snapshot("not a fen", {}), "");
    EXPECT_EQ(m.load_snapshot("4k4/9/9/9/9/9/4P4/9/4A4/3K5 w - - 0 1", {"d0d1"}), "");
    EXPECT_EQ(m.position().king_square(RED), square_from_string("d1"));
}

TEST(BoardModel, AppliesServerMovesAndDetectsDivergence) {
    BoardModel m;
    Position after;
    {
        Game g;
        g.play(mv("h2e2"));
        after = g.position();
    }
    EXPECT_EQ(m.apply_server_move(1, "h2e2", after.fen()), ApplyResult::Applied);
    EXPECT_EQ(m.ply(), 1);
    EXPECT_EQ(m.apply_server_move(1, "h2e2", after.fen()), ApplyResult::Duplicate);
    EXPECT_EQ(m.ply(), 1);
    // A gap in plies, a different move at a known ply, an illegal move, a different FEN.
    EXPECT_EQ(m.apply_server_move(3, "h9g7", ""), ApplyResult::NeedResync);
    EXPECT_EQ(m.apply_server_move(1, "b2e2", ""), ApplyResult::NeedResync);
    EXPECT_EQ(m.apply_server_move(2, "a9a3", ""), ApplyResult::NeedResync);
    EXPECT_EQ(m.apply_server_move(2, "h9g7", std::string(START_FEN)), ApplyResult::NeedResync);
    EXPECT_EQ(m.ply(), 1) << "nothing applied on divergence";
    EXPECT_EQ(m.apply_server_move(2, "h9g7", ""), ApplyResult::Applied);
    EXPECT_TRUE(m.rewind_to(0));
    EXPECT_EQ(m.ply(), 0);
    EXPECT_EQ(m.position(), Position());
    EXPECT_FALSE(m.rewind_to(5));
}

TEST(BoardModel, SeatTurnFlipAndMovable) {
    BoardModel m;
    EXPECT_FALSE(m.flipped());
    m.set_seat(BLACK);
    EXPECT_TRUE(m.flipped()) << "sitting Black puts Black at the bottom";
    m.toggle_flip();
    EXPECT_FALSE(m.flipped());
    m.set_seat(RED);
    EXPECT_FALSE(m.flipped());
    EXPECT_FALSE(m.my_turn()) << "not before the game is in progress";
    m.set_in_progress(true);
    EXPECT_TRUE(m.my_turn());
    EXPECT_TRUE(m.is_movable(square_from_string("h2")));   // cannon
    EXPECT_FALSE(m.is_movable(square_from_string("h9")));  // a black horse
    EXPECT_FALSE(m.is_movable(square_from_string("e5")));  // empty
    EXPECT_EQ(m.targets_from(square_from_string("h0")).size(), 2);  // horse: g2, i2
    m.set_seat(std::nullopt);
    EXPECT_FALSE(m.my_turn());
    EXPECT_FALSE(m.is_movable(square_from_string("h2")));
}

TEST(BoardModel, CheckedKing) {
    BoardModel m;
    EXPECT_EQ(m.checked_king(), SQ_NONE);
    // The red rook on e5 checks the black king on e9.
    ASSERT_EQ(m.load_snapshot("4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 1", {}), "");
    EXPECT_EQ(m.checked_king(), square_from_string("e9"));
}

TEST(BoardModel, SamePlacementIgnoresCounters) {
    EXPECT_TRUE(same_placement(START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 7 9"));
    EXPECT_TRUE(same_placement(START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"));
    EXPECT_FALSE(same_placement(START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
    EXPECT_FALSE(same_placement(START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/4C2C1/9/RNBAKABNR w - - 0 1"));
}

TEST(ExplainIllegal, NamesEachReason) {
    const Position start;
    EXPECT_EQ(explain_illegal(start, mv("h2e2")), IllegalReason::None);
    EXPECT_EQ(explain_illegal(start, mv("e5e6")), IllegalReason::EmptySquare);
    EXPECT_EQ(explain_illegal(start, mv("h9g7")), IllegalReason::NotYourPiece);
    EXPECT_EQ(explain_illegal(start, mv("a0a3")), IllegalReason::OwnPieceOnTarget);
    EXPECT_EQ(explain_illegal(start, mv("a0b1")), IllegalReason::StraightLineOnly);
    EXPECT_EQ(explain_illegal(start, mv("a0a5")), IllegalReason::PathBlocked);
    EXPECT_EQ(explain_illegal(start, mv("h2h9")), IllegalReason::None);  // one screen: a capture
    EXPECT_EQ(explain_illegal(start, mv("h2h4")), IllegalReason::None);
    EXPECT_EQ(explain_illegal(start, mv("e0e2")), IllegalReason::KingMove);
    EXPECT_EQ(explain_illegal(start, mv("d0d1")), IllegalReason::AdvisorMove);
    EXPECT_EQ(explain_illegal(start, mv("c0c2")), IllegalReason::ElephantMove);
    EXPECT_EQ(explain_illegal(start, mv("b0a1")), IllegalReason::HorseMove);
    EXPECT_EQ(explain_illegal(start, mv("e3e2")), IllegalReason::PawnMove);   // backwards
    EXPECT_EQ(explain_illegal(start, mv("e3d3")), IllegalReason::PawnMove);   // sideways before the river

    Position p;
    // Horse leg: red horse b0 with a piece on b1; elephant eye: red elephant c0 with d1 occupied.
    ASSERT_EQ(p.set_fen("5k3/9/9/9/9/9/9/9/1R1R5/1NB1K4 w - - 0 1"), FenError::None);
    EXPECT_EQ(explain_illegal(p, mv("b0a2")), IllegalReason::HorseLegBlocked);
    EXPECT_EQ(explain_illegal(p, mv("c0e2")), IllegalReason::ElephantEyeBlocked);
    EXPECT_EQ(explain_illegal(p, mv("e0f0")), IllegalReason::GeneralsFace);  // the black king is on f9
    EXPECT_EQ(explain_illegal(p, mv("e0e1")), IllegalReason::None);

    // Elephant across the river; king out of the palace.
    ASSERT_EQ(p.set_fen("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1"), FenError::None);
    EXPECT_EQ(explain_illegal(p, mv("c4e6")), IllegalReason::ElephantCrossesRiver);
    // A cannon capture with no screen.
    ASSERT_EQ(p.set_fen("4k4/9/9/9/4c4/9/9/4R4/9/3K5 b - - 0 1"), FenError::None);
    EXPECT_EQ(explain_illegal(p, mv("e5e2")), IllegalReason::CannonNeedsScreen);
    ASSERT_EQ(p.set_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), FenError::None);
    EXPECT_EQ(explain_illegal(p, mv("d0c0")), IllegalReason::KingLeavesPalace);
    // Facing generals: the red king may not step onto the open e-file.
    EXPECT_EQ(explain_illegal(p, mv("d0e0")), IllegalReason::GeneralsFace);
    // Pinned rook: moving it off the file exposes the king to the black rook.
    ASSERT_EQ(p.set_fen("3k5/9/9/4r4/9/9/9/4R4/9/4K4 w - - 0 1"), FenError::None);
    EXPECT_EQ(explain_illegal(p, mv("e2a2")), IllegalReason::LeavesKingInCheck);
    EXPECT_EQ(explain_illegal(p, mv("e2e6")), IllegalReason::None);
}

// Take back is offered once our seat has a move to take back: Red after ply 1, Black after
// ply 2, and from a position with Black to move the other way round; never to a spectator.
TEST(BoardModel, SeatHasMovedFollowsWhoMovesFirst) {
    BoardModel m;
    m.set_seat(RED);
    EXPECT_FALSE(m.seat_has_moved());
    ASSERT_EQ(m.load_snapshot(START_FEN, {"h2e2"}), "");
    EXPECT_TRUE(m.seat_has_moved());
    m.set_seat(BLACK);
    EXPECT_FALSE(m.seat_has_moved());
    ASSERT_EQ(m.load_snapshot(START_FEN, {"h2e2", "h9g7"}), "");
    EXPECT_TRUE(m.seat_has_moved());
    m.set_seat(std::nullopt);
    EXPECT_FALSE(m.seat_has_moved());

    const std::string black_first = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b";
    ASSERT_EQ(m.load_snapshot(black_first, {"h7e7"}), "");
    m.set_seat(BLACK);
    EXPECT_TRUE(m.seat_has_moved());
    m.set_seat(RED);
    EXPECT_FALSE(m.seat_has_moved());
}
