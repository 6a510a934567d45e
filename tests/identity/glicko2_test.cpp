// Glicko-2 against the worked example of Mark Glickman's "Example of the Glicko-2 system"
// (Boston University, 2013, section "Example calculation"): a 1500 ± 200 player (volatility
// 0.06, tau 0.5) beats a 1400 ± 30 player and loses to 1550 ± 100 and 1700 ± 300; the paper
// gives the new rating 1464.06, deviation 151.52 and volatility 0.05999.
#include "server/identity/glicko2.h"

#include <gtest/gtest.h>

namespace xq::server {
namespace {

TEST(Glicko2, GlickmansWorkedExample) {
    const Glicko2Rating before{1500.0, 200.0, 0.06};
    const auto after = glicko2_update(before, {{1400.0, 30.0, 1.0}, {1550.0, 100.0, 0.0}, {1700.0, 300.0, 0.0}}, 0.5);
    EXPECT_NEAR(after.rating, 1464.06, 0.01);
    EXPECT_NEAR(after.rd, 151.52, 0.01);
    EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
}

TEST(Glicko2, APeriodWithoutGamesOnlyWidensTheDeviation) {
    const auto after = glicko2_update({1500.0, 200.0, 0.06}, {});
    EXPECT_EQ(after.rating, 1500.0);
    EXPECT_NEAR(after.rd, 200.27, 0.01);  // sqrt(phi^2 + sigma^2) on the display scale
    EXPECT_EQ(glicko2_update({1500.0, 350.0, 0.06}, {}).rd, GLICKO2_MAX_RD);
}

TEST(Glicko2, WinnersGainLosersLoseDrawsBetweenEqualsChangeNoRating) {
    const Glicko2Rating fresh;
    const auto win = glicko2_update(fresh, {{1500.0, 350.0, 1.0}});
    const auto loss = glicko2_update(fresh, {{1500.0, 350.0, 0.0}});
    const auto draw = glicko2_update(fresh, {{1500.0, 350.0, 0.5}});
    EXPECT_GT(win.rating, 1500.0);
    EXPECT_LT(loss.rating, 1500.0);
    EXPECT_NEAR(win.rating - 1500.0, 1500.0 - loss.rating, 1e-6);  // symmetric
    EXPECT_NEAR(draw.rating, 1500.0, 1e-9);
    EXPECT_LT(win.rd, 350.0);  // one game makes the rating surer
}

}  // namespace
}  // namespace xq::server
