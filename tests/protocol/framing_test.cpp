#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/framing.h"

namespace xq::proto {
namespace {

struct Collected {
    std::vector<std::string> lines;
    int oversized = 0;
};

void feed(FrameReader& r, Collected& c, std::string_view data) {
    r.feed(
        data, [&](std::string_view l) { c.lines.emplace_back(l); }, [&] { ++c.oversized; });
}

TEST(Framing, SplitsLinesAcrossChunks) {
    FrameReader r;
    Collected c;
    feed(r, c, "{\"a\":1}\n{\"b\"");
    feed(r, c, ":2}\r\n\n{\"c\":3}\n");
    ASSERT_EQ(c.lines.size(), 3u);
    EXPECT_EQ(c.lines[0], "{\"a\":1}");
    EXPECT_EQ(c.lines[1], "{\"b\":2}");  // "\r" removed, empty line skipped
    EXPECT_EQ(c.lines[2], "{\"c\":3}");
    EXPECT_EQ(c.oversized, 0);
    EXPECT_EQ(r.pending(), 0u);
}

TEST(Framing, LineAtTheCapPasses) {
    FrameReader r(16);
    Collected c;
    feed(r, c, std::string(16, 'x') + "\n");
    feed(r, c, std::string(16, 'y') + "\r\n");
    ASSERT_EQ(c.lines.size(), 2u);
    EXPECT_EQ(c.oversized, 0);
}

TEST(Framing, OversizedLineIsReportedOnceAndSkipped) {
    FrameReader r(16);
    Collected c;
    // Arrives in pieces without a newline: the buffer must never exceed the cap.
    for (int i = 0; i < 100; ++i) {
        feed(r, c, std::string(10, 'z'));
        EXPECT_LE(r.pending(), 17u);
    }
    feed(r, c, "tail\nok\n");
    EXPECT_EQ(c.oversized, 1);
    ASSERT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.lines[0], "ok");
}

TEST(Framing, OversizedLineInOneChunk) {
    FrameReader r(16);
    Collected c;
    feed(r, c, std::string(17, 'q') + "\nnext\n");
    EXPECT_EQ(c.oversized, 1);
    ASSERT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.lines[0], "next");
}

TEST(Framing, DefaultCapIsTheProtocolLimit) {
    FrameReader r;
    Collected c;
    feed(r, c, std::string(MAX_LINE_BYTES, 'a') + "\n");
    feed(r, c, std::string(MAX_LINE_BYTES + 1, 'b') + "\n");
    EXPECT_EQ(c.lines.size(), 1u);
    EXPECT_EQ(c.oversized, 1);
}

}  // namespace
}  // namespace xq::proto
