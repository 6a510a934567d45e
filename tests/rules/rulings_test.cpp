// Which moves chase which pieces (docs/RULES.md's chase definition), one case per clause.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"
#include "xiangqi/rulings.h"

namespace {

using namespace xq;
using test::fen_pos;
using test::iccs;
using test::sq;

std::vector<std::string> chased(std::string_view fen, std::string_view move) {
    const Position p = fen_pos(fen);
    const Move m = iccs(move);
    MoveList legal;
    p.generate_legal(legal);
    EXPECT_TRUE(legal.contains(m)) << move << " must be legal in " << fen;
    Square out[MAX_CHASED];
    const int n = chased_by_move(p, m, out);
    std::vector<std::string> v;
    for (int i = 0; i < n; ++i) v.push_back(square_to_string(out[i]));
    std::sort(v.begin(), v.end());
    return v;
}

using V = std::vector<std::string>;

TEST(Chase, RookAttacksUnprotectedHorse) {
    EXPECT_EQ(chased("4k4/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{"g5"});
}

TEST(Chase, RookHeldByHorseIsChasedByEveryAttackingMove) {
    // WXF rule 19: the d8 rook stands on the leg of the c8 horse's check on e9, so it cannot
    // move away; the d3 rook attacked it before, and attacks it again from d4: a chase.
    EXPECT_EQ(chased("4ka3/2Nr5/9/9/9/9/3R5/9/9/3K5 w - - 0 1", "d3d4"), V{"d8"});
    // Without the horse the rook could escape: a continued attack is no new threat.
    EXPECT_EQ(chased("4ka3/3r5/9/9/9/9/3R5/9/9/3K5 w - - 0 1", "d3d4"), V{});
    // A move of another piece is no chase of the held rook.
    EXPECT_EQ(chased("4ka3/2Nr5/9/9/9/9/3R5/9/9/3K5 w - - 0 1", "d0d1"), V{});
}

TEST(Chase, RookConfinedByCannonChasesNothingAlongItsLine) {
    // WXF rule 27: the e5 rook is one of the two pieces between the e0 cannon and its king.
    // Stepping to e6 it blocks the i6 cannon's protection of the c6 horse, which the c9
    // cannon attacks, and itself attacks the horse and the g6 pawn; unconfined, that is a
    // chase of both; a confined rook's move along its line is no chase.
    EXPECT_EQ(chased("2c1k4/2n1a4/9/2N3P1C/4r4/9/9/9/9/3K5 b - - 0 1", "e5e6"), (V{"c6", "g6"}));
    EXPECT_EQ(chased("2c1k4/2n1a4/9/2N3P1C/4r4/9/9/9/9/3KC4 b - - 0 1", "e5e6"), V{});
}

TEST(Chase, RookAttacksProtectedHorseIsNoChase) {
    // The black rook on g9 recaptures on g5.
    EXPECT_EQ(chased("4k1r2/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{});
}

TEST(Chase, PinnedProtectorDoesNotProtect) {
    // The g9 rook would expose its king to the i9 rook if it recaptured.
    EXPECT_EQ(chased("4k1r1R/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{"g5"});
}

TEST(Chase, CannonAttacksProtectedRookIsChase) {
    // g5 rook protected by the f7 horse, attacked by a cannon over the g3 screen.
    EXPECT_EQ(chased("4k4/9/5n3/9/6r2/9/6P2/9/7C1/3K5 w - - 0 1", "h1g1"), V{"g5"});
}

TEST(Chase, ElephantAttacksProtectedHorseIsChase) {
    EXPECT_EQ(chased("4k4/9/9/9/4r4/9/9/B3n4/5K3/9 w - - 0 1", "a2c4"), V{"e2"});
}

TEST(Chase, SameTypeChasesOnlyWhenVictimCannotCaptureBack) {
    // Horse against horse: the f5 cannon blocks the black horse's leg, so it cannot reply.
    EXPECT_EQ(chased("4k4/9/9/5n3/5C3/9/2N6/9/9/3K5 w - - 0 1", "c3e4"), V{"f6"});
    // Without the blocker the black horse attacks back: no chase.
    EXPECT_EQ(chased("4k4/9/9/5n3/9/9/2N6/9/9/3K5 w - - 0 1", "c3e4"), V{});
    // Rook against an unprotected rook on an open line: mutual attack, no chase.
    EXPECT_EQ(chased("4k4/9/9/9/6r2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{});
}

TEST(Chase, PawnsOnTheirOwnSideAreNotChasedButCrossedPawnsAre) {
    EXPECT_EQ(chased("4k4/9/9/p8/9/9/9/9/7R1/3K5 w - - 0 1", "h1a1"), V{});
    EXPECT_EQ(chased("4k4/9/9/9/9/p8/9/9/7R1/3K5 w - - 0 1", "h1a1"), V{"a4"});
}

TEST(Chase, PawnAttackerNeverChases) {
    EXPECT_EQ(chased("4k4/9/4n4/9/4P4/9/9/9/9/3K5 w - - 0 1", "e5e6"), V{});
}

TEST(Chase, PinnedAttackerDoesNotAttack) {
    // The e-file rook is pinned against its king by the e9 rook: a4 is out of its reach.
    EXPECT_EQ(chased("3kr4/9/9/9/9/n8/4R4/9/9/4K4 w - - 0 1", "e3e4"), V{});
    // The same with the red king off the file: the horse on a4 is chased.
    EXPECT_EQ(chased("3kr4/9/9/9/9/n8/4R4/9/9/5K3 w - - 0 1", "e3e4"), V{"a4"});
}

TEST(Chase, DiscoveredAttackChases) {
    EXPECT_EQ(chased("4k4/9/9/9/9/9/9/9/R1N3c2/3K5 w - - 0 1", "c1b3"), V{"g1"});
}

TEST(Chase, EscapingCheckDoesNotNewlyAttackWhatWasAlreadyAimedAt) {
    // The i6 rook aims at the unprotected c6 horse all along; the king's escape from the a9
    // rook's check makes that capture legal again, but it is no new attack.
    EXPECT_EQ(chased("R3k4/9/9/2N5r/9/9/9/9/9/5K3 b - - 0 1", "e9e8"), V{});
}

TEST(Chase, CheckIsNotAChaseOfTheKing) {
    EXPECT_EQ(chased("4k4/R8/9/9/9/9/8p/9/9/5K3 w - - 0 1", "a8a9"), V{});
}

TEST(Chase, TakingAwayAProtectionChases) {
    // The a5 rook attacks the e5 horse all along; the e9 cannon protects it over the e8
    // advisor. The pawn stepping to e6 gives the cannon a second screen: the horse is left
    // unprotected, a new threat (WXF appendix, example of perpetual chase).
    EXPECT_EQ(chased("4ck3/4a4/9/3P5/R3n4/9/9/9/9/3K5 w - - 0 1", "d6e6"), V{"e5"});
    // With the advisor on e8 and the pawn on e6, stepping back to d6 restores the protection
    // (one screen again): no threat is created.
    EXPECT_EQ(chased("4ck3/4a4/9/4P4/R3n4/9/9/9/9/3K5 w - - 0 1", "e6d6"), V{});
    // With the advisor on d9 the pawn is the only screen: stepping away leaves the horse bare.
    EXPECT_EQ(chased("3ack3/9/9/4P4/R3n4/9/9/9/9/3K5 w - - 0 1", "e6d6"), V{"e5"});
}

TEST(Chase, ANewAttackerOnAPieceThreatenedAllAlongIsNoChase) {
    // The c5 rook already threatens the unprotected g5 horse along the rank; the second rook
    // joining on the g-file adds nothing new.
    EXPECT_EQ(chased("4k4/9/9/9/2R3n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{});
    // Without the first attacker the same move is a chase.
    EXPECT_EQ(chased("4k4/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{"g5"});
}

TEST(Chase, RecaptureIntoAFacingKingDoesNotProtect) {
    // The e7 horse is "protected" by the black king only through e8, where the king would
    // face the red king on the open e-file: no true protection, so the rook chases it.
    EXPECT_EQ(chased("3k5/9/4n4/9/9/9/9/9/R8/4K4 w - - 0 1", "a1a7"), V{"e7"});
}

TEST(Chase, OfferToExchangeIsNoChaseButAnotherPieceStillIs) {
    // Rook against a rook that can take back: an offer to exchange (WXF rule 40).
    EXPECT_EQ(chased("4k4/9/9/9/6r2/9/9/9/7R1/3K5 w - - 0 1", "h1g1"), V{});
    // The same rook move attacking the cannon while offering the i1 rook an exchange still
    // chases the cannon (WXF rule 36).
    EXPECT_EQ(chased("4k4/9/9/9/6c2/9/9/9/7Rr/3K5 w - - 0 1", "h1g1"), V{"g5"});
}

TEST(Chase, JudgeRepetitionOrdersClasses) {
    EXPECT_FALSE(judge_repetition(CycleClass::Idle, CycleClass::Idle).decisive);
    EXPECT_FALSE(judge_repetition(CycleClass::Check, CycleClass::Check).decisive);
    EXPECT_FALSE(judge_repetition(CycleClass::Chase, CycleClass::Chase).decisive);
    auto v = judge_repetition(CycleClass::Check, CycleClass::Chase);
    EXPECT_TRUE(v.decisive);
    EXPECT_EQ(v.loser, RED);
    v = judge_repetition(CycleClass::Idle, CycleClass::Chase);
    EXPECT_TRUE(v.decisive);
    EXPECT_EQ(v.loser, BLACK);
    EXPECT_EQ(v.loser_class, CycleClass::Chase);
}

TEST(Chase, RuleCycleForTheEngine) {
    const Position p = fen_pos("4k4/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1");
    const Move cycle[] = {iccs("h1g1"), iccs("g5h7"), iccs("g1h1"), iccs("h7g5")};
    const CycleRuling r = rule_cycle(p, cycle, 4);
    EXPECT_EQ(r.verdict.red, CycleClass::Chase);
    EXPECT_EQ(r.verdict.black, CycleClass::Idle);
    ASSERT_TRUE(r.verdict.decisive);
    EXPECT_EQ(r.verdict.loser, RED);
    EXPECT_EQ(r.chased_square[RED], sq("g5"));  // the black horse, where the cycle began
    EXPECT_EQ(r.chased_square[BLACK], SQ_NONE);
}

TEST(Chase, RuleCycleCheckAgainstThreatHeldAllAlong) {
    // Red checks on every move. Black's rook steps to c8 and back to d8; the red c9 horse is
    // threatened all along (by the c0 cannon over the c3 screen, then by the rook on c8, then
    // by the cannon again), so Black's moves create no new threat: Black is idle, Red loses.
    const Position p = fen_pos("2Nk5/3r5/1C2c4/9/9/9/2N6/4K4/9/2cR5 w - - 0 1");
    const Move cycle[] = {iccs("b7d7"), iccs("d8c8"), iccs("d7b7"), iccs("c8d8")};
    const CycleRuling r = rule_cycle(p, cycle, 4);
    EXPECT_EQ(r.verdict.red, CycleClass::Check);
    EXPECT_EQ(r.verdict.black, CycleClass::Idle);
    EXPECT_EQ(r.chased_square[BLACK], SQ_NONE);
    ASSERT_TRUE(r.verdict.decisive);
    EXPECT_EQ(r.verdict.loser, RED);
}

TEST(CycleRuling, PerpetualCheckAgainstPerpetualChase) {
    // The suite's perpetual_check_against_perpetual_chase: Red checks on every move, Black
    // chases the rook on every move (by uncovering its cannons); the checking side loses.
    const Position start = fen_pos("1c1ak4/1c1n4R/9/9/9/9/9/9/9/3K5 w - - 0 1");
    const Move cycle[] = {iccs("i8i9"), iccs("e9e8"), iccs("i9i8"), iccs("e8e9")};
    const CycleRuling r = rule_cycle(start, cycle, 4);
    EXPECT_EQ(r.verdict.red, CycleClass::Check);
    EXPECT_EQ(r.verdict.black, CycleClass::Chase);
    EXPECT_EQ(r.chased_square[BLACK], sq("i8"));
    ASSERT_TRUE(r.verdict.decisive);
    EXPECT_EQ(r.verdict.loser, RED);
}

TEST(CycleRuling, MateThreatsAreIdle) {
    // The suite's d34_mate_threats_against_a_chase: after each cannon move, were Red to pass,
    // the cannon would mate from f5; the threats are neither checks nor chases.
    const Position start = fen_pos("3k5/9/7R1/9/2c6/9/9/5p3/4p4/5K3 w - - 0 1");
    const Move cycle[] = {iccs("h7c7"), iccs("c5h5"), iccs("c7h7"), iccs("h5c5")};
    Position pos = start;
    for (int i = 0; i < 4; ++i) {
        UndoInfo u;
        pos.do_move(cycle[i], u);
        if (i % 2 == 0) continue;
        EXPECT_FALSE(pos.in_check());
        Position passed = pos;
        UndoInfo nu, mu;
        passed.do_null_move(nu);
        const Move mate(cycle[i].to(), sq("f5"));
        ASSERT_TRUE(passed.is_legal(mate));
        passed.do_move(mate, mu);
        EXPECT_TRUE(passed.in_check());
        EXPECT_FALSE(passed.has_legal_move()) << "the cannon mates from f5 after ply " << i + 1;
    }
    const CycleRuling r = rule_cycle(start, cycle, 4);
    EXPECT_EQ(r.verdict.black, CycleClass::Idle);
    EXPECT_EQ(r.verdict.red, CycleClass::Chase);
}

}  // namespace
