// Line breaking for the board's toast, and one-line text cut with an ellipsis (the lobby): every character one unit wide, so lines are easy to
// count; breaks at spaces where there are any, between characters where there are none.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/text_wrap.h"

namespace xq::client {
namespace {

float units(const std::u32string& s) { return float(s.size()); }

TEST(TextWrap, ShortTextIsOneLine) {
    EXPECT_EQ(wrap_lines(U"Not your move.", 40, units), std::vector<std::u32string>{U"Not your move."});
    EXPECT_EQ(wrap_lines(U"", 40, units), std::vector<std::u32string>{U""});
}

TEST(TextWrap, LongTextBreaksAtSpacesAndEveryLineFits) {
    const std::u32string text = U"Nothing to take back: you have not moved yet";
    const auto lines = wrap_lines(text, 24, units);
    EXPECT_EQ(lines, (std::vector<std::u32string>{U"Nothing to take back:", U"you have not moved yet"}));
    for (const auto& l : lines) EXPECT_LE(units(l), 24);
}

TEST(TextWrap, ChineseBreaksBetweenCharacters) {
    const auto lines = wrap_lines(U"对方断线，座位保留六十秒", 5, units);
    EXPECT_EQ(lines, (std::vector<std::u32string>{U"对方断线，", U"座位保留六", U"十秒"}));
}

TEST(TextWrap, AWordLongerThanALineIsCutAndNothingIsLost) {
    const auto lines = wrap_lines(U"ab abcdefghij cd", 4, units);
    std::u32string joined;
    for (const auto& l : lines) {
        EXPECT_LE(units(l), 4);
        joined += l;
    }
    EXPECT_EQ(joined, U"ababcdefghijcd");
}

// One unit a code point (UTF-8), as units() above.
float code_points(const std::string& s) {
    float n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1.f : 0.f;
    return n;
}

TEST(ElideText, TextThatFitsIsKeptWhole) {
    EXPECT_EQ(elide_text("waiting", 7, code_points), "waiting");
    EXPECT_EQ(elide_text("", 0, code_points), "");
}

TEST(ElideText, LongTextEndsInAnEllipsisWithinTheWidth) {
    EXPECT_EQ(elide_text("Friday night table", 10, code_points), "Friday ni…");
    // A space before the cut is dropped, not left before the ellipsis.
    EXPECT_EQ(elide_text("Friday night table", 8, code_points), "Friday…");
    for (float w = 1; w < 18; ++w) EXPECT_LE(code_points(elide_text("Friday night table", w, code_points)), w);
}

TEST(ElideText, ChineseIsCutBetweenWholeCharacters) {
    const std::string cut = elide_text("大卫的棋桌，欢迎观战", 4, code_points);
    EXPECT_EQ(cut, "大卫的…");
    EXPECT_EQ(elide_text("大卫的棋桌", 0.5f, code_points), "…");  // not even the ellipsis fits: it alone
}

}  // namespace
}  // namespace xq::client
