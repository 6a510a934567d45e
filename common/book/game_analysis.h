// Whole-game analysis: for each position of a game, the evaluation and the best move at a
// fixed budget, from Red's point of view, for the evaluation graph, marks and PGN comments.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::book {

// The default budget of one position (nodes: the same answer on every machine and load).
inline constexpr std::uint64_t ANALYSIS_NODES = 30'000;

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
                                  std::uint64_t nodes = ANALYSIS_NODES, const AnalysisProgress& progress = {},
                                  const std::atomic<bool>* stop = nullptr);

// A PGN move comment for ply i's move: "[%eval 0.35] best: h2e2 (mistake)" style.
std::string analysis_comment(const PlyEval& before, const PlyEval& after);

// The move comments of a stored analysis (evals from Red's side and best moves, one per
// position): comments[i] belongs to moves[i]; "" where the analysis does not reach.
std::vector<std::string> analysis_comments(const Position& start, const std::vector<Move>& moves,
                                           const std::vector<int>& evals, const std::vector<Move>& best);

// A stored analysis (per position the evaluation from Red's side and the best move) read
// against the game's moves, as analyse_game gives it: the played move and its loss per
// position. Reaches as far as the shorter of the analysis and the game (+1 position).
std::vector<PlyEval> stored_analysis(const Position& start, const std::vector<Move>& moves,
                                     const std::vector<int>& evals, const std::vector<Move>& best);

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
