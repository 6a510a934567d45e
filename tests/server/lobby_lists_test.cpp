// The lobby's lists a page at a time over real sockets (PROTOCOL.md, Lobby lists): the first
// page after welcome, any page on request in the documented order with its offset and total,
// and bad offsets and limits refused with bad_field and nothing else sent.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "harness.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

std::string numbered(char prefix, int i) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%c%03d", prefix, i);
    return buf;
}

// One page as the client sees it: its lines read until one without `more`; every line's
// offset follows on from the lines before and all carry the same total.
template <class Item>
struct Page {
    std::vector<Item> items;
    int offset = -1;
    int total = -1;
    int lines = 0;
};

template <class Line, class Item>
Page<Item> read_page(Client& c, std::vector<Item> Line::*list) {
    Page<Item> p;
    for (bool more = true; more;) {
        const Line line = c.expect<Line>();
        if (p.offset < 0) p.offset = line.offset;
        EXPECT_EQ(line.offset, p.offset + static_cast<int>(p.items.size())) << "line " << p.lines;
        if (p.total >= 0) {
            EXPECT_EQ(line.total, p.total) << "line " << p.lines;
        }
        p.total = line.total;
        p.items.insert(p.items.end(), (line.*list).begin(), (line.*list).end());
        more = line.more;
        ++p.lines;
        if (::testing::Test::HasFailure()) break;
    }
    return p;
}

Page<proto::TableInfo> tables_page(Client& c) { return read_page(c, &proto::Tables::tables); }
Page<proto::UserInfo> users_page(Client& c) { return read_page(c, &proto::Users::users); }

std::vector<proto::TableId> ids(const Page<proto::TableInfo>& p) {
    std::vector<proto::TableId> out;
    for (const auto& t : p.items) out.push_back(t.id);
    return out;
}

std::vector<std::string> names(const Page<proto::UserInfo>& p) {
    std::vector<std::string> out;
    for (const auto& u : p.items) out.push_back(u.name);
    return out;
}

// 110 tables (1-20 playing, 21-110 waiting), 130 players at them, 20 users in the lobby.
struct Lobby {
    explicit Lobby(std::uint16_t port) {
        for (int i = 0; i < 110; ++i) {
            auto c = Client::login(port, numbered('t', i));
            c->send(proto::CreateTable{"", proto::Role::Red});
            EXPECT_EQ(c->expect<proto::TableSnapshot>().table.id, proto::TableId(i + 1));
            clients.push_back(std::move(c));
        }
        for (int i = 0; i < 20; ++i) {
            auto c = Client::login(port, numbered('j', i));
            c->send(proto::Join{proto::TableId(i + 1), proto::Role::Black});
            c->expect<proto::TableSnapshot>();
            clients.push_back(std::move(c));
        }
        for (int i = 0; i < 20; ++i) clients.push_back(Client::login(port, numbered('a', i)));
    }
    std::vector<std::unique_ptr<Client>> clients;
};

std::vector<proto::TableId> id_range(proto::TableId from, proto::TableId to) {
    std::vector<proto::TableId> out;
    for (proto::TableId id = from; id <= to; ++id) out.push_back(id);
    return out;
}

TEST(LobbyLists, AWelcomeGetsTheFirstPagesAndAnyPageComesOnRequest) {
    TestServer s;
    Lobby lobby(s.port());
    Client zed(s.port());
    zed.send(proto::Hello{"zed", proto::PROTOCOL_VERSION, ""});
    zed.expect<proto::Welcome>();

    // Tables: at most 100 after the welcome, waiting ones first, each group by id.
    const auto first = tables_page(zed);
    EXPECT_EQ(first.offset, 0);
    EXPECT_EQ(first.total, 110);
    EXPECT_EQ(first.lines, 3);  // 40 tables per line
    std::vector<proto::TableId> expected = id_range(21, 110);
    for (const auto id : id_range(1, 10)) expected.push_back(id);
    EXPECT_EQ(ids(first), expected);
    for (std::size_t i = 0; i < first.items.size(); ++i)
        EXPECT_EQ(first.items[i].status, i < 90 ? proto::TableStatus::Waiting : proto::TableStatus::Playing) << i;

    // Users: the lobby's first (the 20 idle users and zed), then those at tables; by name.
    const auto users = users_page(zed);
    EXPECT_EQ(users.offset, 0);
    EXPECT_EQ(users.total, 151);
    std::vector<std::string> expected_names;
    for (int i = 0; i < 20; ++i) expected_names.push_back(numbered('a', i));
    expected_names.push_back("zed");
    for (int i = 0; i < 20; ++i) expected_names.push_back(numbered('j', i));
    for (int i = 0; i < 110; ++i) expected_names.push_back(numbered('t', i));
    EXPECT_EQ(names(users), expected_names);
    for (std::size_t i = 0; i < users.items.size(); ++i) EXPECT_EQ(users.items[i].table == 0, i < 21) << i;

    // The rest of the tables, then a page from the middle crossing into the playing ones.
    zed.send(proto::ListTables{100, 0});
    const auto rest = tables_page(zed);
    EXPECT_EQ(rest.offset, 100);
    EXPECT_EQ(rest.total, 110);
    EXPECT_EQ(ids(rest), id_range(11, 20));
    zed.send(proto::ListTables{88, 4});
    EXPECT_EQ(ids(tables_page(zed)), (std::vector<proto::TableId>{109, 110, 1, 2}));

    // Users from an offset, a limit, and past the end.
    zed.send(proto::ListUsers{40, 2});
    auto two = users_page(zed);
    EXPECT_EQ(two.offset, 40);
    EXPECT_EQ(two.total, 151);
    EXPECT_EQ(names(two), (std::vector<std::string>{"j019", "t000"}));
    EXPECT_EQ(two.items[1].table, proto::TableId(1));
    zed.send(proto::ListUsers{150, 0});
    EXPECT_EQ(names(users_page(zed)), std::vector<std::string>{"t109"});
    zed.send(proto::ListUsers{500, 0});
    const auto past = users_page(zed);
    EXPECT_TRUE(past.items.empty());
    EXPECT_EQ(past.offset, 500);
    EXPECT_EQ(past.total, 151);

    // The lists follow the lobby: one leaves, one sits down.
    lobby.clients[130].reset();  // a000 disconnects
    EXPECT_EQ(zed.expect<proto::UserLeft>().name, "a000");
    lobby.clients[131]->send(proto::Join{proto::TableId(50), proto::Role::Black});  // a001
    lobby.clients[131]->expect<proto::TableSnapshot>();
    zed.send(proto::ListUsers{0, 3});
    const auto now = users_page(zed);
    EXPECT_EQ(now.total, 150);
    EXPECT_EQ(names(now), (std::vector<std::string>{"a002", "a003", "a004"}));
    zed.send(proto::ListUsers{18, 3});  // the lobby's last (zed), then a001 among the seated
    EXPECT_EQ(names(users_page(zed)), (std::vector<std::string>{"zed", "a001", "j000"}));
    zed.send(proto::ListTables{0, 1});
    const auto fuller = tables_page(zed);
    EXPECT_EQ(ids(fuller), std::vector<proto::TableId>{21});
    zed.send(proto::ListTables{89, 1});  // table 50 now plays: the waiting ones end at 88
    EXPECT_EQ(ids(tables_page(zed)), std::vector<proto::TableId>{1});
}

// Bad offsets and limits: bad_field naming the request, no page, the connection usable.
TEST(LobbyLists, BadOffsetsAndLimitsAreRefusedAndSendNothing) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    const std::vector<std::pair<std::string, std::string>> bad = {
        {R"({"type":"list_users","offset":-1})", "list_users"},
        {R"({"type":"list_users","limit":201})", "list_users"},
        {R"({"type":"list_users","offset":1000001})", "list_users"},
        {R"({"type":"list_users","offset":"3"})", "list_users"},
        {R"({"type":"list_tables","limit":101})", "list_tables"},
        {R"({"type":"list_tables","limit":2.5})", "list_tables"},
        {R"({"type":"list_tables","offset":-7,"limit":5})", "list_tables"},
    };
    for (const auto& [line, request] : bad) {
        alice->raw(line + "\n");
        const auto e = alice->expect_error(ErrorCode::BadField);
        EXPECT_EQ(e.request, request) << line;
        const auto after = alice->until_pong();
        EXPECT_EQ(count_of<proto::Users>(after) + count_of<proto::Tables>(after), 0) << line;
    }
    alice->send(proto::ListUsers{0, 200});
    const auto page = users_page(*alice);
    EXPECT_EQ(names(page), std::vector<std::string>{"alice"});
    EXPECT_EQ(page.total, 1);
}

}  // namespace
}  // namespace xq::test
