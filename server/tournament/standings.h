// The standings of a tournament: points and the usual tie-breaks, computed from the games.
// Points follow the Chinese Xiangqi competition rules' scale: a win 2, a draw 1, a loss 0;
// a bye and a forfeit win count as a win, a forfeit loss as a loss.
#pragma once

#include <vector>

#include "server/tournament/pairing.h"

namespace xq::server::tournament {

struct Standing {
    EntrantId id = BYE;
    int rank = 0;    // 1-based; entrants equal on every criterion share a rank
    int points = 0;  // 2 a win, 1 a draw
    int wins = 0;    // games won over the board or by forfeit (byes not counted)
    int games = 0;   // games played over the board
    // Buchholz: the sum of the points of every opponent met (forfeits included, byes not).
    int buchholz = 0;
    // Sonneborn-Berger, doubled to stay whole: for each opponent, their points times the
    // points scored against them (2 a win, 1 a draw). Show it halved.
    int sonneborn_berger2 = 0;
};

// Standings of entrants 0..entrants-1, best first: points, then Buchholz, then
// Sonneborn-Berger, then wins, then seed (the entrant id). Ranks are shared by entrants who
// are equal on all tie-breaks (the seed only orders the list).
std::vector<Standing> standings(int entrants, const std::vector<PlayedGame>& games);

}  // namespace xq::server::tournament
