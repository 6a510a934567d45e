// `tables` and `users` pages: every line within MAX_LINE_BYTES for the longest names in
// 4-byte characters, nothing lost or reordered, `more` on every line but the last, and each
// line's `offset` (its first item's place in the list) and `total`.
#include "protocol/utf8.h"
#include "protocol/pages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "protocol/codec.h"

namespace xq::proto {
namespace {

TableInfo widest_table(TableId id) {
    TableInfo t;
    t.id = id;
    t.name = utf8_run(MAX_TABLE_NAME_CODE_POINTS, U'\U00020000', 64);
    t.creator = utf8_run(MAX_NAME_CODE_POINTS, U'\U00020100', 64);
    t.red = SeatInfo{utf8_run(MAX_NAME_CODE_POINTS, U'\U00020200', 64), 0, false, "", std::int64_t(1) << 39, false, 0};
    t.black = SeatInfo{utf8_run(MAX_NAME_CODE_POINTS, U'\U00020300', 64), AI_LEVEL_MAX, true, "", std::nullopt, true,
                       AI_LEVEL_MAX};
    t.spectators = 1 << 20;
    t.status = TableStatus::Playing;
    t.ply = 1 << 20;
    t.settings = TableSettings{"asian:3600/3600/3600", MAX_GRACE_S, AbandonPolicy::Claim, AI_LEVEL_MAX, true};
    return t;
}

template <class Page>
void check_pages(const std::vector<Page>& pages, std::size_t expected_items, auto list_of, int offset = 0,
                 int total = -1) {
    ASSERT_FALSE(pages.empty());
    if (total < 0) total = offset + static_cast<int>(expected_items);
    std::size_t items = 0;
    for (std::size_t i = 0; i < pages.size(); ++i) {
        const std::string line = encode(ServerMessage{pages[i]});
        EXPECT_LE(line.size(), MAX_LINE_BYTES) << "page " << i;
        EXPECT_EQ(pages[i].more, i + 1 < pages.size()) << "page " << i;
        EXPECT_EQ(pages[i].offset, offset + static_cast<int>(items)) << "page " << i;
        EXPECT_EQ(pages[i].total, total) << "page " << i;
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
    for (std::uint32_t i = 0; i < 3000; ++i) users.push_back(UserInfo{utf8_run(MAX_NAME_CODE_POINTS, U'\U00020000' + i, 64), 4'000'000'000u});
    EXPECT_GT(encode(ServerMessage{Users{{users.begin(), users.begin() + 170}, false}}).size(), MAX_LINE_BYTES);
    const auto pages = user_pages(users);
    check_pages(pages, users.size(), [](const Users& p) -> const auto& { return p.users; });
    EXPECT_EQ(pages.front().users.front().name, users.front().name);
    EXPECT_EQ(pages.back().users.back().name, users.back().name);
}

// A page from the middle of a list: the longest lines still fit with the widest offset and
// total in them, and each line names where it starts.
TEST(Pages, PagesFromAnOffsetNameTheirPlaceAndTheTotal) {
    std::vector<TableInfo> tables;
    for (TableId id = 1; id <= 100; ++id) tables.push_back(widest_table(id));
    const auto pages = table_pages(tables, MAX_LIST_OFFSET, 1 << 30);
    ASSERT_GT(pages.size(), 3u);
    check_pages(pages, tables.size(), [](const Tables& p) -> const auto& { return p.tables; }, MAX_LIST_OFFSET, 1 << 30);
    std::vector<UserInfo> users;
    for (std::uint32_t i = 0; i < 200; ++i) users.push_back(UserInfo{utf8_run(MAX_NAME_CODE_POINTS, U'\U00020000' + i, 64), 4'000'000'000u, MAX_RATING});
    const auto user_lines = user_pages(users, 400, 10312);
    ASSERT_EQ(user_lines.size(), 2u);
    check_pages(user_lines, users.size(), [](const Users& p) -> const auto& { return p.users; }, 400, 10312);
    const auto none = user_pages({}, 5000, 12);  // past the end: one empty line
    ASSERT_EQ(none.size(), 1u);
    EXPECT_TRUE(none[0].users.empty());
    EXPECT_EQ(none[0].offset, 5000);
    EXPECT_EQ(none[0].total, 12);
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

// The kept lines equal the pages encoded afresh, through every kind of change.
template <class Cache, class Item>
void expect_same_as_fresh(Cache& cache, const std::vector<Item>& items, auto fresh_pages, int total = -1) {
    const auto& lines = cache.lines(items, 0, total);
    const auto pages = fresh_pages(items, total);
    ASSERT_EQ(lines.size(), pages.size());
    for (std::size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(*lines[i], encode_line(ServerMessage{pages[i]})) << "page " << i;
}

TEST(Pages, KeptTableLinesFollowEveryChange) {
    TablePageLines cache;
    const auto fresh = [](const std::vector<TableInfo>& t, int total) { return table_pages(t, 0, total); };
    std::vector<TableInfo> tables;
    expect_same_as_fresh(cache, tables, fresh);
    for (TableId id = 1; id <= 90; ++id) {
        TableInfo t = id % 7 == 0 ? widest_table(id) : TableInfo{};
        t.id = id;
        if (id % 7 != 0) t.name = "table " + std::to_string(id);
        tables.push_back(t);
    }
    expect_same_as_fresh(cache, tables, fresh);
    const auto before = cache.lines(tables);
    EXPECT_EQ(cache.lines(tables), before) << "the same list gives the very same lines";
    tables[3].ply = 17;  // a move
    tables[40].black = SeatInfo{"carol", 0, true, "", std::int64_t(1500), false, 0};
    expect_same_as_fresh(cache, tables, fresh);
    EXPECT_NE(*cache.lines(tables)[0], *before[0]);
    tables[40].black->rating = 1712;  // every field counts: a seat's rating, a table's settings
    expect_same_as_fresh(cache, tables, fresh);
    tables[41].settings.rated = true;
    expect_same_as_fresh(cache, tables, fresh);
    tables.erase(tables.begin() + 10);  // a table removed
    expect_same_as_fresh(cache, tables, fresh);
    tables.push_back(widest_table(500));  // one added
    std::swap(tables[0], tables[1]);      // and a different order
    expect_same_as_fresh(cache, tables, fresh);
    tables.resize(2);
    expect_same_as_fresh(cache, tables, fresh);
    // The same items as the first page of a longer list: the lines name the new total.
    const std::string two = *cache.lines(tables)[0];
    expect_same_as_fresh(cache, tables, fresh, 2500);
    EXPECT_NE(*cache.lines(tables, 0, 2500)[0], two);
    EXPECT_NE(cache.lines(tables, 0, 2500)[0]->find(R"("total":2500)"), std::string::npos);
}

TEST(Pages, KeptUserLinesFollowEveryChange) {
    UserPageLines cache;
    const auto fresh = [](const std::vector<UserInfo>& u, int total) { return user_pages(u, 0, total); };
    std::vector<UserInfo> users;
    for (std::uint32_t i = 0; i < 900; ++i)
        users.push_back(UserInfo{i % 3 ? "user" + std::to_string(i) : utf8_run(MAX_NAME_CODE_POINTS, U'\U00020000' + i, 64), i % 5});
    expect_same_as_fresh(cache, users, fresh);
    users[5].table = 99;  // sat down
    users.erase(users.begin() + 300);
    users.push_back(UserInfo{"late", 0});
    expect_same_as_fresh(cache, users, fresh);
    users[7].rating = 1500;  // a rating shown, then moved by a rated game
    expect_same_as_fresh(cache, users, fresh);
    users[7].rating = 1523;
    expect_same_as_fresh(cache, users, fresh);
    // A repeated name (the lobby never lists one twice) still gives the fresh lines, twice over.
    users.push_back(users.front());
    expect_same_as_fresh(cache, users, fresh);
    users.back().table = 3;
    expect_same_as_fresh(cache, users, fresh);
    users.resize(USERS_PER_PAGE);
    expect_same_as_fresh(cache, users, fresh, 10000);  // the first page of 10,000 users
    users[0].table = 0;
    expect_same_as_fresh(cache, users, fresh, 9999);
    users.clear();
    expect_same_as_fresh(cache, users, fresh);
}

std::string numbered(std::string s, std::uint32_t i) {
    s += std::to_string(i);
    return s;
}

// The lobby lists users in its hash map's order: a login may come first, a rehash reorders all.
TEST(Pages, KeptUserLinesFollowPrependsRemovalsAndNewOrders) {
    UserPageLines cache;
    const auto fresh = [](const std::vector<UserInfo>& u, int total) { return user_pages(u, 0, total); };
    std::vector<UserInfo> users;
    for (std::uint32_t i = 0; i < 700; ++i) users.push_back(UserInfo{numbered("u", i), i % 4});
    expect_same_as_fresh(cache, users, fresh);
    for (int k = 0; k < 3; ++k) {
        users.insert(users.begin(), UserInfo{numbered("first", static_cast<std::uint32_t>(k)), 0});  // a login at the front
        expect_same_as_fresh(cache, users, fresh);
    }
    users.insert(users.begin() + 350, UserInfo{"middle", 2});
    users.erase(users.begin() + 100, users.begin() + 103);  // three left in a row
    users[200].table = 7;                                    // and one sat down
    expect_same_as_fresh(cache, users, fresh);
    std::mt19937 rng(17);
    std::shuffle(users.begin(), users.end(), rng);  // a new order altogether
    users[0].rating = 1999;
    users.push_back(UserInfo{"last", 0});
    expect_same_as_fresh(cache, users, fresh);
    users.insert(users.begin() + 5, users[9]);  // a name twice, the second time out of place
    users[5].table = 4;
    expect_same_as_fresh(cache, users, fresh);
    std::reverse(users.begin(), users.end());
    expect_same_as_fresh(cache, users, fresh);
}

}  // namespace
}  // namespace xq::proto
