// The Elo fit behind the AI levels' fixed ratings (tools/match/rating_fit.h).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "server/ai/level_ratings.h"
#include "tools/match/rating_fit.h"

using xq::match::expected_score;
using xq::match::fit_ratings;
using xq::match::FitOptions;
using xq::match::PairResult;

TEST(RatingFit, ExpectedScoreFollowsTheEloCurve) {
    EXPECT_DOUBLE_EQ(expected_score(0), 0.5);
    EXPECT_NEAR(expected_score(400), 10.0 / 11.0, 1e-12);
    EXPECT_NEAR(expected_score(-200) + expected_score(200), 1.0, 1e-12);
}

TEST(RatingFit, OnePairingGivesTheGapOfItsScore) {
    // 75% over 40 games with no prior: the gap whose expected score is 0.75 (+190.8).
    FitOptions o;
    o.prior_draws = 0;
    o.anchor = 0;
    o.anchor_rating = 1000;
    const auto fit = fit_ratings(2, {{1, 0, 25, 10, 5}}, o);
    ASSERT_TRUE(fit.ok) << fit.error;
    EXPECT_DOUBLE_EQ(fit.rating[0], 1000);
    EXPECT_NEAR(expected_score(fit.rating[1] - fit.rating[0]), 0.75, 1e-6);
    EXPECT_NEAR(fit.rating[1] - 1000, 190.85, 0.05);
    EXPECT_EQ(fit.margin95[0], 0);
    EXPECT_GT(fit.margin95[1], 50);
    EXPECT_EQ(fit.games[1], 40);
}

TEST(RatingFit, RecoversAChainOfKnownGapsFromExpectedResults) {
    // Four players 0, 150, 300, 600 Elo apart; every pairing's points are what the model
    // expects over 1,000 games, so the fit must give the gaps back.
    const double truth[4] = {1500, 1650, 1800, 2100};
    std::vector<PairResult> results;
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) {
            const double p = expected_score(truth[b] - truth[a]);
            results.push_back({b, a, 1000 * p, 0, 1000 * (1 - p)});
        }
    FitOptions o;
    o.prior_draws = 0;
    const auto fit = fit_ratings(4, results, o);
    ASSERT_TRUE(fit.ok) << fit.error;
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(fit.rating[i], truth[i], 0.01) << i;
}

TEST(RatingFit, ThePriorKeepsAOneSidedPairingFinite) {
    const auto fit = fit_ratings(2, {{1, 0, 10, 0, 0}});
    ASSERT_TRUE(fit.ok) << fit.error;
    // 10 wins plus one virtual draw: 10.5 of 11.
    EXPECT_NEAR(expected_score(fit.rating[1] - fit.rating[0]), 10.5 / 11, 1e-6);
    EXPECT_TRUE(std::isfinite(fit.rating[1]));
}

TEST(RatingFit, DrawsCountAsHalfPoints) {
    FitOptions o;
    o.prior_draws = 0;
    const auto with_draws = fit_ratings(2, {{1, 0, 5, 10, 5}}, o);
    ASSERT_TRUE(with_draws.ok);
    EXPECT_NEAR(with_draws.rating[1], with_draws.rating[0], 1e-6);
}

TEST(RatingFit, RefusesPlayersWithoutGamesOrUnconnected) {
    auto fit = fit_ratings(3, {{1, 0, 3, 1, 2}});
    EXPECT_FALSE(fit.ok);
    EXPECT_NE(fit.error.find("player 2 played no game"), std::string::npos) << fit.error;
    fit = fit_ratings(4, {{1, 0, 3, 1, 2}, {3, 2, 1, 1, 1}});
    EXPECT_FALSE(fit.ok);
    EXPECT_NE(fit.error.find("not connected"), std::string::npos) << fit.error;
    fit = fit_ratings(2, {{1, 1, 3, 1, 2}});
    EXPECT_FALSE(fit.ok);
    fit = fit_ratings(2, {{1, 0, -1, 1, 2}});
    EXPECT_FALSE(fit.ok);
}

TEST(RatingFit, ReadsCalibrationLinesAndRefusesBadOnes) {
    std::vector<PairResult> results;
    std::string error;
    std::istringstream good("# a comment\nlevel 2 1 12 0 4\n\nlevel 10 9 7 3 0\n");
    ASSERT_TRUE(xq::match::read_level_results(good, 10, results, error)) << error;
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[1].a, 9);
    EXPECT_EQ(results[1].b, 8);
    EXPECT_EQ(results[1].draws, 3);
    for (const char* bad : {"level 11 1 1 0 0\n", "level 2 1 1 0\n", "lvl 2 1 1 0 0\n", "level 2 1 1 0 0 9\n"}) {
        std::istringstream in(std::string("# ok\n") + bad);
        error.clear();
        EXPECT_FALSE(xq::match::read_level_results(in, 10, results, error)) << bad;
        EXPECT_NE(error.find("line 2"), std::string::npos) << error;
    }
}

TEST(RatingFit, LevelTableIsTheFitOfTheCommittedGames) {
    // server/ai/level_ratings.cpp must say what the committed calibration games give:
    // a new calibration changes both together (docs/ratings.md).
    std::ifstream in(XQ_LEVEL_CALIBRATION_FILE);
    ASSERT_TRUE(in) << "cannot read " << XQ_LEVEL_CALIBRATION_FILE;
    std::vector<PairResult> results;
    std::string error;
    ASSERT_TRUE(xq::match::read_level_results(in, 10, results, error)) << error;
    FitOptions o;
    o.anchor = 4;
    o.anchor_rating = 1500;
    const auto fit = fit_ratings(10, results, o);
    ASSERT_TRUE(fit.ok) << fit.error;
    for (int level = 1; level <= 10; ++level)
        EXPECT_EQ(xq::server::ai_level_rating(level), std::lround(fit.rating[level - 1] / 10.0) * 10)
            << "level " << level;
}
