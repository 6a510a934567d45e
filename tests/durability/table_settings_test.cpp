// Per-table settings inside a server with its durability runtime: a table's own clock (a
// flag fall on a short one, the server's --clock for the others), settings that come back
// with the table after a restart on the same database, and the clock paths end to end:
// takebacks on running Fischer and Asian clocks (between players and against the AI), an
// Asian clock restored mid-countdown, and one crossing from main time into its countdown
// under a per-move limit. Loopback only; the clocks run on real time, in whole seconds.
#include "server/app/server_runtime.h"
#include "server/harness.h"
#include "temp_dir.h"

namespace xq::test {
namespace {

using proto::AbandonPolicy;
using proto::TableSettings;

// A server with the durability runtime and the built-in AI, in this process.
class SettingsServer {
public:
    SettingsServer(const TempDir& dir, const std::string& clock = "none") : config_(test_config()) {
        quiet_logs();
        server::RuntimeConfig dc;
        dc.data_dir = dir.path().string();
        dc.discovery_port = 0;
        dc.console = false;
        dc.clock = clock;
        ai_.emplace(config_.ai_workers, config_.ai_hash_mb);
        server_ = std::make_unique<server::Server>(io_, config_, &*ai_);
        EXPECT_FALSE(server_->listen());
        runtime_ = std::make_unique<server::ServerRuntime>(io_, *server_, config_, dc);
        std::string err;
        EXPECT_TRUE(runtime_->start(&err)) << err;
        thread_ = std::thread([this] { io_.run(); });
    }
    ~SettingsServer() {
        asio::post(io_, [this] {
            runtime_->stop();
            server_->stop();
        });
        thread_.join();
        runtime_.reset();
        server_.reset();
        ai_.reset();
    }
    std::uint16_t port() const { return server_->port(); }

private:
    server::ServerConfig config_;
    asio::io_context io_{1};
    std::optional<server::AiPool> ai_;
    std::unique_ptr<server::Server> server_;
    std::unique_ptr<server::ServerRuntime> runtime_;
    std::thread thread_;
};

struct Pair {
    std::unique_ptr<Client> red, black;
    proto::TableId table = 0;
    proto::TableInfo info;  // as the creator's snapshot had it
};

Pair seat_two(std::uint16_t port, const TableSettings& settings, const std::string& red = "ann",
              const std::string& black = "bob") {
    Pair p;
    p.red = Client::login(port, red);
    p.red->send(proto::CreateTable{"settings", proto::Role::Red, "", settings});
    p.info = p.red->expect<proto::TableSnapshot>().table;
    p.table = p.info.id;
    p.black = Client::login(port, black);
    p.black->send(proto::Join{p.table, proto::Role::Black});
    p.black->expect<proto::TableSnapshot>();
    p.red->until_pong();
    p.black->until_pong();
    return p;
}

// The table's clocks as a fresh snapshot has them.
proto::TableSnapshot sync(Client& c, proto::TableId table) {
    c.send(proto::Sync{table});
    return c.expect<proto::TableSnapshot>();
}

// Red asks for a takeback, Black accepts; both see it done.
proto::TakebackDone take_back(Pair& p) {
    p.red->send(proto::RequestTakeback{p.table});
    EXPECT_EQ(p.black->expect<proto::TakebackRequested>().by, RED);
    p.black->send(proto::AnswerTakeback{p.table, true});
    const auto done = p.red->expect<proto::TakebackDone>();
    EXPECT_EQ(p.black->expect<proto::TakebackDone>().ply, done.ply);
    return done;
}

}  // namespace

TEST(TableSettings, EachTableKeepsItsOwnClock) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    SettingsServer s(tmp, "fischer:600+0");
    // A table that asks for nothing gets the server's --clock.
    Pair slow = seat_two(s.port(), {});
    EXPECT_EQ(slow.info.settings.clock, "fischer:600+0");
    // A table with its own short clock: Black's one second runs out.
    TableSettings blitz;
    blitz.clock = "fischer:1+0";
    Pair fast = seat_two(s.port(), blitz, "cid", "dot");
    EXPECT_EQ(fast.info.settings.clock, "fischer:1+0");
    fast.red->send(proto::MoveRequest{fast.table, 0, "h2e2"});
    const auto mm = fast.black->expect<proto::MoveMade>();
    ASSERT_TRUE(mm.clocks.has_value());
    EXPECT_LE(mm.clocks->red_ms, 1000);
    EXPECT_EQ(mm.clocks->black_ms, 1000);
    const auto go = fast.red->expect<proto::GameOver>(4000ms);
    EXPECT_EQ(go.result.outcome, Outcome::RedWins);
    EXPECT_EQ(go.result.reason, "timeout");
    // The other table's clock is the long one and still runs.
    slow.red->send(proto::MoveRequest{slow.table, 0, "h2e2"});
    const auto slow_mm = slow.black->expect<proto::MoveMade>();
    ASSERT_TRUE(slow_mm.clocks.has_value());
    EXPECT_GT(slow_mm.clocks->red_ms, 590'000);
    EXPECT_EQ(slow_mm.clocks->black_ms, 600'000);
    slow.black->send(proto::Sync{slow.table});
    EXPECT_FALSE(slow.black->expect<proto::TableSnapshot>().result.has_value());
    // And a table that asks for no clock has none.
    TableSettings untimed;
    untimed.clock = "none";
    auto eve = Client::login(s.port(), "eve");
    eve->send(proto::CreateTable{"", proto::Role::Red, "", untimed});
    const auto snap = eve->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.settings.clock, "none");
    EXPECT_FALSE(snap.clocks.has_value());
}

TEST(TableSettings, SettingsSurviveARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    TableSettings asked{"fischer:300+5", 120, AbandonPolicy::Ai, 3, false};
    asked.hints = true;
    std::string ann_token;
    proto::TableId table = 0;
    std::string hinted;
    {
        SettingsServer s(tmp);
        Pair p = seat_two(s.port(), asked);
        EXPECT_EQ(p.info.settings, asked);
        table = p.table;
        ann_token = p.red->welcome.resume_token;
        // A hint (the table allows them) goes into the game record before ann's move.
        p.red->send(proto::RequestHint{p.table});
        hinted = p.red->expect<proto::Hint>(30000ms).move;
        p.black->expect<proto::HintUsed>();
        p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
        p.black->expect<proto::MoveMade>();
    }
    SettingsServer s(tmp);
    auto ann = std::make_unique<Client>(s.port());
    ann->send(proto::Hello{"ann", proto::PROTOCOL_VERSION, ann_token});
    ASSERT_TRUE(ann->expect<proto::Welcome>().resumed);
    const auto snap = ann->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    EXPECT_EQ(snap.ply, 1);
    EXPECT_EQ(snap.table.settings, asked);
    ASSERT_TRUE(snap.clocks.has_value());
    // Bob's seat waits with a grace counted from the restart (the table's 120 s).
    ASSERT_TRUE(snap.table.black.has_value());
    EXPECT_FALSE(snap.table.black->connected);
    ASSERT_TRUE(snap.table.black->grace_ms.has_value());
    EXPECT_GT(*snap.table.black->grace_ms, 100'000);
    EXPECT_LE(*snap.table.black->grace_ms, 120'000);
    // The restored table still refuses takebacks.
    ann->send(proto::RequestTakeback{table});
    ann->expect_error(proto::ErrorCode::NotAllowed);
    // Others see the settings in the lobby too.
    auto eve = Client::login(s.port(), "eve");
    eve->send(proto::ListTables{});
    const auto list = eve->expect<proto::Tables>();
    ASSERT_EQ(list.tables.size(), 1u);
    EXPECT_EQ(list.tables[0].settings, asked);
    // The game record counts ann's hint and has it as an event at ply 0 (the move shown).
    eve->send(proto::ListGames{"ann", 0, 0});
    const auto games = eve->expect<proto::Games>();
    ASSERT_EQ(games.games.size(), 1u);
    eve->send(proto::GetGame{games.games[0].id});
    const auto rec = eve->expect<proto::GameRecord>();
    EXPECT_EQ(rec.red_hints, 1);
    EXPECT_EQ(rec.black_hints, 0);
    ASSERT_EQ(rec.events.size(), 1u);
    EXPECT_EQ(rec.events[0].kind, "hint");
    EXPECT_EQ(rec.events[0].ply, 0);
    EXPECT_EQ(rec.events[0].text, "ann (Red) was shown " + hinted);
}

// A takeback while a Fischer clock runs (TableGameClock::position_reset, takeback branch):
// the clock goes on for the side to move with the times as they were, without a fresh
// start or an increment, and its flag still falls.
TEST(TableClocks, TakebackOnARunningFischerClockKeepsTheTimesAndTheFlag) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    SettingsServer s(tmp);
    TableSettings ts;
    ts.clock = "fischer:3+1";
    Pair p = seat_two(s.port(), ts);
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    p.black->expect_ply(1);
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    const auto m2 = p.red->expect_ply(2);
    ASSERT_TRUE(m2.clocks.has_value());
    EXPECT_GT(m2.clocks->red_ms, 3000);  // the increment of Red's move
    EXPECT_LE(m2.clocks->red_ms, 4000);
    const auto done = take_back(p);
    EXPECT_EQ(done.plies, 2);
    EXPECT_EQ(done.ply, 0);
    const auto snap = sync(*p.red, p.table);
    EXPECT_EQ(snap.ply, 0);
    EXPECT_FALSE(snap.result.has_value());
    ASSERT_TRUE(snap.clocks.has_value());
    ASSERT_TRUE(snap.clocks->running.has_value());
    EXPECT_EQ(*snap.clocks->running, RED);
    EXPECT_LE(snap.clocks->red_ms, m2.clocks->red_ms) << "Red's time was not reset by the takeback";
    EXPECT_GT(snap.clocks->red_ms, 1000);
    EXPECT_EQ(snap.clocks->black_ms, m2.clocks->black_ms) << "Black's time is kept as it was";
    // Red does not move again: Red's flag falls, on the clock that kept running.
    const auto over = p.black->expect<proto::GameOver>(8000ms);
    EXPECT_EQ(over.result.reason, "timeout");
    EXPECT_EQ(over.result.outcome, Outcome::BlackWins);
    EXPECT_EQ(over.ply, 0);
}

// A two-ply takeback against the AI on a Fischer clock: granted at once, the AI's time and
// the player's stay as they were, the AI waits for the player's new move and answers it.
TEST(TableClocks, TwoPlyTakebackAgainstTheAiOnAFischerClock) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    SettingsServer s(tmp);
    auto ann = Client::login(s.port(), "ann");
    TableSettings ts;
    ts.clock = "fischer:60+0";
    ann->send(proto::CreateTable{"vs AI", proto::Role::Red, "", ts});
    const auto table = ann->expect<proto::TableSnapshot>().table.id;
    ann->send(proto::RequestAi{table, BLACK, 1});
    ann->send(proto::MoveRequest{table, 0, "h2e2"});
    const auto ai = ann->expect_ply(2, 10'000ms);
    EXPECT_EQ(ai.by, BLACK);
    ASSERT_TRUE(ai.clocks.has_value());
    ann->send(proto::RequestTakeback{table});
    EXPECT_TRUE(ann->expect<proto::TakebackAnswered>().accept);
    const auto done = ann->expect<proto::TakebackDone>();
    EXPECT_EQ(done.plies, 2);
    EXPECT_EQ(done.ply, 0);
    const auto snap = sync(*ann, table);
    ASSERT_TRUE(snap.clocks.has_value());
    ASSERT_TRUE(snap.clocks->running.has_value());
    EXPECT_EQ(*snap.clocks->running, RED);
    EXPECT_EQ(snap.clocks->black_ms, ai.clocks->black_ms);
    EXPECT_LE(snap.clocks->red_ms, ai.clocks->red_ms);
    EXPECT_GT(snap.clocks->red_ms, 50'000);
    // It is Red's move: the AI does not play for either side meanwhile.
    for (const auto& m : ann->until_pong()) EXPECT_FALSE(std::holds_alternative<proto::MoveMade>(m));
    ann->send(proto::MoveRequest{table, 0, "b2e2"});
    EXPECT_EQ(ann->expect_ply(1).move, "b2e2");
    const auto again = ann->expect_ply(2, 10'000ms);
    EXPECT_EQ(again.by, BLACK);
    ASSERT_TRUE(again.clocks.has_value());
    EXPECT_LE(again.clocks->black_ms, ai.clocks->black_ms) << "the AI's clock went on from where it was";
}

// Timing-sensitive (whole seconds of real time, with at least 0.7 s of slack on each side of
// every window): a takeback while one side is in the Asian countdown. The side keeps its
// countdown, which starts afresh for each of its moves, and its flag falls on it.
TEST(TableClocks, TakebackInTheAsianCountdown) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    SettingsServer s(tmp);
    TableSettings ts;
    ts.clock = "asian:2/0/4";  // 2 s of main time, then 4 s for every move
    Pair p = seat_two(s.port(), ts);
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    p.black->expect_ply(1);
    std::this_thread::sleep_for(2300ms);  // Black spends its main time: into the countdown
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    const auto m2 = p.red->expect_ply(2);
    ASSERT_TRUE(m2.clocks.has_value());
    EXPECT_EQ(m2.clocks->black_ms, 4000) << "Black's next move has the whole countdown";
    EXPECT_GT(m2.clocks->red_ms, 1000);
    take_back(p);
    auto snap = sync(*p.red, p.table);
    ASSERT_TRUE(snap.clocks.has_value());
    EXPECT_EQ(snap.clocks->black_ms, 4000) << "the takeback kept Black in the countdown";
    EXPECT_EQ(snap.ply, 0);
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    const auto m3 = p.black->expect_ply(1);
    ASSERT_TRUE(m3.clocks.has_value());
    EXPECT_LE(m3.clocks->black_ms, 4000);
    EXPECT_GT(m3.clocks->black_ms, 3000);
    // Under the countdown, not the (spent) main time: 1.5 s for this move is fine.
    std::this_thread::sleep_for(1500ms);
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    EXPECT_EQ(p.red->expect_ply(2).move, "h9g7");
    p.red->send(proto::MoveRequest{p.table, 2, "b2c2"});
    EXPECT_EQ(p.black->expect_ply(3).move, "b2c2");
    // Black does not answer: its countdown runs out.
    const auto over = p.red->expect<proto::GameOver>(8000ms);
    EXPECT_EQ(over.result.reason, "timeout");
    EXPECT_EQ(over.result.outcome, Outcome::RedWins);
    EXPECT_EQ(over.ply, 3);
}

// Timing-sensitive (as above): an Asian clock restored after a restart while the side to
// move is in its countdown comes back in the countdown (not with the spent main time, which
// would flag at once), with the countdown started afresh from the restart.
TEST(TableClocks, AsianClockRestoredMidCountdownAfterARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    TableSettings ts;
    ts.clock = "asian:1/0/30";
    std::string ann_token, bob_token;
    proto::TableId table = 0;
    std::int64_t black_main = 0;
    {
        SettingsServer s(tmp);
        Pair p = seat_two(s.port(), ts);
        table = p.table;
        ann_token = p.red->welcome.resume_token;
        bob_token = p.black->welcome.resume_token;
        std::this_thread::sleep_for(1300ms);  // Red spends its main time
        p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
        p.black->expect_ply(1);
        p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
        const auto m2 = p.red->expect_ply(2);
        ASSERT_TRUE(m2.clocks.has_value());
        EXPECT_LE(m2.clocks->red_ms, 30'000);
        EXPECT_GT(m2.clocks->red_ms, 25'000);
        black_main = m2.clocks->black_ms;
        EXPECT_LE(black_main, 1000);
        EXPECT_GT(black_main, 0);
        p.red->until_pong();
    }
    SettingsServer s(tmp);
    auto ann = std::make_unique<Client>(s.port());
    ann->send(proto::Hello{"ann", proto::PROTOCOL_VERSION, ann_token});
    ASSERT_TRUE(ann->expect<proto::Welcome>().resumed);
    auto snap = ann->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    EXPECT_EQ(snap.ply, 2);
    ASSERT_TRUE(snap.clocks.has_value());
    EXPECT_EQ(snap.clocks->black_ms, black_main) << "Black's main time as stored";
    EXPECT_GT(snap.clocks->red_ms, 25'000) << "Red is still in the countdown";
    EXPECT_LE(snap.clocks->red_ms, 30'000);
    auto bob = std::make_unique<Client>(s.port());
    bob->send(proto::Hello{"bob", proto::PROTOCOL_VERSION, bob_token});
    ASSERT_TRUE(bob->expect<proto::Welcome>().resumed);
    bob->expect<proto::TableSnapshot>();
    // A few seconds after the restart Red's move is still in time, and its next move again
    // has the whole countdown.
    std::this_thread::sleep_for(1500ms);
    ann->send(proto::MoveRequest{table, 2, "b2c2"});
    const auto m3 = bob->expect_ply(3);
    EXPECT_EQ(m3.ply, 3);
    ASSERT_TRUE(m3.clocks.has_value());
    EXPECT_EQ(m3.clocks->red_ms, 30'000);
    EXPECT_FALSE(sync(*ann, table).result.has_value());
}

// Timing-sensitive (as above): an Asian clock with a per-move limit and a countdown. While
// main time lasts each move is held to the limit; the move that spends the last main time
// crosses into the countdown, after which a move may take longer than the limit (up to the
// countdown), and the countdown's end is a flag fall.
TEST(TableClocks, AsianClockCrossesFromMainTimeIntoCountdownUnderAMoveLimit) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    SettingsServer s(tmp);
    TableSettings ts;
    ts.clock = "asian:4/2/3";  // 4 s main, at most 2 s a move while it lasts, then 3 s a move
    Pair p = seat_two(s.port(), ts);
    const std::vector<std::string> red = {"h2e2", "h0g2", "i0h0", "b2c2"};
    const std::vector<std::string> black = {"h9g7", "i9h9", "b7c7"};
    std::vector<std::int64_t> red_after;  // Red's time as Black's move_made shows it
    for (int i = 0; i < 3; ++i) {
        std::this_thread::sleep_for(1400ms);  // under the 2 s limit; three of them spend the 4 s
        p.red->send(proto::MoveRequest{p.table, 2 * i, red[std::size_t(i)]});
        const auto mm = p.black->expect_ply(2 * i + 1);
        ASSERT_EQ(mm.move, red[std::size_t(i)]) << "Red's move " << i + 1 << " was refused or flagged";
        ASSERT_TRUE(mm.clocks.has_value());
        red_after.push_back(mm.clocks->red_ms);
        p.black->send(proto::MoveRequest{p.table, 2 * i + 1, black[std::size_t(i)]});
        ASSERT_EQ(p.red->expect_ply(2 * i + 2).move, black[std::size_t(i)]);
    }
    // Main time after the first two moves, then the countdown for every next move.
    EXPECT_LE(red_after[0], 2600);
    EXPECT_GT(red_after[0], 1500);
    EXPECT_LE(red_after[1], 1200);
    EXPECT_GT(red_after[1], 0);
    EXPECT_EQ(red_after[2], 3000) << "the third move crossed into the countdown";
    // In the countdown the 2 s limit is gone: 2.3 s for this move is in time.
    std::this_thread::sleep_for(2300ms);
    p.red->send(proto::MoveRequest{p.table, 6, red[3]});
    const auto late = p.black->expect_ply(7);
    EXPECT_EQ(late.move, red[3]);
    ASSERT_TRUE(late.clocks.has_value());
    EXPECT_EQ(late.clocks->red_ms, 3000);
    p.black->send(proto::MoveRequest{p.table, 7, "a9a8"});
    EXPECT_EQ(p.red->expect_ply(8).move, "a9a8");
    // Red does not move again: the countdown runs out.
    const auto over = p.black->expect<proto::GameOver>(7000ms);
    EXPECT_EQ(over.result.reason, "timeout");
    EXPECT_EQ(over.result.outcome, Outcome::BlackWins);
}

}  // namespace xq::test
