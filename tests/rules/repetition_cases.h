// Repetition cases from the WXF/AXF Asian rules: a start FEN, one cycle of moves and the
// verdict an arbiter gives when the cycle has been played twice (the third occurrence).
// Each case cites the rule or diagram it follows; where a position is constructed here,
// its verdict follows from the cited rule. Shared by the rules tests and the server test.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/position.h"

namespace xq::test {

enum class Verdict { Draw, RedLoses, BlackLoses };
enum class Why { Repetition, PerpetualCheck, PerpetualChase };

struct RepetitionCase {
    std::string_view name;
    std::string_view source;  // the rule (and diagram) the verdict follows
    std::string_view fen;
    std::string_view cycle;   // ICCS moves separated by spaces; they bring `fen` back
    Verdict verdict;
    Why why;
    std::string_view victim;  // perpetual chase: the chased piece, e.g. "black cannon"
    // When a position inside the cycle recurs first, the ruling comes earlier: at this ply
    // (0: after the cycle has been played twice) and over these plies ("plies 3-10").
    int end_ply = 0;
    std::string_view plies = {};
};

// Sources (stored copies reachable through the project's search tool):
//   WXF  = World Xiangqi Federation, Asian rules, English translation (wxf.org/xq/rule/asia/)
//   SUM  = the Asian rules summary "Forbidden perpetual moves" (chesshub.com/cchess/rules)
//   HGM  = H. G. Muller, talkchess.com thread "Perpetual chasing in Xiangqi" (2010)
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
};

// The four forms a case is played in. The rules know no left or right and treat both
// colours alike, so a mirrored case, or one with the colours exchanged (the board turned by
// 180 degrees, upper and lower case swapped), gets the same verdict with the colours
// exchanged where they are.
struct Form {
    bool mirror = false;
    bool flip = false;  // colours exchanged: the board turned by 180 degrees, cases swapped
    std::string name() const { return std::string(mirror ? "mirrored" : "plain") + (flip ? "_flipped" : ""); }
};

inline std::string map_square(std::string_view s, Form f) {
    int file = s[0] - 'a', rank = s[1] - '0';
    if (f.mirror != f.flip) file = 8 - file;
    if (f.flip) rank = 9 - rank;
    return {char('a' + file), char('0' + rank)};
}

inline std::vector<std::string> map_moves(std::string_view cycle, Form f) {
    std::vector<std::string> out;
    std::istringstream in{std::string(cycle)};
    std::string m;
    while (in >> m) out.push_back(map_square(m.substr(0, 2), f) + map_square(m.substr(2, 2), f));
    return out;
}

inline std::string map_fen(std::string_view fen, Form f) {
    Position p;
    if (p.set_fen(fen) != FenError::None) return {};
    std::string board;
    for (int rank = 9; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 9; ++file) {
            int sf = file, sr = rank;  // the source point that lands here
            if (f.mirror != f.flip) sf = 8 - sf;
            if (f.flip) sr = 9 - sr;
            Piece pc = p.piece_on(make_square(sf, sr));
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (f.flip) pc = make_piece(~color_of(pc), type_of(pc));
            if (empty) board += char('0' + empty), empty = 0;
            board += piece_to_char(pc);
        }
        if (empty) board += char('0' + empty);
        if (rank) board += '/';
    }
    Color stm = p.side_to_move();
    if (f.flip) stm = ~stm;
    return board + (stm == RED ? " w" : " b") + " - - 0 1";
}

inline Verdict map_verdict(Verdict v, Form f) {
    if (!f.flip || v == Verdict::Draw) return v;
    return v == Verdict::RedLoses ? Verdict::BlackLoses : Verdict::RedLoses;
}

inline std::string map_victim(std::string_view victim, Form f) {
    if (!f.flip || victim.empty()) return std::string(victim);
    if (victim.starts_with("black ")) return "red " + std::string(victim.substr(6));
    return "black " + std::string(victim.substr(4));
}

}  // namespace xq::test
