// The client's view of the server's tournaments: the list, the tournaments it has seen whole
// (`tournament` lines), and what the tournament screen shows of one: standings with their
// tie-breaks, the crosstable, the round's boards. Plain data and functions, no drawing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/strings.h"
#include "protocol/messages.h"

namespace xq::client {

struct TournamentsState {
    std::vector<proto::TournamentSummary> list;         // the last `tournaments` answer
    std::map<std::uint32_t, proto::Tournament> known;  // the last `tournament` line of each
    const proto::Tournament* find(std::uint32_t id) const {
        const auto it = known.find(id);
        return it == known.end() ? nullptr : &it->second;
    }
};

// An entrant's name as shown: the AI entrants ("AI level 4", "AI level 4 #2") in `lang`.
std::string entrant_name(Lang lang, const proto::Tournament& t, int index);
// Whether `name` is entered (and not withdrawn) in `t`.
bool entered(const proto::Tournament& t, const std::string& name);
// Sonneborn-Berger from its doubled wire value: "3", "3.5".
std::string half_points(int doubled);
// "round-robin" / "Swiss", "open" / "running" / "finished", in `lang`.
std::string format_words(Lang lang, proto::TournamentFormat f);
std::string state_words(Lang lang, proto::TournamentState s);
// A board's result as shown: "1-0", "½-½", "0-1", "+/-" (forfeits), "bye", "…" undecided.
std::string board_result_text(Lang lang, proto::BoardResult r);

// The new tournament form's numbers checked against the protocol's limits: the first problem
// in words (the no-show forfeit 1-3600 s, then the spectator delay 0-20 plies), Str::Ok when
// both fit.
Str tournament_form_problem(int forfeit_seconds, int spectator_delay);

// The crosstable: rows and columns in standings order; cell [i][j] the points row i scored
// against column j over their games ("2" a win, "1" a draw, "0" a loss, "+" / "-" a forfeit
// won / lost; several games joined by spaces), "" when they have not met; the diagonal "x".
struct Crosstable {
    std::vector<int> order;                      // entrant indices, best first
    std::vector<std::vector<std::string>> cells;
    std::vector<int> byes;                       // byes per row
};
Crosstable crosstable(const proto::Tournament& t);

}  // namespace xq::client
