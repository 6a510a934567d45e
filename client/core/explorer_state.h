// What the client knows from the server's opening explorer (get_explorer): the moves played
// from the position last asked about, with their counts and results.
#pragma once

#include <string>
#include <vector>

#include "xiangqi/types.h"

namespace xq::client {

// A move's games from one source: how many played it, and of them how many the side that
// played it won, drew and lost.
struct ExplorerCounts {
    int plays = 0, wins = 0, draws = 0, losses = 0;
    // Shares of the games with a result, in percent (0 when none has one); they add to 100.
    int win_pct() const;
    int draw_pct() const;
    int loss_pct() const;
    bool operator==(const ExplorerCounts&) const = default;
};

struct ExplorerRow {
    Move move;
    ExplorerCounts games;  // the server's archive (finished games)
    ExplorerCounts book;   // the AI's opening book
};

struct ExplorerState {
    std::string fen;       // the position the rows are of ("" before the first answer)
    std::vector<ExplorerRow> rows;  // most played first
    bool more = false;     // the server left some moves out
    std::string asked;     // the position of the unanswered request ("" when none)
    std::string error;     // the server's refusal in its own words ("" when none)
    std::string error_code;
    // Whether the rows are of `fen` (answered, not waiting for another position).
    bool answered(const std::string& position_fen) const { return fen == position_fen && asked.empty(); }
};

}  // namespace xq::client
