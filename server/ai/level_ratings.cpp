#include "server/ai/level_ratings.h"

namespace xq::server {
namespace {

// Calibrated from the games in tools/match/level_calibration.txt (each level against the
// next and the one after, at a quarter of its server time per move; calibrate_levels.sh)
// by xiangqi-rating-fit: maximum likelihood, one virtual draw per pairing, level 5 anchored
// at 1500, rounded to 10. The margins and the conditions are in docs/ratings.md; the test
// RatingFit.LevelTableIsTheFitOfTheCommittedGames keeps this table equal to that fit.
constexpr std::array<int, 10> RATINGS = {400, 580, 980, 1260, 1500, 1630, 1840, 2100, 2290, 2500};

}  // namespace

std::optional<int> ai_level_rating(int level) {
    if (level < 1 || level > int(RATINGS.size())) return std::nullopt;
    return RATINGS[std::size_t(level - 1)];
}

const std::array<int, 10>& ai_level_ratings() { return RATINGS; }

}  // namespace xq::server
