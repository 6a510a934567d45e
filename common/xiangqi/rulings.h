// Repetition rulings of docs/RULES.md (the WXF/AXF Asian rules) as pure functions: which
// enemy pieces a move chases, how a side's moves in a repetition cycle classify
// (check > chase > idle), and who loses.
// Game (the referee) and the engine's search both judge repetitions through this file.
#pragma once

#include <array>
#include <cstdint>

#include "position.h"

namespace xq {

// A move can chase at most every enemy piece but the king (15); 16 leaves room.
inline constexpr int MAX_CHASED = 16;

// Squares of the enemy pieces that the legal move m chases in the sense of docs/RULES.md:
// the pieces the mover threatens after m that it did not threaten before m. A piece is
// threatened when the side has a capture of it that is not by its king or a pawn, the piece
// is neither the king nor a pawn on its own side of the river, and either the capture takes
// a rook with a horse or cannon (or a rook, horse or cannon with an advisor or elephant), or
// the piece has no recapture the rules allow and is not offered in exchange (a piece of
// the attacker's type that could capture it back). So a move chases by attacking with the
// moved piece, by uncovering a line, or by taking away a protection; a new attacker on a
// piece that was threatened all along creates no new threat.
// Captures and recaptures count when they open no new line to the own king: pinned pieces
// neither attack nor protect, while a side in check still threatens and protects with its
// other pieces (escaping a check is no new threat). Squares are as seen after m.
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
