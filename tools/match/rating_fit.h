// Ratings from a table of pairwise results (each pairing's wins, draws and losses): the
// maximum-likelihood fit of the Elo logistic model, anchored at one player, with a prior of
// virtual draws so that a one-sided pairing still gives a finite gap. Used to calibrate the
// built-in AI levels' fixed ratings (tools/match/calibrate_levels.sh, docs/ratings.md).
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace xq::match {

// The results of player `a` against player `b` (0-based indices), counted for `a`.
struct PairResult {
    int a = 0;
    int b = 0;
    double wins = 0, draws = 0, losses = 0;
};

struct FitOptions {
    // Virtual draws added to every pairing that was played (BayesElo's kind of prior): a
    // 10/0/0 pairing then reads as 10.5 of 11, about +420 Elo instead of infinity.
    double prior_draws = 1.0;
    int anchor = 0;               // the player whose rating is fixed...
    double anchor_rating = 1500;  // ...at this value
};

struct FitResult {
    bool ok = false;
    std::string error;            // when !ok: why (no games, players not connected, ...)
    std::vector<double> rating;   // per player
    std::vector<double> margin95; // per player: 1.96 standard errors (0 for the anchor)
    std::vector<double> games;    // per player: real games played (without the prior)
    int iterations = 0;
};

// Fits `players` ratings to `results` (Newton's method on the log-likelihood, draws scored
// as half a win). Fails when a player played no game or the pairings do not connect every
// player to the anchor (their gap would be undetermined).
FitResult fit_ratings(int players, const std::vector<PairResult>& results, const FitOptions& options = {});

// Reads calibrate_levels.sh's lines "level HIGH LOW W D L" (levels 1..`levels`, W/D/L for
// HIGH; '#' lines are comments) as results between players HIGH-1 and LOW-1. False with the
// line's number and what is wrong in `error` on a bad line.
bool read_level_results(std::istream& in, int levels, std::vector<PairResult>& out, std::string& error);

// The expected score of a player rated `gap` Elo above the opponent.
double expected_score(double gap);

}  // namespace xq::match
