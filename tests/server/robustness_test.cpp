// Hostile and broken clients over real sockets: bad lines, bad handshakes, floods, and a
// client that stops reading. None of it may disturb a game running next to it.
#include "harness.h"

#include <random>

namespace xq::test {
namespace {

using proto::ErrorCode;

struct Pair {
    std::unique_ptr<Client> red, black;
    proto::TableId table = 0;
    Position pos;
    std::mt19937 rng{12345};

    // Plays one random legal move for the side to move and checks both sides saw it.
    void play_one() {
        MoveList legal;
        pos.generate_legal(legal);
        ASSERT_FALSE(legal.empty());
        const Move m = legal[static_cast<int>(rng() % static_cast<unsigned>(legal.size()))];
        Client& mover = pos.side_to_move() == RED ? *red : *black;
        const int ply = ply_;
        mover.send(proto::MoveRequest{table, ply, move_to_iccs(m)});
        UndoInfo u;
        pos.do_move(m, u);
        ++ply_;
        for (Client* c : {red.get(), black.get()}) {
            const auto mm = c->expect<proto::MoveMade>();
            ASSERT_EQ(mm.ply, ply_);
            ASSERT_EQ(mm.fen, pos.fen());
        }
    }
    int ply_ = 0;
};

Pair start_pair(TestServer& s, const std::string& a = "red", const std::string& b = "black") {
    Pair p;
    p.red = Client::login(s.port(), a);
    p.red->send(proto::CreateTable{"", proto::Role::Red, ""});
    p.table = p.red->expect<proto::TableSnapshot>().table.id;
    p.black = Client::login(s.port(), b);
    p.black->send(proto::Join{p.table, proto::Role::Black});
    p.black->expect<proto::TableSnapshot>();
    p.red->until_pong();
    p.black->until_pong();
    return p;
}

TEST(Robustness, BadLinesGetErrorsWithoutHarmToAConcurrentGame) {
    TestServer s;
    Pair game = start_pair(s);
    game.play_one();
    auto bad = Client::login(s.port(), "mallory");

    bad->raw(std::string(20000, 'x') + "\n");
    bad->expect_error(ErrorCode::LineTooLong);
    game.play_one();
    bad->raw("this is not json\n");
    bad->expect_error(ErrorCode::BadJson);
    std::string deep = "{\"type\":\"ping\",\"x\":" + std::string(100, '[') + std::string(100, ']') + "}\n";
    bad->raw(deep);
    bad->expect_error(ErrorCode::TooDeep);
    game.play_one();
    bad->raw("{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xC3\x28\"}\n");
    bad->expect_error(ErrorCode::BadUtf8);
    bad->raw("{\"type\":\"move\",\"table\":\"one\",\"ply\":0,\"move\":\"h2e2\"}\n");
    const auto e = bad->expect_error(ErrorCode::BadField);
    EXPECT_EQ(e.request, "move");
    bad->raw("{\"type\":\"self_destruct\"}\n");
    bad->expect_error(ErrorCode::UnknownType);
    bad->raw("{\"no_type\":1}\n");
    bad->expect_error(ErrorCode::MissingType);
    bad->raw(std::string("\0\0\0\n", 4));
    bad->expect<proto::Error>();
    // A line split into many tiny writes still works.
    for (char c : std::string("{\"type\":\"ping\",\"id\":77}\n")) bad->raw(std::string(1, c));
    EXPECT_EQ(bad->expect<proto::Pong>().id, 77);
    // The game went on, and goes on.
    for (int i = 0; i < 6; ++i) game.play_one();
    // The bad lines reached nobody else.
    EXPECT_EQ(count_of<proto::Error>(game.red->until_pong()), 0);
    EXPECT_EQ(count_of<proto::Error>(game.black->until_pong()), 0);
}

TEST(Robustness, HandshakeErrorsCloseTheConnection) {
    TestServer s;
    {
        Client c(s.port());
        c.send(proto::ListTables{});
        c.expect_error(ErrorCode::NotHello);
        EXPECT_TRUE(c.wait_closed());
    }
    {
        Client c(s.port());
        c.raw("garbage\n");
        c.expect_error(ErrorCode::NotHello);
        EXPECT_TRUE(c.wait_closed());
    }
    {
        Client c(s.port());
        c.send(proto::Hello{"old", 0, ""});
        c.expect_error(ErrorCode::BadVersion);
        EXPECT_TRUE(c.wait_closed());
    }
    for (const std::string& name : {std::string(""), std::string(" pad"), std::string("tab\tname"), std::string(21, 'n')}) {
        Client c(s.port());
        c.send(proto::Hello{name, 1, ""});
        c.expect_error(ErrorCode::BadName);
        EXPECT_TRUE(c.wait_closed());
    }
    auto alice = Client::login(s.port(), "alice");
    {
        Client c(s.port());
        c.send(proto::Hello{"alice", 1, ""});
        c.expect_error(ErrorCode::NameTaken);
        EXPECT_TRUE(c.wait_closed());
    }
    alice->send(proto::Hello{"alice", 1, ""});
    alice->expect_error(ErrorCode::AlreadyHello);
    alice->send(proto::Ping{5});
    EXPECT_EQ(alice->expect<proto::Pong>().id, 5);
    // Tokens are 128 bits of hex and differ between sessions.
    auto bob = Client::login(s.port(), "bob");
    EXPECT_EQ(bob->welcome.resume_token.size(), 32u);
    EXPECT_NE(bob->welcome.resume_token, alice->welcome.resume_token);
    EXPECT_NE(bob->welcome.session, alice->welcome.session);
}

TEST(Robustness, ServerFullAndHelloTimeout) {
    auto cfg = test_config();
    cfg.max_clients = 2;
    cfg.hello_timeout = std::chrono::milliseconds(300);
    TestServer s(cfg);
    auto a = Client::login(s.port(), "a");
    Client silent(s.port());  // never says hello
    Client third(s.port());
    third.expect_error(ErrorCode::ServerFull);
    EXPECT_TRUE(third.wait_closed());
    silent.expect_error(ErrorCode::NotHello);
    EXPECT_TRUE(silent.wait_closed());
    a->send(proto::Ping{1});
    a->expect<proto::Pong>();
}

TEST(Robustness, MessageFloodIsLimitedThenCut) {
    // A refill of one line every 5 s: with the default 50 lines/s a server slower than
    // 20 ms per 200 refusals (ThreadSanitizer, a loaded machine) lets a ping through
    // between them, which restarts the count of refusals in a row, and the cut this test
    // is about never comes.
    auto cfg = test_config();
    cfg.msg_rate_per_s = 0.2;
    TestServer s(cfg);
    Pair game = start_pair(s);
    Client flood(s.port());
    flood.send(proto::Hello{"flood", 1, ""});
    flood.expect<proto::Welcome>();
    std::string burst;
    for (int i = 0; i < 600; ++i) burst += proto::encode_line(proto::ClientMessage{proto::Ping{i}});
    flood.raw(burst);
    int pongs = 0, limited = 0;
    while (auto m = flood.next(3000ms)) {
        if (std::holds_alternative<proto::Pong>(*m)) ++pongs;
        if (const auto* e = std::get_if<proto::Error>(&*m); e && e->code == ErrorCode::RateLimited) ++limited;
    }
    EXPECT_TRUE(flood.wait_closed());
    // The burst allowance (100, one spent on hello), then refusals until 200 in a row
    // close the connection.
    EXPECT_GE(pongs, 99);
    EXPECT_LT(pongs, 150);
    EXPECT_GE(limited, test_config().max_refused_in_row);
    for (int i = 0; i < 4; ++i) game.play_one();
}

TEST(Robustness, ClientThatNeverReadsIsDroppedOthersPlayOn) {
    auto cfg = test_config();
    cfg.max_queue_bytes = 32 * 1024;
    cfg.socket_send_buffer = 4096;
    TestServer s(cfg);
    Pair game = start_pair(s);
    auto watcher = Client::login(s.port(), "watcher");
    watcher->send(proto::Join{game.table, proto::Role::Spectator});
    watcher->expect<proto::TableSnapshot>();

    Client sloth(s.port(), /*rcvbuf=*/4096);
    sloth.send(proto::Hello{"sloth", 1, ""});
    sloth.send(proto::Join{game.table, proto::Role::Spectator});
    // It asks for far more than it will ever read.
    for (int i = 0; i < 90; ++i) sloth.send(proto::Sync{game.table});

    bool dropped = false;
    for (int i = 0; i < 40 && !dropped; ++i) {
        game.play_one();
        for (const auto& m : watcher->until_pong()) {
            if (const auto* pl = std::get_if<proto::PlayerLeft>(&m); pl && pl->name == "sloth") {
                EXPECT_EQ(pl->reason, proto::LeaveReason::Dropped);
                dropped = true;
            }
        }
    }
    EXPECT_TRUE(dropped);
    // The game is unaffected.
    for (int i = 0; i < 5; ++i) game.play_one();
    EXPECT_TRUE(sloth.wait_closed(10000ms));
}

}  // namespace
}  // namespace xq::test
