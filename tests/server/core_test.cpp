// The server core without sockets: the lobby driven by lines, output recorded per session.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <map>
#include <tuple>

#include "protocol/codec.h"
#include "protocol/utf8.h"
#include "server/lobby/lobby.h"
#include "server/lobby/rate_limit.h"

namespace xq::server {
namespace {

using proto::ErrorCode;

class Recorder : public Outbox {
public:
    void send(SessionId to, const Buffer& line) override {
        std::string_view l = *line;
        ASSERT_FALSE(l.empty());
        ASSERT_EQ(l.back(), '\n');
        l.remove_suffix(1);
        auto d = proto::decode_server(l);
        ASSERT_TRUE(d.ok()) << l;
        got[to].push_back(d.value());
        ++lines;
    }
    void close(SessionId to) override { closed[to] = true; }

    template <class T>
    std::vector<T> all(SessionId s) const {
        std::vector<T> out;
        if (auto it = got.find(s); it != got.end())
            for (const auto& m : it->second)
                if (auto* t = std::get_if<T>(&m)) out.push_back(*t);
        return out;
    }
    void clear() {
        got.clear();
        lines = 0;
    }

    std::map<SessionId, std::vector<proto::ServerMessage>> got;
    std::map<SessionId, bool> closed;
    int lines = 0;
};

struct Core : ::testing::Test {
    void poll() {
        io.restart();  // poll() leaves the context stopped once it runs out of work
        io.poll();
    }
    boost::asio::io_context io;
    ServerConfig config;
    Recorder out;
    Lobby lobby{io, config, out, nullptr};

    void line(SessionId s, const proto::ClientMessage& m) {
        const std::string text = proto::encode(m);
        lobby.on_line(s, text);
        poll();
    }
    SessionId login(SessionId s, const std::string& name) {
        EXPECT_TRUE(lobby.on_connect(s));
        line(s, proto::Hello{name, proto::PROTOCOL_VERSION, ""});
        EXPECT_EQ(out.all<proto::Welcome>(s).size(), 1u);
        return s;
    }
};

TEST_F(Core, RefereeThroughTheLobbyWithoutSockets) {
    login(1, "red");
    login(2, "black");
    login(3, "watch");
    line(1, proto::CreateTable{"", proto::Role::Red, ""});
    const auto id = out.all<proto::TableSnapshot>(1).at(0).table.id;
    line(2, proto::Join{id, proto::Role::Black});
    line(3, proto::Join{id, proto::Role::Spectator});
    out.clear();

    line(2, proto::MoveRequest{id, 0, "h9g7"});
    ASSERT_EQ(out.all<proto::Error>(2).size(), 1u);
    EXPECT_EQ(out.all<proto::Error>(2)[0].code, ErrorCode::NotYourTurn);
    EXPECT_EQ(out.lines, 1);  // only the sender heard anything

    line(1, proto::MoveRequest{id, 0, "h2e2"});
    for (SessionId s : {1, 2, 3}) ASSERT_EQ(out.all<proto::MoveMade>(s).size(), 1u);
    EXPECT_EQ(lobby.table(id)->game().ply(), 1);
    EXPECT_EQ(out.all<proto::MoveMade>(3)[0].fen, lobby.table(id)->game().position().fen());
}

// The welcome's lists are kept encoded between logins (docs/scale.md): each login still sees
// every change since the last one, to a table (a seat taken, a move, a seat left) and to the
// users (a name at a table, back in the lobby, gone), and users in the lobby hear the others.
TEST_F(Core, EachWelcomeShowsTheTablesAndUsersAsTheyAreNow) {
    const auto lists = [&](SessionId s) {
        EXPECT_EQ(out.all<proto::Tables>(s).size(), 1u);
        EXPECT_EQ(out.all<proto::Users>(s).size(), 1u);
        auto users = out.all<proto::Users>(s).at(0).users;
        std::sort(users.begin(), users.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
        return std::pair{out.all<proto::Tables>(s).at(0).tables, users};
    };
    login(1, "alice");
    line(1, proto::CreateTable{"one", proto::Role::Red, ""});
    const auto id = out.all<proto::TableSnapshot>(1).at(0).table.id;
    login(2, "bob");
    auto [tables, users] = lists(2);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].status, proto::TableStatus::Waiting);
    EXPECT_FALSE(tables[0].black.has_value());
    ASSERT_EQ(users.size(), 2u);
    EXPECT_EQ(users[0].name, "alice");
    EXPECT_EQ(users[0].table, id);
    EXPECT_EQ(users[1].table, 0u);

    line(2, proto::Join{id, proto::Role::Black});
    line(1, proto::MoveRequest{id, 0, "h2e2"});
    login(3, "carol");
    std::tie(tables, users) = lists(3);
    ASSERT_EQ(tables.size(), 1u);
    ASSERT_TRUE(tables[0].black.has_value());
    EXPECT_EQ(tables[0].black->name, "bob");
    EXPECT_EQ(tables[0].status, proto::TableStatus::Playing);
    EXPECT_EQ(tables[0].ply, 1);
    ASSERT_EQ(users.size(), 3u);
    EXPECT_EQ(users[1].name, "bob");
    EXPECT_EQ(users[1].table, id);

    out.clear();
    line(2, proto::Leave{id});
    lobby.on_disconnect(1, proto::LeaveReason::Disconnected);
    poll();
    // carol, in the lobby, heard alice go; bob is back in the lobby and heard it too.
    EXPECT_EQ(out.all<proto::UserLeft>(3).size(), 1u);
    EXPECT_EQ(out.all<proto::UserLeft>(2).size(), 1u);
    login(4, "dave");
    EXPECT_EQ(out.all<proto::UserJoined>(2).size(), 1u);
    EXPECT_EQ(out.all<proto::UserJoined>(3).size(), 1u);
    EXPECT_TRUE(out.all<proto::UserJoined>(4).empty());
    std::tie(tables, users) = lists(4);
    ASSERT_EQ(users.size(), 3u);
    EXPECT_EQ(users[0].name, "bob");
    EXPECT_EQ(users[0].table, 0u);
    EXPECT_EQ(users[1].name, "carol");
    EXPECT_EQ(users[2].name, "dave");
    for (const auto& t : tables) EXPECT_NE(t.ply, 0) << "a table in play lists its ply";
    // A name is taken while its user is here, whatever its case.
    EXPECT_TRUE(lobby.on_connect(6));
    line(6, proto::Hello{"Dave", proto::PROTOCOL_VERSION, ""});
    ASSERT_EQ(out.all<proto::Error>(6).size(), 1u);
    EXPECT_EQ(out.all<proto::Error>(6)[0].code, ErrorCode::NameTaken);
}

TEST_F(Core, OversizedLinesAndDisconnectsAreHandled) {
    login(1, "a");
    lobby.on_oversized(1);
    ASSERT_EQ(out.all<proto::Error>(1).size(), 1u);
    EXPECT_EQ(out.all<proto::Error>(1)[0].code, ErrorCode::LineTooLong);
    lobby.on_disconnect(1, proto::LeaveReason::Disconnected);
    lobby.on_disconnect(1, proto::LeaveReason::Disconnected);  // twice is harmless
    lobby.on_line(1, "{\"type\":\"ping\"}");                    // after the end: ignored
    EXPECT_EQ(lobby.user_count(), 0u);
}

// A table created without a name is flagged default_name (clients word "<creator>'s table"
// in their language); a typed name is not, and neither is a default name once the invite
// comes from someone other than its creator.
TEST_F(Core, DefaultTableNamesAreFlagged) {
    login(1, "alice");
    login(2, "bob");
    login(3, "carol");
    line(1, proto::CreateTable{"", proto::Role::Red, ""});
    const proto::TableInfo first = out.all<proto::TableSnapshot>(1).at(0).table;
    EXPECT_EQ(first.name, "alice's table");
    EXPECT_TRUE(first.default_name);
    line(2, proto::CreateTable{"Friday blitz", proto::Role::Red, ""});
    const proto::TableInfo second = out.all<proto::TableSnapshot>(2).at(0).table;
    EXPECT_FALSE(second.default_name);
    proto::Invite inv;
    inv.table = first.id;
    inv.name = "carol";
    line(1, inv);
    ASSERT_EQ(out.all<proto::InviteReceived>(3).size(), 1u);
    EXPECT_TRUE(out.all<proto::InviteReceived>(3)[0].default_name);
    EXPECT_EQ(out.all<proto::InviteReceived>(3)[0].table_name, "alice's table");
    inv.table = second.id;
    line(2, inv);
    ASSERT_EQ(out.all<proto::InviteReceived>(3).size(), 2u);
    EXPECT_FALSE(out.all<proto::InviteReceived>(3)[1].default_name);
    line(3, proto::ListTables{});
    const auto lists = out.all<proto::Tables>(3);
    ASSERT_FALSE(lists.empty());
    int flagged = 0;
    for (const auto& t : lists.back().tables) flagged += t.default_name ? 1 : 0;
    EXPECT_EQ(flagged, 1);
}

TEST_F(Core, EmptyTablesAreRemoved) {
    login(1, "a");
    line(1, proto::CreateTable{"", proto::Role::Red, ""});
    EXPECT_EQ(lobby.table_count(), 1u);
    lobby.on_disconnect(1, proto::LeaveReason::Disconnected);
    poll();
    EXPECT_EQ(lobby.table_count(), 0u);
}

TEST(CleanText, ControlsBecomeSpacesEndsTrimmedCutByCodePoint) {
    EXPECT_EQ(clean_text("  hi\tthere\n", 200), "hi there");
    EXPECT_EQ(clean_text("a\xC2\x85" "b", 200), "a b");
    EXPECT_EQ(clean_text("   ", 200), "");
    EXPECT_EQ(clean_text("炮二平五", 2), "炮二");
    EXPECT_TRUE(proto::valid_utf8(clean_text("炮二平五", 3)));
}

TEST(RateLimit, WindowAllowsFourPerTenSeconds) {
    WindowLimiter w(4, std::chrono::seconds(10));
    const auto t0 = Clock::now();
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(w.allow(t0 + std::chrono::seconds(i)));
    EXPECT_FALSE(w.allow(t0 + std::chrono::seconds(5)));
    EXPECT_FALSE(w.allow(t0 + std::chrono::milliseconds(9999)));
    EXPECT_TRUE(w.allow(t0 + std::chrono::seconds(10)));  // the first one expired
    EXPECT_FALSE(w.allow(t0 + std::chrono::seconds(10)));
}

TEST(RateLimit, TokenBucketRefills) {
    TokenBucket b(10.0, 3.0);
    const auto t0 = Clock::now();
    EXPECT_TRUE(b.take(t0));
    EXPECT_TRUE(b.take(t0));
    EXPECT_TRUE(b.take(t0));
    EXPECT_FALSE(b.take(t0));
    EXPECT_TRUE(b.take(t0 + std::chrono::milliseconds(100)));  // one token per 100 ms
    EXPECT_FALSE(b.take(t0 + std::chrono::milliseconds(100)));
}

}  // namespace
}  // namespace xq::server
