// Search tests: legal moves over many random positions and levels, determinism, the low
// levels' variety without blunders, a hanging piece taken, and the pinned bench signature.
// Mates, repetition rulings, limits and threads have their own search_*_test.cpp files.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/bench.h"
#include "engine/search.h"
#include "engine_test_position.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

// Random positions reached by random play; every level and several limits.
TEST(Search, AlwaysReturnsALegalMoveOverManyRandomPositions) {
    std::mt19937_64 rng(12345);
    Engine engine(4);
    int searched = 0, no_move = 0;
    for (int game = 0; game < 60; ++game) {
        Position pos;
        std::vector<Move> moves;
        const int plies = int(rng() % 120);
        UndoInfo u;
        Position cur = pos;
        for (int i = 0; i < plies; ++i) {
            MoveList l;
            cur.generate_legal(l);
            if (l.empty()) break;
            const Move m = l[int(rng() % l.size())];
            cur.do_move(m, u);
            moves.push_back(m);
        }
        Limits lim;
        lim.level = 1 + game % 10;
        lim.seed = rng();
        lim.nodes = 300 + rng() % 3000;
        const Result r = engine.search(pos, moves, lim);
        MoveList legal;
        cur.generate_legal(legal);
        if (legal.empty()) {
            EXPECT_FALSE(r.best);
            ++no_move;
        } else {
            ASSERT_TRUE(legal.contains(r.best)) << cur.fen() << " got " << move_to_iccs(r.best);
            ++searched;
        }
    }
    EXPECT_GT(searched, 50);
}

TEST(Search, RandomPositionsFromFensAtTinyLimitsStillGiveLegalMoves) {
    // A search stopped after very few nodes (even before depth 1 completes) must still answer.
    std::mt19937_64 rng(777);
    for (int i = 0; i < 200; ++i) {
        Position cur;
        UndoInfo u;
        const int plies = int(rng() % 150);
        for (int k = 0; k < plies; ++k) {
            MoveList l;
            cur.generate_legal(l);
            if (l.empty()) break;
            cur.do_move(l[int(rng() % l.size())], u);
        }
        Engine engine(1);
        Limits lim;
        lim.nodes = 1 + rng() % 40;
        const Result r = engine.search(cur, {}, lim);
        MoveList legal;
        cur.generate_legal(legal);
        if (legal.empty()) EXPECT_FALSE(r.best);
        else EXPECT_TRUE(legal.contains(r.best)) << cur.fen();
    }
}

TEST(Search, DeterministicForEqualSeedAndLimits) {
    Position pos;
    for (int level : {1, 3, 6, 10}) {
        Limits lim;
        lim.level = level;
        lim.seed = 42;
        lim.depth = 4;
        Engine a, b;
        const Result ra = a.search(pos, {}, lim);
        const Result rb = b.search(pos, {}, lim);
        EXPECT_EQ(ra.best, rb.best) << "level " << level;
        EXPECT_EQ(ra.nodes, rb.nodes) << "level " << level;
    }
}

// Material in half pawns, by piece type (the usual 1/2/2/4/4.5/9 scale; the king is not
// captured).
int half_pawns(PieceType t) {
    switch (t) {
    case PAWN: return 2;
    case ADVISOR:
    case ELEPHANT: return 4;
    case HORSE: return 8;
    case CANNON: return 9;
    case ROOK: return 18;
    default: return 0;
    }
}

// After `m`, an answering capture that leaves the mover more than a pawn down on the exchange
// (what `m` took, minus what the answer takes, plus what a recapture on that point takes
// back): "" if none, else that capture in ICCS.
std::string losing_exchange_after(Position pos, Move m) {
    const int gained = pos.is_capture(m) ? half_pawns(type_of(pos.piece_on(m.to()))) : 0;
    UndoInfo u1;
    pos.do_move(m, u1);
    MoveList replies;
    pos.generate_legal(replies);
    for (Move c : replies) {
        if (!pos.is_capture(c)) continue;
        const int lost = half_pawns(type_of(pos.piece_on(c.to())));
        const int capturer = half_pawns(type_of(pos.piece_on(c.from())));
        UndoInfo u2;
        pos.do_move(c, u2);
        MoveList back;
        pos.generate_legal(back);
        bool recapture = false;
        for (Move b : back) recapture = recapture || b.to() == c.to();
        pos.undo_move(c, u2);
        if (gained - lost + (recapture ? capturer : 0) < -2) return move_to_iccs(c);
    }
    return "";
}

TEST(Search, LowLevelsVaryWithTheSeedButStayReasonable) {
    Position pos;
    std::set<std::uint16_t> moves;
    for (std::uint64_t seed = 1; seed <= 24; ++seed) {
        Engine e(1);
        Limits lim;
        lim.level = 1;
        lim.seed = seed;
        const Result r = e.search(pos, {}, lim);
        ASSERT_TRUE(r.best);
        moves.insert(r.best.raw());
        // Even level 1 does not give away material at once: no answer wins more than a pawn
        // from the move (a capture that is traded back, or a piece left en prise).
        EXPECT_EQ(losing_exchange_after(pos, r.best), "") << "seed " << seed << ", move " << move_to_iccs(r.best);
    }
    EXPECT_GE(moves.size(), 3u);
    // Level 10 always plays the same move for any seed.
    std::set<std::uint16_t> strong;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        Engine e(1);
        Limits lim;
        lim.level = 10;
        lim.seed = seed;
        lim.depth = 4;
        strong.insert(e.search(pos, {}, lim).best.raw());
    }
    EXPECT_EQ(strong.size(), 1u);
}

TEST(Search, TakesAHangingRook) {
    // Black's rook on e5 stands on the red rook's file with nothing defending it.
    const Position pos = from_fen("3akab2/9/4b4/9/4r4/9/9/9/4R4/3AKA3 w - - 0 1");
    Engine engine;
    Limits lim;
    lim.depth = 4;
    const Result r = engine.search(pos, {}, lim);
    EXPECT_EQ(move_to_iccs(r.best), "e1e5");
}

TEST(Bench, SignatureIsPinned) {
    // Changes only when the search or evaluation changes on purpose: update it in the same commit.
    constexpr std::uint64_t BENCH_SIGNATURE = 351534;
    const BenchResult r = run_bench(BENCH_DEPTH);
    EXPECT_EQ(r.positions.size(), bench_fens().size());
    EXPECT_EQ(r.nodes, BENCH_SIGNATURE);
}

TEST(Bench, SpeedIsReportedByKindOfPosition) {
    // The start and its first two moves are the openings; of the rest, 20 pieces or more make a
    // middle game. Each kind's speed counts its own positions' nodes over their search time.
    const auto& fens = bench_fens();
    std::vector<BenchKind> kinds;
    for (std::string_view fen : fens) kinds.push_back(bench_kind(fen));
    const std::vector<BenchKind> expected = {BenchKind::Opening, BenchKind::Opening, BenchKind::Opening,
                                             BenchKind::Middle,  BenchKind::Middle,  BenchKind::Ending,
                                             BenchKind::Ending,  BenchKind::Middle,  BenchKind::Middle,
                                             BenchKind::Middle,  BenchKind::Ending,  BenchKind::Ending};
    EXPECT_EQ(kinds, expected);
    const BenchResult r = run_bench(4);
    ASSERT_EQ(r.positions.size(), fens.size());
    std::uint64_t nodes[BENCH_KIND_NB] = {};
    std::int64_t us[BENCH_KIND_NB] = {};
    for (const auto& p : r.positions) {
        EXPECT_GE(p.search_us, 0);
        nodes[int(p.kind)] += p.nodes;
        us[int(p.kind)] += p.search_us;
    }
    for (int k = 0; k < BENCH_KIND_NB; ++k) {
        ASSERT_GT(nodes[k], 0u) << bench_kind_name(BenchKind(k));
        if (us[k] > 0) {
            EXPECT_EQ(r.nps_by_kind[k], nodes[k] * 1000000 / std::uint64_t(us[k]));
        }
    }
    EXPECT_STREQ(bench_kind_name(BenchKind::Middle), "middle games");
}

}  // namespace
