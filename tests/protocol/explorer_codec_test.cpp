// The opening explorer's messages: the fullest answer fits in a line, and requests out of
// bounds are refused by the codec.
#include <gtest/gtest.h>

#include "protocol/codec.h"

namespace xq::proto {
namespace {

TEST(ExplorerCodec, FullestAnswerFitsInALine) {
    // MAX_EXPLORER_MOVES moves, each with both sources at the largest counts, from a FEN of
    // the longest kind (every square a piece or a one-digit gap, move counters at their largest).
    Explorer e;
    e.fen = "rnbakabnr/1c1c1c1c1/p1p1p1p1p/1p1p1p1p1/p1p1p1p1p/1P1P1P1P1/P1P1P1P1P/1C1C1C1C1/RNBAKABNR w - - "
            "999999 999999";
    e.more = true;
    const ExplorerStats full{1 << 30, 1 << 30, 1 << 30, 1 << 30};
    for (std::size_t i = 0; i < MAX_EXPLORER_MOVES; ++i) e.moves.push_back(ExplorerMove{"h2e2", full, full});
    const std::string line = encode(ServerMessage{e});
    EXPECT_LE(line.size(), MAX_LINE_BYTES);
    const auto back = decode_server(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(std::get<Explorer>(back.value()).moves, e.moves);
}

TEST(ExplorerCodec, RequestsAndAnswersOutOfShapeAreRefused) {
    const auto d = decode_client(R"({"type":"get_explorer"})");
    ASSERT_TRUE(d.ok()) << "no fen and no moves: the usual start";
    EXPECT_TRUE(std::get<GetExplorer>(d.value()).fen.empty());
    EXPECT_FALSE(decode_client(R"({"type":"get_explorer","moves":"h2e2"})").ok());
    EXPECT_FALSE(decode_client(R"({"type":"get_explorer","fen":7})").ok());
    EXPECT_FALSE(decode_server(R"({"type":"explorer","fen":"x","moves":[{"move":"h2e2","games":{"plays":-1,"wins":0,"draws":0,"losses":0}}]})").ok());
    EXPECT_FALSE(decode_server(R"({"type":"explorer","moves":[]})").ok()) << "fen is required";
}

}  // namespace
}  // namespace xq::proto
