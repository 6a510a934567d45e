// Repetition cases from the WXF/AXF Asian rules: a start FEN, one cycle of moves and the
// verdict an arbiter gives when the cycle has been played twice (the third occurrence).
// Each case cites the rule or diagram it follows; where a position is constructed here,
// its verdict follows from the cited rule. Shared by the rules tests and the server test.
// The type of a case is in repetition_case.h; the forms each case is played in, in
// repetition_forms.h.
#pragma once

#include "repetition_case.h"

namespace xq::test {

// Sources (stored copies reachable through the project's search tool):
//   WXF  = World Xiangqi Federation, Asian rules, English translation (wxf.org/xq/rule/asia/)
//   SUM  = the Asian rules summary "Forbidden perpetual moves" (chesshub.com/cchess/rules)
//   AXF  = Asian Xiangqi Federation rules, English summary of the diagrams (xqinenglish.com)
//   HGM  = H. G. Muller, talkchess.com thread "Perpetual chasing in Xiangqi" (2010)
//          and his comment on the Asian rules at chessvariants.com (Xiangqi page, 2018)
inline constexpr RepetitionCase REPETITION_CASES[] = {
    {"rook_chases_unprotected_cannon",
     "WXF rule 18 (diagrams 32, 33): a rook may not perpetually chase an unprotected cannon",
     "4k4/9/9/9/6c2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 g5h5 g1h1 h5g5", Verdict::RedLoses,
     Why::PerpetualChase, "black cannon"},
    {"rook_chases_unprotected_horse",
     "SUM: perpetual threats on one unprotected piece are forbidden",
     "4k4/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 g5h7 g1h1 h7g5", Verdict::RedLoses,
     Why::PerpetualChase, "black horse"},
    {"victim_never_escapes",
     "WXF appendix, example of non-perpetual chase: the rook threatens the cannon on every "
     "move but the cannon never escapes the attack, so there is no chase",
     "4k4/9/9/7c1/9/9/9/9/7R1/3K5 w - - 0 1", "h1h2 h6h5 h2h1 h5h6", Verdict::Draw, Why::Repetition, ""},
    {"attack_on_protected_horse",
     "SUM: only unprotected pieces are chased; the g9 rook protects the g5 horse",
     "4k1r2/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 e9e8 g1h1 e8e9", Verdict::Draw, Why::Repetition, ""},
    {"cannon_chases_protected_rook",
     "WXF rule 15 (diagram 18): a cannon may not perpetually chase a rook even if protected; "
     "Black's rook threatens the d5 pawn only on every other move (allowed)",
     "4kr3/9/9/1C1P5/3P1r3/9/9/9/9/3K5 w - - 0 1", "b6b5 f5f6 b5b6 f6f5", Verdict::RedLoses,
     Why::PerpetualChase, "black rook"},
    {"horse_chases_protected_rook",
     "SUM: perpetual threats on a rook by cannons or horses are forbidden (the f9 rook protects it)",
     "4kr3/9/9/5r3/9/9/6N2/9/9/3K5 w - - 0 1", "g3e4 f6f5 e4g3 f5f6", Verdict::RedLoses,
     Why::PerpetualChase, "black rook"},
    {"king_may_chase",
     "WXF rule 28 (diagram 67): the king may chase perpetually; the game is a draw",
     "5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1", "e1d1 d2e2 d1e1 e2d2", Verdict::Draw, Why::Repetition, ""},
    {"pawn_may_chase",
     "SUM: pawns and kings are allowed to threaten perpetually (WXF diagram 104)",
     "4k4/9/4c4/3P5/9/9/9/9/9/5K3 w - - 0 1", "d6e6 e7d7 e6d6 d7e7", Verdict::Draw, Why::Repetition, ""},
    {"crossed_pawn_is_chased",
     "SUM: threats on an unprotected piece are forbidden except on a pawn that has not "
     "crossed the river; this pawn has",
     "4k4/9/9/9/9/p8/9/9/1R7/3K5 w - - 0 1", "b1a1 a4b4 a1b1 b4a4", Verdict::RedLoses,
     Why::PerpetualChase, "black pawn"},
    {"one_piece_chases_two",
     "WXF rule 32 (diagrams 76-78): one piece chasing two pieces in turn is a draw",
     "4k4/9/9/7c1/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 e9e8 g1h1 e8e9", Verdict::Draw, Why::Repetition, ""},
    {"two_rooks_chase_two_cannons_8_plies",
     "WXF rule 32 (diagram 80): two pieces taking turns to chase two pieces is a draw; an 8-ply cycle",
     "4k4/9/9/9/1c5c1/9/9/9/R7R/3K5 w - - 0 1", "a1b1 b5a5 i1h1 h5i5 b1a1 a5b5 h1i1 i5h5",
     Verdict::Draw, Why::Repetition, ""},
    {"two_cannons_take_turns_on_a_rook",
     "WXF rule 15 (diagram 20): one or two cannons may not perpetually chase a rook, while "
     "the rook's attacks on two different cannons in turn are allowed",
     "4k4/9/9/C4r3/C1N6/9/9/9/9/3K5 w - - 0 1", "c5e6 f6f5 e6c5 f5f6", Verdict::RedLoses,
     Why::PerpetualChase, "black rook"},
    {"offer_to_exchange_rooks",
     "WXF rule 40 (diagram 101): perpetually offering to exchange is a draw",
     "4k4/9/9/9/6r2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 g5h5 g1h1 h5g5", Verdict::Draw, Why::Repetition, ""},
    {"chase_while_offering_exchange",
     "WXF rule 36 (diagram 91): chasing the cannon while offering to exchange rooks is still "
     "a perpetual chase",
     "4k4/9/9/9/6c2/9/9/9/7Rr/3K5 w - - 0 1", "h1g1 g5h5 g1h1 h5g5", Verdict::RedLoses,
     Why::PerpetualChase, "black cannon"},
    {"one_check_one_chase",
     "WXF rule 12 (diagram 13): one check and one chase is a draw",
     "9/4k4/c5R2/9/9/9/9/9/9/3K5 w - - 0 1", "g7g8 e8e9 g8g7 e9e8", Verdict::Draw, Why::Repetition, ""},
    {"perpetual_check",
     "SUM: perpetual checks are forbidden",
     "4k4/R8/9/9/9/9/8p/9/9/5K3 w - - 0 1", "a8a9 e9e8 a9a8 e8e9", Verdict::RedLoses,
     Why::PerpetualCheck, ""},
    {"mutual_perpetual_check",
     "SUM: if both sides repeat forbidden moves the game is a draw",
     "4r4/8N/3k5/3c5/9/3N5/n8/5R1n1/4K4/3C5 w - - 0 1", "d4e2 d6e6 e2d4 e6d6", Verdict::Draw,
     Why::Repetition, ""},
    {"pinned_protector_does_not_protect",
     "SUM: threats on an unprotected piece are forbidden; the g9 rook is pinned by the i9 "
     "rook and cannot legally recapture, so the cannon is unprotected",
     "4k1r1R/9/9/7R1/6c2/9/9/9/9/3K5 w - - 0 1", "h6h5 g5g6 h5h6 g6g5", Verdict::RedLoses,
     Why::PerpetualChase, "black cannon"},
    {"free_protector_protects",
     "SUM: only unprotected pieces are chased; without the pin the g9 rook protects the cannon",
     "4k1r2/9/9/7R1/6c2/9/9/9/9/3K5 w - - 0 1", "h6h5 g5g6 h5h6 g6g5", Verdict::Draw, Why::Repetition, ""},
    {"checks_that_also_chase",
     "HGM's position without a horse on c5 (the position after ply 2 recurs a third time at "
     "ply 10, so the ruling covers plies 3-10): every red move threatens the unprotected cannon, "
     "two of them while checking; SUM: a move that is both a check and a threat is judged "
     "the way that is forbidden, so Red chases perpetually",
     "4k4/9/3R5/4c4/9/4N4/9/4C4/9/5K3 w - - 0 1", "e4g5 e6f6 d7f7 f6d6 f7d7 d6f6 g5e4 f6e6",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon", 10, "plies 3-10"},
    {"check_chase_with_protection",
     "HGM's position with the black horse on c5: the cannon on e6 is protected, so the "
     "checking moves threaten nothing and Red does not chase on every move",
     "4k4/9/3R5/4c4/2n6/4N4/9/4C4/9/5K3 w - - 0 1", "e4g5 e6f6 d7f7 f6d6 f7d7 d6f6 g5e4 f6e6",
     Verdict::Draw, Why::Repetition, "", 10, "plies 3-10"},
    {"idle_repetition",
     "WXF rule 40 and SUM: a repetition in which neither side makes a forbidden move is a draw",
     "3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 i9i8 a1a0 i8i9", Verdict::Draw, Why::Repetition, ""},
    {"protection_taken_away_every_move",
     "WXF appendix, example of perpetual chase: the pawn keeps moving to leave the horse "
     "unprotected (here it adds or removes a second screen of the e9 cannon) while Black "
     "keeps protecting it; the rook chases perpetually",
     "4ck3/4a4/9/3P5/R3n4/9/9/9/9/3K5 w - - 0 1", "d6e6 e8d9 e6d6 d9e8", Verdict::RedLoses,
     Why::PerpetualChase, "black horse"},
    {"protection_taken_away_every_other_move",
     "WXF rule 15 (diagram 19): one chase and one idle move do not break the rule",
     "4ck3/4a4/9/3P5/R3n4/9/9/9/9/3K5 w - - 0 1", "d6e6 f9f8 e6d6 f8f9", Verdict::Draw, Why::Repetition, ""},
    {"uncrossed_pawn_is_not_chased",
     "SUM: threats on a pawn that has not crossed the river are allowed; the same cycle as "
     "protection_taken_away_every_move with a black pawn on e5 instead of the horse",
     "4ck3/4a4/9/3P5/R3p4/9/9/9/9/3K5 w - - 0 1", "d6e6 e8d9 e6d6 d9e8", Verdict::Draw, Why::Repetition, ""},
    {"perpetual_check_by_two_pieces",
     "SUM: perpetual checks are forbidden, also when the checking piece changes (the cannon "
     "over the d8 rook, then the d0 rook uncovered); perpetual check loses to any other class",
     "2Nk5/3r5/1C2c4/9/9/9/2N6/4K4/9/2cR5 w - - 0 1", "b7d7 d8c8 d7b7 c8d8", Verdict::RedLoses,
     Why::PerpetualCheck, ""},
    {"attacked_all_along",
     "WXF appendix, example of non-perpetual chase: the f6 rook and the e4 horse are attacked "
     "all the time (by a different piece after each move), so no move makes a new threat",
     "9/9/4k4/5r3/9/2r1N4/9/9/3K1C3/9 w - - 0 1", "e4f2 c4c2 f2e4 c2c4", Verdict::Draw, Why::Repetition, ""},
    {"horse_attacks_two_rooks_in_turn",
     "WXF rule 32: one piece chasing two pieces in turn is a draw; Black's c4c6 only adds an "
     "attacker to a horse that stands in the f6 rook's line already",
     "9/9/4k4/5r3/9/2r1N4/9/9/3K1C3/9 w - - 0 1", "e4d6 c4c6 d6e4 c6c4", Verdict::Draw, Why::Repetition, ""},
    {"d32_rook_follows_cannon_across_the_board",
     "WXF rule 18, diagram 32 (R9=5 c5=1 R5=9 c1=5): the rook may not perpetually chase "
     "the unprotected cannon",
     "3k5/9/4c4/9/9/9/9/R8/9/5K3 w - - 0 1", "a2e2 e7a7 e2a2 a7e7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d36_cannon_replies_attack_two_horses",
     "WXF rule 18, diagram 36 (R7=3 c7=3 R3=7 c3=7): the cannon's replies attack the two "
     "red horses in turn (allowed), the rook's perpetual chase of the cannon is not",
     "2Nk2N2/2n3n2/6c2/9/9/9/9/2R6/9/5K3 w - - 0 1", "c2g2 g7c7 g2c2 c7g7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d37_cannon_replies_one_check_one_chase",
     "WXF rule 18, diagram 37 (R8+1 c1+1 R8-1 c1-1): the cannon's replies are one check "
     "and one chase (allowed), the rook chases the unprotected cannon perpetually",
     "3k5/9/9/9/9/9/9/9/c1N1K4/1RBA5 w - - 0 1", "b0b1 a1a0 b1b0 a0a1",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d29_rook_chases_protected_cannon",
     "WXF rule 17, diagram 29 (R1=2 c8=9 R2=1 c9=8): a rook may perpetually chase a "
     "protected cannon (the a7 rook protects it on both points)",
     "5k3/9/r6c1/9/9/9/9/8R/9/3K5 w - - 0 1", "i2h2 h7i7 h2i2 i7h7",
     Verdict::Draw, Why::Repetition, ""},
    {"d30_cannon_protected_on_one_point_only",
     "WXF rule 17, diagram 30 (R3=7 c3=7 R7=3 c7=3): the cannon is protected on one of its "
     "points (by the b9 horse) and not on the other; the chase is still allowed",
     "1n3k3/9/2c6/9/9/9/9/6R2/9/3K5 w - - 0 1", "g2c2 c7g7 c2g2 g7c7",
     Verdict::Draw, Why::Repetition, ""},
    {"d51_rook_offers_itself_12_plies",
     "WXF rule 24, diagram 51 (R3=1 r9=8 R1=2 r8=7 R2=3 r7=8 R3=2 r8=9 R2=1 r9=7 R1=3 "
     "r7=9): a rook that keeps offering itself to a rook that could take it is a perpetual "
     "sacrifice, a draw; a 12-ply cycle (the position after ply 1 recurs a third time at "
     "ply 13)",
     "5k3/9/8r/9/9/9/9/6R2/9/3K5 w - - 0 1", "g2i2 i7h7 i2h2 h7g7 h2g2 g7h7 g2h2 h7i7 h2i2 i7g7 i2g2 g7i7",
     Verdict::Draw, Why::Repetition, "", 13, "plies 2-13"},
    {"d52_rook_offers_itself_10_plies",
     "WXF rule 24, diagram 52 (R8+2 r5+3 R8-3 r5-2 R8+2 r5+2 R8-2 r5-1 R8+1 r5-2): the "
     "rook perpetually offers itself along the ranks, a draw; a 10-ply cycle (the position "
     "after ply 3 recurs a third time at ply 13)",
     "5k3/9/4r4/9/1R7/9/9/9/9/3K5 w - - 0 1", "b5b7 e7e4 b7b4 e4e6 b4b6 e6e4 b6b4 e4e5 b4b5 e5e7",
     Verdict::Draw, Why::Repetition, "", 13, "plies 4-13"},
    {"d54_cannon_offer_on_the_back_rank",
     "WXF rule 24, diagram 54 (C2=3 c7=8 C3=2 c8=7): the cannon confined to the king's row "
     "is protected on one of its points (by the e7 elephant) and can capture back, so "
     "there is no perpetual chase",
     "4k1c2/9/4b4/6pP1/9/9/9/7C1/9/3K5 w - - 0 1", "h2g2 g9h9 g2h2 h9g9",
     Verdict::Draw, Why::Repetition, ""},
    {"d55_horse_chases_blocked_horse",
     "WXF rule 24, diagram 55 (H2+4 h7+9 H4-2 h9-7): the black horse is blocked (its legs "
     "g6 and i5 are occupied) and cannot capture back, so the red horse chases it "
     "perpetually",
     "5k3/9/6n2/6p2/8p/7N1/9/9/9/3K5 w - - 0 1", "h4f5 g7i6 f5h4 i6g7",
     Verdict::RedLoses, Why::PerpetualChase, "black horse"},
    {"d61_cannon_chases_rook_by_moving_elephant",
     "WXF rule 26 (diagrams 61, 62): a cannon that keeps attacking a rook by moving its "
     "screen (here the elephant, in turn for the e0 and g0 cannons) chases perpetually, "
     "whether or not the rook is protected",
     "5k3/9/6r2/9/9/9/9/4B4/8N/3KC1C2 w - - 0 1", "e2g4 g7e7 g4e2 e7g7",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d77_rook_chases_two_pawns_8_plies",
     "WXF rule 32, diagram 77 (R3=8 p2=3 R8=7 p3=2 R7=2 p8=7 R2=3 p7=8): one rook chasing "
     "two crossed pawns in turn is a draw; an 8-ply cycle",
     "3k5/9/9/9/9/9/1p5p1/9/6R2/4K4 w - - 0 1", "g1b1 b3c3 b1c1 c3b3 c1h1 h3g3 h1g1 g3h3",
     Verdict::Draw, Why::Repetition, ""},
    {"d79_rook_chases_cannon_that_attacks_two_pawns",
     "WXF rule 32, diagram 79: the red cannon's attacks on two black pawns in turn are "
     "allowed, the black rook's perpetual chase of the unprotected red cannon is not; "
     "Black loses",
     "3k5/9/9/9/9/pNC3r2/1p7/pN7/9/4K4 w - - 0 1", "c4c2 g4g2 c2c4 g2g4",
     Verdict::BlackLoses, Why::PerpetualChase, "red cannon"},
    {"d90_offer_every_other_move_while_chasing",
     "WXF rule 36, diagram 90 (R9=8 c2=1 R8=9 c1=2): the red cannon offers an exchange of "
     "cannons on every other move while the rook chases the black cannon; still a "
     "perpetual chase",
     "1C3k3/1n7/1c7/9/9/9/9/R8/9/3K5 w - - 0 1", "a2b2 b7a7 b2a2 a7b7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d92_rook_offers_while_cannons_chase",
     "WXF rule 36, diagram 92: while the red rook offers an exchange of rooks on every "
     "move, it screens for the cannons, which chase the black rook perpetually; Red loses "
     "(Black's attacks on two different cannons are allowed)",
     "3k5/9/2r6/9/9/9/9/6R2/9/2C1K1C2 w - - 0 1", "g2c2 c7g7 c2g2 g7c7",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d93_rook_offers_while_horses_chase",
     "WXF rule 36, diagram 93 (R7=8 r2=3 R8=7 r3=2): while the red rook offers an exchange "
     "of rooks on every move, each move frees a horse's leg and the horses chase the black "
     "rook perpetually",
     "5k3/9/1r7/2RN5/1N7/9/9/9/9/3K5 w - - 0 1", "c6b6 b7c7 b6c6 c7b7",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d104_pawn_offers_itself",
     "WXF rule 40, diagram 104 (P7=8 r2=3 P8=7 r3=2): the pawn perpetually offers itself "
     "to the rook and the rook steps aside each time; neither side breaks the rule, a draw",
     "3k5/9/9/2P6/9/9/9/1r7/9/4K4 w - - 0 1", "c6b6 b2c2 b6c6 c2b2",
     Verdict::Draw, Why::Repetition, ""},
    {"rook_chases_unprotected_advisor",
     "SUM: perpetual threats on one unprotected piece are forbidden, an advisor included "
     "(only the king and uncrossed pawns are exempt as victims)",
     "3a1k3/9/9/9/9/9/9/4R4/9/3K5 w - - 0 1", "e2d2 d9e8 d2e2 e8d9",
     Verdict::RedLoses, Why::PerpetualChase, "black advisor"},
    {"rook_chases_unprotected_elephant",
     "SUM: perpetual threats on one unprotected piece are forbidden, an elephant included",
     "5k3/9/4b4/9/9/9/9/2R6/9/3K5 w - - 0 1", "c2e2 e7c9 e2c2 c9e7",
     Verdict::RedLoses, Why::PerpetualChase, "black elephant"},
    {"one_check_one_idle",
     "SUM (only perpetual checks are forbidden) and HGM on the Asian rules "
     "(chessvariants.com comment, 2018): a side that checks on one move and makes an idle "
     "move on the other (one check, one idle) does not break the rule",
     "4k4/4a4/R8/9/9/9/9/9/9/3K5 w - - 0 1", "a7a9 e8d9 a9a7 d9e8",
     Verdict::Draw, Why::Repetition, ""},
    {"fake_protection_by_king_facing_king",
     "SUM: only unprotected pieces are chased; on d9 the horse seems protected by its "
     "king, but the king's recapture would face the red king on the open d-file, so it is "
     "not allowed and the horse is chased on both points",
     "3nk4/9/9/9/9/9/9/2R6/9/3K5 w - - 0 1", "c2d2 d9c7 d2c2 c7d9",
     Verdict::RedLoses, Why::PerpetualChase, "black horse"},
    {"king_protection_is_real",
     "SUM: only unprotected pieces are chased; fake_protection_by_king_facing_king with "
     "the red king on f0, so the king's recapture on d9 is allowed and Red chases only "
     "every other move (WXF rule 15, diagram 19: one chase, one idle)",
     "3nk4/9/9/9/9/9/9/2R6/9/5K3 w - - 0 1", "c2d2 d9c7 d2c2 c7d9",
     Verdict::Draw, Why::Repetition, ""},
    {"second_attacker_on_attacked_cannon",
     "WXF appendix, example of non-perpetual chase: the rook attacks the cannon all the "
     "time and the cannon never escapes; a horse joining the attack every other move "
     "creates no new threat",
     "5k3/9/9/4c4/9/9/1N7/4R4/9/3K5 w - - 0 1", "b3d4 f9f8 d4b3 f8f9",
     Verdict::Draw, Why::Repetition, ""},
    {"horse_chases_unprotected_cannon",
     "SUM: perpetual threats on one unprotected piece are forbidden; the horse attacks the "
     "cannon on f7 and on f8 in turn",
     "3k5/9/5c1N1/9/9/9/9/9/9/4K4 w - - 0 1", "h7g5 f7f8 g5h7 f8f7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"horse_chases_cannon_protected_on_one_point",
     "WXF rule 17 (diagram 30) and SUM: horse_chases_unprotected_cannon with a black "
     "advisor on e8 that protects the cannon on f7, so only every other move chases",
     "3k5/4a4/5c1N1/9/9/9/9/9/9/4K4 w - - 0 1", "h7g5 f7f8 g5h7 f8f7",
     Verdict::Draw, Why::Repetition, ""},
    {"cannon_chases_unprotected_horse",
     "SUM: perpetual threats on one unprotected piece are forbidden; the cannon attacks "
     "the horse over the c5 and e5 pawns in turn",
     "3k5/9/2n6/9/2P1P4/9/9/4C4/9/5K3 w - - 0 1", "e2c2 c7e8 c2e2 e8c7",
     Verdict::RedLoses, Why::PerpetualChase, "black horse"},
    {"rook_chases_cannon_over_three_files_6_plies",
     "WXF rule 18 (diagram 32): the rook may not perpetually chase the unprotected cannon; "
     "here over three files, a 6-ply cycle",
     "5k3/9/c8/9/9/9/9/8R/9/3K5 w - - 0 1", "i2a2 a7e7 a2e2 e7i7 e2i2 i7a7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d53_pinned_cannon_cannot_capture_back",
     "WXF rule 24, diagram 53 (C8=7 c3=2 C7=8 c2=3): the black cannon cannot capture the "
     "red cannon (it may not leave the eighth rank, where the a8 cannon pins it to its "
     "king), so the attacks are a perpetual chase, not an offer to exchange",
     "9/Cc1N1k3/9/1Pp6/2C6/9/9/9/9/3K5 w - - 0 1", "c5b5 b8c8 b5c5 c8b8",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"d53_without_the_pin_cannons_exchange",
     "WXF rule 24 (cannon chases cannon): d53_pinned_cannon_cannot_capture_back without "
     "the a8 cannon; both cannons can capture each other, a perpetual offer to exchange, a "
     "draw",
     "9/1c1N1k3/9/1Pp6/2C6/9/9/9/9/3K5 w - - 0 1", "c5b5 b8c8 b5c5 c8b8",
     Verdict::Draw, Why::Repetition, ""},
    {"d22_cannon_chases_protected_rook",
     "WXF rule 15, diagram 22 (C8-1 r6-1 C8+1 r6+1): the cannon perpetually chases the "
     "black rook although the rook is protected on both points (by the h5 and h6 horses) "
     "and the capture would lose the cannon; the rook's replies attack two different "
     "pieces",
     "4k4/9/9/7n1/1C2N2n1/2B2r3/9/9/9/3K5 w - - 0 1", "b5b4 f4f5 b4b5 f5f4",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d23_elephants_as_screens_8_plies",
     "WXF rule 15, diagram 23 (C6=7 e5+3 E7-9 e3-5 E9+7 r3=4 C7=6 r4=3): the black "
     "elephant blocks the cannon's line and the red elephant's moves reopen it; every red "
     "move of the 8-ply cycle attacks the rook, a perpetual chase (the position after ply "
     "1 recurs at plies 5 and 9, so the ruling covers plies 2-9)",
     "4k4/9/2r1b4/9/3n5/2B6/9/3C5/9/3K5 w - - 0 1", "d2c2 e7c5 c4a2 c5e7 a2c4 c7d7 c2d2 d7c7",
     Verdict::RedLoses, Why::PerpetualChase, "black rook", 9, "plies 2-9"},
    {"d20_cannon_chases_rook_that_attacks_two_pieces",
     "WXF rule 15, diagram 20 (C2+2 r4+2 C2-2 r4-2): the cannon attacks the rook on every "
     "move while the rook's replies attack the red horse and the other cannon in turn "
     "(allowed); Red loses",
     "4k4/9/9/1N1r1P3/9/C4p1C1/9/9/9/5K3 w - - 0 1", "h4h6 d6d4 h6h4 d4d6",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d19_rook_one_chase_one_idle",
     "WXF rule 15, diagram 19 (C2+2 r4+2 C2-2 r4-2): on one point the rook is protected "
     "(by the c8 horse), on the other it attacks the unprotected a4 cannon (the f6 horse is "
     "the cannon's screen on the sixth rank): one chase and "
     "one idle for Black, a perpetual chase for Red",
     "4k4/2n6/9/3r1n3/9/C4p1C1/9/9/9/5K3 w - - 0 1", "h4h6 d6d4 h6h4 d4d6",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d68_king_works_with_a_horse",
     "WXF rule 28, diagram 68 (K4=5 p5=6 K5=4 p6=5): the king may chase perpetually, also "
     "together with a horse (here the c2 horse attacks the pawn on e1 all along); a draw",
     "3k5/9/9/9/9/9/9/2N2K3/4p4/9 w - - 0 1", "f2e2 e1f1 e2f2 f1e1",
     Verdict::Draw, Why::Repetition, ""},
    {"perpetual_check_by_a_cannon",
     "WXF rule 6 (diagrams 1-3): the side that perpetually checks, with one piece or "
     "several, loses; the cannon checks over the e5 and f5 pawns in turn",
     "4k4/9/9/9/4PP3/9/9/5C3/9/3K5 w - - 0 1", "f2e2 e9f9 e2f2 f9e9",
     Verdict::RedLoses, Why::PerpetualCheck, ""},
    {"perpetual_check_by_a_horse",
     "WXF rule 6 (diagrams 1-3): the side that perpetually checks loses; the horse checks "
     "from g8 and f6 in turn",
     "4k4/9/9/5N3/9/9/9/9/9/3K5 w - - 0 1", "f6g8 e9e8 g8f6 e8e9",
     Verdict::RedLoses, Why::PerpetualCheck, ""},
    {"cannon_chases_unprotected_elephant",
     "SUM: perpetual threats on one unprotected piece are forbidden, an elephant included; "
     "the cannon attacks it over the c5 and e5 pawns",
     "5k3/9/4b4/9/2P1P4/9/9/2C6/9/3K5 w - - 0 1", "c2e2 e7c9 e2c2 c9e7",
     Verdict::RedLoses, Why::PerpetualChase, "black elephant"},
    {"cannon_chases_unprotected_advisor",
     "SUM: perpetual threats on one unprotected piece are forbidden, an advisor included; "
     "the cannon attacks it over the d5 and e5 pawns",
     "3a1k3/9/9/9/3PP4/9/9/4C4/9/3K5 w - - 0 1", "e2d2 d9e8 d2e2 e8d9",
     Verdict::RedLoses, Why::PerpetualChase, "black advisor"},
    {"d55_horses_can_capture_back",
     "WXF rule 24 (knight chases knight): d55_horse_chases_blocked_horse with the legs "
     "free, so the black horse can capture back on every move; a perpetual offer to "
     "exchange, a draw",
     "5k3/9/6n2/9/9/7N1/9/9/9/3K5 w - - 0 1", "h4f5 g7i6 f5h4 i6g7",
     Verdict::Draw, Why::Repetition, ""},
    {"rook_chases_pinned_rook",
     "WXF rule 24 (rook chases rook): the black rook cannot capture the red rook (leaving "
     "the e-file would expose its king to the e2 cannon over the e8 advisor), so the red "
     "rook may not chase it perpetually",
     "4k4/4a4/9/9/4r4/R8/9/4C4/9/5KB2 w - - 0 1", "a4a5 e5e4 a5a4 e4e5",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"cannon_chases_protected_horse",
     "SUM: only unprotected pieces are chased; cannon_chases_unprotected_horse with the "
     "horse protected on c7 (by the a7 rook) and on e8 (by the d9 advisor)",
     "3a1k3/9/r1n6/9/2P1P4/9/9/4C4/9/3K5 w - - 0 1", "e2c2 c7e8 c2e2 e8c7",
     Verdict::Draw, Why::Repetition, ""},
    {"fake_protection_by_blocked_horse",
     "SUM: only unprotected pieces are chased; on i7 the cannon seems protected by the g8 "
     "horse, but the horse's leg (h8) is blocked, so the rook chases an unprotected cannon "
     "on every move",
     "5k3/6nP1/7c1/9/9/9/9/8R/9/3K5 w - - 0 1", "i2h2 h7i7 h2i2 i7h7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"real_protection_by_free_horse",
     "WXF rule 17 (diagram 30): fake_protection_by_blocked_horse with the leg free; the "
     "cannon is protected on i7 and not on h7, so Red chases only every other move",
     "5k3/6n2/7c1/9/9/9/9/8R/9/3K5 w - - 0 1", "i2h2 h7i7 h2i2 i7h7",
     Verdict::Draw, Why::Repetition, ""},
    {"d31_rook_chases_cannon_protected_on_both_points",
     "WXF rule 17, diagram 31 (R2=1 c9=8 R1=2 c8=9): the rook may chase a protected cannon "
     "(the g5 elephant protects it on i7, the g9 horse on h7)",
     "4k1n2/9/8c/9/6b2/9/9/7R1/9/3K5 w - - 0 1", "h2i2 i7h7 i2h2 h7i7",
     Verdict::Draw, Why::Repetition, ""},
    {"d33_rook_chases_cannon_on_the_edge",
     "WXF rule 18, diagram 33 (R2=1 c9=8 R1=2 c8=9): "
     "d31_rook_chases_cannon_protected_on_both_points without the protectors; the rook may "
     "not perpetually chase the unprotected cannon",
     "4k4/9/8c/9/9/9/9/7R1/9/3K5 w - - 0 1", "h2i2 i7h7 i2h2 h7i7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"rook_chases_horse_round_8_plies",
     "SUM: perpetual threats on one unprotected piece are forbidden; the horse runs round "
     "c7, e8, g7, e6 and the rook attacks it on every move, an 8-ply cycle",
     "5k3/9/2n6/9/9/9/9/4R4/9/3K5 w - - 0 1", "e2c2 c7e8 c2e2 e8g7 e2g2 g7e6 g2e2 e6c7",
     Verdict::RedLoses, Why::PerpetualChase, "black horse"},
    {"horse_chases_crossed_pawn",
     "SUM: threats on an unprotected piece are forbidden except on a pawn that has not "
     "crossed the river; this pawn has, and the horse attacks it on d3 and on e3 in turn",
     "5k3/9/9/9/9/2N6/3p5/9/9/3K5 w - - 0 1", "c4e5 d3e3 e5c4 e3d3",
     Verdict::RedLoses, Why::PerpetualChase, "black pawn"},
    {"rook_chases_horse_protected_on_one_point",
     "WXF rule 17 (diagram 30) and SUM: the g5 horse is unprotected, on h7 the g9 horse "
     "protects it, so the rook chases only every other move",
     "4k1n2/9/9/9/6n2/9/9/9/7R1/3K5 w - - 0 1", "h1g1 g5h7 g1h1 h7g5",
     Verdict::Draw, Why::Repetition, ""},
    {"rook_chases_protected_elephant",
     "SUM: only unprotected pieces are chased; rook_chases_unprotected_elephant with the "
     "elephant protected on both points (by the b7 horse on c9, by the other elephant on "
     "e7)",
     "5kb2/9/1n2b4/9/9/9/9/2R6/9/3K5 w - - 0 1", "c2e2 e7c9 e2c2 c9e7",
     Verdict::Draw, Why::Repetition, ""},
    {"cannon_chases_horse_protected_on_one_point",
     "WXF rule 17 (diagram 30) and SUM: cannon_chases_unprotected_horse with the a7 rook "
     "protecting the horse on c7 only; one chase and one idle move",
     "5k3/9/r1n6/9/2P1P4/9/9/4C4/9/3K5 w - - 0 1", "e2c2 c7e8 c2e2 e8c7",
     Verdict::Draw, Why::Repetition, ""},
    {"horse_chases_protected_cannon",
     "SUM: only unprotected pieces are chased; horse_chases_unprotected_cannon with the "
     "cannon protected on f7 (by the e8 advisor) and on f8 (by its king)",
     "5k3/4a4/5c1N1/9/9/9/9/9/9/4K4 w - - 0 1", "h7g5 f7f8 g5h7 f8f7",
     Verdict::Draw, Why::Repetition, ""},
    {"protection_by_a_cannon_over_a_screen",
     "SUM: only unprotected pieces are chased; the b7 cannon protects the chased cannon on "
     "h7 and on i7 over the d7 pawn",
     "4k4/9/1c1P3c1/9/9/9/9/8R/9/3K5 w - - 0 1", "i2h2 h7i7 h2i2 i7h7",
     Verdict::Draw, Why::Repetition, ""},
    {"fake_protection_by_a_cannon_without_a_screen",
     "SUM: only unprotected pieces are chased; protection_by_a_cannon_over_a_screen "
     "without the d7 pawn: the b7 cannon has no screen and cannot capture back, so the "
     "rook chases an unprotected cannon",
     "4k4/9/1c5c1/9/9/9/9/8R/9/3K5 w - - 0 1", "i2h2 h7i7 h2i2 i7h7",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"r19_rook_chases_rook_held_by_horse",
     "WXF rule 19 (diagrams 39-41, explanation): a rook that cannot move because of the "
     "opponent's horse (the d8 rook stands on the leg of the c8 horse's check) cannot be "
     "perpetually chased; each red move attacks it, so Red violates the rule although the "
     "rook never escapes; the rook's own attack on the unprotected horse is no chase",
     "4ka3/2Nr5/9/9/9/9/3R5/9/9/3K5 w - - 0 1", "d3d4 f9e8 d4d3 e8f9",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"r19_held_rook_horse_protected",
     "WXF rule 19: r19_rook_chases_rook_held_by_horse with the c7 pawn protecting the horse "
     "(the rule applies regardless of whether the horse is protected)",
     "4ka3/2Nr5/2P6/9/9/9/3R5/9/9/3K5 w - - 0 1", "d3d4 f9e8 d4d3 e8f9",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"r19_cannon_chases_rook_held_by_horse",
     "WXF rule 19 (diagram 40: the attacker is a cannon): the cannon attacks the rook held "
     "by the horse over the d5 pawn from d2 and from d1; each move is a chase",
     "4ka3/2Nr5/9/9/3P5/9/9/3C5/9/3K5 w - - 0 1", "d2d1 f9e8 d1d2 e8f9",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d63_confined_rook_follows_cannon",
     "WXF rule 27, diagram 63 (C8+3 r5+1 C8+1 r5-1 C8-2 r5+2 C8+3 r5-3 C8-1 r5+1; the "
     "cycle is the last three moves): the black rook, confined to the centre file by the e0 "
     "cannon, lines up with the unprotected b-file cannon after every move, but a confined "
     "rook's moves along its line are no chase (AXF diagrams 63-66: no chase on any "
     "opponent's piece); a draw",
     "4k4/4a4/9/1C2r4/9/9/9/9/9/3KC4 w - - 0 1", "b6b4 e6e4 b4b7 e4e7 b7b6 e7e6",
     Verdict::Draw, Why::Repetition, ""},
    {"d64_rook_chases_confined_rook",
     "WXF rule 27, diagram 64 (R8+4 r5+4 R8-4 r5-1 R8+1 r5+1 R8-1 r5-1; the cycle is the "
     "last two moves): the red rook perpetually chases the black rook confined to the centre "
     "file; attacking it is no offer to exchange",
     "4k4/4a4/9/9/4r4/1R7/9/9/9/3KC4 w - - 0 1", "b4b5 e5e4 b5b4 e4e5",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d65_rook_chases_confined_rook",
     "WXF rule 27, diagram 65 (R2+2 r6+1 R2-1 r6+1 R2-1 r6-1 R2+1 r6+1 R2-1; the cycle is "
     "moves 3-4): the black rook cannot leave the f-file (the f0 cannon), the red rook "
     "attacks it on every move: Red violates the rule",
     "5k3/5n3/9/9/9/7R1/5r3/9/9/4KC3 w - - 0 1", "h4h3 f3f4 h3h4 f4f3",
     Verdict::RedLoses, Why::PerpetualChase, "black rook"},
    {"d66_confined_rook_protected_on_one_point",
     "WXF rule 27, diagram 66 (R3=2 r8=7 R2=3 r7=8): the black rook is confined to the back "
     "rank by the i9 cannon; on g9 it is protected by the e7 elephant, so the red rook does "
     "not chase perpetually; a draw",
     "4ka1rc/9/4b4/9/6R2/9/9/9/9/3K5 w - - 0 1", "g5h5 h9g9 h5g5 g9h9",
     Verdict::Draw, Why::Repetition, ""},
    {"d34_mate_threats_against_a_chase",
     "WXF rule 18, diagram 34 (R3=2 c8=3 R2=7 c3=8 R7=2 c8=3; the cycle is moves 2-3): on "
     "c5 and on h5 the cannon threatens mate (c5f5 or h5f5 over the f2 pawn, the e1 pawn "
     "guarding e0 and f1); perpetual threats to mate do not violate the rule, the rook's "
     "perpetual chase of the unprotected cannon does",
     "3k5/9/7R1/9/2c6/9/9/5p3/4p4/5K3 w - - 0 1", "h7c7 c5h5 c7h7 h5c5",
     Verdict::RedLoses, Why::PerpetualChase, "black cannon"},
    {"perpetual_check_against_perpetual_chase",
     "WXF rule 6: under any circumstance the side that perpetually checks loses; SUM: if both "
     "sides repeat forbidden moves, only the side that keeps checking must change. The rook "
     "checks on every move; each king step uncovers a cannon's attack on it (b9 over d9, b8 "
     "over d8), so Black chases the rook perpetually; Red loses",
     "1c1ak4/1c1n4R/9/9/9/9/9/9/9/3K5 w - - 0 1", "i8i9 e9e8 i9i8 e8e9",
     Verdict::RedLoses, Why::PerpetualCheck, ""},
};

}  // namespace xq::test
