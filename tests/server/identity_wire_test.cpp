// Identity over the wire (issue #15): spoofing names refused at hello, look-alikes taken,
// and every line of a worst-case lobby (4-byte names everywhere) within MAX_LINE_BYTES.
#include <gtest/gtest.h>

#include <string>

#include "harness.h"
#include "protocol/utf8.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

ErrorCode hello_refusal(std::uint16_t port, const std::string& name) {
    Client c(port);
    c.send(proto::Hello{name, proto::PROTOCOL_VERSION, ""});
    const auto m = c.next();
    EXPECT_TRUE(m && std::holds_alternative<proto::Error>(*m)) << name;
    EXPECT_TRUE(c.wait_closed()) << name;
    return m && std::holds_alternative<proto::Error>(*m) ? std::get<proto::Error>(*m).code : ErrorCode::Internal;
}

TEST(IdentityWire, SpoofingNamesAreRefusedAtHello) {
    TestServer s;
    for (const std::string name : {"\u202emallory", "\u2066alice", "bob\u200f", "mal\u200blory", "mallory\u200d",
                                   "\ufeffalice", "\u200b", "\u3000", "\u00a0", "\u3164", "\u0301\u0302",
                                   "[server]", "Server", "operator", "SYSTEM", "AI level 3", "p\u0430ypal"})
        EXPECT_EQ(hello_refusal(s.port(), name), ErrorCode::BadName) << name;
    auto mallory = Client::login(s.port(), "Mallory");
    for (const std::string name : {"mallory", "MALLORY", "rnallory", "ｍａｌｌｏｒｙ"})
        EXPECT_EQ(hello_refusal(s.port(), name), ErrorCode::NameTaken) << name;
    // NFC: the decomposed spelling logs in as the composed one.
    auto jose = Client::login(s.port(), "Jose\u0301");
    EXPECT_EQ(jose->welcome.name, "Jos\u00e9");
}

TEST(IdentityWire, InvitationsFindLookAlikeSpellings) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    auto bob = Client::login(s.port(), "Bob");
    alice->send(proto::CreateTable{"t", proto::Role::Red});
    const auto snap = alice->expect<proto::TableSnapshot>();
    alice->send(proto::Invite{snap.table.id, "BOB", proto::Role::Black});
    const auto inv = bob->expect<proto::InviteReceived>();
    EXPECT_EQ(inv.from, "alice");
    bob->send(proto::AnswerInvite{snap.table.id, "ALICE", true});
    EXPECT_EQ(bob->expect<proto::TableSnapshot>().table.id, snap.table.id);
}

TEST(IdentityWire, ErrorRepliesCutEchoedInput) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"t", proto::Role::Red});
    const auto snap = alice->expect<proto::TableSnapshot>();
    alice->send(proto::Invite{snap.table.id, std::string(15000, 'x'), proto::Role::Black});
    const auto e = alice->expect_error(ErrorCode::NoSuchUser);
    EXPECT_LE(proto::count_code_points(e.message), proto::MAX_ERROR_MESSAGE_CODE_POINTS);
    alice->send(proto::AnswerInvite{snap.table.id, std::string(15000, 'y'), true});
    const auto e2 = alice->expect_error(ErrorCode::NoOffer);
    EXPECT_LE(proto::count_code_points(e2.message), proto::MAX_ERROR_MESSAGE_CODE_POINTS);
}

// Past both break points of the issue (32 tables of 40 four-byte characters; 170 users of
// 20): every table with the longest name, every user with the longest name. The client's
// frame reader fails the test on any line over MAX_LINE_BYTES.
TEST(IdentityWire, WorstCaseLobbyLinesStayWithinTheLimit) {
    TestServer s;
    constexpr int TABLES = 100;
    constexpr int USERS = 260;
    std::vector<std::unique_ptr<Client>> users;
    for (int i = 0; i < USERS; ++i) {
        auto c = std::make_unique<Client>(s.port());
        c->send(proto::Hello{proto::utf8_run(proto::MAX_NAME_CODE_POINTS, U'\U00020000' + char32_t(i) * 32),
                             proto::PROTOCOL_VERSION, ""});
        ASSERT_TRUE(c->expect<proto::Welcome>().name.size() == proto::MAX_NAME_CODE_POINTS * 4) << i;
        if (i < TABLES) {
            c->send(proto::CreateTable{proto::utf8_run(proto::MAX_TABLE_NAME_CODE_POINTS, U'\U00024000' + char32_t(i) * 64),
                                       proto::Role::Red});
            c->expect<proto::TableSnapshot>();
        }
        users.push_back(std::move(c));
    }
    Client last(s.port());
    last.send(proto::Hello{"last", proto::PROTOCOL_VERSION, ""});
    last.expect<proto::Welcome>();
    std::size_t tables = 0, users_seen = 0, table_lines = 0, user_lines = 0;
    for (bool more = true; more;) {
        const auto t = last.expect<proto::Tables>();
        EXPECT_EQ(t.total, TABLES);
        tables += t.tables.size();
        more = t.more;
        ++table_lines;
    }
    // The welcome's users are the first page (200 of 261); the rest come on request.
    for (bool more = true; more;) {
        const auto u = last.expect<proto::Users>();
        EXPECT_EQ(u.total, USERS + 1);
        EXPECT_EQ(u.offset, int(users_seen));
        users_seen += u.users.size();
        more = u.more;
        ++user_lines;
    }
    EXPECT_EQ(tables, std::size_t(TABLES));
    EXPECT_EQ(users_seen, proto::USERS_PER_PAGE);
    EXPECT_GT(table_lines, 1u);
    EXPECT_GT(user_lines, 1u);
    last.send(proto::ListUsers{int(users_seen), 0});
    for (bool more = true; more;) {
        const auto u = last.expect<proto::Users>();
        EXPECT_EQ(u.offset, int(users_seen));
        users_seen += u.users.size();
        more = u.more;
    }
    EXPECT_EQ(users_seen, std::size_t(USERS + 1));
    // The same on request.
    last.send(proto::ListTables{});
    std::size_t again = 0;
    for (bool more = true; more;) {
        const auto t = last.expect<proto::Tables>();
        again += t.tables.size();
        more = t.more;
    }
    EXPECT_EQ(again, std::size_t(TABLES));
}

// Issue #15 point 6, PROTOCOL.md and behaviour agreeing: a connection cut for flooding is
// told so before the close and its table hears `dropped`.
TEST(IdentityWire, AFloodCutIsAnnouncedAndTheTableHearsDropped) {
    auto c = test_config();
    c.max_refused_in_row = 5;
    TestServer s(c);
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"t", proto::Role::Red});
    const auto table = alice->expect<proto::TableSnapshot>().table.id;
    auto bob = Client::login(s.port(), "bob");
    bob->send(proto::Join{table, proto::Role::Spectator});
    bob->expect<proto::TableSnapshot>();
    std::string junk;
    for (int i = 0; i < 5; ++i) junk += "not json\n";
    bob->raw(junk);
    std::vector<proto::Error> errors;
    while (auto m = bob->next(3000ms))
        if (const auto* e = std::get_if<proto::Error>(&*m)) errors.push_back(*e);
    EXPECT_TRUE(bob->wait_closed());
    ASSERT_EQ(errors.size(), 6u);  // five bad_json, then the announcement
    EXPECT_EQ(errors.back().code, ErrorCode::RateLimited);
    EXPECT_NE(errors.back().message.find("closes this connection"), std::string::npos) << errors.back().message;
    const auto left = alice->expect<proto::PlayerLeft>();
    EXPECT_EQ(left.name, "bob");
    EXPECT_EQ(left.reason, proto::LeaveReason::Dropped);
}

// A first line over the limit cannot be hello: error line_too_long, then the close
// (PROTOCOL.md, Handshake). After hello the same line is skipped and the connection stays.
TEST(IdentityWire, ATooLongFirstLineClosesTheConnection) {
    TestServer s;
    Client c(s.port());
    c.raw(std::string(proto::MAX_LINE_BYTES + 100, 'x') + "\n");
    c.expect_error(ErrorCode::LineTooLong);
    EXPECT_TRUE(c.wait_closed());
    auto later = Client::login(s.port(), "alice");
    later->raw(std::string(proto::MAX_LINE_BYTES + 100, 'x') + "\n");
    later->expect_error(ErrorCode::LineTooLong);
    later->until_pong();
}

// Duplicate keys (even "type") and a byte order mark are bad_json, as PROTOCOL.md says; as a
// first line they close the connection like any line that is not hello.
TEST(IdentityWire, DuplicateKeysAndAByteOrderMarkAreRefused) {
    TestServer s;
    {
        Client c(s.port());
        c.raw("{\"type\":\"hello\",\"name\":\"eve\",\"version\":1,\"name\":\"server\"}\n");
        EXPECT_NE(c.expect_error(ErrorCode::NotHello).message.find("duplicate key"), std::string::npos);
        EXPECT_TRUE(c.wait_closed());
    }
    {
        Client c(s.port());
        c.raw("\xEF\xBB\xBF{\"type\":\"hello\",\"name\":\"eve\",\"version\":1}\n");
        EXPECT_NE(c.expect_error(ErrorCode::NotHello).message.find("byte order mark"), std::string::npos);
        EXPECT_TRUE(c.wait_closed());
    }
    auto alice = Client::login(s.port(), "alice");
    alice->raw("{\"type\":\"ping\",\"type\":\"list_users\"}\n");
    alice->expect_error(ErrorCode::BadJson);
    alice->raw("{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"a\",\"x\":{\"k\":1,\"k\":2}}\n");
    alice->expect_error(ErrorCode::BadJson);
    alice->raw("\xEF\xBB\xBF{\"type\":\"ping\",\"id\":1}\n");
    alice->expect_error(ErrorCode::BadJson);
    // The same keys in different objects are fine.
    alice->raw("{\"type\":\"create_table\",\"name\":\"n\",\"settings\":{\"grace\":5}}\n");
    alice->expect<proto::TableSnapshot>();
}

}  // namespace
}  // namespace xq::test
