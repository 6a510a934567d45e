// Opening names: a game's opening found from its positions (transpositions included) in a
// set of named lines, by default the starter collection's Opening / OpeningEnglish / ECCO tags.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "xiangqi/pgn.h"

namespace xq::book {

struct OpeningName {
    std::string name;     // Chinese, e.g. "过宫炮局"
    std::string english;  // e.g. "Cross-Palace Cannon"
    std::string ecco;     // ECCO group as given by the line ("A6"), "" when not given
    int ply = 0;          // the game's ply at which the name was decided
};

// Plies of a game searched for a named position.
inline constexpr int MAX_NAMED_PLIES = 40;

class OpeningIndex {
public:
    // Adds a named line (its Opening tag; ignored without one). Each of its positions from
    // the first move on points to the name.
    void add_line(const PgnGame& line);
    // The starter collection's lines (starter_openings.h), built once.
    static const OpeningIndex& starter();

    // The deepest position of the game (within MAX_NAMED_PLIES) that only lines of one name
    // reach; nullopt when none (e.g. a position several named lines share).
    std::optional<OpeningName> classify(const Position& start, const std::vector<Move>& moves) const;
    std::size_t lines() const { return names_.size(); }

private:
    std::vector<OpeningName> names_;
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> at_;  // key -> indices into names_
};

// Sets (or replaces) the Opening, OpeningEnglish and ECCO tags of `tags` for the game, when
// the game has a name and `tags` has no Opening tag of its own.
void tag_opening(PgnTags& tags, const Position& start, const std::vector<Move>& moves,
                 const OpeningIndex& index = OpeningIndex::starter());

}  // namespace xq::book
