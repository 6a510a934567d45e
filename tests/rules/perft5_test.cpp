// Depth-5 perft of every published position: minutes of work, so an opt-in label (perft5).
#include <gtest/gtest.h>

#include "perft_data.h"
#include "xiangqi/position.h"

namespace {

TEST(PerftDeep, PublishedPositionsDepth5) {
    const auto cases = xq::test::load_published_perft(5, 5);
    ASSERT_GE(cases.size(), 10u) << xq::test::published_perft_path() << " not found or truncated";
    for (const auto& c : cases) {
        xq::Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), xq::FenError::None) << c.name;
        EXPECT_EQ(xq::perft(pos, 5), c.nodes) << c.name;
    }
}

}  // namespace
