// External engines in AI seats, through a real server on loopback: the Debian
// fairy-stockfish plays the built-in AI through the referee; scripted engines that crash,
// hang or answer an illegal move lose their game (engine_failure) and the server plays on.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "harness.h"
#include "server/ai/engine_pool.h"

namespace xq::test {
namespace {

constexpr const char* FAIRY = "/usr/games/fairy-stockfish";
using Specs = std::vector<server::EngineSpec>;

// A directory of scripted engines, removed at the end.
class ScriptDir {
public:
    ScriptDir() {
        std::random_device rd;
        path_ = std::filesystem::temp_directory_path() / ("xq-engine-seat-" + std::to_string(::getpid()) + "-" +
                                                          std::to_string(rd()));
        std::filesystem::create_directories(path_);
    }
    ~ScriptDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    std::string script(const std::string& name, const std::string& body) const {
        const auto p = path_ / (name + ".sh");
        std::ofstream(p) << "#!/bin/sh\n" << body;
        ::chmod(p.c_str(), 0755);
        return p.string();
    }
    // A /bin/sh UCI engine: handshake, then `on_go` for every "go".
    std::string engine(const std::string& name, const std::string& on_go) const {
        const auto p = path_ / (name + ".sh");
        std::ofstream(p) << "#!/bin/sh\n"
                            "while read -r line; do\n"
                            "  case \"$line\" in\n"
                            "    uci) echo 'id name "
                         << name
                         << "'; echo uciok ;;\n"
                            "    isready) echo readyok ;;\n"
                            "    go*) "
                         << on_go
                         << " ;;\n"
                            "    quit) exit 0 ;;\n"
                            "  esac\n"
                            "done\n";
        ::chmod(p.c_str(), 0755);
        return p.string();
    }

private:
    std::filesystem::path path_;
};

// The lobby gets the pool before any table exists. Teardown order matters: the server's
// thread stops first (no new jobs), then the pool joins its workers (whose callbacks post
// into the server's io_context), and only then does the io_context go with the TestServer.
struct EngineServer {
    explicit EngineServer(std::vector<server::EngineSpec> specs)
        : pool(std::make_unique<server::EnginePool>(std::move(specs), 2)) {
        std::string err;
        started = pool->start(&err);
        EXPECT_TRUE(started) << err;
        server = std::make_unique<TestServer>();
        server->on_server([this](server::Server& s) {
            s.lobby().set_engines(pool.get());
            return 0;
        });
    }
    ~EngineServer() {
        server->stop();
        pool.reset();
        server.reset();
    }
    std::unique_ptr<server::EnginePool> pool;
    bool started = false;
    std::unique_ptr<TestServer> server;
};

// A spectating creator puts `red_engine` (or the built-in AI when empty) on Red and the
// built-in AI on Black, both at level 1. Returns the table id.
proto::TableId engine_table(Client& creator, const std::string& red_engine) {
    creator.send(proto::CreateTable{"engines", proto::Role::Spectator, ""});
    const auto id = creator.expect<proto::TableSnapshot>().table.id;
    proto::RequestAi red{id, RED, 1};
    red.engine = red_engine;
    creator.send(red);
    creator.send(proto::RequestAi{id, BLACK, 1});
    return id;
}

TEST(EngineSeat, FairyStockfishPlaysTheBuiltInAiThroughTheReferee) {
    ASSERT_EQ(::access(FAIRY, X_OK), 0) << FAIRY << " is missing: run tools/setup.sh (Debian package fairy-stockfish)";
    EngineServer s(Specs{{"fairy", FAIRY}});
    auto watcher = Client::login(s.server->port(), "watcher");
    ASSERT_EQ(watcher->welcome.engines, std::vector<std::string>{"fairy"});
    const auto id = engine_table(*watcher, "fairy");

    auto joined = watcher->expect<proto::PlayerJoined>();
    while (joined.role == proto::Role::Spectator) joined = watcher->expect<proto::PlayerJoined>();  // the watcher itself
    EXPECT_EQ(joined.name, "fairy");
    EXPECT_EQ(joined.engine, "fairy");
    EXPECT_EQ(joined.ai_level, 1);
    EXPECT_EQ(joined.role, proto::Role::Red);

    Game replay;  // every move_made must be legal in our own replay of the game
    int red_moves = 0, red_progress = 0;
    bool engine_in_info = false;
    while (replay.ply() < 8) {
        auto m = watcher->next(10'000ms);
        ASSERT_TRUE(m != nullptr) << "the game stalled at ply " << replay.ply();
        if (auto* p = std::get_if<proto::AiProgress>(&*m); p && p->seat == RED) ++red_progress;
        if (auto* u = std::get_if<proto::TableUpdate>(&*m); u && u->table.red)
            engine_in_info = engine_in_info || u->table.red->engine == "fairy";
        ASSERT_EQ(std::get_if<proto::GameOver>(&*m), nullptr) << "the game ended early";
        auto* mm = std::get_if<proto::MoveMade>(&*m);
        if (!mm) continue;
        ASSERT_EQ(mm->table, id);
        const Move mv(square_from_string(mm->move.substr(0, 2)), square_from_string(mm->move.substr(2, 2)));
        ASSERT_TRUE(replay.legal_moves().contains(mv)) << mm->move << " at ply " << replay.ply();
        EXPECT_EQ(mm->by, replay.side_to_move());
        replay.play(mv);
        EXPECT_EQ(mm->ply, replay.ply());
        EXPECT_EQ(mm->fen, replay.position().fen());
        if (mm->by == RED) ++red_moves;
    }
    EXPECT_EQ(red_moves, 4);
    EXPECT_GE(red_progress, 1) << "no ai_progress from the engine's info lines";
    EXPECT_TRUE(engine_in_info) << "seat info did not name the engine";
    // The server's own game agrees, and a late spectator's snapshot names the engine.
    auto late = Client::login(s.server->port(), "late");
    late->send(proto::Join{id, proto::Role::Spectator});
    const auto snap = late->expect<proto::TableSnapshot>();
    ASSERT_TRUE(snap.table.red.has_value());
    EXPECT_EQ(snap.table.red->engine, "fairy");
    EXPECT_GE(snap.ply, 8);
}

TEST(EngineSeat, HumanPlaysAnEngineAtLevelTen) {
    ASSERT_EQ(::access(FAIRY, X_OK), 0) << FAIRY << " is missing";
    EngineServer s(Specs{{"fairy", FAIRY}});
    auto human = Client::login(s.server->port(), "human");
    human->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto id = human->expect<proto::TableSnapshot>().table.id;
    proto::RequestAi ai{id, BLACK, 10};
    ai.engine = "fairy";
    human->send(ai);
    human->send(proto::MoveRequest{id, 0, "h2e2"});
    human->expect_ply(1);
    const auto reply = human->expect_ply(2, 10'000ms);  // level 10: 3.5 s of thinking
    EXPECT_EQ(reply.by, BLACK);
}

TEST(EngineSeat, UnknownEngineIsNoSuchEngine) {
    EngineServer s(Specs{});
    auto c = Client::login(s.server->port(), "asker");
    EXPECT_TRUE(c->welcome.engines.empty());
    c->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto id = c->expect<proto::TableSnapshot>().table.id;
    proto::RequestAi ai{id, BLACK, 3};
    ai.engine = "stockfish";
    c->send(ai);
    const auto e = c->expect_error(proto::ErrorCode::NoSuchEngine);
    EXPECT_NE(e.message.find("stockfish"), std::string::npos) << e.message;
    // Nothing changed: the seat is still empty.
    const bool empty = s.server->on_server([id](server::Server& srv) { return srv.lobby().table(id)->seat(BLACK).empty(); });
    EXPECT_TRUE(empty);
}

// One failing engine: the game ends with engine_failure, Black (the built-in AI) wins, and
// the server goes on serving (a new login, a ping, another table).
void expect_engine_failure(const std::string& on_go, const std::string& expect_in_text,
                           std::chrono::milliseconds within) {
    ScriptDir dir;
    EngineServer s(Specs{{"bad", dir.engine("bad", on_go)}});
    auto watcher = Client::login(s.server->port(), "watcher");
    engine_table(*watcher, "bad");
    const auto t0 = std::chrono::steady_clock::now();
    const auto over = watcher->expect<proto::GameOver>(within + 3000ms);
    EXPECT_EQ(over.result.reason, "engine_failure");
    EXPECT_EQ(over.result.outcome, Outcome::BlackWins);
    EXPECT_NE(over.result.text.find("engine bad"), std::string::npos) << over.result.text;
    EXPECT_NE(over.result.text.find(expect_in_text), std::string::npos) << over.result.text;
    EXPECT_EQ(over.ply, 0);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, within + 3000ms);

    auto other = Client::login(s.server->port(), "other");
    // The server lives on: a newcomer in the lobby gets its pong, and before it only lobby
    // news (nothing of the failed engine's table, no error).
    for (const auto& m : other->until_pong())
        EXPECT_TRUE((std::holds_alternative<proto::Tables>(m) || std::holds_alternative<proto::Users>(m) ||
                     std::holds_alternative<proto::UserJoined>(m) || std::holds_alternative<proto::UserLeft>(m) ||
                     std::holds_alternative<proto::TableUpdate>(m) || std::holds_alternative<proto::TableRemoved>(m)))
            << "a lobby newcomer got " << proto::type_name(m);
    other->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto snap = other->expect<proto::TableSnapshot>();
    other->send(proto::RequestAi{snap.table.id, BLACK, 1});
    other->send(proto::MoveRequest{snap.table.id, 0, "h2e2"});
    other->expect_ply(2, 5000ms);  // the built-in AI still answers
}

TEST(EngineSeat, CrashingEngineLosesAndTheServerLivesOn) {
    expect_engine_failure("kill -KILL $$", "crashed", 2000ms);
}

TEST(EngineSeat, HungEngineLosesAfterItsTimeAndTheStopGrace) {
    // Level 1: 100 ms, then the latency allowance and the stop grace.
    expect_engine_failure("sleep 30", "did not answer within its time", 100ms + server::ENGINE_LATENCY_ALLOWANCE +
                                                                            server::ENGINE_STOP_GRACE);
}

TEST(EngineSeat, IllegalMoveLosesTheGame) {
    expect_engine_failure("echo 'bestmove e0e5'", "illegal move", 2000ms);
}

TEST(EngineSeat, SkillLevelSpansTheNonNegativeRange) {
    using P = server::EnginePool;
    const server::ExternalEngine::SpinRange fairy{-20, 20};
    EXPECT_EQ(P::skill_for_level(1, fairy), 0);
    EXPECT_EQ(P::skill_for_level(10, fairy), 20);
    EXPECT_GT(P::skill_for_level(6, fairy), P::skill_for_level(5, fairy));
    const server::ExternalEngine::SpinRange small{1, 8};
    EXPECT_EQ(P::skill_for_level(1, small), 1);
    EXPECT_EQ(P::skill_for_level(10, small), 8);
}

TEST(EngineSeat, PoolRefusesAnEngineThatDoesNotSpeakUci) {
    ScriptDir dir;
    std::string err;
    // Exits at once instead of answering uci: the start check fails with a clear message.
    server::EnginePool quitter({{"quitter", dir.script("quitter", "exit 0\n")}}, 1);
    EXPECT_FALSE(quitter.start(&err));
    EXPECT_NE(err.find("quitter"), std::string::npos) << err;
    EXPECT_NE(err.find("UCI"), std::string::npos) << err;
    server::EnginePool missing({{"nothere", "/nonexistent/engine"}}, 1);
    EXPECT_FALSE(missing.start(&err));
    EXPECT_NE(err.find("nothere"), std::string::npos) << err;
}

}  // namespace
}  // namespace xq::test
