// A game: the start position, the moves played, and the result with its reason in words.
// The referee (server), the engine front end and the clients all judge endings through this.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace xq {

enum class Outcome { Ongoing, RedWins, BlackWins, Draw };

enum class EndReason {
    None,
    Checkmate,
    Stalemate,             // no legal move while not in check: a loss
    PerpetualCheck,        // repetition: the checking side loses
    PerpetualChase,        // repetition: the chasing side loses
    Repetition,            // repetition with equal classes: draw
    MoveLimit,             // 60 moves (120 plies) without capture, checks capped
    InsufficientMaterial,  // neither side has a rook, horse, cannon or pawn
    Resignation,
    Agreement,
    Timeout,
    Abandonment,
    EngineFailure,  // an external engine crashed or stopped answering: its side loses
    Adjudication,   // an arbiter (tournament director, operator) decided the result
    Cancelled,      // an arbiter cancelled the game: it ends without a result ("*")
};

std::string_view end_reason_name(EndReason r);  // stable identifier, e.g. "perpetual_check"
std::string_view outcome_pgn(Outcome o);        // "1-0", "0-1", "1/2-1/2", "*"

struct GameResult {
    Outcome outcome = Outcome::Ongoing;
    EndReason reason = EndReason::None;
    // In words, e.g. "Black loses: checkmated". Repetition rulings are in English and Chinese:
    // "Black loses: perpetual chase of the red horse, plies 41-52 / 黑方长捉红马，判负（第 21–26 回合）".
    std::string text;

    // A cancelled game is over without an outcome.
    bool over() const { return outcome != Outcome::Ongoing || reason == EndReason::Cancelled; }
};

// What the game remembers about each ply (for repetition rulings and takebacks).
struct PlyRecord {
    Move move;
    UndoInfo undo;
    std::uint64_t key_after = 0;
    bool gave_check = false;
    // Identities of the enemy pieces this move newly chased (see docs/RULES.md), at most 16.
    std::uint8_t chased_count = 0;
    std::uint8_t chased_ids[16] = {};
    std::uint8_t chased_squares[16] = {};  // where those pieces stood after the move
    // Natural move limit after this ply: plies that count towards the 120, and the checks
    // each side has had counted (at most CHECKS_COUNTED_PER_SIDE) since the last capture.
    int limit_plies = 0;
    std::uint8_t checks_counted[COLOR_NB] = {};
    bool uncounted_check = false;  // a check beyond the cap: it and its reply do not count
};

// The natural move limit of docs/RULES.md.
inline constexpr int MOVE_LIMIT_PLIES = 120;
inline constexpr int CHECKS_COUNTED_PER_SIDE = 10;

class Game {
public:
    Game();  // the start position
    explicit Game(const Position& start);

    // Restarts from a FEN; the game is unchanged on error.
    FenError reset(std::string_view fen);
    void reset(const Position& start);

    const Position& start_position() const { return start_; }
    const Position& position() const { return pos_; }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<PlyRecord>& records() const { return records_; }
    int ply() const { return int(moves_.size()); }
    Color side_to_move() const { return pos_.side_to_move(); }
    const GameResult& result() const { return result_; }
    bool over() const { return result_.over(); }

    // Plays a move if it is legal and the game is not over, then adjudicates.
    // Returns false (and changes nothing) otherwise.
    bool play(Move m);
    // Takes back the last ply; clears a result that the board had decided.
    bool undo();
    // Ends the game for a reason the board does not decide (resignation, agreement, time...).
    void finish(Outcome outcome, EndReason reason, std::string text);

    // Legal moves of the current position.
    MoveList legal_moves() const;

    // Plies counted towards the natural move limit so far (checks capped; see docs/RULES.md).
    int limit_plies() const;
    // Identity of the piece on a point (0 = empty); identities follow pieces as they move.
    std::uint8_t piece_id(Square s) const { return ids_[s]; }

private:
    void adjudicate();
    void rebuild_ids();
    bool adjudicate_repetition();

    Position start_;
    Position pos_;
    std::vector<Move> moves_;
    std::vector<PlyRecord> records_;
    std::vector<std::uint64_t> keys_;  // keys_[i] = key before ply i; keys_.back() = current
    std::array<std::uint8_t, SQ_NB> ids_{};  // piece identity per point (for chase tracking)
    GameResult result_;
};

}  // namespace xq
