// Adjudication by Game: every board-decided ending of docs/RULES.md with its reason text.
#include <gtest/gtest.h>

#include <functional>
#include <unordered_set>

#include "test_util.h"
#include "xiangqi/game.h"

namespace {

using namespace xq;
using test::iccs;
using test::play_all;

Game game_from(std::string_view fen) {
    Game g;
    EXPECT_EQ(g.reset(fen), FenError::None) << fen;
    return g;
}

TEST(Adjudication, StartIsOngoing) {
    Game g;
    EXPECT_FALSE(g.over());
    EXPECT_EQ(g.result().outcome, Outcome::Ongoing);
    EXPECT_EQ(g.legal_moves().size(), 44);
}

TEST(Adjudication, IllegalMoveIsRefusedAndChangesNothing) {
    Game g;
    EXPECT_FALSE(g.play(iccs("h2h8")));  // a cannon cannot move past its screen without capturing
    EXPECT_FALSE(g.play(iccs("e0e2")));  // the king steps one point
    EXPECT_FALSE(g.play(iccs("h9g7")));  // Black's move while Red is to move
    EXPECT_FALSE(g.play(Move::none()));
    EXPECT_EQ(g.ply(), 0);
    EXPECT_EQ(g.position().fen(), std::string(START_FEN));
}

TEST(Adjudication, Checkmate) {
    Game g = game_from("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1");
    play_all(g, {"i0i9"});
    EXPECT_EQ(g.result().outcome, Outcome::RedWins);
    EXPECT_EQ(g.result().reason, EndReason::Checkmate);
    EXPECT_EQ(g.result().text, "Black loses: checkmated");
    EXPECT_FALSE(g.play(iccs("e9e8"))) << "no move after the end";
}

TEST(Adjudication, StalemateLoses) {
    // After a7a8 Black is not in check but every king step is covered (d9 by the facing king).
    Game g = game_from("4k4/9/R8/9/9/9/9/9/5R3/3K5 w - - 0 1");
    play_all(g, {"a7a8"});
    EXPECT_FALSE(g.position().in_check());
    EXPECT_EQ(g.result().outcome, Outcome::RedWins);
    EXPECT_EQ(g.result().reason, EndReason::Stalemate);
    EXPECT_EQ(g.result().text, "Black loses: no legal move (stalemate)");
}

TEST(Adjudication, UndoClearsABoardResult) {
    Game g = game_from("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1");
    const std::string before = g.position().fen();
    play_all(g, {"i0i9"});
    ASSERT_TRUE(g.over());
    ASSERT_TRUE(g.undo());
    EXPECT_FALSE(g.over());
    EXPECT_EQ(g.result().reason, EndReason::None);
    EXPECT_EQ(g.position().fen(), before);
    EXPECT_EQ(g.ply(), 0);
    EXPECT_FALSE(g.undo()) << "nothing left to take back";
    EXPECT_TRUE(g.play(iccs("i0i9")));
    EXPECT_TRUE(g.over());
}

TEST(Adjudication, FinishRecordsAReasonTheBoardDoesNotDecide) {
    Game g;
    g.finish(Outcome::BlackWins, EndReason::Resignation, "Red resigns");
    EXPECT_TRUE(g.over());
    EXPECT_EQ(g.result().text, "Red resigns");
    EXPECT_FALSE(g.play(iccs("h2e2")));
}

TEST(Adjudication, InsufficientMaterialAfterTheLastAttackerIsTaken) {
    Game g = game_from("5k3/9/9/9/9/9/9/3p5/4A4/4K4 w - - 0 1");
    EXPECT_FALSE(g.over());
    play_all(g, {"e1d2"});
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::InsufficientMaterial);
    EXPECT_EQ(g.result().text, "Draw: neither side has a rook, horse, cannon or pawn left");
}

TEST(Adjudication, PerpetualCheckLoses) {
    Game g = game_from("4k4/R8/9/9/9/9/8p/9/9/5K3 w - - 0 1");
    play_all(g, {"a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"});
    EXPECT_FALSE(g.over()) << "two occurrences are not yet a repetition";
    play_all(g, {"e8e9"});
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(g.result().reason, EndReason::PerpetualCheck);
    EXPECT_EQ(g.result().text, "Red loses: perpetual check, plies 1-8 / 红方长将，判负（第 1–4 回合）");
}

TEST(Adjudication, PerpetualChaseLoses) {
    // The rook follows the unprotected black horse between g5 and h7.
    Game g = game_from("4k4/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1");
    play_all(g, {"h1g1", "g5h7", "g1h1", "h7g5", "h1g1", "g5h7", "g1h1"});
    EXPECT_FALSE(g.over());
    play_all(g, {"h7g5"});
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(g.result().reason, EndReason::PerpetualChase);
    EXPECT_EQ(g.result().text, "Red loses: perpetual chase of the black horse, plies 1-8 / 红方长捉黑马，判负（第 1–4 回合）");
    // The records name the chased piece by identity: the same horse every time.
    const auto& r = g.records();
    ASSERT_EQ(r.size(), 8u);
    for (int i = 0; i < 8; i += 2) {
        ASSERT_EQ(r[i].chased_count, 1) << "ply " << i + 1;
        EXPECT_EQ(r[i].chased_ids[0], r[0].chased_ids[0]);
    }
}

TEST(Adjudication, PerpetualCheckOutranksPerpetualChase) {
    // Red's cannon checks over the d8 rook, then uncovers the d0 rook's check; Black's rook
    // escapes to c8 and blocks again on d8. The c9 horse is threatened all along (c0 cannon,
    // then the c8 rook), so Black never newly threatens it: perpetual check against idle.
    Game g = game_from("2Nk5/3r5/1C2c4/9/9/9/2N6/4K4/9/2cR5 w - - 0 1");
    play_all(g, {"b7d7", "d8c8", "d7b7", "c8d8", "b7d7", "d8c8", "d7b7", "c8d8"});
    const auto& r = g.records();
    ASSERT_EQ(r.size(), 8u);
    for (int i = 0; i < 8; i += 2) {
        EXPECT_TRUE(r[i].gave_check);
        EXPECT_FALSE(r[i + 1].gave_check);
    }
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);
    EXPECT_EQ(g.result().reason, EndReason::PerpetualCheck);
    EXPECT_EQ(g.result().text, "Red loses: perpetual check, plies 1-8 / 红方长将，判负（第 1–4 回合）");
}

TEST(Adjudication, ChasingDifferentPiecesIsNotPerpetualChase) {
    // Red's horse attacks a different black rook on each move (idle, WXF rule 32). On d6 the
    // horse stands in the f6 rook's line already, so Black's c4c6 adds an attacker to a piece
    // that is threatened anyway: no new threat, and Black is not chasing on every move either.
    Game g = game_from("9/9/4k4/5r3/9/2r1N4/9/9/3K1C3/9 w - - 0 1");
    play_all(g, {"e4d6", "c4c6", "d6e4", "c6c4", "e4d6", "c4c6", "d6e4", "c6c4"});
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::Repetition);
    EXPECT_EQ(g.records()[1].chased_count, 0) << "c4c6: the horse was threatened by the f6 rook already";
    EXPECT_EQ(g.records()[3].chased_count, 1) << "c6c4: a new threat on the horse on e4";
}

TEST(Adjudication, MutualPerpetualCheckDraws) {
    // Red is in check from the e9 rook; each side blocks with a piece whose move uncovers a
    // check of its own (the d0 cannon for Red, the e9 rook or e6 cannon for Black).
    Game g = game_from("4r4/8N/3k5/3c5/9/3N5/n8/5R1n1/4K4/3C5 w - - 0 1");
    ASSERT_TRUE(g.position().in_check());
    play_all(g, {"d4e2", "d6e6", "e2d4", "e6d6", "d4e2", "d6e6", "e2d4", "e6d6"});
    for (const auto& r : g.records()) EXPECT_TRUE(r.gave_check);
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::Repetition);
    EXPECT_EQ(g.result().text, "Draw by repetition: both sides give perpetual check, plies 1-8 / 双方长将，判和（第 1–4 回合）");
}

TEST(Adjudication, AttacksHeldAllAlongAreNoChases) {
    // Red's horse uncovers the f1 cannon on the f6 rook or attacks it itself, and Black's
    // rooks take turns on the unprotected red horse: each victim is attacked all the time,
    // only by a different piece after each move, so neither side makes a new threat.
    Game g = game_from("9/9/4k4/5r3/9/2r1N4/9/9/3K1C3/9 w - - 0 1");
    play_all(g, {"e4f2", "c4c2", "f2e4", "c2c4", "e4f2", "c4c2", "f2e4", "c2c4"});
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::Repetition);
    EXPECT_EQ(g.result().text, "Draw by repetition: neither side checks or chases, plies 1-8 / 双方均无长将长捉，判和（第 1–4 回合）");
}

TEST(Adjudication, IdleRepetitionDraws) {
    Game g = game_from("3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    play_all(g, {"a0a1", "i9i8", "a1a0", "i8i9", "a0a1", "i9i8", "a1a0"});
    EXPECT_FALSE(g.over());
    play_all(g, {"i8i9"});
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::Repetition);
    EXPECT_EQ(g.result().text, "Draw by repetition: neither side checks or chases, plies 1-8 / 双方均无长将长捉，判和（第 1–4 回合）");
}

TEST(Adjudication, RepetitionInTheMiddleOfAGameNamesItsPlies) {
    Game g;
    play_all(g, {"h2e2", "h9g7"});
    play_all(g, {"h0g2", "i9h9", "g2h0", "h9i9", "h0g2", "i9h9", "g2h0"});
    EXPECT_FALSE(g.over());
    play_all(g, {"h9i9"});
    EXPECT_EQ(g.result().reason, EndReason::Repetition);
    EXPECT_EQ(g.result().text, "Draw by repetition: neither side checks or chases, plies 3-10 / 双方均无长将长捉，判和（第 2–5 回合）");
}

// Depth-first search for a line of `plies` moves from `start` in which every move passes
// `ok` and no position repeats. Lets the move-limit tests build long quiet games.
bool find_line(Position& pos, int plies, const std::function<bool(const Position&, Move, bool, int)>& ok,
               std::unordered_set<std::uint64_t>& seen, std::vector<Move>& line, long& budget) {
    if (int(line.size()) == plies) return true;
    if (--budget < 0) return false;
    MoveList l;
    pos.generate_legal(l);
    for (Move m : l) {
        if (pos.is_capture(m)) continue;
        UndoInfo u;
        pos.do_move(m, u);
        const bool check = pos.in_check();
        const bool fresh = !seen.count(pos.key()) && pos.has_legal_move();
        if (fresh && ok(pos, m, check, int(line.size()))) {
            seen.insert(pos.key());
            line.push_back(m);
            if (find_line(pos, plies, ok, seen, line, budget)) return true;
            line.pop_back();
            seen.erase(pos.key());
        }
        pos.undo_move(m, u);
    }
    return false;
}

std::vector<Move> line_from(const Position& start, int plies,
                            const std::function<bool(const Position&, Move, bool, int)>& ok) {
    Position pos = start;
    std::unordered_set<std::uint64_t> seen{pos.key()};
    std::vector<Move> line;
    long budget = 2'000'000;
    EXPECT_TRUE(find_line(pos, plies, ok, seen, line, budget)) << "no line of " << plies << " plies found";
    return line;
}

TEST(Adjudication, MoveLimitAt120Plies) {
    Game g;
    const auto quiet = [](const Position&, Move, bool check, int) { return !check; };
    const auto line = line_from(g.position(), 120, quiet);
    ASSERT_EQ(line.size(), 120u);
    for (int i = 0; i < 119; ++i) ASSERT_TRUE(g.play(line[i]));
    EXPECT_FALSE(g.over()) << g.result().text;
    EXPECT_EQ(g.limit_plies(), 119);
    ASSERT_TRUE(g.play(line[119]));
    EXPECT_EQ(g.result().outcome, Outcome::Draw);
    EXPECT_EQ(g.result().reason, EndReason::MoveLimit);
    EXPECT_EQ(g.result().text,
              "Draw: 60 moves (120 plies) without a capture (checks beyond 10 per side not counted)");
}

TEST(Adjudication, MoveLimitCountsFromTheFenClockAndResetsOnCapture) {
    Game g = game_from("3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 117 60");
    EXPECT_EQ(g.limit_plies(), 117);
    play_all(g, {"a0a1", "i9i8"});
    EXPECT_FALSE(g.over());
    play_all(g, {"a1a2"});
    EXPECT_EQ(g.result().reason, EndReason::MoveLimit);
    ASSERT_TRUE(g.undo());
    EXPECT_FALSE(g.over());
    Game c = game_from("3k4r/9/9/9/9/9/9/9/8r/R3K4 w - - 118 60");
    play_all(c, {"a0a1", "i1a1"});  // a capture resets the count
    EXPECT_FALSE(c.over());
    EXPECT_EQ(c.limit_plies(), 0);
}

TEST(Adjudication, ChecksBeyondTenPerSideDoNotAdvanceTheMoveLimit) {
    // 15 Red checks, each answered by a quiet black move, then quiet moves. Starting at 95:
    // the first 10 checks and their replies count (115); checks 11-15 and replies do not.
    const Position start = test::fen_pos("3k5/9/9/9/9/9/9/9/9/R4K2R w - - 95 1");
    const auto ok = [](const Position& after, Move, bool check, int ply) {
        if (ply < 30) return after.side_to_move() == BLACK ? check : !check;
        return !check;
    };
    const auto line = line_from(start, 35, ok);
    ASSERT_EQ(line.size(), 35u);
    Game g(start);
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(g.play(line[i])) << i;
    EXPECT_FALSE(g.over()) << g.result().text;
    EXPECT_EQ(g.position().rule50(), 125) << "the plain clock runs on";
    EXPECT_EQ(g.limit_plies(), 115);
    EXPECT_EQ(g.records()[19].checks_counted[RED], 10);
    EXPECT_TRUE(g.records()[20].uncounted_check);
    for (int i = 30; i < 34; ++i) ASSERT_TRUE(g.play(line[i]));
    EXPECT_FALSE(g.over());
    EXPECT_EQ(g.limit_plies(), 119);
    ASSERT_TRUE(g.play(line[34]));
    EXPECT_EQ(g.result().reason, EndReason::MoveLimit);
}

}  // namespace
