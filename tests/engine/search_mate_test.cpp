// Search tests on mates: the engine finds the shortest mate and plays a move that keeps it
// (each case checked by an independent exhaustive prover), and a mated side gets no move.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "engine/search.h"
#include "engine_test_position.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

// True when the side to move can force mate within `moves` of its own moves. Plain
// exhaustive AND/OR search, independent of the engine.
bool forced_mate(Position& pos, int moves);

bool all_replies_mated(Position& pos, int moves) {
    MoveList list;
    pos.generate_legal(list);
    if (list.empty()) return true;  // mated (or stalemated: also a loss)
    if (moves == 0) return false;
    UndoInfo u;
    for (Move m : list) {
        pos.do_move(m, u);
        const bool ok = forced_mate(pos, moves);
        pos.undo_move(m, u);
        if (!ok) return false;
    }
    return true;
}

bool forced_mate(Position& pos, int moves) {
    if (moves <= 0) return false;
    MoveList list;
    pos.generate_legal(list);
    UndoInfo u;
    for (Move m : list) {
        pos.do_move(m, u);
        const bool ok = all_replies_mated(pos, moves - 1);
        pos.undo_move(m, u);
        if (ok) return true;
    }
    return false;
}

struct MateCase {
    const char* fen;
    int moves;
};

// What GoogleTest prints for a case (instead of the struct's raw bytes, which hold a pointer
// and change from build to build).
void PrintTo(const MateCase& c, std::ostream* os) { *os << "mate in " << c.moves << ": " << c.fen; }

class MateTest : public ::testing::TestWithParam<MateCase> {};

TEST_P(MateTest, FindsShortestMateAndPlaysAMatingMove) {
    const MateCase c = GetParam();
    Position pos = from_fen(c.fen);
    // The case is what it claims: a mate in exactly N.
    ASSERT_TRUE(forced_mate(pos, c.moves));
    if (c.moves > 1) {
        ASSERT_FALSE(forced_mate(pos, c.moves - 1));
    }

    Engine engine;
    Limits lim;
    lim.depth = 2 * c.moves + 3;
    const Result r = engine.search(pos, {}, lim);
    EXPECT_EQ(r.mate_in, c.moves);
    ASSERT_TRUE(r.best);
    MoveList legal;
    pos.generate_legal(legal);
    ASSERT_TRUE(legal.contains(r.best));
    UndoInfo u;
    pos.do_move(r.best, u);
    EXPECT_TRUE(all_replies_mated(pos, c.moves - 1)) << "best move " << move_to_iccs(r.best) << " does not keep the mate";
}

std::string mate_case_name(const ::testing::TestParamInfo<MateCase>& info) {
    return "MateIn" + std::to_string(info.param.moves) + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(
    Mates, MateTest,
    ::testing::Values(MateCase{"4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", 1},
                      MateCase{"3k5/9/9/9/9/9/9/9/9/R3K3R w - - 0 1", 1},
                      MateCase{"1r1k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1", 1},
                      MateCase{"4k4/4a4/9/9/9/9/9/9/9/R2K4R w - - 0 1", 2},
                      MateCase{"4ka3/9/9/9/9/9/9/9/9/R2K4R w - - 0 1", 2},
                      MateCase{"4k4/4a4/4b4/9/9/9/9/9/9/R2K4R w - - 0 1", 3},
                      MateCase{"3ak4/4a4/9/9/9/9/9/9/9/R2K4R w - - 0 1", 3},
                      MateCase{"4k4/9/3a5/9/9/9/9/9/9/R2K4R w - - 0 1", 3}),
    mate_case_name);

TEST(Search, NoLegalMoveReturnsNoMoveAndALoss) {
    const Position pos = from_fen("1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
    ASSERT_FALSE(pos.has_legal_move());
    Engine engine;
    Limits lim;
    lim.depth = 5;
    const Result r = engine.search(pos, {}, lim);
    EXPECT_FALSE(r.best);
    EXPECT_LE(r.score_cp, -29000);
}

}  // namespace
