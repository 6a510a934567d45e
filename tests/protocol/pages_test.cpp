// `tables` and `users` pages: every line within MAX_LINE_BYTES for the longest names in
// 4-byte characters, nothing lost or reordered, `more` on every page but the last.
#include "protocol/pages.h"

#include <gtest/gtest.h>

#include <string>

#include "protocol/codec.h"

namespace xq::proto {
namespace {

std::string four_byte(std::size_t n, char32_t base) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        const char32_t c = base + static_cast<char32_t>(i % 64);
        s += static_cast<char>(0xF0 | (c >> 18));
        s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (c & 0x3F));
    }
    return s;
}

TableInfo widest_table(TableId id) {
    TableInfo t;
    t.id = id;
    t.name = four_byte(MAX_TABLE_NAME_CODE_POINTS, U'\U00020000');
    t.creator = four_byte(MAX_NAME_CODE_POINTS, U'\U00020100');
    t.red = SeatInfo{four_byte(MAX_NAME_CODE_POINTS, U'\U00020200'), 0, false, "", std::int64_t(1) << 39, false, 0};
    t.black = SeatInfo{four_byte(MAX_NAME_CODE_POINTS, U'\U00020300'), AI_LEVEL_MAX, true, "", std::nullopt, true,
                       AI_LEVEL_MAX};
    t.spectators = 1 << 20;
    t.status = TableStatus::Playing;
    t.ply = 1 << 20;
    t.settings = TableSettings{"asian:3600/3600/3600", MAX_GRACE_S, AbandonPolicy::Claim, AI_LEVEL_MAX, true};
    return t;
}

template <class Page>
void check_pages(const std::vector<Page>& pages, std::size_t expected_items, auto list_of) {
    ASSERT_FALSE(pages.empty());
    std::size_t items = 0;
    for (std::size_t i = 0; i < pages.size(); ++i) {
        const std::string line = encode(ServerMessage{pages[i]});
        EXPECT_LE(line.size(), MAX_LINE_BYTES) << "page " << i;
        EXPECT_EQ(pages[i].more, i + 1 < pages.size()) << "page " << i;
        const auto d = decode_server(line);
        ASSERT_TRUE(d.ok()) << d.error().message;
        EXPECT_EQ(encode(d.value()), line);
        items += list_of(pages[i]).size();
        if (i + 1 < pages.size()) {
            EXPECT_FALSE(list_of(pages[i]).empty());
        }
    }
    EXPECT_EQ(items, expected_items);
}

TEST(Pages, WidestTablesStayWithinTheLineLimit) {
    std::vector<TableInfo> tables;
    for (TableId id = 1; id <= 500; ++id) tables.push_back(widest_table(id));
    // One page of them alone would be far over the limit (the bug of issue #15).
    EXPECT_GT(encode(ServerMessage{Tables{{tables.begin(), tables.begin() + 32}, false}}).size(), MAX_LINE_BYTES);
    const auto pages = table_pages(tables);
    check_pages(pages, tables.size(), [](const Tables& p) -> const auto& { return p.tables; });
    TableId next = 1;
    for (const auto& p : pages)
        for (const auto& t : p.tables) EXPECT_EQ(t.id, next++);
}

TEST(Pages, LongestUserNamesStayWithinTheLineLimit) {
    std::vector<UserInfo> users;
    for (std::uint32_t i = 0; i < 3000; ++i) users.push_back(UserInfo{four_byte(MAX_NAME_CODE_POINTS, U'\U00020000' + i), 4'000'000'000u});
    EXPECT_GT(encode(ServerMessage{Users{{users.begin(), users.begin() + 170}, false}}).size(), MAX_LINE_BYTES);
    const auto pages = user_pages(users);
    check_pages(pages, users.size(), [](const Users& p) -> const auto& { return p.users; });
    EXPECT_EQ(pages.front().users.front().name, users.front().name);
    EXPECT_EQ(pages.back().users.back().name, users.back().name);
}

TEST(Pages, ShortListsAreOnePageAndCountsAreKept) {
    const auto none = table_pages({});
    ASSERT_EQ(none.size(), 1u);
    EXPECT_TRUE(none[0].tables.empty());
    EXPECT_FALSE(none[0].more);
    std::vector<UserInfo> small(USERS_PER_LINE + 1, UserInfo{"al", 0});
    const auto pages = user_pages(small);
    ASSERT_EQ(pages.size(), 2u);
    EXPECT_EQ(pages[0].users.size(), USERS_PER_LINE);
    EXPECT_TRUE(pages[0].more);
    EXPECT_EQ(pages[1].users.size(), 1u);
}

}  // namespace
}  // namespace xq::proto
