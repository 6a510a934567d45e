// The store writer inside a real server: a move's move_made leaves only once the move is
// committed (PROTOCOL.md, Durability). The tests hold the writer with a job of their own and
// check that nobody hears of the move until the writer is let go, that lines which do not
// depend on the move are not held with it, and that no line overtakes a held one on its
// connection, and that nobody's clock runs while a line that starts a turn is held. Loopback
// only.
#include <chrono>
#include <future>
#include <thread>
#include <string>
#include <vector>

#include "durability/server_process.h"
#include "server/store/store_writer.h"

namespace xq::test {

namespace {

// Holds the server's store writer in a job of the test's own until `open()`.
class WriterGate {
public:
    explicit WriterGate(DurableServer& s) : open_(gate_.get_future().share()) {
        s.on_server([this](server::Server&, server::ServerRuntime& r) {
            return r.writer()->post("the test's gate", [this, open = open_](server::Storage&) {
                running_.set_value();
                open.wait();
                return true;
            });
        });
        running_.get_future().wait();
    }
    ~WriterGate() { open(); }
    void open() {
        if (!opened_) gate_.set_value();
        opened_ = true;
    }

private:
    std::promise<void> gate_, running_;
    std::shared_future<void> open_;
    bool opened_ = false;
};

// The moves of the one unfinished game in the database, read on a connection of the test's
// own (empty, with a test failure, when there is not exactly one such game).
std::vector<std::string> stored_moves(const TempDir& tmp) {
    std::string err;
    auto db = server::Storage::open(tmp.path(), &err);
    EXPECT_TRUE(db) << err;
    if (!db) return {};
    auto games = db->unfinished_games();
    EXPECT_EQ(games.size(), 1u);
    if (games.size() != 1) return {};
    std::vector<std::string> moves;
    for (const auto& m : games[0].moves) moves.push_back(m.move);
    return moves;
}

}  // namespace

TEST(Durability, AMoveIsSentOnlyOnceItIsCommitted) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    DurableServer s(test_config(), quiet(tmp));
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    ASSERT_EQ(p.black->expect<proto::MoveMade>().move, "h2e2");
    ASSERT_EQ(p.red->expect<proto::MoveMade>().move, "h2e2");

    // The writer waits for the test before its next write.
    WriterGate gate(s);
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    // Accepted, queued behind the gate: not committed, so not sent to anyone, and not in the
    // database (read on a connection of its own).
    EXPECT_EQ(p.red->next(400ms), nullptr);
    EXPECT_EQ(p.black->next(50ms), nullptr);
    EXPECT_EQ(stored_moves(tmp), std::vector<std::string>{"h2e2"});
    gate.open();
    EXPECT_EQ(p.red->expect<proto::MoveMade>().move, "h9g7");
    EXPECT_EQ(p.black->expect<proto::MoveMade>().move, "h9g7");
    EXPECT_EQ(stored_moves(tmp), (std::vector<std::string>{"h2e2", "h9g7"}));
}

TEST(Durability, OnlyTheLinesThatDependOnAPendingCommitWaitForIt) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    DurableServer s(test_config(), quiet(tmp));
    Pair p = seat_two(s.port());
    auto carol = Client::login(s.port(), "carol");  // in the lobby, at no table
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    ASSERT_EQ(p.black->expect<proto::MoveMade>().move, "h2e2");
    ASSERT_EQ(p.red->expect<proto::MoveMade>().move, "h2e2");

    WriterGate gate(s);
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    EXPECT_EQ(p.red->next(300ms), nullptr);  // the move is held
    // Lines that do not depend on it are not: a pong in the lobby, a new client's welcome.
    const auto before = carol->until_pong();
    EXPECT_EQ(count_of<proto::MoveMade>(before), 0);
    auto dave = Client::login(s.port(), "dave");
    ASSERT_TRUE(dave);
    dave->until_pong();
    // A line after a held one on the same connection waits behind it: red's pong, and the
    // snapshot of a spectator who joins now (it shows the held move).
    p.red->send(proto::Ping{77});
    dave->send(proto::Join{p.table, proto::Role::Spectator});
    EXPECT_EQ(p.red->next(300ms), nullptr);
    EXPECT_EQ(dave->next(50ms), nullptr);
    // Still nothing of the move in the database.
    EXPECT_EQ(stored_moves(tmp), std::vector<std::string>{"h2e2"});

    gate.open();
    auto first = p.red->next();
    ASSERT_NE(first, nullptr);
    ASSERT_TRUE(std::holds_alternative<proto::MoveMade>(*first));
    EXPECT_EQ(std::get<proto::MoveMade>(*first).move, "h9g7");
    auto second = p.red->next();
    ASSERT_NE(second, nullptr);
    ASSERT_TRUE(std::holds_alternative<proto::Pong>(*second));
    EXPECT_EQ(std::get<proto::Pong>(*second).id, 77);
    const auto snap = dave->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.ply, 2);
    ASSERT_EQ(snap.moves.size(), 2u);
    EXPECT_EQ(snap.moves[1], "h9g7");
    EXPECT_EQ(p.black->expect<proto::MoveMade>().move, "h9g7");
}

// The remaining times a held move_made (or the game's start) reports are the ones the server
// keeps: the side to move's time starts as the line leaves, not when the move was accepted.
// Before, the time the line waited for its commit was charged and a fresh snapshot showed up
// to the whole hold less than the move_made said.
TEST(Durability, AHeldTurnStartsWhenItsLineLeaves) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    DurableServer s(test_config(), quiet(tmp));
    using SteadyClock = std::chrono::steady_clock;
    constexpr auto HOLD = 800ms;
    // Charged since `from`, at most: what a clock may lose to the time after the gate opened.
    const auto since = [](SteadyClock::time_point from) {
        return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - from).count();
    };
    auto red = Client::login(s.port(), "ann");
    proto::CreateTable create{"clocked", proto::Role::Red, ""};
    create.settings.clock = "fischer:60+0";
    red->send(create);
    const proto::TableId table = red->expect<proto::TableSnapshot>().table.id;
    auto black = Client::login(s.port(), "bob");
    {
        // The game starts as Bob sits; the game's record waits behind the gate.
        WriterGate gate(s);
        black->send(proto::Join{table, proto::Role::Black});
        std::this_thread::sleep_for(HOLD);
        const auto opened = SteadyClock::now();
        gate.open();
        black->expect<proto::TableSnapshot>();
        red->send(proto::Sync{table});
        const auto snap = red->expect<proto::TableSnapshot>();
        ASSERT_TRUE(snap.clocks);
        ASSERT_EQ(snap.clocks->running, RED);
        EXPECT_LE(60000 - snap.clocks->red_ms, since(opened) + 20) << "Red was charged for the held start";
    }
    red->send(proto::MoveRequest{table, 0, "h2e2"});
    ASSERT_EQ(black->expect<proto::MoveMade>().move, "h2e2");
    ASSERT_EQ(red->expect<proto::MoveMade>().move, "h2e2");

    WriterGate gate(s);
    black->send(proto::MoveRequest{table, 1, "h9g7"});
    std::this_thread::sleep_for(HOLD);
    const auto opened = SteadyClock::now();
    gate.open();
    const auto mm = red->expect<proto::MoveMade>();
    ASSERT_EQ(mm.move, "h9g7");
    ASSERT_TRUE(mm.clocks);
    ASSERT_EQ(mm.clocks->running, RED);
    red->send(proto::Sync{table});
    const auto snap = red->expect<proto::TableSnapshot>();
    ASSERT_TRUE(snap.clocks);
    // Red's time ran only from the release on: what move_made said, less that.
    EXPECT_LE(mm.clocks->red_ms - snap.clocks->red_ms, since(opened) + 20) << "Red was charged for the held move";
    EXPECT_GE(mm.clocks->red_ms, snap.clocks->red_ms);
    // Black's figure is the one move_made reported.
    EXPECT_EQ(snap.clocks->black_ms, mm.clocks->black_ms);
}

}  // namespace xq::test
