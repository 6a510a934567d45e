// Repetition rulings of docs/RULES.md as pure functions: which enemy pieces a move chases, how a
// side's moves in a repetition cycle classify (check > chase > idle), and who loses.
// Game (the referee) and the engine's search both judge repetitions through this file.
#pragma once

#include <array>
#include <cstdint>

#include "position.h"

namespace xq {

// A move can chase at most every enemy piece but the king (15); 16 leaves room.
inline constexpr int MAX_CHASED = 16;

// Squares (as seen in the position after m) of the enemy pieces that the legal move m
// newly chases in the sense of docs/RULES.md:
//   after m, X is attacked by a piece that did not attack it before; the attacker is not
//   a king or pawn; X is not a king nor a pawn on its own side of the river; and X has no
//   legal recapturer, or X is a rook attacked by a horse or cannon, or X is a rook, horse
//   or cannon attacked by an advisor or elephant. A piece attacking one of its own type
//   chases only when the victim cannot capture it back (a legal capture of the attacker).
// An "attack" is a capture that does not open a new line to the own king: pinned pieces
// neither attack nor protect, while a side that is in check still threatens with its other
// pieces (so escaping a check is no new attack). "Protected" means a legal recapture exists.
// Returns how many squares were written to out (each square once).
int chased_by_move(const Position& before, Move m, Square out[MAX_CHASED]);

// The class of one side's moves in a repetition cycle. Ordered: higher is worse.
enum class CycleClass : std::uint8_t { Idle, Chase, Check };

// Accumulates one side's moves of a cycle. Piece identities are small integers (1..63)
// that stay with a piece while it moves, so a chased piece is recognised after it flees.
class CycleSide {
public:
    // gave_check: the move left the opponent in check; chased_ids: identities of the
    // pieces the move chased (see chased_by_move).
    void add_move(bool gave_check, const std::uint8_t* chased_ids, int chased_count);
    CycleClass cls() const;
    // An identity chased by every move (0 if none): the victim named in a ruling.
    std::uint8_t chased_id() const;
    int moves() const { return moves_; }

private:
    int moves_ = 0;
    bool all_check_ = true;
    std::uint64_t chased_every_ = ~std::uint64_t(0);  // bit i: identity i chased by every move
};

// The verdict on a third occurrence: loser is the side with the higher class, or none.
struct RepetitionVerdict {
    bool decisive = false;
    Color loser = RED;           // valid when decisive
    CycleClass loser_class = CycleClass::Idle;
    CycleClass red = CycleClass::Idle, black = CycleClass::Idle;
};
RepetitionVerdict judge_repetition(CycleClass red, CycleClass black);

// For the engine: classify a whole cycle given the position where it starts and the
// moves that bring it back (all legal, in order). Identities are assigned at `start`.
struct CycleRuling {
    RepetitionVerdict verdict;
    std::array<std::uint8_t, COLOR_NB> chased_id{};  // per side, identity chased by every move
    std::array<Square, COLOR_NB> chased_square{SQ_NONE, SQ_NONE};  // its square at `start`
};
CycleRuling rule_cycle(const Position& start, const Move* moves, int count);

std::string_view cycle_class_name(CycleClass c);  // "idle", "perpetual chase", "perpetual check"

}  // namespace xq
