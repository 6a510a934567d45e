// Whole-game analysis: for each position of a game, the evaluation and the best move at a
// fixed budget, from Red's point of view, for the evaluation graph, marks and PGN comments.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "book/opening_book.h"
#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::book {

// The budget of one position: iterative deepening up to ANALYSIS_DEPTH plies, capped at
// ANALYSIS_NODES nodes (nodes and depth, not time: the same answer on every machine and
// load). The best move is that of the deepest even depth finished.
//
// A move's loss is NOT the drop of the evaluation from one position to the next: the
// engine's scores lean to the side to move (about +0.3 pawn for whoever moves in the
// opening, at odd and even depths alike: the start reads about +0.5..+1), so that drop
// charged every ordinary move about 0.6 pawn and marked opening moves as mistakes. Instead:
// - a move's loss is how much it scores below the best move, both searched from the same
//   position at the same depth (the root restricted to it): the lean cancels. It is the
//   smaller of the last two depths' (one depth's horizon alone does not mark a move).
// - a move of the starter collection's named lines there (starter_book()) is a book move
//   and loses nothing (the engine does not judge the masters' openings).
// - the evaluations of a whole game are shown with the lean taken out (remove_lean): it is
//   measured on the game itself, from the moves the search also chose.
inline constexpr int ANALYSIS_DEPTH = 6;
inline constexpr std::uint64_t ANALYSIS_NODES = 100'000;

struct AnalysisBudget {
    int depth = ANALYSIS_DEPTH;  // the deepest iteration
    std::uint64_t nodes = ANALYSIS_NODES;
    bool book_moves = true;  // false: book moves are judged like any other
};

struct PositionEval {
    engine::Result search;  // best move (none: no legal move), its score and mate (side to move's view), depth
    int eval_cp = 0;        // the evaluation from Red's side, as PlyEval::eval_cp
    int mate_in = 0;        // from Red's side, as PlyEval::mate_in
    int loss_cp = 0;        // how much the played move scores below the best, for the side to move (>= 0)
    bool book = false;      // the played move is a book move
    int judged_loss_cp() const { return book ? 0 : loss_cp; }  // what the move is marked by
};

// One position (reached from `start` by `moves`) analysed at `budget`, with the move the
// game played there (none: not judged).
PositionEval analyse_position(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                              Move played, const AnalysisBudget& budget = {},
                              const std::atomic<bool>* stop = nullptr);

// Takes the side-to-move lean out of a game's evaluations (Red's view, one per position;
// losses[i]: what move i lost by analyse_position, book moves too) and returns it: half the
// median over the moves of the evaluation's drop for the mover less the move's loss (a
// consistent evaluation would drop by the loss exactly), 0..MAX_LEAN_CP, 0 with fewer than
// MIN_LEAN_PAIRS moves. Each evaluation moves by it towards the side not to move; decided
// scores (mates, rulings) stay as they are.
inline constexpr int MAX_LEAN_CP = 150;
inline constexpr int MIN_LEAN_PAIRS = 3;
int remove_lean(std::vector<int>& evals, const std::vector<int>& losses, Color first_mover);

// The starter collection (starter_openings()) as a book, built once.
const Book& starter_book();

// Whether `m` is a book move in `pos`: played in the starter collection's lines there.
bool is_book_move(const Position& pos, Move m);

struct PlyEval {
    int ply = 0;        // the position before move `ply` (0 = the start)
    int eval_cp = 0;    // from Red's point of view; mates as +-(30000 - distance)
    int mate_in = 0;    // from Red's point of view: > 0 Red mates in N, < 0 Black mates
    Move best;          // the best move there (Move::none() when the side to move has none)
    Move played;        // the move the game played there (none at the last position)
    int loss_cp = 0;    // how much the played move lost against the best, for its player (>= 0)
};

// Marks by loss (documented thresholds, lichess-like): inaccuracy >= 50 cp, mistake >= 100,
// blunder >= 300.
enum class Mark { None, Inaccuracy, Mistake, Blunder };
Mark mark_of(int loss_cp);
const char* mark_name(Mark m);  // "", "inaccuracy", "mistake", "blunder"
const char* mark_nag(Mark m);   // "", "?!", "?", "??"

using AnalysisProgress = std::function<void(int done, int total)>;

// Analyses every position of the game (plies + 1 positions). Stops early when `stop` is set
// (the result then holds the positions analysed so far).
std::vector<PlyEval> analyse_game(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                                  const AnalysisBudget& budget = {}, const AnalysisProgress& progress = {},
                                  const std::atomic<bool>* stop = nullptr);

// A PGN move comment for ply i's move: "[%eval 0.35] best: h2e2 (mistake)" style.
std::string analysis_comment(const PlyEval& before, const PlyEval& after);

// The move comments of a stored analysis (evals from Red's side and best moves, one per
// position): comments[i] belongs to moves[i]; "" where the analysis does not reach.
std::vector<std::string> analysis_comments(const Position& start, const std::vector<Move>& moves,
                                           const std::vector<int>& evals, const std::vector<Move>& best,
                                           const std::vector<int>& losses = {});

// A stored analysis (per position the evaluation from Red's side and the best move, and per
// move its loss as analyse_position measured it) read against the game's moves, as
// analyse_game gives it. Reaches as far as the shorter of the analysis and the game (+1
// position). Without `losses` (an analysis stored before they were kept) a move's loss is
// the drop of the evaluation for its player, 0 when it was the best move.
std::vector<PlyEval> stored_analysis(const Position& start, const std::vector<Move>& moves,
                                     const std::vector<int>& evals, const std::vector<Move>& best,
                                     const std::vector<int>& losses = {});

// One player's figures over an analysed game: the moves judged, the average loss (each
// move's loss counted up to SUMMARY_LOSS_CAP_CP, so that one missed mate does not swamp a
// whole game) and the marks of each kind.
inline constexpr int SUMMARY_LOSS_CAP_CP = 1000;
struct PlayerSummary {
    int moves = 0;
    int average_loss_cp = 0;
    int inaccuracies = 0, mistakes = 0, blunders = 0;
};

// The summary of each side ([RED], [BLACK]) of an analysed game whose first move was
// `first_mover`'s.
std::array<PlayerSummary, COLOR_NB> summarise(const std::vector<PlyEval>& plies, Color first_mover);

}  // namespace xq::book
