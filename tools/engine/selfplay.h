// Self-play data for tuning the evaluation: games of the engine against itself from varied
// openings at a small fixed node count, with the quiet positions labelled by the game result.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/search.h"

namespace xq::engine {

struct SelfplayOptions {
    std::uint64_t seed = 1;
    std::uint64_t nodes = 2000;   // per move (node-limited: reproducible whatever the load)
    int random_plies_min = 2;     // uniformly random legal plies after the opening line
    int random_plies_max = 8;
    std::vector<std::string> openings;  // ICCS lines from the start; empty = the start position
    int max_plies = 300;          // a game still going then is a draw
    int adjudicate_cp = 1000;     // |score| at least this for adjudicate_plies plies in a row
    int adjudicate_plies = 8;     //   decides the game for the side ahead
};

// A label's score is clamped to this; mates and rule wins are labelled with it.
inline constexpr int LABEL_MAX_CP = 3000;

// One labelled position: a FEN and the game's result from Red's view (1, 0.5, 0), and after
// `xiangqi-tune label` a search score (centipawns, Red's view; see label.h).
struct Sample {
    std::string fen;
    double result = 0.5;
    int game = 0;  // game number: held-out parts are split by game, not by position
    std::optional<int> score;
};

struct SelfplayGame {
    std::vector<Sample> samples;
    double result = 0.5;  // Red's view
    int plies = 0;
    std::string ending;   // how the game ended, in words
};

// Plays game number `game` of the series defined by `opt` (its own seed is derived from
// opt.seed and the number, so any range of games can be played separately and gives the same
// games). Records the positions that are not in check, whose best move is not a capture and
// whose score is not a mate or rule win.
SelfplayGame play_selfplay_game(Engine& engine, const SelfplayOptions& opt, int game);

// "FEN | result | game" (result 1, 0.5 or 0 from Red's view), with " | score" when labelled.
std::string format_sample(const Sample& s);
// Parses a line written by format_sample; on error returns nothing and says why.
std::optional<Sample> parse_sample(std::string_view line, std::string& error);

}  // namespace xq::engine
