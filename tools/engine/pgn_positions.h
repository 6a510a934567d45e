// Tuning positions from played games: the quiet positions of PGN games (e.g. xiangqi-match's
// games against Fairy-Stockfish, which steer into positions our own self-play rarely reaches),
// in the data format of selfplay.h, each with its game's result.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "selfplay.h"
#include "xiangqi/pgn.h"

namespace xq::engine {

struct PgnPositionOptions {
    int skip_plies = 12;  // the opening's positions are shared by many games: not recorded
};

// The positions of one finished game worth a static evaluation, as gen records them: after the
// first skip_plies plies, the side to move not in check and the move played there not a capture
// (the last position, with no move played, is not recorded). Each is labelled with the game's
// result (Red's view) and `game_number`. An unfinished game ("*") gives nothing.
std::vector<Sample> pgn_game_samples(const PgnGame& game, int game_number, const PgnPositionOptions& opt);

// "board side" of a FEN (the placement and the side to move, without the move counters): the
// key under which the same position reached in two games is recorded once.
std::string position_key(std::string_view fen);

struct PgnPositionsSummary {
    int games = 0;           // games read
    int unfinished = 0;      // of them without a result (skipped)
    long long samples = 0;   // positions recorded
    long long repeated = 0;  // positions skipped as seen before
};

// Reads every game of `text` (PGN, one file) and appends the new positions of the finished ones
// to `out`, numbering the games from `next_game` on (advanced past them). `seen` holds the
// position keys recorded so far (over several files). On a malformed game returns false with
// `error` naming its line, and appends nothing from this text.
bool read_pgn_positions(std::string_view text, const PgnPositionOptions& opt, int& next_game,
                        std::unordered_set<std::string>& seen, std::vector<Sample>& out,
                        PgnPositionsSummary& summary, std::string& error);

// `xiangqi-tune positions OUT PGN... [--skip-plies N] [--first-game G]`
int positions_command(int argc, char** argv);

}  // namespace xq::engine
