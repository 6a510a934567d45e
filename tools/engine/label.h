// Search scores as labels for the Texel fit (`xiangqi-tune label`): each position of a data
// file gets the score of a deeper search, by our own engine or by any UCI engine (run as a
// child process, e.g. Fairy-Stockfish with UCI_Variant xiangqi). The fit then aims at a blend
// of that score's win probability and the game result (texel_tuner.h, --lambda).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "child_process.h"
#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::engine {

// The exact score of a UCI "info" line, side to move's view, clamped to LABEL_MAX_CP (mates
// are +-LABEL_MAX_CP); nothing for lines without a score or with a lower/upper bound.
std::optional<int> parse_uci_score(std::string_view line);

// Our own engine's score of `pos` (Red's view) after a fresh search of `nodes` nodes; mates and
// rule wins are +-LABEL_MAX_CP.
int own_label(Engine& engine, const Position& pos, std::uint64_t nodes);

// A UCI engine as a child process: `uci`, the options, then per position `ucinewgame`,
// `position fen`, `go ...` (each position searched from an empty table: reproducible).
class UciLabeller {
public:
    UciLabeller() = default;
    ~UciLabeller() { child_.stop("quit"); }
    UciLabeller(const UciLabeller&) = delete;
    UciLabeller& operator=(const UciLabeller&) = delete;

    // argv[0] is the program; options are (name, value) pairs sent by `setoption`.
    bool start(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& options,
               std::string& error);
    // The last exact score of `go` (e.g. "go nodes 5000"), Red's view; nothing on an error.
    std::optional<int> label(const Position& pos, const std::string& go, std::string& error);

private:
    bool wait_for(const std::string& token, std::string& error);
    tools::ChildProcess child_;
};

// `xiangqi-tune label IN OUT ...` (tune.cpp).
int label_command(int argc, char** argv);

}  // namespace xq::engine
