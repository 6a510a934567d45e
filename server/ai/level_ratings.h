// The built-in AI levels' fixed ratings: what a seat played by "AI level N" shows as its
// `rating`, and `welcome.ai_ratings`. They never change with games; docs/ratings.md says how
// they were calibrated (levels against each other, anchored at level 5 = 1500).
#pragma once

#include <array>
#include <optional>

namespace xq::server {

// The fixed rating of built-in level 1..10; nullopt for any other number.
std::optional<int> ai_level_rating(int level);

// All ten, level 1 first.
const std::array<int, 10>& ai_level_ratings();

}  // namespace xq::server
