// Endgame challenges (残局练习): positions with a verified result for the side to move, who
// is the player, read from the collection embedded from data/endgames/challenges.txt.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/types.h"

namespace xq::endgames {

enum class Verdict { Win, Draw };

struct Challenge {
    std::string id;       // stable, e.g. "r-aa-1"; clients keep their progress under it
    std::string name_en;  // the material, e.g. "A rook against two advisors"
    std::string name_zh;  // e.g. "单车对双士"
    std::string fen;
    Color side_to_move = RED;  // the player's side, read from the FEN once
    Verdict verdict = Verdict::Win;
    int mate_in = 0;      // for a win: the side to move mates in at most this many moves
};

struct ParseResult {
    std::vector<Challenge> challenges;
    std::string error;  // empty when every line was read; else "line N: why"
};

// Reads a collection: one challenge a line, "id | English | Chinese | FEN | verdict" where the
// verdict is "win N" or "draw"; blank lines and lines starting with '#' are skipped. The first
// bad line (unknown verdict, FEN refused by the rules code, repeated id, ...) stops the reading.
ParseResult parse_collection(std::string_view text);

// The text embedded at build time.
std::string_view collection_text();

// The built-in collection (parsed once; a build whose data file does not parse fails its tests).
const std::vector<Challenge>& challenges();

// The challenge with this id, or nullptr.
const Challenge* find_challenge(std::string_view id);

}  // namespace xq::endgames
