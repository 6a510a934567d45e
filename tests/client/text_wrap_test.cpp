// Line breaking for the board's toast: every character one unit wide, so lines are easy to
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

}  // namespace
}  // namespace xq::client
