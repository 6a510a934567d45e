// The position editor's board: placement refusals with the rules code's reasons, counts per
// set, FEN in and out (also of incomplete boards), and the check of a finished position.
#include <gtest/gtest.h>

#include "core/position_editor.h"

namespace xq::client {
namespace {

Square sq(const char* name) { return make_square(name[0] - 'a', name[1] - '0'); }

TEST(PositionEditor, StartsFromTheStandardPositionAndWritesItBack) {
    PositionEditor e;
    EXPECT_EQ(e.fen(), std::string(START_FEN));
    EXPECT_EQ(e.check(), FenError::None);
    EXPECT_EQ(e.at(sq("e0")), make_piece(RED, KING));
    EXPECT_EQ(e.left_in_set(make_piece(BLACK, PAWN)), 0);
}

TEST(PositionEditor, RefusesPointsAPieceCanNeverReachWithTheReason) {
    PositionEditor e;
    e.clear();
    EXPECT_EQ(e.place(make_piece(BLACK, ELEPHANT), sq("e5")), FenError::BadElephantSquare);
    EXPECT_EQ(e.place(make_piece(RED, ELEPHANT), sq("e5")), FenError::BadElephantSquare);  // across the river
    EXPECT_EQ(e.place(make_piece(RED, ELEPHANT), sq("e2")), FenError::None);
    EXPECT_EQ(e.place(make_piece(RED, ADVISOR), sq("e0")), FenError::BadAdvisorSquare);
    EXPECT_EQ(e.place(make_piece(RED, ADVISOR), sq("e1")), FenError::None);
    EXPECT_EQ(e.place(make_piece(RED, KING), sq("c0")), FenError::BadKingSquare);
    EXPECT_EQ(e.place(make_piece(BLACK, KING), sq("e2")), FenError::BadKingSquare);  // Red's palace
    EXPECT_EQ(e.place(make_piece(RED, PAWN), sq("b3")), FenError::BadPawnSquare);  // odd file before the river
    EXPECT_EQ(e.place(make_piece(RED, PAWN), sq("a2")), FenError::BadPawnSquare);  // behind its start
    EXPECT_EQ(e.place(make_piece(RED, PAWN), sq("b5")), FenError::None);
    EXPECT_EQ(e.place(make_piece(RED, ROOK), sq("e5")), FenError::None);  // rooks go anywhere
    EXPECT_EQ(e.at(sq("e5")), make_piece(RED, ROOK));
    EXPECT_EQ(e.at(sq("c0")), NO_PIECE);  // a refused piece is not placed
}

TEST(PositionEditor, KeepsToTheSetsCounts) {
    PositionEditor e;
    e.clear();
    const Piece rook = make_piece(RED, ROOK);
    EXPECT_EQ(e.place(rook, sq("a0")), FenError::None);
    EXPECT_EQ(e.place(rook, sq("i0")), FenError::None);
    EXPECT_EQ(e.left_in_set(rook), 0);
    EXPECT_EQ(e.place(rook, sq("e4")), FenError::TooManyPieces);
    EXPECT_EQ(e.place(rook, sq("a0")), FenError::None);  // the same piece again adds none
    EXPECT_EQ(e.place(make_piece(RED, KING), sq("e0")), FenError::None);
    EXPECT_EQ(e.place(make_piece(RED, KING), sq("d0")), FenError::TooManyKings);
    for (const char* p : {"a3", "c3", "e3", "g3", "i3"}) EXPECT_EQ(e.place(make_piece(RED, PAWN), sq(p)), FenError::None);
    EXPECT_EQ(e.place(make_piece(RED, PAWN), sq("a6")), FenError::TooManyPieces);
    EXPECT_EQ(e.count(make_piece(RED, PAWN)), 5);
}

TEST(PositionEditor, MovesPiecesUnderTheSameRules) {
    PositionEditor e;
    EXPECT_EQ(e.move(sq("e0"), sq("e1")), FenError::None);
    EXPECT_EQ(e.at(sq("e1")), make_piece(RED, KING));
    EXPECT_EQ(e.move(sq("e1"), sq("e3")), FenError::BadKingSquare);
    EXPECT_EQ(e.at(sq("e1")), make_piece(RED, KING));  // unchanged
    EXPECT_EQ(e.move(sq("c0"), sq("e2")), FenError::None);  // elephant from c0 to e2
    EXPECT_EQ(e.move(sq("e5"), sq("e6")), FenError::UnknownPiece);  // nothing there
}

TEST(PositionEditor, TheChecksSayWhatIsWrongWithTheWholeBoard) {
    PositionEditor e;
    e.clear();
    EXPECT_EQ(e.fen(), "9/9/9/9/9/9/9/9/9/9 w - - 0 1");
    EXPECT_EQ(e.check(), FenError::MissingKing);
    EXPECT_FALSE(e.position().has_value());
    ASSERT_EQ(e.place(make_piece(RED, KING), sq("e0")), FenError::None);
    ASSERT_EQ(e.place(make_piece(BLACK, KING), sq("e9")), FenError::None);
    // The kings face each other on an open file: the side that just moved is "in check".
    EXPECT_EQ(e.check(), FenError::SideNotToMoveInCheck);
    ASSERT_EQ(e.place(make_piece(BLACK, ADVISOR), sq("e8")), FenError::None);
    EXPECT_EQ(e.check(), FenError::None);
    // A rook giving check with Red to move: Black (not to move) stands in check.
    ASSERT_EQ(e.place(make_piece(RED, ROOK), sq("d9")), FenError::None);
    EXPECT_EQ(e.check(), FenError::SideNotToMoveInCheck);
    e.set_side_to_move(BLACK);
    EXPECT_EQ(e.check(), FenError::None);
    const auto pos = e.position();
    ASSERT_TRUE(pos.has_value());
    EXPECT_EQ(pos->side_to_move(), BLACK);
    EXPECT_TRUE(pos->in_check());
    EXPECT_EQ(e.fen(), "3Rk4/4a4/9/9/9/9/9/9/9/4K4 b - - 0 1");
}

TEST(PositionEditor, ReadsFenAndKeepsTheBoardOnARefusal) {
    PositionEditor e;
    EXPECT_EQ(e.load_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1"), FenError::None);
    EXPECT_EQ(e.fen(), "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1");
    EXPECT_EQ(e.side_to_move(), BLACK);
    const std::string before = e.fen();
    EXPECT_EQ(e.load_fen("4k4/9/9/9/4b4/9/9/9/9/4K4 w - - 0 1"), FenError::BadElephantSquare);
    EXPECT_EQ(e.load_fen("not a fen"), FenError::BadRankCount);
    EXPECT_EQ(e.fen(), before);
}

}  // namespace
}  // namespace xq::client
