// Evaluation tests: symmetric under a colour flip, material counts, the king-danger counts.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <random>
#include <iterator>
#include <memory>
#include <string>

#include "engine/eval.h"
#include "engine/eval_sets.h"
#include "engine/search_internal.h"
#include "engine_test_position.h"
#include "xiangqi/placement.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

TEST(Eval, SymmetricUnderColourFlip) {
    // The start position is symmetric: the side to move only gets the tempo bonus.
    const Position a;
    const Position b = from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    EXPECT_EQ(evaluate(a), evaluate(b));
    const Position c = from_fen("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1");
    const Position d = from_fen("rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 0 1");
    EXPECT_EQ(evaluate(c), evaluate(d));
}

TEST(EvalSets, PopcountCountsBothHalves) {
    // The SWAR count adds the halves' 4-bit fields before finishing: full sets must not carry.
    // popcount() is the popcnt instruction in builds that target it (XQ_ARCH), the SWAR count
    // otherwise; both are checked whatever the build.
    using eval_sets::Bits;
    for (int (*count)(Bits) : {+[](Bits b) { return eval_sets::popcount(b); }, +[](Bits b) { return eval_sets::popcount_swar(b); }}) {
        const Bits all90 = (Bits(1) << 90) - 1;
        EXPECT_EQ(count(all90), 90);
        EXPECT_EQ(count(~Bits(0)), 128);
        EXPECT_EQ(count(0), 0);
        std::mt19937_64 rng(5);
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t lo = rng() & rng(), hi = i % 2 ? rng() : rng() | rng();
            const Bits b = Bits(lo) | (Bits(hi) << 64);
            ASSERT_EQ(count(b), std::popcount(lo) + std::popcount(hi)) << i;
        }
    }
}

TEST(EvalSets, LineCountCountsBothLines) {
    // One popcnt over a rank's set (9 bits) and a file's set (10 bits) shifted past it, or two
    // table lookups: every pair of sets gives the sum of their points counted bit by bit.
    auto bits = [](unsigned v) {
        int n = 0;
        for (; v; v >>= 1) n += int(v & 1u);
        return n;
    };
    for (unsigned rank = 0; rank < 512; ++rank)
        for (unsigned file = 0; file < 1024; ++file)
            ASSERT_EQ(eval_sets::line_count(rank, file), bits(rank) + bits(file)) << rank << " " << file;
}

TEST(EvalSets, FileSetPlacesEveryRankOfEveryFile) {
    // The file's set on file f, from the two river-half tables, against the points set one by
    // one: rank r of the file is point r * 9 + f (rank 7 of files b-i crosses into the high word).
    using namespace eval_sets;
    for (int f = 0; f < FILE_NB; ++f)
        for (unsigned v = 0; v < 1024; ++v) {
            Bits want = 0;
            for (int r = 0; r < RANK_NB; ++r)
                if ((v >> r) & 1u) want |= one_bit(r * FILE_NB + f);
            ASSERT_TRUE(file_set(v, f) == want) << "file " << f << " set " << v;
        }
}

// scan_pieces reads the king from its square and looks for advisors (and Red's elephants) in one
// half of the sets only (points 0-63 or 64-89): every point the placement rules (FEN reader,
// position editor) allow them must lie in that half.
TEST(EvalSets, PalacePiecesStandInTheHalfTheScanReads) {
    int allowed = 0;
    for (Color c : {RED, BLACK})
        for (PieceType t : {KING, ADVISOR, ELEPHANT})
            for (int sq = 0; sq < SQ_NB; ++sq) {
                if (placement_error(make_piece(c, t), Square(sq)) != FenError::None) continue;
                ++allowed;
                if (t == ELEPHANT && c == BLACK) continue;  // read from both halves
                EXPECT_EQ(sq >= 64, c == BLACK) << "colour " << int(c) << " type " << int(t) << " on " << sq;
            }
    EXPECT_EQ(allowed, 2 * (9 + 5 + 7));  // palace points, advisor points, elephant points per side
}

// The leg- and eye-indexed tables give, on every point, what walking the step groups and
// testing each blocking point gives; the edge points too, whose neighbour bits wrap around.
TEST(EvalSets, BlockedTablesGiveTheUnblockedStepsOfEveryPoint) {
    using namespace eval_sets;
    auto walk = [](const std::array<StepMasks::Blockable, 4>& groups, const Position& pos) {
        Bits out = 0;
        for (const auto& g : groups)
            if (g.block >= 0 && pos.empty(Square(g.block))) out |= g.targets;
        return out;
    };
    const auto positions = engine_test::random_game_positions(400, 23, 160);
    int blocked_legs = 0;
    for (const Position& p : positions) {
        const Pieces pc(p);
        for (int sq = 0; sq < SQ_NB; ++sq) {
            const Bits horse = BLOCKED.horse[sq][orthogonal_index(pc.padded, sq)];
            ASSERT_EQ(horse, walk(STEPS.horse[sq], p)) << p.fen() << " horse on " << sq;
            ASSERT_EQ(BLOCKED.elephant[sq][diagonal_index(pc.padded, sq)], walk(STEPS.elephant[sq], p))
                << p.fen() << " elephant on " << sq;
            ASSERT_EQ(BLOCKED.horse_to[sq][diagonal_index(pc.padded, sq)], walk(STEPS.horse_to[sq], p))
                << p.fen() << " horses attacking " << sq;
            Bits all_steps = 0;
            for (const auto& g : STEPS.horse[sq]) all_steps |= g.targets;
            blocked_legs += horse != all_steps;
        }
    }
    EXPECT_GT(blocked_legs, 1000);  // the positions do block legs
}

TEST(PackedScore, SumsAndMultiplesUnpackToTheSameValues) {
    // Both halves signed, including the carries a negative end-game value makes into the
    // middle-game half.
    const Score values[] = {{0, 0}, {1, -1}, {-1, 1}, {-125, -500}, {965, 1032}, {-37, 40}, {300, -29}, {-9, -11}};
    for (const Score a : values) {
        EXPECT_EQ(PackedScore(a).unpack(), a);
        for (const Score b : values) {
            EXPECT_EQ((PackedScore(a) + PackedScore(b)).unpack(), a + b);
            EXPECT_EQ((PackedScore(a) - PackedScore(b)).unpack(), a - b);
            PackedScore s = PackedScore(a);
            s -= PackedScore(b);
            s += PackedScore(b) * 3;
            EXPECT_EQ(s.unpack(), a + b * 2);
        }
        for (const int k : {0, 1, -1, 7, -30})
            EXPECT_EQ((PackedScore(a) * k).unpack(), a * k) << a.mg << "/" << a.eg << " x " << k;
    }
}

TEST(PackedScore, MapTableCoversEveryWeight) {
    // map_table lists the fields by hand: a field it missed would stay 0 in the packed weights
    // the evaluation sums, so every int of the mapped table must be written.
    const EvalCounts ones = map_table<int>(compiled_eval_weights(), [](Score) { return 1; });
    static_assert(sizeof(EvalCounts) % sizeof(int) == 0);
    int flat[sizeof(EvalCounts) / sizeof(int)];
    std::memcpy(flat, &ones, sizeof ones);
    for (std::size_t i = 0; i < std::size(flat); ++i) EXPECT_EQ(flat[i], 1) << "int " << i << " of the table";
    const PackedWeights packed = map_table<PackedScore>(compiled_eval_weights(), [](Score s) { return PackedScore(s); });
    EvalWeights back = map_table<Score>(packed, [](PackedScore p) { return p.unpack(); });
    EvalWeights w = compiled_eval_weights();
    int entries = 0;
    for_each_entry(w, back, [&](const std::string& name, const Score& a, const Score& b) {
        EXPECT_EQ(a, b) << name;
        ++entries;
    });
    EXPECT_GT(entries, 150);
}

TEST(EvalCache, GivesEachPositionItsOwnEvaluationFreshAndCached) {
    // Entries pack the key's upper bits and the value's 16 bits: negative values must come back
    // sign-extended, and a position must never read another's entry.
    auto td = std::make_unique<engine::ThreadData>();
    const auto positions = engine_test::random_game_positions(3000, 11, 160);
    int negative = 0, positive = 0;
    for (int pass = 0; pass < 2; ++pass)
        for (const Position& p : positions) {
            const int v = evaluate(p);
            ASSERT_EQ(td->cached_eval(p, psq_of(p)), v) << p.fen() << " pass " << pass;
            negative += v < 0;
            positive += v > 0;
        }
    EXPECT_GT(negative, 100);
    EXPECT_GT(positive, 100);
}

TEST(Eval, MaterialAndPieceSquareSumKeptMoveByMoveIsTheSumOverThePieces) {
    // The search keeps psq_of() by psq_delta before each move (quiet moves and captures of every
    // piece type); evaluate(pos, psq) must then be evaluate(pos). Random games from the start.
    std::mt19937 random(5);
    int captures = 0, plies = 0;
    for (int game = 0; game < 40; ++game) {
        Position pos;
        PackedScore psq = psq_of(pos);
        for (int ply = 0; ply < 200; ++ply) {
            MoveList moves;
            pos.generate_legal(moves);
            if (moves.empty()) break;
            const Move m = moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(random)];
            captures += pos.is_capture(m);
            psq = psq + psq_delta(pos, m);
            UndoInfo u;
            pos.do_move(m, u);
            ++plies;
            const Score kept = psq.unpack(), summed = psq_of(pos).unpack();
            ASSERT_EQ(kept.mg, summed.mg) << pos.fen();
            ASSERT_EQ(kept.eg, summed.eg) << pos.fen();
            ASSERT_EQ(evaluate(pos, psq), evaluate(pos)) << pos.fen();
        }
    }
    EXPECT_GT(captures, 500);
    EXPECT_GT(plies, 4000);
}

TEST(Eval, MaterialCounts) {
    const Position up_a_rook = from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    EXPECT_GT(evaluate(up_a_rook), 700);
}

TEST(KingDanger, SafeCheckPointsAreCountedByPieceType) {
    // Black's king on e9 behind its advisor on e8; counts are Red minus Black, so each point
    // from which Red could check counts +1. Red's cannon on a6 can slide to e6 and check over
    // the advisor.
    const EvalTrace cannon = trace_evaluation(from_fen("4k4/4a4/9/C8/9/9/9/9/9/3K5 w - - 0 1"));
    EXPECT_EQ(cannon.counts.safe_check[CANNON], 1);
    EXPECT_EQ(cannon.counts.safe_check[ROOK], 0);
    EXPECT_EQ(cannon.counts.safe_check[HORSE], 0);
    // Red's rook on i0 can reach i9 on the king's rank (the advisor closes the e-file).
    EXPECT_EQ(trace_evaluation(from_fen("4k4/4a4/9/9/9/9/9/9/9/3K4R w - - 0 1")).counts.safe_check[ROOK], 1);
    // Red's horse on b6 reaches c8 and d7, both checking over the free leg d8; the advisor
    // guards d7, so only c8 is safe.
    EXPECT_EQ(trace_evaluation(from_fen("4k4/4a4/9/1N7/9/9/9/9/9/3K5 w - - 0 1")).counts.safe_check[HORSE], 1);
    // Black's rook on c3 guards c8 as well: no safe horse check left.
    EXPECT_EQ(trace_evaluation(from_fen("4k4/4a4/9/1N7/9/9/2r6/9/9/3K5 w - - 0 1")).counts.safe_check[HORSE], 0);
}

TEST(KingDanger, PiecesOnTheKingsFileAreReadFromTheKingOutwards) {
    // Counts are Red minus Black: a term against Black's king counts +1, against Red's -1.
    const auto counts = [](const char* fen) { return trace_evaluation(from_fen(fen)).counts; };
    // A red cannon facing Black's king with nothing between: empty-headed.
    EXPECT_EQ(counts("4k4/9/9/9/4C4/9/9/9/9/3K5 w - - 0 1").empty_headed_cannon, 1);
    // The nearest piece decides: the cannon on e7 before the rook on e3 (Black's king looks
    // down the file), and the cannon on e2 before the rook on e6 (Red's king looks up).
    const auto black_side = counts("4k4/9/4C4/9/9/9/4R4/9/9/3K5 w - - 0 1");
    EXPECT_EQ(black_side.empty_headed_cannon, 1);
    EXPECT_EQ(black_side.rook_on_king_file, 0);
    const auto red_side = counts("3k5/9/9/4r4/9/9/9/4c4/9/4K4 w - - 0 1");
    EXPECT_EQ(red_side.empty_headed_cannon, -1);
    EXPECT_EQ(red_side.rook_on_king_file, 0);
    // Two screens before a cannon (the advisor on e1, the horse on e2): a central cannon.
    const auto central = counts("3k5/9/9/4c4/9/9/9/4N4/4A4/4K4 w - - 0 1");
    EXPECT_EQ(central.central_cannon, -1);
    EXPECT_EQ(central.empty_headed_cannon, 0);
    // A rook behind one screen on the file, for either king.
    EXPECT_EQ(counts("3k5/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1").rook_on_king_file, -1);
    EXPECT_EQ(counts("4k4/4a4/9/9/4R4/9/9/9/9/3K5 w - - 0 1").rook_on_king_file, 1);
    // Past three screens the file is not read further.
    EXPECT_EQ(counts("3k5/9/9/4c4/4p4/9/4P4/4N4/4A4/4K4 w - - 0 1").central_cannon, 0);
}

TEST(KingDanger, AttackersOnThePalaceAndSafeStepsAreCounted) {
    // Red's rook on d5 reaches d6-d9 and its horse on f6 reaches e8 and d7: two pieces hit
    // Black's palace.
    const EvalTrace t = trace_evaluation(from_fen("4k4/9/9/5N3/3R5/9/9/9/9/3K5 w - - 0 1"));
    EXPECT_EQ(t.counts.king_attackers[2], 1);
    EXPECT_EQ(t.counts.king_attackers[1], 0);
    // Black's king: d9 (rook) and e8 (horse) are attacked, f9 is free: one safe step. Red's
    // king on d0 has two (e0, d1), which count -1 at index 2.
    EXPECT_EQ(t.counts.king_safe_steps[1], 1);
    EXPECT_EQ(t.counts.king_safe_steps[2], -1);
}

}  // namespace
