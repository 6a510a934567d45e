// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
// deviation (how sure it is) and its volatility, updated after a rating period from the
// games played in it. The server rates each rated game as a period of its own.
#pragma once

#include <vector>

namespace xq::server {

// On Glickman's display scale: a new player is 1500 ± 350 with volatility 0.06.
struct Glicko2Rating {
    double rating = 1500.0;
    double rd = 350.0;
    double volatility = 0.06;
};

struct Glicko2Game {
    double opponent_rating = 1500.0;
    double opponent_rd = 350.0;
    double score = 0.5;  // 1 win, 0.5 draw, 0 loss
};

// The system constant tau (how much volatility may change); Glickman suggests 0.3-1.2.
inline constexpr double GLICKO2_TAU = 0.5;
// The deviation never grows past a new player's.
inline constexpr double GLICKO2_MAX_RD = 350.0;

// The rating after a period with these games (none: only the deviation grows).
Glicko2Rating glicko2_update(const Glicko2Rating& player, const std::vector<Glicko2Game>& games,
                             double tau = GLICKO2_TAU);

}  // namespace xq::server
