// The store writer inside a real server: a move's move_made leaves only once the move is
// committed (PROTOCOL.md, Durability). The test holds the writer with a job of its own and
// checks that nobody hears of the move until the writer is let go. Loopback only.
#include <future>

#include "durability/server_process.h"
#include "server/store/store_writer.h"

namespace xq::test {

TEST(Durability, AMoveIsSentOnlyOnceItIsCommitted) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    DurableServer s(test_config(), quiet(tmp));
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    ASSERT_EQ(p.black->expect<proto::MoveMade>().move, "h2e2");
    ASSERT_EQ(p.red->expect<proto::MoveMade>().move, "h2e2");

    // The writer waits for the test before its next write.
    std::promise<void> gate, running;
    std::shared_future<void> open = gate.get_future().share();
    s.on_server([&](server::Server&, server::ServerRuntime& r) {
        return r.writer()->post("the test's gate", [&running, open](server::Storage&) {
            running.set_value();
            open.wait();
            return true;
        });
    });
    running.get_future().wait();
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    // Accepted, queued behind the gate: not committed, so not sent to anyone, and not in the
    // database (read on a connection of its own).
    EXPECT_EQ(p.red->next(400ms), nullptr);
    EXPECT_EQ(p.black->next(50ms), nullptr);
    {
        std::string err;
        auto db = server::Storage::open(tmp.path(), &err);
        ASSERT_TRUE(db) << err;
        auto games = db->unfinished_games();
        ASSERT_EQ(games.size(), 1u);
        EXPECT_EQ(games[0].moves.size(), 1u);
    }
    gate.set_value();
    EXPECT_EQ(p.red->expect<proto::MoveMade>().move, "h9g7");
    EXPECT_EQ(p.black->expect<proto::MoveMade>().move, "h9g7");
    std::string err;
    auto db = server::Storage::open(tmp.path(), &err);
    ASSERT_TRUE(db) << err;
    auto games = db->unfinished_games();
    ASSERT_EQ(games.size(), 1u);
    ASSERT_EQ(games[0].moves.size(), 2u);
    EXPECT_EQ(games[0].moves[1].move, "h9g7");
}

}  // namespace xq::test
