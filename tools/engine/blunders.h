// Blunders in played games: each move of a game (e.g. one of xiangqi-match's PGN games) scored
// against the best move by a fixed-depth search of our engine at full strength, so that a
// level's habit of leaving pieces to simple tactics is a number, not a claim.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/search.h"
#include "xiangqi/pgn.h"

namespace xq::engine {

struct BlunderOptions {
    int depth = 6;           // the judge's depth (plus quiescence), one thread, a fresh table per search
    int confirm_depth = 10;  // a blunder at `depth` is judged again at this depth (0: not); it stands if still one
    int threshold_cp = 250;  // a move losing at least this much against the best move is a blunder
    int hung_cp = 200;       // material (PIECE_VALUE) lost in the next plies that makes it a hung piece
    int hung_plies = 4;      // the plies after the move looked at: the opponent's reply and second reply
    int skip_plies = 0;      // moves before this ply are not examined (besides the opening's)
    std::vector<std::vector<Move>> openings;  // lines from the start: a game's longest one is not examined
};

// Scores beyond this (a rook and a little more) count as this: in a position already won or lost
// by more, a worse move that keeps it so is not a blunder; a mate counts as this too.
inline constexpr int BLUNDER_SCORE_CAP = 1000;

struct MoveVerdict {
    int ply = 0;            // index of the move in the game
    Move played;
    Move best;              // the judge's move
    int best_cp = 0;        // the judge's scores from the mover's view, capped
    int played_cp = 0;
    int loss_cp = 0;        // best_cp - played_cp (0 when the judge plays the move too)
    int material_lost = 0;  // PIECE_VALUE lost by the mover over the played move's line (<= 0: none)
    bool blunder = false;   // loss_cp >= threshold_cp
    bool hung = false;      // a blunder whose line loses at least hung_cp of material
};

// The first ply a game's moves are examined from: past skip_plies and past the longest opening
// line the game starts with (those moves were given, not chosen).
int first_examined_ply(const PgnGame& game, const BlunderOptions& opt);

// Judges every move of `side` from first_examined_ply on (at depth, then each blunder again at
// confirm_depth). `engine` is cleared before each search.
std::vector<MoveVerdict> judge_moves(Engine& engine, const PgnGame& game, Color side, const BlunderOptions& opt);

// The colour xiangqi-match's engine `player` (1 or 2) has in a game: engine 1 is Red in the odd
// rounds ("Round" tag). std::nullopt when the tag is missing or not a positive number.
std::optional<Color> player_colour(const PgnGame& game, int player);

// Counts over the games of one player.
struct BlunderTally {
    int games = 0;
    long long moves = 0;
    long long blunders = 0;
    long long hung = 0;
    int games_with_blunder = 0;
    int games_with_blunder_lost = 0;
    int games_with_hung = 0;
    int games_with_hung_lost = 0;
    void add(const std::vector<MoveVerdict>& verdicts, bool lost);
    void merge(const BlunderTally& other);  // the counts of both
};

// `xiangqi-blunders PGN... [--depth D] [--confirm-depth D] [--threshold CP] [--hung CP] [--openings FILE]
// [--skip-plies N] [--label1 TEXT] [--label2 TEXT] [--list]`
int blunders_command(int argc, char** argv);

}  // namespace xq::engine
