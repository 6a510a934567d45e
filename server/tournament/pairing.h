// Pairings of a club tournament: round-robin rounds from the Berger tables and Swiss rounds
// by score groups. Entrants are numbered 0..n-1 in seeding order (strongest first).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace xq::server::tournament {

using EntrantId = int;
inline constexpr EntrantId BYE = -1;

// One board of a round. `black == BYE` means `red` has the bye and plays no game.
struct Pairing {
    EntrantId red = BYE;
    EntrantId black = BYE;
    bool operator==(const Pairing&) const = default;
};

// How a game of the tournament ended, from the arbiter's point of view.
enum class Outcome : std::uint8_t {
    RedWin,
    Draw,
    BlackWin,
    RedForfeit,     // Red did not show: Black scores the win, nothing was played
    BlackForfeit,   // Black did not show
    DoubleForfeit,  // neither showed: both score nothing
    Bye,            // `red` had the bye (black == BYE)
};

struct PlayedGame {
    int round = 0;  // 1-based
    EntrantId red = BYE;
    EntrantId black = BYE;
    Outcome outcome = Outcome::Draw;
};

// Points `who` scored in `game` on the Chinese competition scale (a win 2, a draw 1, a loss
// 0; a bye and a forfeit win count as a win); 0 when `who` did not take part.
int points_of(const PlayedGame& game, EntrantId who);

// Rounds a round-robin of `entrants` takes: n-1 for even n, n for odd n (one bye a round).
int round_robin_rounds(int entrants);

// The whole round-robin schedule by the Berger tables (FIDE Handbook C.05, Annex 1):
// schedule[r] is round r+1. With an odd number of entrants the missing last number is the
// bye. Entrant ids are 0-based (the tables' player k is id k-1).
std::vector<std::vector<Pairing>> round_robin_schedule(int entrants);

// The next Swiss round for `active` entrants (ids in seeding order; withdrawn entrants are
// left out) given every game so far. Players are ranked by score, then seed, and paired
// top half against bottom half within score groups; nobody meets the same opponent twice,
// an odd player out gets the bye (the lowest-ranked who has not had one), and colours go to
// whoever has had fewer Reds (then: the other colour than last time). Returns nullopt when
// no pairing without a repeat exists (e.g. more rounds than entrants - 1).
std::optional<std::vector<Pairing>> swiss_round(const std::vector<EntrantId>& active,
                                                const std::vector<PlayedGame>& history);

}  // namespace xq::server::tournament
