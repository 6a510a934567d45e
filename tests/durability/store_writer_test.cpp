// The store writer (server/store/store_writer.h): writes queued from one thread, run in order
// on the writer's thread and connection, many to a transaction; a failing write loses no
// other; tickets say what is durable. Real files in a temporary directory.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <mutex>
#include <vector>

#include "server/store/store_writer.h"
#include "temp_dir.h"

using namespace xq;
using namespace xq::server;
using xq::test::TempDir;

namespace {

constexpr const char* START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

std::unique_ptr<Storage> open_ok(const std::filesystem::path& dir, bool checkpoints = true) {
    std::string err;
    auto s = Storage::open(dir, &err, Storage::Sync::Normal, checkpoints);
    EXPECT_TRUE(s) << err;
    return s;
}

GameRecord new_game(std::int64_t table, std::string seat_name = "ann") {
    GameRecord g;
    g.table_id = table;
    g.start_fen = START_FEN;
    g.red = "ann";
    g.black = "bob";
    g.started_at_ms = 1'700'000'000'000;
    g.seats = {SeatRecord{RED, SeatKind::Human, std::move(seat_name), "tok-ann", 0}};
    return g;
}

MoveRecord move(int ply, std::string text) {
    MoveRecord m;
    m.ply = ply;
    m.move = std::move(text);
    m.at_ms = 1'700'000'000'000 + ply;
    return m;
}

// Cannon and horse moves back and forth: always legal text, never checked here anyway.
std::string nth_move(int ply) {
    static const char* cycle[] = {"h2e2", "h9g7", "e2h2", "g7h9"};
    return cycle[ply % 4];
}

// A job that holds the writer until `gate` is set: whatever is posted meanwhile is one batch.
struct Held {
    std::promise<void> gate, running;
    std::shared_future<void> open = gate.get_future().share();
    // Posts the job and waits until the writer runs it.
    void post(StoreWriter& w) {
        w.post("a gate", [this](Storage&) {
            running.set_value();
            open.wait();
            return true;
        });
        running.get_future().wait();
    }
};

}  // namespace

TEST(StoreWriter, RunsJobsInOrderAndCommitsThemInGroups) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    auto reader = open_ok(tmp.path());
    ASSERT_TRUE(reader);
    std::mutex m;
    std::vector<std::uint64_t> queued, committed;
    auto writer = std::make_unique<StoreWriter>(
        open_ok(tmp.path(), false), [&](std::uint64_t t) { queued.push_back(t); },
        [&](std::uint64_t t) {
            std::lock_guard lock(m);
            committed.push_back(t);
        });
    Held held;
    held.post(*writer);
    auto game = std::make_shared<std::atomic<std::int64_t>>(0);
    writer->post("a game", [game](Storage& s) {
        auto id = s.create_game(new_game(7));
        if (id) *game = *id;
        return id.has_value();
    });
    constexpr int MOVES = 300;
    for (int ply = 0; ply < MOVES; ++ply)
        writer->post("a move", [game, ply](Storage& s) { return s.append_move(*game, move(ply, nth_move(ply))); });
    held.gate.set_value();
    const std::uint64_t last = writer->drain();
    EXPECT_EQ(last, std::uint64_t(MOVES + 2));
    EXPECT_EQ(writer->failed(), 0u);
    EXPECT_EQ(writer->done(), std::uint64_t(MOVES + 2));
    // The gate's batch, then one for the 301 writes queued behind it.
    EXPECT_EQ(writer->commits(), 2u);
    ASSERT_EQ(queued.size(), std::size_t(MOVES + 2));
    for (std::size_t i = 0; i < queued.size(); ++i) EXPECT_EQ(queued[i], i + 1);
    {
        std::lock_guard lock(m);
        ASSERT_FALSE(committed.empty());
        EXPECT_EQ(committed.back(), last);
        for (std::size_t i = 1; i < committed.size(); ++i) EXPECT_LT(committed[i - 1], committed[i]);
    }
    // Another connection sees every move, in order: committed, not just written.
    auto g = reader->get_game(*game);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), std::size_t(MOVES));
    for (int ply = 0; ply < MOVES; ++ply) EXPECT_EQ(g->moves[std::size_t(ply)].move, nth_move(ply));
}

TEST(StoreWriter, AFailingWriteLosesNoOtherInItsTransaction) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    auto reader = open_ok(tmp.path());
    ASSERT_TRUE(reader);
    StoreWriter writer(open_ok(tmp.path(), false), nullptr, nullptr);
    Held held;
    held.post(writer);
    auto game = std::make_shared<std::atomic<std::int64_t>>(0);
    writer.post("a game", [game](Storage& s) {
        auto id = s.create_game(new_game(1));
        if (id) *game = *id;
        return id.has_value();
    });
    writer.post("ply 0", [game](Storage& s) { return s.append_move(*game, move(0, "h2e2")); });
    writer.post("ply 5", [game](Storage& s) { return s.append_move(*game, move(5, "h9g7")); });  // not the next ply
    // A game of several statements whose last one fails (a seat name over the stored
    // limit): its savepoint is rolled back, so no half game is left, and the rest commits.
    writer.post("a bad game", [](Storage& s) { return s.create_game(new_game(2, std::string(600, 'x'))).has_value(); });
    writer.post("ply 1", [game](Storage& s) { return s.append_move(*game, move(1, "h9g7")); });
    held.gate.set_value();
    writer.drain();
    EXPECT_EQ(writer.failed(), 2u);
    EXPECT_EQ(writer.commits(), 2u);  // the gate's, then one for the five behind it
    auto g = reader->get_game(*game);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), 2u);
    EXPECT_EQ(g->moves[0].move, "h2e2");
    EXPECT_EQ(g->moves[1].move, "h9g7");
    const auto games = reader->list_games({});
    ASSERT_EQ(games.size(), 1u);  // the bad game left nothing
    EXPECT_EQ(games[0].table_id, 1);
}

TEST(StoreWriter, DestructionCommitsWhatIsQueued) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    std::int64_t id = 0;
    {
        auto s = open_ok(tmp.path());
        ASSERT_TRUE(s);
        auto made = s->create_game(new_game(3));
        ASSERT_TRUE(made);
        id = *made;
    }
    {
        StoreWriter writer(open_ok(tmp.path(), false), nullptr, nullptr);
        for (int ply = 0; ply < 50; ++ply)
            writer.post("a move", [id, ply](Storage& s) { return s.append_move(id, move(ply, nth_move(ply))); });
    }
    auto reader = open_ok(tmp.path());
    ASSERT_TRUE(reader);
    auto g = reader->get_game(id);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->moves.size(), 50u);
}
