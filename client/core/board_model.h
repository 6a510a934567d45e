// The client's picture of one table's board: the game as the server reported it, which side
// this player sits on, and the derived facts the view draws (last move, check). No SFML types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/game.h"

namespace xq::client {

// What happened when the server's move was applied to the local board.
enum class ApplyResult {
    Applied,       // played and the resulting position matches the server's FEN
    Duplicate,     // a ply we already have (a resend); nothing changed
    NeedResync,    // gap in plies, an illegal move, or the position differs: ask for a snapshot
};

class BoardModel {
public:
    BoardModel();

    // Replaces the game with a snapshot: start FEN and the moves in ICCS text.
    // Returns an error text (empty on success); on error the model is unchanged.
    std::string load_snapshot(std::string_view start_fen, const std::vector<std::string>& moves);
    void reset_start();

    // Applies the server's `move_made`: `ply` is the game's length after the move (1 for
    // Red's first move). `fen_after` may be empty when the server sent none.
    ApplyResult apply_server_move(int ply, std::string_view move_text, std::string_view fen_after);
    // Takes plies back to reach `ply` (a takeback the server accepted).
    bool rewind_to(int ply);

    const Game& game() const { return game_; }
    const Position& position() const { return game_.position(); }
    int ply() const { return game_.ply(); }
    Move last_move() const { return game_.moves().empty() ? Move::none() : game_.moves().back(); }
    // The king of the side to move when it stands in check, else SQ_NONE.
    Square checked_king() const;

    // Seat: empty for a spectator.
    void set_seat(std::optional<Color> seat);
    std::optional<Color> seat() const { return seat_; }
    // Whether the game accepts moves at all (the server says so: started and not over).
    void set_in_progress(bool v) { in_progress_ = v; }
    bool in_progress() const { return in_progress_; }
    bool my_turn() const;
    // Whether our seat has made a move of this game (a takeback asks for nothing before it:
    // the server answers nothing_to_take_back). False for a spectator.
    bool seat_has_moved() const;

    // Board orientation: flipped means Black at the bottom. Sitting Black flips by default.
    bool flipped() const { return flipped_; }
    void set_flipped(bool f) { flipped_ = f; }
    void toggle_flip() { flipped_ = !flipped_; }

    // Pieces of the side to move that have at least one legal move, when it is our turn.
    bool is_movable(Square s) const;
    MoveList targets_from(Square from) const;

private:
    Game game_;
    std::optional<Color> seat_;
    bool in_progress_ = false;
    bool flipped_ = false;
};

// Compares the board and side-to-move fields of two FENs (counters are not compared).
bool same_placement(std::string_view fen_a, std::string_view fen_b);

// Why a move cannot be played in a position, for the short message the player sees.
enum class IllegalReason {
    None,
    GameNotInProgress,
    Spectator,
    NotYourTurn,
    NotYourPiece,
    EmptySquare,
    NoLegalMove,
    WaitingForServer,
    OwnPieceOnTarget,
    KingMove,
    KingLeavesPalace,
    AdvisorMove,
    ElephantCrossesRiver,
    ElephantEyeBlocked,
    ElephantMove,
    HorseLegBlocked,
    HorseMove,
    PathBlocked,
    CannonNeedsScreen,
    StraightLineOnly,
    PawnMove,
    LeavesKingInCheck,
    GeneralsFace,
    InCheck,  // in check, and the piece or move does not answer it
    Other,
};

// Explains why `m` is not legal for the side to move (None when it is legal).
IllegalReason explain_illegal(const Position& pos, Move m);

}  // namespace xq::client
