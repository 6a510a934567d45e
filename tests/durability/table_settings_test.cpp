// Per-table settings inside a server with its durability runtime: a table's own clock (a
// flag fall on a short one, the server's --clock for the others), and settings that come
// back with the table after a restart on the same database. Loopback only.
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
        spdlog::set_level(spdlog::level::warn);
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
    const TableSettings asked{"fischer:300+5", 120, AbandonPolicy::Ai, 3, false};
    std::string ann_token;
    proto::TableId table = 0;
    {
        SettingsServer s(tmp);
        Pair p = seat_two(s.port(), asked);
        EXPECT_EQ(p.info.settings, asked);
        table = p.table;
        ann_token = p.red->welcome.resume_token;
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
}

}  // namespace xq::test
