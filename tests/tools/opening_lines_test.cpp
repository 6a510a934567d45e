// The opening lists of xiangqi-match and xiangqi-tune: comments, blank lines, a bad move
// refused with its line number, and the committed tuning and verification lists all legal.
#include "opening_lines.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace {

TEST(OpeningLines, ReadsLinesSkippingCommentsAndBlankLines) {
    std::istringstream in("# the list\nh2e2 h9g7   # central cannon\n\n  c3c4\n#only a comment\n");
    std::vector<std::string> out;
    std::string error;
    ASSERT_TRUE(xq::read_opening_lines(in, "list", out, error)) << error;
    EXPECT_EQ(out, (std::vector<std::string>{"h2e2 h9g7", "c3c4"}));
}

TEST(OpeningLines, AnIllegalMoveIsAnErrorNamingTheLine) {
    std::istringstream in("h2e2 h9g7\nh2e2 h2e2\n");  // Red cannot move twice
    std::vector<std::string> out;
    std::string error;
    EXPECT_FALSE(xq::read_opening_lines(in, "list", out, error));
    EXPECT_EQ(error, "list:2: illegal move 'h2e2'");
    EXPECT_TRUE(out.empty());
}

TEST(OpeningLines, AnEmptyListAndAMissingFileAreErrors) {
    std::istringstream in("# nothing\n\n");
    std::vector<std::string> out;
    std::string error;
    EXPECT_FALSE(xq::read_opening_lines(in, "list", out, error));
    EXPECT_EQ(error, "list: no openings");
    EXPECT_FALSE(xq::load_opening_lines("no/such/openings.txt", out, error));
    EXPECT_EQ(error, "cannot read no/such/openings.txt");
}

TEST(OpeningLines, TheCommittedTuningAndVerificationListsAreLegalAndDisjoint) {
    std::vector<std::string> tune, verify;
    std::string error;
    ASSERT_TRUE(xq::load_opening_lines(XQ_OPENINGS_TUNE_FILE, tune, error)) << error;
    ASSERT_TRUE(xq::load_opening_lines(XQ_OPENINGS_VERIFY_FILE, verify, error)) << error;
    EXPECT_GT(verify.size(), tune.size());  // issue #13: the verification set is the larger
    for (const std::string& line : verify)
        EXPECT_EQ(std::count(tune.begin(), tune.end(), line), 0) << "in both lists: " << line;
}

}  // namespace
