#include "server/tournament/standings.h"

#include <algorithm>

namespace xq::server::tournament {

namespace {

bool over_the_board(Outcome o) {
    return o == Outcome::RedWin || o == Outcome::Draw || o == Outcome::BlackWin;
}

bool same_tiebreaks(const Standing& a, const Standing& b) {
    return a.points == b.points && a.buchholz == b.buchholz &&
           a.sonneborn_berger2 == b.sonneborn_berger2 && a.wins == b.wins;
}

}  // namespace

std::vector<Standing> standings(int entrants, const std::vector<PlayedGame>& games) {
    std::vector<Standing> table(static_cast<std::size_t>(std::max(entrants, 0)));
    for (int i = 0; i < entrants; ++i) table[static_cast<std::size_t>(i)].id = i;
    auto in_range = [&](EntrantId id) { return id >= 0 && id < entrants; };

    for (const PlayedGame& g : games) {
        for (EntrantId who : {g.red, g.black}) {
            if (!in_range(who)) continue;
            Standing& s = table[static_cast<std::size_t>(who)];
            const int p = points_of(g, who);
            s.points += p;
            if (p == 2 && g.outcome != Outcome::Bye) ++s.wins;
            if (over_the_board(g.outcome)) ++s.games;
        }
    }
    for (const PlayedGame& g : games) {
        if (g.outcome == Outcome::Bye || !in_range(g.red) || !in_range(g.black)) continue;
        Standing& red = table[static_cast<std::size_t>(g.red)];
        Standing& black = table[static_cast<std::size_t>(g.black)];
        red.buchholz += black.points;
        black.buchholz += red.points;
        red.sonneborn_berger2 += points_of(g, g.red) * black.points;
        black.sonneborn_berger2 += points_of(g, g.black) * red.points;
    }

    std::sort(table.begin(), table.end(), [](const Standing& a, const Standing& b) {
        if (a.points != b.points) return a.points > b.points;
        if (a.buchholz != b.buchholz) return a.buchholz > b.buchholz;
        if (a.sonneborn_berger2 != b.sonneborn_berger2)
            return a.sonneborn_berger2 > b.sonneborn_berger2;
        if (a.wins != b.wins) return a.wins > b.wins;
        return a.id < b.id;
    });
    for (std::size_t i = 0; i < table.size(); ++i) {
        table[i].rank = (i > 0 && same_tiebreaks(table[i], table[i - 1]))
                            ? table[i - 1].rank
                            : static_cast<int>(i) + 1;
    }
    return table;
}

}  // namespace xq::server::tournament
