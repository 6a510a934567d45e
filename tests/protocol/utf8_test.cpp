#include <gtest/gtest.h>

#include "protocol/utf8.h"

namespace xq::proto {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
    EXPECT_TRUE(valid_utf8(""));
    EXPECT_TRUE(valid_utf8("hello"));
    EXPECT_TRUE(valid_utf8("炮二平五"));
    EXPECT_TRUE(valid_utf8("\xF0\x9F\x98\x80"));  // U+1F600
    EXPECT_TRUE(valid_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
}

TEST(Utf8, RejectsMalformedText) {
    EXPECT_FALSE(valid_utf8("\xC0\xAF"));          // overlong '/'
    EXPECT_FALSE(valid_utf8("\xE0\x80\xAF"));      // overlong
    EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));      // surrogate U+D800
    EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));  // above U+10FFFF
    EXPECT_FALSE(valid_utf8("\x80"));              // lone continuation
    EXPECT_FALSE(valid_utf8("\xE7\x82"));          // truncated 炮
    EXPECT_FALSE(valid_utf8("ab\xFF"));
}

TEST(Utf8, CountsAndCutsByCodePoint) {
    const std::string s = "a炮b\xF0\x9F\x98\x80";
    EXPECT_EQ(count_code_points(s), 4u);
    EXPECT_EQ(cut_code_points(s, 2), "a炮");
    EXPECT_EQ(cut_code_points(s, 3), "a炮b");
    EXPECT_EQ(cut_code_points(s, 4), s);
    EXPECT_EQ(cut_code_points(s, 10), s);
    EXPECT_EQ(cut_code_points(s, 0), "");
    // Cutting never leaves a partial character.
    for (std::size_t n = 0; n <= 4; ++n) EXPECT_TRUE(valid_utf8(cut_code_points(s, n)));
}

TEST(Utf8, FindsControlCharacters) {
    EXPECT_FALSE(has_control_chars("plain 文字"));
    EXPECT_TRUE(has_control_chars("a\nb"));
    EXPECT_TRUE(has_control_chars("tab\t"));
    EXPECT_TRUE(has_control_chars("del\x7F"));
    EXPECT_TRUE(has_control_chars("c1\xC2\x85"));  // NEL
}

TEST(Utf8, EncodesEachLengthAsTheStandardSays) {
    // RFC 3629's examples: $ (1 byte), cent (2), euro (3), Gothic hwair (4).
    std::string s;
    append_utf8(s, U'$');
    append_utf8(s, U'\u00A2');
    append_utf8(s, U'\u20AC');
    append_utf8(s, U'\U00010348');
    EXPECT_EQ(s, "\x24\xC2\xA2\xE2\x82\xAC\xF0\x90\x8D\x88");
    EXPECT_TRUE(valid_utf8(s));
    EXPECT_EQ(count_code_points(s), 4u);
    const std::string run = utf8_run(100, U'\U00020000', 64);
    EXPECT_EQ(run.size(), 400u);
    EXPECT_EQ(count_code_points(run), 100u);
    EXPECT_EQ(run.substr(0, 4), run.substr(256, 4));  // the 65th repeats the first
    EXPECT_NE(utf8_run(2, U'\U00020000').substr(0, 4), utf8_run(2, U'\U00020000').substr(4, 4));
}

}  // namespace
}  // namespace xq::proto
