// Idle connections (server ping, idle_timeout) and the server password (bad_password,
// the per-address limit on wrong guesses), over real loopback sockets.
#include <gtest/gtest.h>

#include "harness.h"

namespace xq::test {
namespace {

server::ServerConfig idle_config() {
    auto c = test_config();
    c.idle_ping = 150ms;
    c.idle_timeout = 600ms;
    return c;
}

proto::Hello hello(const std::string& name, const std::string& password = "") {
    proto::Hello h{name, proto::PROTOCOL_VERSION, ""};
    h.password = password;
    return h;
}

TEST(IdleTimeout, SilentClientIsPingedThenClosedWithIdleTimeout) {
    TestServer server(idle_config());
    // t0 before the login: the server's silence clock starts when it reads the hello, which is
    // after t0, so the lower bounds below hold however long a loaded machine takes to log in.
    const auto t0 = std::chrono::steady_clock::now();
    auto c = Client::login(server.port(), "quiet");
    const auto ping = c->expect<proto::Ping>(2000ms);
    const auto pinged_after = std::chrono::steady_clock::now() - t0;
    EXPECT_GT(ping.id, 0);
    EXPECT_GE(pinged_after, 100ms);  // not before the client was silent for idle_ping
    const auto e = c->expect_error(proto::ErrorCode::IdleTimeout);
    EXPECT_NE(e.message.find("pong"), std::string::npos) << e.message;
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 550ms);
    EXPECT_TRUE(c->wait_closed(3000ms));
    // The server forgets the connection (it hears of the close a moment later).
    std::size_t left = 1;
    for (int i = 0; i < 300 && left != 0; ++i) {
        left = server.on_server([](server::Server& s) { return s.connection_count(); });
        if (left != 0) std::this_thread::sleep_for(10ms);
    }
    EXPECT_EQ(left, 0u);
}

TEST(IdleTimeout, ClientAnsweringPingsStays) {
    TestServer server(idle_config());
    auto c = Client::login(server.port(), "lively");
    int answered = 0;
    const auto until = std::chrono::steady_clock::now() + 1500ms;  // 2.5 idle timeouts
    while (std::chrono::steady_clock::now() < until) {
        auto m = c->next(100ms);
        if (!m) continue;
        if (auto* p = std::get_if<proto::Ping>(&*m)) {
            c->send(proto::Pong{p->id});
            ++answered;
        }
        ASSERT_EQ(std::get_if<proto::Error>(&*m), nullptr) << "the answering client got an error";
    }
    EXPECT_GE(answered, 2);
    c->send(proto::ListUsers{});
    const auto users = c->expect<proto::Users>();
    EXPECT_EQ(users.users.size(), 1u);
}

TEST(IdleTimeout, SeatedPlayerTimedOutKeepsTheSeatForTheGrace) {
    auto cfg = idle_config();
    cfg.seat_grace = 10'000ms;
    TestServer server(cfg);
    auto red = Client::login(server.port(), "red");
    auto black = Client::login(server.port(), "black");
    red->send(proto::CreateTable{"t", proto::Role::Red, ""});
    const auto snap = red->expect<proto::TableSnapshot>();
    black->send(proto::Join{snap.table.id, proto::Role::Black});
    black->expect<proto::TableSnapshot>();
    // Black keeps answering; red falls silent and is closed; black sees red's seat kept.
    bool red_left = false;
    const auto until = std::chrono::steady_clock::now() + 3000ms;
    while (!red_left && std::chrono::steady_clock::now() < until) {
        auto m = black->next(100ms);
        if (!m) continue;
        if (auto* p = std::get_if<proto::Ping>(&*m)) black->send(proto::Pong{p->id});
        if (auto* l = std::get_if<proto::PlayerLeft>(&*m)) {
            EXPECT_EQ(l->name, "red");
            EXPECT_EQ(proto::leave_reason_name(l->reason), "disconnected");
            red_left = true;
        }
    }
    ASSERT_TRUE(red_left);
    const bool kept = server.on_server([id = snap.table.id](server::Server& s) {
        auto* t = s.lobby().table(id);
        return t && t->seat(RED).human() && !t->seat(RED).connected;
    });
    EXPECT_TRUE(kept);
    // The token gives the seat back.
    auto back = std::make_unique<Client>(server.port());
    proto::Hello h = hello("someone");
    h.resume = red->welcome.resume_token;
    back->send(h);
    const auto w = back->expect<proto::Welcome>();
    EXPECT_TRUE(w.resumed);
    EXPECT_EQ(w.name, "red");
}

server::ServerConfig password_config() {
    auto c = test_config();
    c.password = "s3cret pass";
    c.password_max_failures = 3;
    c.password_window = 60'000ms;
    c.password_lockout = 60'000ms;
    return c;
}

TEST(Password, MissingOrWrongPasswordIsRefusedAndClosed) {
    TestServer server(password_config());
    {
        Client c(server.port());
        c.send(hello("nopass"));
        const auto e = c.expect_error(proto::ErrorCode::BadPassword);
        EXPECT_NE(e.message.find("requires a password"), std::string::npos) << e.message;
        EXPECT_TRUE(c.wait_closed());
    }
    {
        Client c(server.port());
        c.send(hello("wrong", "s3cret pasS"));
        const auto e = c.expect_error(proto::ErrorCode::BadPassword);
        EXPECT_EQ(e.message, "wrong password");
        EXPECT_TRUE(c.wait_closed());
    }
    {
        Client c(server.port());
        c.send(hello("prefix", "s3cret"));
        c.expect_error(proto::ErrorCode::BadPassword);
        EXPECT_TRUE(c.wait_closed());
    }
}

TEST(Password, RightPasswordLogsIn) {
    TestServer server(password_config());
    Client c(server.port());
    c.send(hello("alice", "s3cret pass"));
    const auto w = c.expect<proto::Welcome>();
    EXPECT_EQ(w.name, "alice");
    c.expect<proto::Tables>();
}

TEST(Password, NoPasswordServerIgnoresTheField) {
    TestServer server;
    Client c(server.port());
    c.send(hello("bob", "anything"));
    EXPECT_EQ(c.expect<proto::Welcome>().name, "bob");
}

TEST(Password, TooManyWrongGuessesLockTheAddressOut) {
    TestServer server(password_config());
    for (int i = 0; i < 3; ++i) {
        Client c(server.port());
        c.send(hello("guesser", "guess" + std::to_string(i)));
        const auto e = c.expect_error(proto::ErrorCode::BadPassword);
        if (i == 2) {
            EXPECT_NE(e.message.find("too many wrong passwords"), std::string::npos) << e.message;
        }
        EXPECT_TRUE(c.wait_closed());
    }
    // Now even the right password is refused from this address, with the time left.
    Client c(server.port());
    c.send(hello("guesser", "s3cret pass"));
    const auto e = c.expect_error(proto::ErrorCode::BadPassword);
    EXPECT_NE(e.message.find("try again in"), std::string::npos) << e.message;
    EXPECT_TRUE(c.wait_closed());
}

TEST(Password, GuardForgetsOldFailuresAndUnlocksAfterTheLockout) {
    using G = server::PasswordGuard;
    G g(3, std::chrono::seconds(60), std::chrono::seconds(300), 4);
    const auto t0 = G::Clock::now();
    EXPECT_FALSE(g.failed("10.0.0.1", t0));
    EXPECT_FALSE(g.failed("10.0.0.1", t0 + std::chrono::seconds(30)));
    // The first failure is out of the window by now: two in the window, no lockout.
    EXPECT_FALSE(g.failed("10.0.0.1", t0 + std::chrono::seconds(61)));
    EXPECT_EQ(g.locked_for("10.0.0.1", t0 + std::chrono::seconds(61)), G::Clock::duration::zero());
    EXPECT_TRUE(g.failed("10.0.0.1", t0 + std::chrono::seconds(62)));
    EXPECT_GT(g.locked_for("10.0.0.1", t0 + std::chrono::seconds(63)), std::chrono::seconds(290));
    EXPECT_EQ(g.locked_for("10.0.0.2", t0 + std::chrono::seconds(63)), G::Clock::duration::zero());
    EXPECT_EQ(g.locked_for("10.0.0.1", t0 + std::chrono::seconds(363)), G::Clock::duration::zero());
    // Bounded: many addresses never grow the table past its cap.
    for (int i = 0; i < 100; ++i) g.failed("10.1.0." + std::to_string(i), t0 + std::chrono::seconds(400));
    EXPECT_LE(g.tracked(), 4u);
}

}  // namespace
}  // namespace xq::test
