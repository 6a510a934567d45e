// Nickname policy: the spoofing probes of issue #15 are refused, look-alikes share a key,
// the server's own names are kept, and ordinary names in many scripts pass unchanged.
#include "server/identity/name_policy.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/limits.h"

namespace xq::server {
namespace {

class NamePolicyTest : public ::testing::Test {
protected:
    NamePolicy policy{{"Pikafish 2024"}};

    NameRefusal why(const std::string& name) const { return policy.check(name).refusal; }
    bool same(const std::string& a, const std::string& b) const {
        const NameCheck ca = policy.check(a);
        const NameCheck cb = policy.check(b);
        EXPECT_TRUE(ca.ok()) << a << ": " << ca.error;
        EXPECT_TRUE(cb.ok()) << b << ": " << cb.error;
        return ca.key.same(cb.key);
    }
};

TEST_F(NamePolicyTest, OrdinaryNamesPassAsSent) {
    for (const std::string name : {"alice", "Bob Smith", "小明", "王小二", "José", "Ωμέγα", "Зоя", "たなか", "김민수",
                                    "player_42", "d'Artagnan", "नमस्ते", "محمد", "x"}) {
        const NameCheck c = policy.check(name);
        EXPECT_TRUE(c.ok()) << name << ": " << c.error;
        EXPECT_EQ(c.name, name);
    }
}

TEST_F(NamePolicyTest, NamesAreNormalizedToNfc) {
    // "José" with a combining acute accent becomes the precomposed é.
    const NameCheck c = policy.check("Jose\u0301");
    ASSERT_TRUE(c.ok()) << c.error;
    EXPECT_EQ(c.name, "Jos\u00e9");
    EXPECT_TRUE(c.key.same(policy.check("Jos\u00e9").key));
}

TEST_F(NamePolicyTest, BidiControlsAreRefused) {
    for (const std::string name : {"\u202emallory", "ab\u202ecd", "\u2066alice\u2069", "bob\u200f", "\u200ebob",
                                   "a\u061cb"})
        EXPECT_EQ(why(name), NameRefusal::Invisible) << name;
}

TEST_F(NamePolicyTest, ZeroWidthAndFormatCharactersAreRefused) {
    for (const std::string name : {"mal\u200blory", "mallory\u200d", "\ufeffalice", "al\u200cice", "al\u00adice",
                                   "al\u2060ice", "a\u034fb", "a\ufe0fb"})
        EXPECT_EQ(why(name), NameRefusal::Invisible) << name;
}

TEST_F(NamePolicyTest, NamesWithNothingVisibleAreRefused) {
    EXPECT_EQ(why("\u200b"), NameRefusal::Invisible);
    EXPECT_EQ(why("\u200b\u200b\u200b"), NameRefusal::Invisible);
    EXPECT_EQ(why("\u3164"), NameRefusal::Invisible);           // Hangul filler
    EXPECT_EQ(why("\u3164\u3164\u3164"), NameRefusal::Invisible);
    EXPECT_EQ(why("\u2800"), NameRefusal::Invisible);           // braille blank
    EXPECT_EQ(why("\u3000"), NameRefusal::Spacing);             // ideographic space
    EXPECT_EQ(why("\u3000\u3000"), NameRefusal::Spacing);
    EXPECT_EQ(why("\u00a0"), NameRefusal::Spacing);             // NBSP
    EXPECT_EQ(why("\u00a0\u00a0\u00a0"), NameRefusal::Spacing);
    EXPECT_EQ(why(" "), NameRefusal::Spacing);
    EXPECT_EQ(why("\u0301"), NameRefusal::Marks);               // a lone combining mark
    EXPECT_EQ(why("\u0301\u0302\u0303"), NameRefusal::Marks);
    EXPECT_EQ(why("\u20dd"), NameRefusal::Marks);               // enclosing mark
}

TEST_F(NamePolicyTest, SpacingRules) {
    EXPECT_EQ(why(" alice"), NameRefusal::Spacing);
    EXPECT_EQ(why("alice "), NameRefusal::Spacing);
    EXPECT_EQ(why("al  ice"), NameRefusal::Spacing);
    EXPECT_EQ(why("al\u00a0ice"), NameRefusal::Spacing);
    EXPECT_EQ(why("al\u3000ice"), NameRefusal::Spacing);
    EXPECT_EQ(why("al\u2003ice"), NameRefusal::Spacing);
    EXPECT_TRUE(policy.check("al ice").ok());
}

TEST_F(NamePolicyTest, ControlsAndSeparatorsAreRefused) {
    for (const std::string& name : {std::string("a\tb"), std::string("a\nb"), std::string("a\x7f"), std::string("a\u0085b"),
                                   std::string("a\u2028b"), std::string("a\u2029b"), std::string("a\0b", 3)})
        EXPECT_EQ(why(name), NameRefusal::Control) << name;
}

TEST_F(NamePolicyTest, MarkStacksAndOddCodePointsAreRefused) {
    EXPECT_EQ(why("a\u0301\u0302\u0303\u0304\u0305\u0306"), NameRefusal::Marks);
    EXPECT_EQ(why("a \u0301"), NameRefusal::Marks);
    EXPECT_TRUE(policy.check("a\u0323\u0302").ok());             // Vietnamese-style stack of two
    EXPECT_EQ(why("a\u0301\u0301"), NameRefusal::Invisible);     // the same mark twice shows once
    EXPECT_EQ(why("a\ue000"), NameRefusal::Unassigned);          // private use
    EXPECT_EQ(why("a\U000e0041"), NameRefusal::Invisible);       // tag character
    EXPECT_EQ(why("a\U0010ffff"), NameRefusal::Unassigned);
}

TEST_F(NamePolicyTest, LengthBadUtf8AndEmpty) {
    EXPECT_EQ(why(""), NameRefusal::Empty);
    EXPECT_EQ(why("\xff\xfe"), NameRefusal::BadUtf8);
    EXPECT_EQ(why("\xc0\xaf"), NameRefusal::BadUtf8);
    EXPECT_TRUE(policy.check(std::string(proto::MAX_NAME_CODE_POINTS, 'x')).ok());
    EXPECT_EQ(why(std::string(proto::MAX_NAME_CODE_POINTS + 1, 'x')), NameRefusal::TooLong);
    std::string four_byte;
    for (std::size_t i = 0; i < proto::MAX_NAME_CODE_POINTS; ++i) four_byte += "\U00020000";
    EXPECT_TRUE(policy.check(four_byte).ok());
    EXPECT_EQ(why(four_byte + "\U00020000"), NameRefusal::TooLong);
    EXPECT_EQ(why(std::string(16 * 1024, 'x')), NameRefusal::TooLong);
}

TEST_F(NamePolicyTest, MixedConfusableScriptsAreRefused) {
    EXPECT_EQ(why("p\u0430ypal"), NameRefusal::MixedScripts);  // Cyrillic a among Latin
    EXPECT_EQ(why("\u03bfmega"), NameRefusal::MixedScripts);   // Greek omicron
    EXPECT_EQ(why("a1\u0661"), NameRefusal::MixedScripts);     // Latin digit with Arabic-Indic digit
    EXPECT_TRUE(policy.check("alice小明").ok());               // Latin with Han is fine
}

TEST_F(NamePolicyTest, CaseAndLookAlikesAreOneName) {
    EXPECT_TRUE(same("Alice", "alice"));
    EXPECT_TRUE(same("ALICE", "alice"));
    EXPECT_TRUE(same("AIice", "alice"));             // capital I for small l
    EXPECT_TRUE(same("b0b", "bob"));                 // digit zero for o
    EXPECT_TRUE(same("rnallory", "mallory"));        // rn for m
    EXPECT_TRUE(same("\u0430\u0441\u0435", "ace"));  // all-Cyrillic look-alike of Latin
    EXPECT_TRUE(same("Mallory", "mallory"));
    EXPECT_TRUE(same("ｍａｌｌｏｒｙ", "mallory"));  // fullwidth
    EXPECT_FALSE(same("alice", "alicia"));
    EXPECT_FALSE(same("bob", "rob"));
    EXPECT_FALSE(same("小明", "小红"));
}

TEST_F(NamePolicyTest, BanKeysSeeThroughTheIssueProbes) {
    const NameKey banned = policy.key("mallory");
    ASSERT_FALSE(banned.empty());
    for (const std::string probe : {"Mallory", "MALLORY", "mal\u200blory", "mallory\u200d", "\u202emallory", "rnallory",
                                    "\ufeffmallory", "ｍａｌｌｏｒｙ"})
        EXPECT_TRUE(policy.key(probe).same(banned)) << probe;
    // A ban typed with an invisible character bans the visible name.
    EXPECT_TRUE(policy.key("mal\u200blory").same(policy.check("Mallory").key));
    EXPECT_FALSE(policy.key("malory").same(banned));
    EXPECT_TRUE(policy.key("\u200b").empty());
    EXPECT_TRUE(policy.key("\xff").empty());
}

TEST_F(NamePolicyTest, ReservedNamesAreRefused) {
    for (const std::string name : {"server", "Server", "[server]", "SERVER!", "s e r v e r", "operator",
                                   "Operator", "system", "<system>", "admin", "Administrator", "AI", "AI level 3",
                                   "ai-level-10", "AI Level", "pikafish 2024", "Pikafish-2024", "xiangqi", "sуstem"})
        EXPECT_FALSE(policy.check(name).ok()) << name;
    EXPECT_EQ(why("[server]"), NameRefusal::Reserved);
    EXPECT_EQ(why("AI level 3"), NameRefusal::Reserved);
    for (const std::string name : {"servant", "aiden", "Kai", "systematic", "operatorx", "pikafish"})
        EXPECT_TRUE(policy.check(name).ok()) << name;
}

TEST_F(NamePolicyTest, RefusalsNeverEchoTheName) {
    const std::string probe = "\u202eREVO_DEVIL";
    const NameCheck c = policy.check(probe);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.error.find("REVO"), std::string::npos);
}

}  // namespace
}  // namespace xq::server
