// Round-robin schedules against the published Berger tables, and Swiss rounds held to their
// promises (no repeat opponents, byes to the lowest-ranked, colour balance) over whole
// simulated tournaments.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <unordered_set>

#include "server/tournament/pairing.h"
#include "server/tournament/standings.h"

namespace xq::server::tournament {
namespace {

// A round as the tables print it: "1-6 2-5 3-4", Red (the tables' White) first, numbers
// 1-based; a bye as "5-bye".
std::string print(const std::vector<Pairing>& round) {
    std::ostringstream out;
    for (std::size_t i = 0; i < round.size(); ++i) {
        if (i > 0) out << ' ';
        out << round[i].red + 1 << '-';
        if (round[i].black == BYE)
            out << "bye";
        else
            out << round[i].black + 1;
    }
    return out.str();
}

// FIDE Handbook C.05, Annex 1 (Berger Tables for Round-Robin Tournaments), the tables for
// 5 or 6 and for 7 or 8 players.
TEST(RoundRobin, SixPlayersFollowTheBergerTable) {
    const auto rounds = round_robin_schedule(6);
    ASSERT_EQ(rounds.size(), 5u);
    EXPECT_EQ(print(rounds[0]), "1-6 2-5 3-4");
    EXPECT_EQ(print(rounds[1]), "6-4 5-3 1-2");
    EXPECT_EQ(print(rounds[2]), "2-6 3-1 4-5");
    EXPECT_EQ(print(rounds[3]), "6-5 1-4 2-3");
    EXPECT_EQ(print(rounds[4]), "3-6 4-2 5-1");
}

TEST(RoundRobin, EightPlayersFollowTheBergerTable) {
    const auto rounds = round_robin_schedule(8);
    ASSERT_EQ(rounds.size(), 7u);
    const char* expected[] = {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6",
                              "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4",
                              "4-8 5-3 6-2 7-1"};
    for (std::size_t r = 0; r < rounds.size(); ++r) EXPECT_EQ(print(rounds[r]), expected[r]);
}

TEST(RoundRobin, FivePlayersUseTheSixTableWithTheByeForPlayerSix) {
    const auto rounds = round_robin_schedule(5);
    ASSERT_EQ(rounds.size(), 5u);
    EXPECT_EQ(print(rounds[0]), "2-5 3-4 1-bye");
    EXPECT_EQ(print(rounds[1]), "5-3 1-2 4-bye");
    EXPECT_EQ(print(rounds[4]), "4-2 5-1 3-bye");
}

TEST(RoundRobin, EveryPairMeetsOnceAndColoursBalanceForTwoToSixteen) {
    for (int n = 2; n <= 16; ++n) {
        SCOPED_TRACE(n);
        const auto rounds = round_robin_schedule(n);
        EXPECT_EQ(static_cast<int>(rounds.size()), round_robin_rounds(n));
        std::set<std::pair<int, int>> met;
        std::map<int, int> reds, byes;
        for (const auto& round : rounds) {
            std::set<int> seen;
            for (const Pairing& p : round) {
                ASSERT_TRUE(p.red >= 0 && p.red < n);
                EXPECT_TRUE(seen.insert(p.red).second);
                if (p.black == BYE) {
                    ++byes[p.red];
                    continue;
                }
                EXPECT_TRUE(seen.insert(p.black).second);
                EXPECT_TRUE(met.insert({std::min(p.red, p.black), std::max(p.red, p.black)})
                                .second);
                ++reds[p.red];
            }
            EXPECT_EQ(static_cast<int>(seen.size()), n);  // everybody is in every round
        }
        EXPECT_EQ(static_cast<int>(met.size()), n * (n - 1) / 2);
        for (int e = 0; e < n; ++e) {
            EXPECT_EQ(byes[e], n % 2);
            // n - 1 games each; an odd field's bye can leave one extra colour either way.
            EXPECT_LE(std::abs(2 * reds[e] - (n - 1)), 1 + (n % 2));
        }
    }
}

TEST(RoundRobin, FewerThanTwoEntrantsHaveNoRounds) {
    EXPECT_TRUE(round_robin_schedule(0).empty());
    EXPECT_TRUE(round_robin_schedule(1).empty());
    EXPECT_EQ(round_robin_rounds(1), 0);
}

std::vector<EntrantId> ids(int n) {
    std::vector<EntrantId> v;
    for (int i = 0; i < n; ++i) v.push_back(i);
    return v;
}

TEST(Swiss, FirstRoundPairsTopHalfAgainstBottomHalfWithAlternatingColours) {
    const auto round = swiss_round(ids(8), {});
    ASSERT_TRUE(round.has_value());
    EXPECT_EQ(print(*round), "1-5 6-2 3-7 8-4");
}

TEST(Swiss, AnOddFieldGivesTheLowestSeedTheByeInRoundOne) {
    const auto round = swiss_round(ids(7), {});
    ASSERT_TRUE(round.has_value());
    EXPECT_EQ(print(*round), "1-4 5-2 3-6 7-bye");
}

TEST(Swiss, SecondRoundPairsWithinScoreGroups) {
    // Round 1 as above, the higher seed winning on every board: winners 1,2,3,4 meet each
    // other (1 v 3, 2 v 4), losers 5..8 likewise.
    std::vector<PlayedGame> games = {{1, 0, 4, Outcome::RedWin},
                                     {1, 5, 1, Outcome::BlackWin},
                                     {1, 2, 6, Outcome::RedWin},
                                     {1, 7, 3, Outcome::BlackWin}};
    const auto round = swiss_round(ids(8), games);
    ASSERT_TRUE(round.has_value());
    // Each pair had the same colour last time, so the higher-ranked player takes the other
    // one: 1 had Red (now Black), 2 had Black (now Red), 5 Black, 6 Red.
    EXPECT_EQ(print(*round), "3-1 2-4 5-7 8-6");
}

// Whether any round exists for entrants 0..n-1 in which nobody meets an opponent again and,
// with an odd field, the bye goes to someone who has not had one: an exhaustive search over
// perfect matchings (bit masks of the still unpaired, with the dead ends remembered), so the
// test can tell a pairer that gave up too early from a field that has really run out.
bool some_round_exists(int n, const std::set<std::pair<int, int>>& met,
                       const std::map<int, int>& byes) {
    std::unordered_set<std::uint32_t> dead;
    std::function<bool(std::uint32_t, bool)> pair_up = [&](std::uint32_t unpaired, bool bye_left) {
        if (unpaired == 0) return true;
        if (dead.count(unpaired * 2 + bye_left) > 0) return false;
        int first = 0;
        while ((unpaired & (1u << first)) == 0) ++first;
        const std::uint32_t rest = unpaired & ~(1u << first);
        if (bye_left && byes.count(first) == 0 && pair_up(rest, false)) return true;
        for (int other = first + 1; other < n; ++other) {
            if ((rest & (1u << other)) == 0 || met.count({first, other}) > 0) continue;
            if (pair_up(rest & ~(1u << other), bye_left)) return true;
        }
        dead.insert(unpaired * 2 + bye_left);
        return false;
    };
    return pair_up((1u << n) - 1, n % 2 == 1);
}

TEST(Swiss, TheExhaustiveCheckTellsAnExhaustedFieldFromAFreshOne) {
    std::set<std::pair<int, int>> met;
    EXPECT_TRUE(some_round_exists(4, met, {}));
    met = {{0, 1}, {2, 3}, {0, 2}, {1, 3}};
    EXPECT_TRUE(some_round_exists(4, met, {}));  // 0-3 and 1-2 are still fresh
    met.insert({0, 3});
    EXPECT_FALSE(some_round_exists(4, met, {}));  // 1-2 fresh, but 0 and 3 have met
    // Five players, everyone met everyone but 4: only 4 could sit out, and 4 had the bye.
    met.clear();
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) met.insert({a, b});
    EXPECT_FALSE(some_round_exists(5, met, {{4, 1}}));
    EXPECT_TRUE(some_round_exists(5, {}, {{4, 1}}));
}

// Plays whole Swiss events with random results and checks the promises round by round.
TEST(Swiss, WholeEventsNeverRepeatAPairingAndKeepByesAndColoursFair) {
    std::mt19937 rng(20261201);
    for (int n : {4, 5, 6, 7, 8, 9, 12, 15, 16, 24}) {
        for (int event = 0; event < 10; ++event) {
            SCOPED_TRACE(testing::Message() << n << " entrants, event " << event);
            // A Swiss event has well fewer rounds than a round-robin would.
            const int rounds = std::min({n - 1, n / 2 + 1, 7});
            std::vector<PlayedGame> games;
            std::set<std::pair<int, int>> met;
            std::map<int, int> byes, colour;
            for (int r = 1; r <= rounds; ++r) {
                const auto round = swiss_round(ids(n), games);
                if (!round.has_value()) {
                    // Only allowed when the field has really run out of fresh opponents.
                    ASSERT_FALSE(some_round_exists(n, met, byes))
                        << "the pairer gave up in round " << r << " though a round exists";
                    break;
                }
                std::set<int> seen;
                for (const Pairing& p : *round) {
                    EXPECT_TRUE(seen.insert(p.red).second);
                    if (p.black == BYE) {
                        EXPECT_EQ(++byes[p.red], 1) << "a second bye for " << p.red;
                        games.push_back({r, p.red, BYE, Outcome::Bye});
                        continue;
                    }
                    EXPECT_TRUE(seen.insert(p.black).second);
                    EXPECT_TRUE(
                        met.insert({std::min(p.red, p.black), std::max(p.red, p.black)}).second)
                        << "repeat pairing in round " << r;
                    ++colour[p.red];
                    --colour[p.black];
                    const int roll = static_cast<int>(rng() % 3);
                    games.push_back({r, p.red, p.black,
                                     roll == 0 ? Outcome::RedWin
                                               : roll == 1 ? Outcome::Draw : Outcome::BlackWin});
                }
                EXPECT_EQ(static_cast<int>(seen.size()), n);
            }
            for (const auto& [who, diff] : colour) EXPECT_LE(std::abs(diff), 2) << who;
        }
    }
}

TEST(Swiss, WithdrawnEntrantsAreNotPairedAndTheByeIsNotGivenTwice) {
    // Entrant 3 withdrew after round 1; entrant 4 had the bye in round 1.
    std::vector<PlayedGame> games = {{1, 0, 2, Outcome::RedWin},
                                     {1, 3, 1, Outcome::Draw},
                                     {1, 4, BYE, Outcome::Bye}};
    const auto round = swiss_round({0, 1, 2, 4}, games);
    ASSERT_TRUE(round.has_value());
    for (const Pairing& p : *round) {
        EXPECT_NE(p.red, 3);
        EXPECT_NE(p.black, 3);
    }
    EXPECT_EQ(round->size(), 2u);
    // Five entrants left after a withdrawal of a different one: the bye skips entrant 4.
    const auto odd = swiss_round({0, 1, 2, 3, 4}, games);
    ASSERT_TRUE(odd.has_value());
    EXPECT_EQ(odd->back().black, BYE);
    EXPECT_NE(odd->back().red, 4);
}

TEST(Swiss, NoPairingIsOfferedWhenEveryOpponentHasBeenMet) {
    // Four players after a complete round-robin: any pairing would repeat.
    EXPECT_FALSE(swiss_round({0, 1, 2, 3}, {{1, 0, 1, Outcome::Draw},
                                            {1, 2, 3, Outcome::Draw},
                                            {2, 0, 2, Outcome::Draw},
                                            {2, 1, 3, Outcome::Draw},
                                            {3, 0, 3, Outcome::Draw},
                                            {3, 1, 2, Outcome::Draw}})
                     .has_value());
    EXPECT_FALSE(swiss_round({0, 1}, {{1, 0, 1, Outcome::Draw}}).has_value());
}

}  // namespace
}  // namespace xq::server::tournament
