// Perft counts: the start position and the published positions, checked against our generator.
#include <gtest/gtest.h>

#include "perft_data.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

TEST(Perft, StartPositionDepths1To4) {
    Position pos;
    const std::uint64_t expected[] = {44, 1920, 79666, 3290240};
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d - 1]) << "depth " << d;
    EXPECT_EQ(pos.fen(), std::string(START_FEN)) << "perft must leave the position unchanged";
}

TEST(Perft, PublishedPositionsUpToDepth4) {
    const auto cases = test::load_published_perft(1, 4);
    ASSERT_GE(cases.size(), 50u) << test::published_perft_path() << " not found or truncated";
    for (const auto& c : cases) {
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None) << c.name;
        EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.name << " depth " << c.depth;
    }
}

}  // namespace
