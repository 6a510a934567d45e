// Chat over real sockets: who receives what, cleaning, cutting, flood limit.
#include "harness.h"

#include <map>

#include "protocol/utf8.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

int chats(const Messages& v, const std::string& text) {
    int n = 0;
    for (const auto& m : v)
        if (const auto* c = std::get_if<proto::ChatLine>(&m); c && c->text == text) ++n;
    return n;
}

TEST(Chat, ReachesExactlyTheRightPeople) {
    TestServer s;
    // Table 1: a1 (red), b1 (black), w1 (spectator). Table 2: a2 alone. Lobby: l1, l2.
    auto a1 = Client::login(s.port(), "a1");
    a1->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto t1 = a1->expect<proto::TableSnapshot>().table.id;
    auto b1 = Client::login(s.port(), "b1");
    b1->send(proto::Join{t1, proto::Role::Black});
    b1->expect<proto::TableSnapshot>();
    auto w1 = Client::login(s.port(), "w1");
    w1->send(proto::Join{t1, proto::Role::Spectator});
    w1->expect<proto::TableSnapshot>();
    auto a2 = Client::login(s.port(), "a2");
    a2->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto t2 = a2->expect<proto::TableSnapshot>().table.id;
    auto l1 = Client::login(s.port(), "l1");
    auto l2 = Client::login(s.port(), "l2");
    const std::vector<Client*> all = {a1.get(), b1.get(), w1.get(), a2.get(), l1.get(), l2.get()};
    for (Client* c : all) c->until_pong();

    std::map<Client*, Messages> got;
    auto barrier = [&](Client* c) {
        auto more = c->until_pong();
        got[c].append(std::move(more));
    };
    w1->send(proto::ChatSend{proto::ChatScope::Table, t1, "table one"});
    barrier(w1.get());
    a2->send(proto::ChatSend{proto::ChatScope::Table, t2, "table two"});
    barrier(a2.get());
    l1->send(proto::ChatSend{proto::ChatScope::Lobby, 0, "lobby hello"});
    barrier(l1.get());
    a1->send(proto::ChatSend{proto::ChatScope::Lobby, 0, "to the lobby"});
    barrier(a1.get());
    // A table chat naming a table you are not at is refused and reaches nobody.
    l2->send(proto::ChatSend{proto::ChatScope::Table, t1, "intruder"});
    barrier(l2.get());
    for (Client* c : all) barrier(c);

    const std::map<Client*, std::vector<int>> expected = {
        // "table one", "table two", "lobby hello", "to the lobby", "intruder"
        {a1.get(), {1, 0, 0, 1, 0}}, {b1.get(), {1, 0, 0, 0, 0}}, {w1.get(), {1, 0, 0, 0, 0}},
        {a2.get(), {0, 1, 0, 0, 0}}, {l1.get(), {0, 0, 1, 1, 0}}, {l2.get(), {0, 0, 1, 1, 0}},
    };
    const std::vector<std::string> texts = {"table one", "table two", "lobby hello", "to the lobby", "intruder"};
    for (const auto& [c, counts] : expected)
        for (std::size_t i = 0; i < texts.size(); ++i)
            EXPECT_EQ(chats(got[c], texts[i]), counts[i]) << "client " << c->welcome.name << " text " << texts[i];
    EXPECT_EQ(count_of<proto::Error>(got[l2.get()]), 1);

    // Late joiners get recent table chat in their snapshot.
    auto late = Client::login(s.port(), "late");
    late->send(proto::Join{t1, proto::Role::Spectator});
    const auto snap = late->expect<proto::TableSnapshot>();
    ASSERT_EQ(snap.chat.size(), 1u);
    EXPECT_EQ(snap.chat[0].text, "table one");
    EXPECT_EQ(snap.chat[0].from, "w1");
}

TEST(Chat, TextIsCleanedAndCutByCodePoint) {
    TestServer s;
    auto a = Client::login(s.port(), "a");
    std::string long_text;
    for (int i = 0; i < 250; ++i) long_text += "炮";
    a->send(proto::ChatSend{proto::ChatScope::Lobby, 0, long_text});
    const auto line = a->expect<proto::ChatLine>();
    EXPECT_EQ(proto::count_code_points(line.text), proto::MAX_CHAT_CODE_POINTS);
    EXPECT_TRUE(proto::valid_utf8(line.text));
    EXPECT_EQ(line.from, "a");
    a->send(proto::ChatSend{proto::ChatScope::Lobby, 0, "  two\nlines\t "});
    EXPECT_EQ(a->expect<proto::ChatLine>().text, "two lines");
    a->send(proto::ChatSend{proto::ChatScope::Lobby, 0, " \n "});
    a->expect_error(ErrorCode::EmptyText);
}

TEST(Chat, FloodLimitIsFourPerTenSeconds) {
    TestServer s;
    auto a = Client::login(s.port(), "a");
    auto b = Client::login(s.port(), "b");
    for (int i = 0; i < 4; ++i) a->send(proto::ChatSend{proto::ChatScope::Lobby, 0, "msg " + std::to_string(i)});
    a->send(proto::ChatSend{proto::ChatScope::Lobby, 0, "one too many"});
    const auto e = a->expect_error(ErrorCode::RateLimited);
    EXPECT_EQ(e.request, "chat");
    const auto got = b->until_pong();
    int lines = count_of<proto::ChatLine>(got);
    for (const auto& m : b->skipped) lines += std::holds_alternative<proto::ChatLine>(m) ? 1 : 0;
    EXPECT_EQ(lines, 4);
    EXPECT_EQ(chats(got, "one too many"), 0);
    // Other requests still work.
    a->send(proto::ListTables{});
    a->expect<proto::Tables>();
}

}  // namespace
}  // namespace xq::test
