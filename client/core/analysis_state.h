// What the client knows of a whole-game analysis asked from the server (analyse_game):
// its progress while it runs, then per position the evaluation and the best move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "xiangqi/types.h"

namespace xq::client {

struct AnalysisState {
    std::int64_t game_id = 0;  // the archived game asked about (0: none, or the game below)
    // A game not in the archive, sent with the request (game_id 0): its start and moves, so
    // that the answer is shown with that game only.
    bool given = false;
    std::string start_fen;
    std::vector<Move> moves;
    bool running = false;
    int done = 0, total = 0;   // positions analysed so far, of all
    std::vector<int> evals;    // centipawns from Red's side, one per position (empty until done)
    std::vector<int> losses;   // per move, what it lost for its player (empty: from the evals)
    std::vector<Move> best;    // the best move per position (Move::none() where there is none)
    std::string error;         // the server's refusal in its own words ("" when none)
    std::string error_code, error_detail;  // and its codes, for the client's own words
};

}  // namespace xq::client
