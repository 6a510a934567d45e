// Messages of the opening explorer (get_explorer / explorer): the moves played from a
// position in the server's opening book and game archive; and of hints (request_hint / hint /
// hint_used). Part of messages.h; documented in protocol/PROTOCOL.md (Opening explorer, Hints).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages_table_info.h"
#include "xiangqi/types.h"

namespace xq::proto {

// How one move scored from one position, counted for the side that played it: `plays` games
// played it, `wins` / `draws` / `losses` of them have that result (the rest had none).
struct ExplorerStats {
    int plays = 0;
    int wins = 0;
    int draws = 0;
    int losses = 0;
    template <class F> void fields(F& f) {
        f("plays", plays, 0, 1 << 30);
        f("wins", wins, 0, 1 << 30);
        f("draws", draws, 0, 1 << 30);
        f("losses", losses, 0, 1 << 30);
    }
    bool operator==(const ExplorerStats&) const = default;
};

// One move from the position, in ICCS, with what the archive's finished games (`games`) and
// the opening book (`book`) know of it; a source that never saw it is absent.
struct ExplorerMove {
    std::string move;
    std::optional<ExplorerStats> games;
    std::optional<ExplorerStats> book;
    template <class F> void fields(F& f) {
        f("move", move);
        f.opt("games", games);
        f.opt("book", book);
    }
    bool operator==(const ExplorerMove&) const = default;
};

// The explorer at the position reached from `fen` (absent: the usual start) by `moves`
// (ICCS, at most MAX_EXPLORER_PLIES).
struct GetExplorer {
    static constexpr std::string_view TYPE = "get_explorer";
    std::string fen;
    std::vector<std::string> moves;
    template <class F> void fields(F& f) {
        f.opt("fen", fen);
        f.opt("moves", moves);
    }
};

// The answer: `fen` is the position reached (so a client can tell which board it belongs
// to), `moves` the moves known from it, most played first (games and book together), at most
// MAX_EXPLORER_MOVES of them; `more` when some were left out.
struct Explorer {
    static constexpr std::string_view TYPE = "explorer";
    std::string fen;
    std::vector<ExplorerMove> moves;
    bool more = false;
    template <class F> void fields(F& f) {
        f("fen", fen);
        f("moves", moves);
        f.opt("more", more);
    }
};

// A seated player asks for the best move in the table's position, on their turn, where hints
// are allowed (PROTOCOL.md, Hints).
struct RequestHint {
    static constexpr std::string_view TYPE = "request_hint";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

// The answer, to the player alone: `move` (ICCS) is the best move found in the position after
// `ply` plies, `score` in centipawns from the player's side, `depth` the search depth reached.
struct Hint {
    static constexpr std::string_view TYPE = "hint";
    TableId table = 0;
    int ply = 0;
    std::string move;
    int score = 0;
    int depth = 0;
    template <class F> void fields(F& f) {
        f("table", table);
        f("ply", ply, 0, 1 << 30);
        f("move", move);
        f("score", score, -1000000, 1000000);
        f("depth", depth, 0, 1000);
    }
};

// To everyone at the table (the player too): `name`, playing `side`, was shown a hint at `ply`
// (the move is not told).
struct HintUsed {
    static constexpr std::string_view TYPE = "hint_used";
    TableId table = 0;
    int ply = 0;
    Color side = RED;
    std::string name;
    template <class F> void fields(F& f) {
        f("table", table);
        f("ply", ply, 0, 1 << 30);
        f("side", side);
        f("name", name);
    }
};

}  // namespace xq::proto
