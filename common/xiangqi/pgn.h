// PGN for Xiangqi (docs/RULES.md): writes a game as text and reads games back from text, with a
// line-numbered error for malformed files. Works on strings only; the caller does any file I/O.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "game.h"
#include "notation.h"
#include "position.h"

namespace xq {

using PgnTags = std::vector<std::pair<std::string, std::string>>;

struct PgnGame {
    PgnTags tags;                       // in file order, values unescaped
    Position start;                     // the FEN tag's position, else the start position
    std::vector<Move> moves;
    std::vector<std::string> comments;  // comments[i] follows ply i ("" when none); same size as moves
    std::string pre_comment;            // comments before the first move
    Outcome result = Outcome::Ongoing;

    // The value of a tag, or "" when absent.
    std::string tag(std::string_view name) const;
};

struct PgnReadResult {
    bool ok = false;
    PgnGame game;
    int line = 0;       // 1-based line of the error (0 when ok)
    std::string error;  // e.g. "move 12 (炮八平九): no red cannon on file 8"
};

// Limits on what a reader accepts from one game.
inline constexpr std::size_t MAX_PGN_PLIES = 10000;  // far beyond any game the move limit allows
inline constexpr std::size_t MAX_PGN_TAG_BYTES = 1024;
inline constexpr std::size_t MAX_PGN_COMMENT_BYTES = 64 * 1024;

// Writes [Game "Chinese Chess"], then Event, Site, Date, Round, Red, Black (from `tags`, "?"
// when absent), Result (from the game), FEN for a set-up start, Format for ICCS/WXF, then any
// other given tags, then Termination (the result's reason in words) for a finished game unless
// `tags` has one; then the numbered moves and the result.
std::string write_pgn(const Game& game, const PgnTags& tags, Notation notation);
// The same for a game read back (keeps its tags and comments).
std::string write_pgn(const PgnGame& game, Notation notation);

PgnReadResult read_pgn(std::string_view text);                   // first game
std::vector<PgnReadResult> read_pgn_all(std::string_view text);  // every game in a file

}  // namespace xq
