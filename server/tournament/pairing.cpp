#include "server/tournament/pairing.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace xq::server::tournament {

int points_of(const PlayedGame& game, EntrantId who) {
    const bool red = game.red == who;
    const bool black = game.black == who && who != BYE;
    if (!red && !black) return 0;
    switch (game.outcome) {
        case Outcome::RedWin: return red ? 2 : 0;
        case Outcome::BlackWin: return black ? 2 : 0;
        case Outcome::Draw: return 1;
        case Outcome::RedForfeit: return black ? 2 : 0;
        case Outcome::BlackForfeit: return red ? 2 : 0;
        case Outcome::DoubleForfeit: return 0;
        case Outcome::Bye: return red ? 2 : 0;
    }
    return 0;
}

int round_robin_rounds(int entrants) {
    if (entrants < 2) return 0;
    return entrants % 2 == 0 ? entrants - 1 : entrants;
}

std::vector<std::vector<Pairing>> round_robin_schedule(int entrants) {
    std::vector<std::vector<Pairing>> rounds;
    if (entrants < 2) return rounds;
    // The tables are written for an even count n; with an odd count the last number n is the
    // bye. Player n stays fixed; the others walk round a circle by n/2 places a round.
    const int n = entrants % 2 == 0 ? entrants : entrants + 1;
    const int m = n - 1;
    const int half = n / 2;
    auto id = [&](int player) { return player == n && n != entrants ? BYE : player - 1; };
    auto board = [&](int red, int black) {
        // A game against the missing player is the other one's bye.
        if (id(red) == BYE) return Pairing{id(black), BYE};
        return Pairing{id(red), id(black)};
    };
    for (int r = 1; r <= m; ++r) {
        const int start = ((r - 1) * half) % m;
        std::vector<int> seq(static_cast<std::size_t>(m));
        for (int k = 0; k < m; ++k) seq[static_cast<std::size_t>(k)] = (start + k) % m + 1;
        std::vector<Pairing> round;
        // Board 1: the fixed player n has Black in odd rounds and Red in even ones.
        round.push_back(r % 2 == 1 ? board(seq[0], n) : board(n, seq[0]));
        for (int k = 1; k < half; ++k) {
            round.push_back(board(seq[static_cast<std::size_t>(k)],
                                  seq[static_cast<std::size_t>(m - k)]));
        }
        // The bye is listed last, after the boards that are played.
        std::stable_partition(round.begin(), round.end(),
                              [](const Pairing& p) { return p.black != BYE; });
        rounds.push_back(std::move(round));
    }
    return rounds;
}

namespace {

struct History {
    int score = 0;
    int seed = 0;          // position in the active list: lower is stronger
    int colour_diff = 0;   // Reds minus Blacks over the board and by forfeit
    int last_colour = 0;   // +1 Red, -1 Black, 0 none yet
    bool had_bye = false;
    std::set<EntrantId> met;
};

class SwissPairer {
public:
    SwissPairer(const std::vector<EntrantId>& active, const std::vector<PlayedGame>& history) {
        for (std::size_t i = 0; i < active.size(); ++i) {
            players_[active[i]].seed = static_cast<int>(i);
        }
        for (const PlayedGame& g : history) {
            // Games are applied in round order so that `last_colour` is the latest one.
            apply(g);
        }
        ranked_ = active;
        std::stable_sort(ranked_.begin(), ranked_.end(), [&](EntrantId a, EntrantId b) {
            const History& x = players_.at(a);
            const History& y = players_.at(b);
            if (x.score != y.score) return x.score > y.score;
            return x.seed < y.seed;
        });
    }

    // First with the colour rule (two players who both need the same colour are not paired),
    // then, if that leaves no pairing, without it.
    std::optional<std::vector<Pairing>> pair() {
        for (bool strict : {true, false}) {
            strict_colours_ = strict;
            if (auto round = pair_once()) return round;
        }
        return std::nullopt;
    }

private:
    std::optional<std::vector<Pairing>> pair_once() {
        pairs_.clear();
        steps_ = 0;
        if (ranked_.size() < 2) return std::nullopt;
        if (ranked_.size() % 2 == 0) {
            std::vector<EntrantId> rest = ranked_;
            if (!pair_rest(rest)) return std::nullopt;
            return boards(BYE);
        }
        // The bye goes to the lowest-ranked player who has not had one and whose absence
        // still leaves a pairing; only when everybody has had one may a second be given.
        for (int pass = 0; pass < 2; ++pass) {
            for (auto it = ranked_.rbegin(); it != ranked_.rend(); ++it) {
                if (pass == 0 && players_.at(*it).had_bye) continue;
                std::vector<EntrantId> rest;
                for (EntrantId e : ranked_)
                    if (e != *it) rest.push_back(e);
                pairs_.clear();
                steps_ = 0;
                if (pair_rest(rest)) return boards(*it);
            }
        }
        return std::nullopt;
    }

    void apply(const PlayedGame& g) {
        auto red = players_.find(g.red);
        auto black = g.black == BYE ? players_.end() : players_.find(g.black);
        if (g.outcome == Outcome::Bye || g.black == BYE) {
            if (red != players_.end()) {
                red->second.had_bye = true;
                red->second.score += points_of(g, g.red);
            }
            return;
        }
        const bool played = g.outcome != Outcome::DoubleForfeit;
        if (red != players_.end()) {
            red->second.score += points_of(g, g.red);
            red->second.met.insert(g.black);
            if (played) {
                ++red->second.colour_diff;
                red->second.last_colour = 1;
            }
        }
        if (black != players_.end()) {
            black->second.score += points_of(g, g.black);
            black->second.met.insert(g.red);
            if (played) {
                --black->second.colour_diff;
                black->second.last_colour = -1;
            }
        }
    }

    // Pairs `rest` (in ranking order) without repeats, the first unpaired player with the
    // opponent the Dutch fold prefers: the player half a score group below, then the
    // nearest ones, then lower groups (a float down).
    bool pair_rest(std::vector<EntrantId>& rest) {
        if (rest.empty()) return true;
        if (++steps_ > STEP_LIMIT) return false;
        const EntrantId top = rest.front();
        const int score = players_.at(top).score;
        std::size_t group = 1;
        while (group < rest.size() && players_.at(rest[group]).score == score) ++group;
        const std::size_t ideal = group > 1 ? group / 2 : 1;

        std::vector<std::size_t> order;
        for (std::size_t i = 1; i < rest.size(); ++i) order.push_back(i);
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const bool ga = a < group, gb = b < group;
            if (ga != gb) return ga;
            if (!ga) {
                const int da = std::abs(score - players_.at(rest[a]).score);
                const int db = std::abs(score - players_.at(rest[b]).score);
                if (da != db) return da < db;
                return a < b;
            }
            const bool above_a = a >= ideal, above_b = b >= ideal;
            if (above_a != above_b) return above_a;
            return above_a ? a < b : a > b;
        });

        const History& h = players_.at(top);
        for (std::size_t i : order) {
            const EntrantId other = rest[i];
            if (h.met.count(other) > 0) continue;
            if (strict_colours_ && same_colour_due(h, players_.at(other))) continue;
            std::vector<EntrantId> next;
            next.reserve(rest.size() - 2);
            for (std::size_t k = 1; k < rest.size(); ++k)
                if (k != i) next.push_back(rest[k]);
            pairs_.emplace_back(top, other);
            if (pair_rest(next)) return true;
            pairs_.pop_back();
            if (steps_ > STEP_LIMIT) return false;
        }
        return false;
    }

    // Both have had two more games of one colour than of the other (the same one): whoever
    // of them is paired, one would go three ahead.
    static bool same_colour_due(const History& a, const History& b) {
        return (a.colour_diff >= 2 && b.colour_diff >= 2) ||
               (a.colour_diff <= -2 && b.colour_diff <= -2);
    }

    // Colours: fewer Reds so far gets Red; then whoever had Black last; then the higher
    // ranked player alternates from last time, or (first round) by board.
    Pairing colours(EntrantId high, EntrantId low, std::size_t board) const {
        const History& a = players_.at(high);
        const History& b = players_.at(low);
        bool high_red;
        if (a.colour_diff != b.colour_diff) {
            high_red = a.colour_diff < b.colour_diff;
        } else if (a.last_colour != b.last_colour) {
            high_red = a.last_colour < b.last_colour;
        } else if (a.last_colour != 0) {
            high_red = a.last_colour < 0;
        } else {
            high_red = board % 2 == 0;
        }
        return high_red ? Pairing{high, low} : Pairing{low, high};
    }

    std::vector<Pairing> boards(EntrantId bye) const {
        std::vector<std::pair<EntrantId, EntrantId>> sorted = pairs_;
        auto rank = [&](EntrantId e) {
            return std::find(ranked_.begin(), ranked_.end(), e) - ranked_.begin();
        };
        for (auto& p : sorted)
            if (rank(p.second) < rank(p.first)) std::swap(p.first, p.second);
        std::sort(sorted.begin(), sorted.end(),
                  [&](const auto& x, const auto& y) { return rank(x.first) < rank(y.first); });
        std::vector<Pairing> out;
        for (std::size_t i = 0; i < sorted.size(); ++i)
            out.push_back(colours(sorted[i].first, sorted[i].second, i));
        if (bye != BYE) out.push_back(Pairing{bye, BYE});
        return out;
    }

    static constexpr int STEP_LIMIT = 200000;
    std::map<EntrantId, History> players_;
    std::vector<EntrantId> ranked_;
    std::vector<std::pair<EntrantId, EntrantId>> pairs_;
    int steps_ = 0;
    bool strict_colours_ = true;
};

}  // namespace

std::optional<std::vector<Pairing>> swiss_round(const std::vector<EntrantId>& active,
                                                const std::vector<PlayedGame>& history) {
    std::vector<PlayedGame> ordered = history;
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const PlayedGame& a, const PlayedGame& b) { return a.round < b.round; });
    SwissPairer pairer(active, ordered);
    return pairer.pair();
}

}  // namespace xq::server::tournament
