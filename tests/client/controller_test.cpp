#include <gtest/gtest.h>

#include <cmath>

#include "core/board_geometry.h"
#include "core/controller.h"

using namespace xq;
using namespace xq::client;

namespace {

Square sq(const char* t) { return square_from_string(t); }

struct ControllerInput : ::testing::Test {
    BoardModel model;
    Controller ctl;
    BoardGeometry geo = BoardGeometry::fit(0, 0, 1000, 1100, false);

    void SetUp() override {
        model.set_seat(RED);
        model.set_in_progress(true);
    }
    Intent click(Square s) {
        const PointF p = geo.center(s);
        Intent a = ctl.press(model, geo, p.x, p.y);
        Intent b = ctl.release(model, geo, p.x, p.y);
        return a.kind != Intent::Kind::None ? a : b;
    }
};

}  // namespace

TEST(BoardGeometry, MapsEveryPointBothWays) {
    for (bool flipped : {false, true}) {
        const BoardGeometry g = BoardGeometry::fit(10, 20, 900, 950, flipped);
        EXPECT_EQ(g.cell, std::floor(g.cell)) << "whole-pixel cells keep lines crisp";
        for (int i = 0; i < SQ_NB; ++i) {
            const PointF c = g.center(Square(i));
            EXPECT_EQ(g.square_at(c.x, c.y), Square(i));
            EXPECT_EQ(g.square_at(c.x + g.cell * 0.3f, c.y - g.cell * 0.3f), Square(i));
        }
        // Between points, and outside the board, there is no point.
        const PointF a0 = g.center(SQ_A0);
        EXPECT_EQ(g.square_at(a0.x + g.cell * 0.5f, a0.y - g.cell * 0.5f), SQ_NONE);
        EXPECT_EQ(g.square_at(-100, -100), SQ_NONE);
    }
    const BoardGeometry red = BoardGeometry::fit(0, 0, 1000, 1100, false);
    const BoardGeometry black = BoardGeometry::fit(0, 0, 1000, 1100, true);
    // Red at the bottom: a0 bottom-left. Black at the bottom: a0 top-right.
    EXPECT_LT(red.center(SQ_A0).x, red.center(sq("i0")).x);
    EXPECT_GT(red.center(SQ_A0).y, red.center(sq("a9")).y);
    EXPECT_GT(black.center(SQ_A0).x, black.center(sq("i0")).x);
    EXPECT_LT(black.center(SQ_A0).y, black.center(sq("a9")).y);
}

TEST_F(ControllerInput, ClickClickSendsALegalMove) {
    EXPECT_EQ(click(sq("h2")).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), sq("h2"));
    EXPECT_GT(ctl.targets().size(), 5);
    const Intent i = click(sq("e2"));
    ASSERT_EQ(i.kind, Intent::Kind::Move);
    EXPECT_EQ(i.move, Move(sq("h2"), sq("e2")));
    EXPECT_EQ(ctl.selected(), SQ_NONE);
    EXPECT_TRUE(ctl.awaiting_server());
    EXPECT_EQ(model.ply(), 0) << "the controller never changes the model";
    // Until the server answers, further input is refused.
    EXPECT_EQ(click(sq("b2")).reason, IllegalReason::WaitingForServer);
    ctl.reset();
    EXPECT_FALSE(ctl.awaiting_server());
}

TEST_F(ControllerInput, ReselectsAndExplainsIllegalTargets) {
    click(sq("h0"));
    EXPECT_EQ(ctl.selected(), sq("h0"));
    click(sq("b0"));  // another own piece: selection moves
    EXPECT_EQ(ctl.selected(), sq("b0"));
    const Intent i = click(sq("b3"));  // a horse cannot go straight
    EXPECT_EQ(i.kind, Intent::Kind::Refused);
    EXPECT_EQ(i.reason, IllegalReason::HorseMove);
    EXPECT_EQ(ctl.selected(), SQ_NONE);
    click(sq("c0"));
    EXPECT_EQ(click(sq("c2")).reason, IllegalReason::ElephantMove);
    // Clicking an own piece while another is selected selects it; it is never a capture.
    click(sq("h2"));
    EXPECT_EQ(click(sq("e3")).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), sq("e3"));
}

TEST_F(ControllerInput, RefusesWithTheRightReason) {
    EXPECT_EQ(click(sq("h9")).reason, IllegalReason::NotYourPiece);
    EXPECT_EQ(click(sq("e5")).kind, Intent::Kind::None);  // empty point, nothing selected
    model.set_seat(BLACK);
    EXPECT_EQ(click(sq("h9")).reason, IllegalReason::NotYourTurn);
    model.set_seat(std::nullopt);
    EXPECT_EQ(click(sq("h2")).reason, IllegalReason::Spectator);
    model.set_seat(RED);
    model.set_in_progress(false);
    EXPECT_EQ(click(sq("h2")).reason, IllegalReason::GameNotInProgress);
}

TEST_F(ControllerInput, ClickingTheSelectedPieceAgainPutsItDown) {
    EXPECT_EQ(click(sq("h2")).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), sq("h2"));
    EXPECT_EQ(click(sq("h2")).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), SQ_NONE);
    EXPECT_TRUE(ctl.targets().empty());
    // Pressing the selected piece and dragging it still moves it.
    click(sq("h2"));
    const PointF a = geo.center(sq("h2")), b = geo.center(sq("e2"));
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(b.x, b.y);
    const Intent i = ctl.release(model, geo, b.x, b.y);
    ASSERT_EQ(i.kind, Intent::Kind::Move);
    EXPECT_EQ(i.move, Move(sq("h2"), sq("e2")));
}

TEST_F(ControllerInput, DragThresholdSeparatesClickFromDrag) {
    const PointF a = geo.center(sq("h2")), b = geo.center(sq("e2"));
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(a.x + Controller::DRAG_THRESHOLD_PX - 2, a.y);
    EXPECT_FALSE(ctl.dragging()) << "a small wobble is still a click";
    EXPECT_EQ(ctl.release(model, geo, a.x + 3, a.y).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), sq("h2")) << "click leaves the piece selected";

    ctl.reset();
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(a.x + Controller::DRAG_THRESHOLD_PX + 1, a.y);
    EXPECT_TRUE(ctl.dragging());
    ctl.motion(b.x, b.y);
    EXPECT_EQ(ctl.drag_point().x, b.x);
    const Intent i = ctl.release(model, geo, b.x, b.y);
    ASSERT_EQ(i.kind, Intent::Kind::Move);
    EXPECT_EQ(i.move, Move(sq("h2"), sq("e2")));
}

TEST_F(ControllerInput, DragBackOrOffBoardReturnsThePiece) {
    const PointF a = geo.center(sq("h2"));
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(a.x + 40, a.y + 40);
    EXPECT_EQ(ctl.release(model, geo, a.x, a.y).kind, Intent::Kind::None);
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(-50, -50);
    EXPECT_EQ(ctl.release(model, geo, -50, -50).kind, Intent::Kind::None);
    EXPECT_FALSE(ctl.awaiting_server());
    // Dropping on an illegal point refuses with a reason and sends nothing.
    ctl.reset();
    const PointF bad = geo.center(sq("g5"));
    ctl.press(model, geo, a.x, a.y);
    ctl.motion(bad.x, bad.y);
    const Intent i = ctl.release(model, geo, bad.x, bad.y);
    EXPECT_EQ(i.kind, Intent::Kind::Refused);
    EXPECT_EQ(i.reason, IllegalReason::StraightLineOnly);
    EXPECT_FALSE(ctl.awaiting_server());
}

TEST_F(ControllerInput, FlippedBoardClicksMapToTheSamePoints) {
    model.set_seat(BLACK);
    ASSERT_TRUE(model.flipped());
    geo = BoardGeometry::fit(0, 0, 1000, 1100, true);
    ASSERT_EQ(model.load_snapshot("", {"h2e2"}), "");
    EXPECT_EQ(click(sq("h9")).kind, Intent::Kind::None);
    EXPECT_EQ(ctl.selected(), sq("h9"));
    const Intent i = click(sq("g7"));
    ASSERT_EQ(i.kind, Intent::Kind::Move);
    EXPECT_EQ(i.move, Move(sq("h9"), sq("g7")));
}

// In check, a piece that cannot answer it says so (not "no legal move"), and so does a move
// that leaves the check standing.
TEST_F(ControllerInput, InCheckTheRefusalSaysCheck) {
    ASSERT_EQ(model.load_snapshot("3k5/9/9/9/9/9/P8/4r4/9/3AK4 w - - 0 1", {}), "");
    model.set_seat(RED);
    model.set_in_progress(true);
    ASSERT_NE(model.checked_king(), SQ_NONE);
    const Intent pawn = click(sq("a3"));
    EXPECT_EQ(pawn.kind, Intent::Kind::Refused);
    EXPECT_EQ(pawn.reason, IllegalReason::InCheck);
    // The king stepping up the rook's file stays in check.
    EXPECT_EQ(click(sq("e0")).kind, Intent::Kind::None);
    const Intent stay = click(sq("e1"));
    EXPECT_EQ(stay.kind, Intent::Kind::Refused);
    EXPECT_EQ(stay.reason, IllegalReason::InCheck);
}
