// The durability layer inside a real server: moves committed before they are seen (a real
// xiangqi-server process killed with SIGKILL, then restarted on the same database file),
// reconnect into a restored game, clocks ending games, discovery of a running server, the
// operator console, and the archive export. Loopback only.
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <future>
#include <random>

#include "server/admin/admin_command.h"
#include "server/store/archive.h"
#include "client/net/lan_discovery.h"
#include "server/app/archive_command.h"
#include "server/app/server_runtime.h"
#include "server/identity/account_store.h"
#include "durability/durable_server.h"
#include "server/harness.h"
#include "server/store/storage.h"
#include "rules/repetition_cases.h"
#include "temp_dir.h"
#include "xiangqi/pgn.h"

namespace xq::test {
namespace {

std::uint16_t free_port(bool udp = false) {
    int fd = ::socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

struct Pair {
    std::unique_ptr<Client> red, black;
    proto::TableId table = 0;
};

Pair seat_two(std::uint16_t port) {
    Pair p;
    p.red = Client::login(port, "ann");
    p.red->send(proto::CreateTable{"durable", proto::Role::Red, ""});
    p.table = p.red->expect<proto::TableSnapshot>().table.id;
    p.black = Client::login(port, "bob");
    p.black->send(proto::Join{p.table, proto::Role::Black});
    p.black->expect<proto::TableSnapshot>();
    p.red->until_pong();
    p.black->until_pong();
    return p;
}

// A legal move of the position after `moves` (from the start), picked at random.
std::string random_move(const std::vector<std::string>& moves, std::mt19937& rng) {
    Game g;
    for (const auto& m : moves) g.play(Move(square_from_string(m.substr(0, 2)), square_from_string(m.substr(2, 2))));
    MoveList list = g.legal_moves();
    if (list.empty()) return "";
    return move_to_iccs(list[int(rng() % unsigned(list.size()))]);
}

// The real executable, started with fork/exec; killed for real (kill9) or stopped with
// SIGTERM, after which it must exit 0.
class ServerProcess {
public:
    ServerProcess(const std::filesystem::path& data_dir, std::uint16_t port, const std::filesystem::path& log,
                  const std::vector<std::string>& extra = {})
        : log_(log) {
        std::vector<std::string> args = {XQ_SERVER_EXE, "--bind", "127.0.0.1", "--port", std::to_string(port),
                                         "--data-dir", data_dir.string(), "--discovery-port", "0", "--no-console",
                                         "--ai-workers", "1", "--log-level", "warn"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            int null = ::open("/dev/null", O_RDONLY);
            ::dup2(null, 0);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        // Ready once it accepts connections; a server that never gets there fails the test
        // (with its log), it is not waited on in silence.
        for (int i = 0; i < 1000 && !ready(port); ++i) {
            if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
                pid_ = -1;
                ADD_FAILURE() << "the server exited (status " << status_ << ") before it accepted connections; log:\n"
                              << read_log(log);
                return;
            }
            ::usleep(10'000);
        }
        if (!ready(port)) ADD_FAILURE() << "the server never accepted connections on port " << port << "; log:\n" << read_log(log);
    }
    // A server the test did not kill on purpose is stopped cleanly at the end.
    ~ServerProcess() { stop(); }
    void kill9() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status_, 0);
        pid_ = -1;
    }
    // SIGTERM, as an operator stops it: the server must exit 0 within 30 s (under the
    // sanitizers LeakSanitizer then checks it; a report makes the exit status non-zero).
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        bool exited = false;
        for (int i = 0; i < 3000 && !exited; ++i) {
            exited = ::waitpid(pid_, &status_, WNOHANG) == pid_;
            if (!exited) ::usleep(10'000);
        }
        if (!exited) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status_, 0);
            ADD_FAILURE() << "the server did not exit within 30 s of SIGTERM; log:\n" << read_log(log_);
        } else {
            EXPECT_TRUE(WIFEXITED(status_) && WEXITSTATUS(status_) == 0)
                << "the server's exit status after SIGTERM is " << status_ << "; log:\n" << read_log(log_);
        }
        pid_ = -1;
    }
    int status() const { return status_; }

private:
    static std::string read_log(const std::filesystem::path& log) {
        std::ifstream in(log);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return text.size() > 4000 ? text.substr(text.size() - 4000) : text;
    }
    static bool ready(std::uint16_t port) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
    pid_t pid_ = -1;
    int status_ = 0;
    std::filesystem::path log_;
};

}  // namespace

// The server process is killed with SIGKILL while both players send moves as fast as they
// can; every move either player saw must be in the database, in order. Then a new server
// on the same file restores the game and both players reconnect into their seats.
TEST(Durability, KillNineLosesNoSeenMoveAndPlayersReconnectAfterRestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    std::mt19937 rng(20261129);
    std::vector<std::string> seen;  // moves as the clients saw them
    std::string red_token, black_token;
    proto::TableId table = 0;
    {
        ServerProcess proc(data, port, log);
        Pair p = seat_two(port);
        table = p.table;
        red_token = p.red->welcome.resume_token;
        black_token = p.black->welcome.resume_token;
        ASSERT_EQ(red_token.size(), 32u);  // 128 bits in hex
        const int kill_after = 20 + int(rng() % 20);
        for (int ply = 0; ply < 200; ++ply) {
            std::string mv = random_move(seen, rng);
            if (mv.empty()) break;
            Client& mover = ply % 2 == 0 ? *p.red : *p.black;
            mover.send(proto::MoveRequest{table, ply, mv});
            if (ply == kill_after) {
                proc.kill9();  // right after a move went out: it may or may not have landed
                break;
            }
            auto mm = p.red->expect<proto::MoveMade>();
            ASSERT_EQ(mm.move, mv);
            EXPECT_EQ(p.black->expect<proto::MoveMade>().move, mv);
            seen.push_back(mv);
            if (ply + 1 < kill_after && (rng() % 4) == 0) p.red->until_pong();
        }
        EXPECT_TRUE(WIFSIGNALED(proc.status()) && WTERMSIG(proc.status()) == SIGKILL);
        // A move_made that slipped out just before the kill counts as seen too.
        while (auto m = p.red->next(300ms))
            if (auto* mm = std::get_if<proto::MoveMade>(&*m)) seen.push_back(mm->move);
    }
    ASSERT_GE(seen.size(), 20u);
    {
        std::string err;
        auto db = server::Storage::open(data, &err);
        ASSERT_TRUE(db) << err;
        auto games = db->unfinished_games();
        ASSERT_EQ(games.size(), 1u);
        ASSERT_GE(games[0].moves.size(), seen.size());
        for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(games[0].moves[i].move, seen[i]) << "ply " << i;
        seen.clear();
        for (const auto& m : games[0].moves) seen.push_back(m.move);  // what the server committed
    }
    // Restart on the same file: the game is back, the seats wait for their tokens.
    ServerProcess proc(data, port, log);
    auto red = std::make_unique<Client>(port);
    red->send(proto::Hello{"someone", proto::PROTOCOL_VERSION, red_token});
    auto w = red->expect<proto::Welcome>();
    EXPECT_TRUE(w.resumed);
    EXPECT_EQ(w.name, "ann");
    auto snap = red->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    EXPECT_EQ(snap.you, proto::Role::Red);
    ASSERT_EQ(snap.moves, seen);
    EXPECT_EQ(snap.ply, int(seen.size()));
    // A wrong token does not get the other seat.
    auto thief = std::make_unique<Client>(port);
    thief->send(proto::Hello{"mallory", proto::PROTOCOL_VERSION, std::string(32, '0')});
    auto tw = thief->expect<proto::Welcome>();
    EXPECT_FALSE(tw.resumed);
    thief->send(proto::MoveRequest{table, int(seen.size()), random_move(seen, rng)});
    EXPECT_NE(thief->expect<proto::Error>().code, proto::ErrorCode::Internal);
    auto black = std::make_unique<Client>(port);
    black->send(proto::Hello{"bob", proto::PROTOCOL_VERSION, black_token});
    EXPECT_TRUE(black->expect<proto::Welcome>().resumed);
    EXPECT_EQ(black->expect<proto::TableSnapshot>().you, proto::Role::Black);
    // And the game goes on from where it was.
    const int ply = int(seen.size());
    std::string mv = random_move(seen, rng);
    Client& mover = ply % 2 == 0 ? *red : *black;
    mover.send(proto::MoveRequest{table, ply, mv});
    auto mm = red->expect<proto::MoveMade>();
    EXPECT_EQ(mm.move, mv);
    EXPECT_EQ(mm.ply, ply + 1);
}

TEST(Durability, FischerFlagFallEndsTheGame) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.clock = "fischer:1+0";
    DurableServer s(test_config(), dc);
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    auto mm = p.black->expect<proto::MoveMade>();
    ASSERT_TRUE(mm.clocks.has_value());
    EXPECT_EQ(mm.clocks->running, std::optional<Color>(BLACK));
    EXPECT_LE(mm.clocks->red_ms, 1000);
    EXPECT_EQ(mm.clocks->black_ms, 1000);
    // Black never moves: its second runs out.
    auto go = p.red->expect<proto::GameOver>(3000ms);
    EXPECT_EQ(go.result.outcome, Outcome::RedWins);
    EXPECT_EQ(go.result.reason, "timeout");
    // The archive has it.
    auto archived = s.on_server([](server::Server&, server::ServerRuntime& r) {
        return r.storage()->list_games({});
    });
    ASSERT_EQ(archived.size(), 1u);
    EXPECT_EQ(archived[0].reason, "timeout");
    EXPECT_EQ(archived[0].result, "1-0");
    EXPECT_EQ(archived[0].plies, 1);
}

TEST(Durability, AsianCountdownFlagFallEndsTheGame) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.clock = "asian:0/0/1";  // every move within one second
    DurableServer s(test_config(), dc);
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    p.black->expect<proto::MoveMade>();
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    auto mm = p.red->expect_ply(2);
    ASSERT_TRUE(mm.clocks.has_value());
    EXPECT_EQ(mm.clocks->black_ms, 1000);  // the countdown starts afresh for every move
    auto go = p.black->expect<proto::GameOver>(3000ms);
    EXPECT_EQ(go.result.outcome, Outcome::BlackWins);
    EXPECT_EQ(go.result.reason, "timeout");
}

TEST(Durability, SnapshotCarriesClocks) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.clock = "fischer:300+5";
    DurableServer s(test_config(), dc);
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    p.black->expect<proto::MoveMade>();
    auto spec = Client::login(s.port(), "carol");
    spec->send(proto::Join{p.table, proto::Role::Spectator});
    auto snap = spec->expect<proto::TableSnapshot>();
    ASSERT_TRUE(snap.clocks.has_value());
    EXPECT_GT(snap.clocks->red_ms, 300'000);  // 5 s increment after the first move
    EXPECT_LE(snap.clocks->black_ms, 300'000);
    EXPECT_EQ(snap.clocks->running, std::optional<Color>(BLACK));
}

TEST(Durability, DiscoveryOnLoopbackFindsTheRunningServer) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.discovery_bind = "127.0.0.1";
    dc.discovery_port = free_port(true);
    auto cfg = test_config();
    cfg.name = "Durable club";
    DurableServer s(cfg, dc);
    Pair p = seat_two(s.port());
    proto::DiscoveryTarget target{"127.0.0.1", dc.discovery_port};
    ASSERT_TRUE(proto::is_loopback_target(target));
    auto found = client::probe_lan(target, 300ms);
    ASSERT_EQ(found.error, "");
    ASSERT_EQ(found.servers.size(), 1u);
    EXPECT_EQ(found.servers[0].info.name, "Durable club");
    EXPECT_EQ(found.servers[0].info.port, s.port());
    EXPECT_EQ(found.servers[0].info.tables, 1);
    EXPECT_EQ(found.servers[0].info.players, 2);
}

// --advertise-port: behind a published port (docker -p 6000:5050) the answer must name the
// port clients can reach, not the one the server listens on.
TEST(Durability, DiscoveryAnswerNamesTheAdvertisedPort) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.discovery_bind = "127.0.0.1";
    dc.discovery_port = free_port(true);
    DurableServer plain(test_config(), dc);
    auto found = client::probe_lan(proto::DiscoveryTarget{"127.0.0.1", dc.discovery_port}, 300ms);
    ASSERT_EQ(found.servers.size(), 1u) << found.error;
    EXPECT_EQ(found.servers[0].info.port, plain.port());

    TempDir tmp2;
    auto dc2 = quiet(tmp2);
    dc2.discovery_bind = "127.0.0.1";
    dc2.discovery_port = free_port(true);
    dc2.advertise_port = plain.port() == 6123 ? 6124 : 6123;
    DurableServer behind(test_config(), dc2);
    ASSERT_NE(behind.port(), dc2.advertise_port);
    found = client::probe_lan(proto::DiscoveryTarget{"127.0.0.1", dc2.discovery_port}, 300ms);
    ASSERT_EQ(found.servers.size(), 1u) << found.error;
    EXPECT_EQ(found.servers[0].info.port, dc2.advertise_port);
}

TEST(Durability, DiscoveryAnswerSaysWhetherAPasswordIsNeeded) {
    for (const bool with_password : {false, true}) {
        TempDir tmp;
        auto dc = quiet(tmp);
        dc.discovery_bind = "127.0.0.1";
        dc.discovery_port = free_port(true);
        auto cfg = test_config();
        if (with_password) cfg.password = "club";
        DurableServer s(cfg, dc);
        auto found = client::probe_lan(proto::DiscoveryTarget{"127.0.0.1", dc.discovery_port}, 300ms);
        ASSERT_EQ(found.servers.size(), 1u) << found.error;
        EXPECT_EQ(found.servers[0].info.password, with_password);
    }
}

// An engine seat survives kill -9: the restarted server (same --engine) puts the engine
// back in its seat and it answers the returning player's next move.
TEST(Durability, EngineSeatIsRestoredAfterKillNine) {
    const char* fairy = "/usr/games/fairy-stockfish";
    ASSERT_EQ(::access(fairy, X_OK), 0) << fairy << " is missing: run tools/setup.sh";
    TempDir tmp;
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    const std::vector<std::string> engine = {"--engine", std::string("fairy=") + fairy};
    std::string token;
    proto::TableId table = 0;
    {
        ServerProcess proc(data, port, log, engine);
        auto human = Client::login(port, "hana");
        ASSERT_EQ(human->welcome.engines, std::vector<std::string>{"fairy"});
        token = human->welcome.resume_token;
        human->send(proto::CreateTable{"vs engine", proto::Role::Red, ""});
        table = human->expect<proto::TableSnapshot>().table.id;
        proto::RequestAi ai{table, BLACK, 1};
        ai.engine = "fairy";
        human->send(ai);
        human->send(proto::MoveRequest{table, 0, "h2e2"});
        EXPECT_EQ(human->expect_ply(2, 5000ms).by, BLACK);
        human->until_pong();
        proc.kill9();
    }
    ServerProcess proc(data, port, log, engine);
    auto back = std::make_unique<Client>(port);
    proto::Hello h{"anyone", proto::PROTOCOL_VERSION, token};
    back->send(h);
    const auto w = back->expect<proto::Welcome>();
    EXPECT_TRUE(w.resumed);
    const auto snap = back->expect<proto::TableSnapshot>();
    ASSERT_EQ(snap.table.id, table);
    ASSERT_TRUE(snap.table.black.has_value());
    EXPECT_EQ(snap.table.black->engine, "fairy");
    EXPECT_EQ(snap.table.black->ai_level, 1);
    ASSERT_EQ(snap.ply, 2);
    // Red's cannon takes nothing yet: any legal reply will do; the engine must answer it.
    Game g;
    for (const auto& m : snap.moves) g.play(Move(square_from_string(m.substr(0, 2)), square_from_string(m.substr(2, 2))));
    const std::string next = move_to_iccs(g.legal_moves()[0]);
    back->send(proto::MoveRequest{table, 2, next});
    EXPECT_EQ(back->expect_ply(3).move, next);
    EXPECT_EQ(back->expect_ply(4, 5000ms).by, BLACK);
}

TEST(Durability, ConsoleListsKicksBansAndBroadcasts) {
    TempDir tmp;
    DurableServer s(test_config(), quiet(tmp));
    auto ann = Client::login(s.port(), "ann");
    auto troll = Client::login(s.port(), "troll");
    auto run = [&](std::string_view line) {
        auto cmd = server::parse_admin_command(line);
        EXPECT_TRUE(cmd) << line;
        return s.on_server([&](server::Server&, server::ServerRuntime& r) { return r.execute(*cmd); });
    };
    auto list = run("list");
    EXPECT_NE(list.find("2 user(s)"), std::string::npos) << list;
    EXPECT_NE(list.find("troll"), std::string::npos);
    EXPECT_NE(run("say hello everyone").find("sent"), std::string::npos);
    // A notice of its own type, never a chat line a user could imitate.
    auto notice = ann->expect<proto::Notice>();
    EXPECT_EQ(notice.text, "hello everyone");
    EXPECT_NE(run("ban troll").find("kicked"), std::string::npos);
    troll->expect_error(proto::ErrorCode::Banned);  // a ban says so, a kick is not_allowed
    EXPECT_TRUE(troll->wait_closed());
    // The banned nick is refused at hello, and so are its look-alikes (issue #15's probes);
    // others still get in.
    for (const std::string probe : {"troll", "Troll", "TROLL", "tro\u200bll", "troll\u200d", "\u202etroll", "tr0ll"}) {
        auto again = std::make_unique<Client>(s.port());
        again->send(proto::Hello{probe, proto::PROTOCOL_VERSION, ""});
        again->expect_error(probe == "troll" || probe == "Troll" || probe == "TROLL" || probe == "tr0ll"
                                               ? proto::ErrorCode::Banned
                                               : proto::ErrorCode::BadName);
        EXPECT_TRUE(again->wait_closed()) << probe;
    }
    EXPECT_NE(run("bans").find("nick troll"), std::string::npos);
    EXPECT_NE(run("unban troll").find("unbanned"), std::string::npos);
    auto back = Client::login(s.port(), "troll");
    EXPECT_EQ(back->welcome.name, "troll");
    EXPECT_NE(run("kick nobody").find("no user"), std::string::npos);
}

// The console's account commands through the real runtime: the account lives in the games
// database, so it is still there after a restart; guests cannot take its name.
TEST(Durability, ConsoleAccountsLiveInTheGamesDatabase) {
    TempDir tmp;
    std::string password;
    auto run = [](DurableServer& s, std::string_view line) {
        auto cmd = server::parse_admin_command(line);
        EXPECT_TRUE(cmd) << line;
        auto done = std::make_shared<std::promise<std::string>>();
        s.on_server([&](server::Server&, server::ServerRuntime& r) {
            return r.execute(*cmd, [done](std::string text) { done->set_value(std::move(text)); });
        });
        return done->get_future().get();
    };
    {
        DurableServer s(test_config(), quiet(tmp));
        const std::string said = run(s, "account add Mei Lin");
        const std::string marker = "its password: ";
        ASSERT_NE(said.find(marker), std::string::npos) << said;
        password = said.substr(said.find(marker) + marker.size());
        password.pop_back();
    }
    DurableServer s(test_config(), quiet(tmp));
    EXPECT_NE(run(s, "accounts").find("Mei Lin"), std::string::npos);
    auto guest = std::make_unique<Client>(s.port());
    guest->send(proto::Hello{"mei lin", proto::PROTOCOL_VERSION, ""});
    guest->expect_error(proto::ErrorCode::AccountRequired);
    auto mei = std::make_unique<Client>(s.port());
    proto::Hello h{"Mei Lin", proto::PROTOCOL_VERSION, ""};
    h.account_password = password;
    mei->send(h);
    EXPECT_TRUE(mei->expect<proto::Welcome>().account);
}

namespace {

// A guest who registers their name at once (password "<name>'s secret").
std::unique_ptr<Client> registered(std::uint16_t port, const std::string& name) {
    auto c = Client::login(port, name);
    c->send(proto::Register{name + "'s secret"});
    c->expect<proto::Registered>();
    return c;
}

// A rated table's settings (a rated table needs a clock).
proto::TableSettings rated_settings() {
    proto::TableSettings rated;
    rated.clock = "fischer:300+5";
    rated.rated = true;
    return rated;
}

}  // namespace

// A rated table's game survives a restart as rated: both accounts resume their seats, the
// result moves their ratings, and the rating history names the archived game.
TEST(Durability, ARatedGameSurvivesARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    std::string alice_token, bob_token;
    proto::TableId table = 0;
    {
        DurableServer s(test_config(), quiet(tmp));
        auto alice = registered(s.port(), "alice");
        auto bob = registered(s.port(), "bob");
        const proto::TableSettings rated = rated_settings();
        alice->send(proto::CreateTable{"rated", proto::Role::Red, "", rated});
        table = alice->expect<proto::TableSnapshot>().table.id;
        bob->send(proto::Join{table, proto::Role::Black});
        bob->expect<proto::TableSnapshot>();
        alice->send(proto::MoveRequest{table, 0, "h2e2"});
        EXPECT_EQ(bob->expect<proto::MoveMade>().move, "h2e2");
        alice_token = alice->welcome.resume_token;
        bob_token = bob->welcome.resume_token;
    }
    std::int64_t game_id = 0;
    {
        DurableServer s(test_config(), quiet(tmp));
        auto back = [&](const std::string& name, const std::string& password, const std::string& token) {
            auto c = std::make_unique<Client>(s.port());
            proto::Hello h{name, proto::PROTOCOL_VERSION, token};
            h.account_password = password;
            c->send(h);
            const auto w = c->expect<proto::Welcome>();
            EXPECT_TRUE(w.resumed) << name;
            EXPECT_TRUE(w.account) << name;
            return c;
        };
        auto alice = back("alice", "alice's secret", alice_token);
        const auto snap = alice->expect<proto::TableSnapshot>();
        EXPECT_EQ(snap.table.id, table);
        EXPECT_EQ(snap.table.settings.rated, std::optional<bool>(true));
        EXPECT_EQ(snap.ply, 1);
        auto bob = back("bob", "bob's secret", bob_token);
        const auto bob_snap = bob->expect<proto::TableSnapshot>();
        ASSERT_TRUE(bob_snap.table.black);
        EXPECT_EQ(bob_snap.table.black->name, "bob");
        alice->send(proto::Resign{table});
        EXPECT_EQ(bob->expect<proto::GameOver>().result.outcome, Outcome::BlackWins);
        bob->send(proto::ListUsers{});
        for (const auto& u : bob->expect<proto::Users>().users) {
            if (u.name == "bob") {
                EXPECT_GT(u.rating.value_or(0), 1600);
            }
            if (u.name == "alice") {
                EXPECT_LT(u.rating.value_or(9999), 1400);
            }
        }
        bob->send(proto::ListGames{"bob", 0, 0});
        const auto games = bob->expect<proto::Games>();
        ASSERT_EQ(games.games.size(), 1u);
        game_id = games.games[0].id;
        // The operator reads it on the console (written on the accounts worker: wait for it).
        auto cmd = server::parse_admin_command("account history bob");
        ASSERT_TRUE(cmd);
        std::string said;
        for (int i = 0; i < 200 && said.find("1 rated game") == std::string::npos; ++i) {
            auto done = std::make_shared<std::promise<std::string>>();
            s.on_server([&](server::Server&, server::ServerRuntime& r) {
                return r.execute(*cmd, [done](std::string text) { done->set_value(std::move(text)); });
            });
            said = done->get_future().get();
            if (said.find("1 rated game") == std::string::npos) std::this_thread::sleep_for(10ms);
        }
        EXPECT_NE(said.find("bob: 1 rated game(s)"), std::string::npos) << said;
        EXPECT_NE(said.find("game " + std::to_string(game_id)), std::string::npos) << said;
    }
    // The server is gone (its accounts worker finished its writes): the history is on file.
    std::string err;
    server::NamePolicy names;
    auto store = server::AccountStore::open(tmp.path() / std::string(server::DATABASE_FILE), names, &err);
    ASSERT_TRUE(store) << err;
    for (const char* name : {"alice", "bob"}) {
        const auto a = store->find(name);
        ASSERT_TRUE(a) << name;
        EXPECT_EQ(a->rated_games, 1) << name;
        const auto history = store->rating_history(a->id);
        ASSERT_EQ(history.size(), 1u) << name;
        EXPECT_EQ(history[0].game_id, game_id) << name;
        EXPECT_NEAR(history[0].rating, a->rating, 1e-9) << name;
    }
}

// After a restart the restored seats show their registered players' ratings at once: in the
// table list and a spectator's snapshot before anyone is back, and in the returning
// player's own snapshot (the ratings loaded from the database, after a first rated game).
TEST(Durability, RestoredSeatsShowTheirRatingsAfterARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    std::string alice_token;
    proto::TableId table = 0;
    {
        DurableServer s(test_config(), quiet(tmp));
        auto alice = registered(s.port(), "alice");
        auto bob = registered(s.port(), "bob");
        const proto::TableSettings rated = rated_settings();
        // A first rated game moves the ratings apart (alice up, bob down)...
        alice->send(proto::CreateTable{"first", proto::Role::Red, "", rated});
        const proto::TableId first = alice->expect<proto::TableSnapshot>().table.id;
        bob->send(proto::Join{first, proto::Role::Black});
        bob->expect<proto::TableSnapshot>();
        alice->send(proto::MoveRequest{first, 0, "h2e2"});
        bob->expect<proto::MoveMade>();
        bob->send(proto::Resign{first});
        EXPECT_EQ(alice->expect<proto::GameOver>().result.outcome, Outcome::RedWins);
        alice->send(proto::Leave{first});
        alice->expect<proto::LeftTable>();
        bob->send(proto::Leave{first});
        bob->expect<proto::LeftTable>();
        // ...and a second one is left unfinished by the restart.
        alice->send(proto::CreateTable{"second", proto::Role::Red, "", rated});
        table = alice->expect<proto::TableSnapshot>().table.id;
        bob->send(proto::Join{table, proto::Role::Black});
        const auto before = bob->expect<proto::TableSnapshot>();
        ASSERT_TRUE(before.table.red && before.table.black);
        EXPECT_GT(before.table.red->rating.value_or(0), 1600);
        EXPECT_LT(before.table.black->rating.value_or(9999), 1400);
        alice->send(proto::MoveRequest{table, 0, "h2e2"});
        EXPECT_EQ(bob->expect<proto::MoveMade>().move, "h2e2");
        alice_token = alice->welcome.resume_token;
    }
    DurableServer s(test_config(), quiet(tmp));
    auto seats_rated = [](const proto::TableInfo& t, const std::string& where) {
        ASSERT_TRUE(t.red && t.black) << where;
        EXPECT_EQ(t.red->name, "alice") << where;
        EXPECT_GT(t.red->rating.value_or(0), 1600) << where;
        EXPECT_EQ(t.black->name, "bob") << where;
        EXPECT_LT(t.black->rating.value_or(9999), 1400) << where;
    };
    // A guest in the lobby, before either player is back.
    auto carol = std::make_unique<Client>(s.port());
    carol->send(proto::Hello{"carol", proto::PROTOCOL_VERSION, ""});
    carol->expect<proto::Welcome>();
    bool listed = false;
    for (const auto& t : carol->expect<proto::Tables>().tables) {
        if (t.id != table) continue;
        listed = true;
        seats_rated(t, "table list");
    }
    EXPECT_TRUE(listed);
    carol->send(proto::Join{table, proto::Role::Spectator});
    seats_rated(carol->expect<proto::TableSnapshot>().table, "spectator's snapshot");
    // The red player logs in and resumes: its own snapshot shows both ratings.
    auto alice = std::make_unique<Client>(s.port());
    proto::Hello h{"alice", proto::PROTOCOL_VERSION, alice_token};
    h.account_password = "alice's secret";
    alice->send(h);
    const auto w = alice->expect<proto::Welcome>();
    EXPECT_TRUE(w.resumed);
    EXPECT_TRUE(w.account);
    const auto snap = alice->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    seats_rated(snap.table, "resumed player's snapshot");
    EXPECT_EQ(snap.ply, 1);
    // The archive lists each rated game with its players' ratings when it started: the first
    // at 1500 each, the running one at their ratings after the first.
    carol->send(proto::ListGames{});
    const auto games = carol->expect<proto::Games>().games;
    ASSERT_EQ(games.size(), 2u);
    EXPECT_GT(games[0].red_rating.value_or(0), 1600);
    EXPECT_LT(games[0].black_rating.value_or(9999), 1400);
    EXPECT_EQ(games[1].red_rating, std::optional<int>(1500));
    EXPECT_EQ(games[1].black_rating, std::optional<int>(1500));
    carol->send(proto::GetGame{games[1].id});
    EXPECT_EQ(carol->expect<proto::GameRecord>().game.red_rating, std::optional<int>(1500));
}

// Issue #18 point 5 with a real clock, through the operator's console: a paused clock stands
// still, added time shows in the clocks, the moves wait until the resume, an adjudication
// ends the game, and the export carries every action as a comment. (That a paused clock
// never flags: clock_test.cpp, TableClockPause.)
TEST(Durability, ArbiterPausesAClockAddsTimeAndTheExportShowsIt) {
    TempDir tmp;
    {
        auto dc = quiet(tmp);
        dc.clock = "fischer:300+0";
        DurableServer s(test_config(), dc);
        auto run = [&](const std::string& line) {
            auto cmd = server::parse_admin_command(line);
            EXPECT_TRUE(cmd) << line;
            return cmd ? s.on_server([&](server::Server&, server::ServerRuntime& r) { return r.execute(*cmd); })
                       : std::string();
        };
        Pair p = seat_two(s.port());
        const std::string t = std::to_string(p.table);
        p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
        p.black->expect<proto::MoveMade>();
        EXPECT_NE(run("arbiter " + t + " pause").find("done"), std::string::npos);
        const auto paused = p.black->expect<proto::ArbiterAction>();
        EXPECT_EQ(paused.by, "operator");
        ASSERT_TRUE(paused.clocks.has_value());
        EXPECT_TRUE(paused.clocks->paused);
        EXPECT_FALSE(paused.clocks->running.has_value());
        EXPECT_GT(paused.clocks->black_ms, 0);
        // Time passes; the paused clock does not.
        std::this_thread::sleep_for(1200ms);
        p.red->send(proto::Sync{p.table});
        const auto snap = p.red->expect<proto::TableSnapshot>();
        EXPECT_TRUE(snap.paused);
        ASSERT_TRUE(snap.clocks.has_value());
        EXPECT_TRUE(snap.clocks->paused);
        EXPECT_EQ(snap.clocks->black_ms, paused.clocks->black_ms);
        p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
        p.black->expect_error(proto::ErrorCode::GameNotInProgress);
        EXPECT_NE(run("arbiter " + t + " add_time black 60").find("done"), std::string::npos);
        const auto more = p.red->expect<proto::ArbiterAction>();
        ASSERT_TRUE(more.clocks.has_value());
        EXPECT_EQ(more.clocks->black_ms, paused.clocks->black_ms + 60'000);
        EXPECT_NE(run("arbiter " + t + " resume").find("done"), std::string::npos);
        // Black has the add_time line still unread: the resume is the next but one.
        EXPECT_EQ(p.black->expect<proto::ArbiterAction>().action, proto::ArbiterKind::AddTime);
        const auto resumed = p.black->expect<proto::ArbiterAction>();
        EXPECT_EQ(resumed.action, proto::ArbiterKind::Resume);
        ASSERT_TRUE(resumed.clocks.has_value());
        EXPECT_EQ(resumed.clocks->running, std::optional<Color>(BLACK));
        p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
        p.red->expect_ply(2);
        // The console's refusals are words, not a crash.
        EXPECT_NE(run("arbiter 9999 pause").find("no_such_table"), std::string::npos);
        EXPECT_NE(run("arbiter " + t + " resume").find("not_allowed"), std::string::npos);
        EXPECT_FALSE(server::parse_admin_command("arbiter " + t + " add_time black 3601"));
        EXPECT_FALSE(server::parse_admin_command("arbiter " + t + " adjudicate 1-0"));  // no reason
        EXPECT_FALSE(server::parse_admin_command("arbiter x pause"));
        EXPECT_NE(run("arbiter " + t + " adjudicate 1/2-1/2 the hall closes").find("done"), std::string::npos);
        const auto over = p.black->expect<proto::GameOver>();
        EXPECT_EQ(over.result.outcome, Outcome::Draw);
        EXPECT_EQ(over.result.reason, "adjudication");
        EXPECT_EQ(over.result.text, "Adjudicated by operator: the hall closes");
        // get_game carries the arbiter's actions with the plies they came at, oldest first.
        auto viewer = Client::login(s.port(), "carol");
        viewer->send(proto::ListGames{"ann", 0, 0});
        const auto games = viewer->expect<proto::Games>();
        ASSERT_EQ(games.games.size(), 1u);
        viewer->send(proto::GetGame{games.games[0].id});
        const auto rec = viewer->expect<proto::GameRecord>();
        ASSERT_EQ(rec.events.size(), 4u);
        EXPECT_FALSE(rec.more_events);
        EXPECT_EQ(rec.events[0].ply, 1);
        EXPECT_EQ(rec.events[0].text.rfind("operator paused the game (Red ", 0), 0u) << rec.events[0].text;
        EXPECT_EQ(rec.events[1].text.rfind("operator added 60 s to Black's clock", 0), 0u) << rec.events[1].text;
        EXPECT_EQ(rec.events[2].text.rfind("operator resumed the game", 0), 0u) << rec.events[2].text;
        EXPECT_EQ(rec.events[3].ply, 2);
        EXPECT_EQ(rec.events[3].text.rfind("operator adjudicated 1/2-1/2", 0), 0u) << rec.events[3].text;
        EXPECT_NE(rec.events[3].text.find("the hall closes"), std::string::npos) << rec.events[3].text;
        for (const auto& e : rec.events) EXPECT_GE(e.at, rec.game.started);
    }
    const auto out = tmp.path() / "games.pgn";
    std::vector<std::string> args = {"xiangqi-server", "export", "--data-dir", tmp.path().string(), "--out",
                                     out.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    auto rc = server::run_archive_command(int(argv.size()), argv.data());
    ASSERT_TRUE(rc.has_value());
    EXPECT_EQ(*rc, 0);
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("[Result \"1/2-1/2\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("Arbiter: operator paused the game"), std::string::npos) << text;
    EXPECT_NE(text.find("Arbiter: operator added 60 s to Black's clock"), std::string::npos) << text;
    EXPECT_NE(text.find("Arbiter: operator resumed the game"), std::string::npos) << text;
    EXPECT_NE(text.find("Arbiter: operator adjudicated 1/2-1/2"), std::string::npos) << text;
    EXPECT_NE(text.find("the hall closes"), std::string::npos) << text;
    auto back = read_pgn(text);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.game.moves.size(), 2u);
}

// An arbiter's pause and the time added after the last move survive kill -9: the restarted
// server brings the game back paused with the same clocks (which stand still), refuses moves,
// and after a second (clean) restart the operator's console resumes it and play goes on.
TEST(Durability, AnArbitersPauseAndAddedTimeSurviveKillNine) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    const std::vector<std::string> clock = {"--clock", "fischer:300+0"};
    std::string ann_token;
    proto::TableId table = 0;
    proto::Clocks paused_at;
    {
        ServerProcess proc(data, port, log, clock);
        auto carl = Client::login(port, "carl");
        carl->send(proto::CreateTable{"club", proto::Role::Spectator, ""});
        table = carl->expect<proto::TableSnapshot>().table.id;
        auto ann = Client::login(port, "ann");
        auto ben = Client::login(port, "ben");
        ann_token = ann->welcome.resume_token;
        ann->send(proto::Join{table, proto::Role::Red});
        ann->expect<proto::TableSnapshot>();
        ben->send(proto::Join{table, proto::Role::Black});
        ben->expect<proto::TableSnapshot>();
        ann->until_pong();
        ann->send(proto::MoveRequest{table, 0, "h2e2"});
        ben->expect_ply(1);
        ben->send(proto::MoveRequest{table, 1, "h9g7"});
        ann->expect_ply(2);
        proto::ArbiterRequest more{table, proto::ArbiterKind::AddTime};
        more.side = RED;
        more.seconds = 60;
        carl->send(more);
        const auto added = ann->expect<proto::ArbiterAction>();
        ASSERT_TRUE(added.clocks.has_value());
        EXPECT_GT(added.clocks->red_ms, 300'000);  // the 60 s are in
        carl->send(proto::ArbiterRequest{table, proto::ArbiterKind::Pause});
        const auto paused = ann->expect<proto::ArbiterAction>();
        ASSERT_TRUE(paused.clocks.has_value());
        ASSERT_TRUE(paused.clocks->paused);
        paused_at = *paused.clocks;
        EXPECT_GT(paused_at.red_ms, 300'000);
        proc.kill9();  // the action reached the players: it was committed before
    }
    {
        ServerProcess proc(data, port, log, clock);
        auto ann = std::make_unique<Client>(port);
        ann->send(proto::Hello{"ann", proto::PROTOCOL_VERSION, ann_token});
        EXPECT_TRUE(ann->expect<proto::Welcome>().resumed);
        const auto snap = ann->expect<proto::TableSnapshot>();
        EXPECT_EQ(snap.table.id, table);
        EXPECT_EQ(snap.ply, 2);
        EXPECT_TRUE(snap.paused);
        ASSERT_TRUE(snap.clocks.has_value());
        EXPECT_TRUE(snap.clocks->paused);
        EXPECT_FALSE(snap.clocks->running.has_value());
        EXPECT_NEAR(snap.clocks->red_ms, paused_at.red_ms, 20);
        EXPECT_NEAR(snap.clocks->black_ms, paused_at.black_ms, 20);
        std::this_thread::sleep_for(1200ms);  // the restored clock stands still
        ann->send(proto::Sync{table});
        const auto later = ann->expect<proto::TableSnapshot>();
        ASSERT_TRUE(later.clocks.has_value());
        EXPECT_EQ(later.clocks->red_ms, snap.clocks->red_ms);
        EXPECT_EQ(later.clocks->black_ms, snap.clocks->black_ms);
        ann->send(proto::MoveRequest{table, 2, "h0g2"});
        ann->expect_error(proto::ErrorCode::GameNotInProgress);
    }  // stopped with SIGTERM: the pause is kept over a clean stop too
    auto dc = quiet(tmp);
    dc.data_dir = data.string();
    dc.clock = "fischer:300+0";
    DurableServer s(test_config(), dc);
    auto ann = std::make_unique<Client>(s.port());
    ann->send(proto::Hello{"ann", proto::PROTOCOL_VERSION, ann_token});
    EXPECT_TRUE(ann->expect<proto::Welcome>().resumed);
    const auto snap = ann->expect<proto::TableSnapshot>();
    EXPECT_TRUE(snap.paused);
    ASSERT_TRUE(snap.clocks.has_value());
    EXPECT_NEAR(snap.clocks->red_ms, paused_at.red_ms, 40);
    auto cmd = server::parse_admin_command("arbiter " + std::to_string(table) + " resume");
    ASSERT_TRUE(cmd);
    EXPECT_NE(s.on_server([&](server::Server&, server::ServerRuntime& r) { return r.execute(*cmd); }).find("done"),
              std::string::npos);
    const auto resumed = ann->expect<proto::ArbiterAction>();
    EXPECT_EQ(resumed.action, proto::ArbiterKind::Resume);
    ASSERT_TRUE(resumed.clocks.has_value());
    EXPECT_EQ(resumed.clocks->running, std::optional<Color>(RED));
    ann->send(proto::MoveRequest{table, 2, "h0g2"});
    EXPECT_EQ(ann->expect_ply(3).move, "h0g2");
}

// Issue #18 point 4: a tournament survives kill -9 mid-round. Four players, a round-robin;
// in round 1 one board has a move played and the other has just started when the server is
// killed. After the restart the tournament is back (entrants, round, pairings, boards at the
// same tables), the players resume their boards with their tokens, the game with a move goes
// on from it, and the tournament is played to its end with the standings of every result.
TEST(Durability, ATournamentSurvivesKillNineMidRoundAndIsPlayedToTheEnd) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    const std::vector<std::string> names = {"ann", "ben", "cat", "dan"};
    std::map<std::string, std::string> tokens;
    std::uint32_t id = 0;
    proto::Tournament before;
    {
        ServerProcess proc(data, port, log);
        auto dora = Client::login(port, "dora");
        proto::CreateTournament create;
        create.name = "Club night";
        create.format = proto::TournamentFormat::RoundRobin;
        create.forfeit_seconds = 600;
        dora->send(create);
        id = dora->expect<proto::Tournament>().id;
        std::map<std::string, std::unique_ptr<Client>> players;
        for (const auto& n : names) {
            players[n] = Client::login(port, n);
            tokens[n] = players[n]->welcome.resume_token;
            players[n]->send(proto::JoinTournament{id});
            wait_tournament(*players[n], id, [&](const proto::Tournament& t) {
                return std::any_of(t.entrants.begin(), t.entrants.end(), [&](const auto& e) { return e.name == n; });
            });
        }
        dora->send(proto::StartTournament{id});
        before = wait_tournament(*dora, id, [](const proto::Tournament& t) {
            return t.round == 1 && t.state == proto::TournamentState::Running;
        });
        ASSERT_EQ(before.boards.size(), 2u);
        const auto& b1 = before.boards[0];
        Client& red = *players[before.entrants[static_cast<std::size_t>(b1.red)].name];
        Client& black = *players[before.entrants[static_cast<std::size_t>(b1.black)].name];
        // Both boards' games run (all four were in the lobby): board 1 gets a move.
        for (const auto& b : before.boards)
            for (int who : {b.red, b.black})
                wait_tournament(*players[before.entrants[static_cast<std::size_t>(who)].name], id,
                                [](const proto::Tournament& t) { return t.round == 1; });
        red.until_pong();
        black.until_pong();
        red.send(proto::MoveRequest{b1.table, 0, "h2e2"});
        black.expect_ply(1);
        proc.kill9();
    }
    ServerProcess proc(data, port, log);
    auto dora = Client::login(port, "dora");
    dora->send(proto::GetTournament{id});
    const auto back = dora->expect<proto::Tournament>();
    EXPECT_EQ(back.state, proto::TournamentState::Running);
    EXPECT_EQ(back.name, "Club night");
    EXPECT_EQ(back.director, "dora");
    EXPECT_EQ(back.round, 1);
    EXPECT_EQ(back.rounds, 3);
    EXPECT_EQ(back.forfeit_seconds, 600);
    ASSERT_EQ(back.entrants.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(back.entrants[i].name, before.entrants[i].name);
    ASSERT_EQ(back.boards.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(back.boards[k].red, before.boards[k].red);
        EXPECT_EQ(back.boards[k].black, before.boards[k].black);
        EXPECT_EQ(back.boards[k].table, before.boards[k].table);  // the game came back there
        EXPECT_EQ(back.boards[k].result, proto::BoardResult::Pending);
    }
    // The players come back into their boards.
    std::map<std::string, std::unique_ptr<Client>> players;
    for (const auto& n : names) {
        players[n] = std::make_unique<Client>(port);
        players[n]->send(proto::Hello{n, proto::PROTOCOL_VERSION, tokens[n]});
        EXPECT_TRUE(players[n]->expect<proto::Welcome>().resumed) << n;
        const auto snap = players[n]->expect<proto::TableSnapshot>();
        const bool on_board1 = n == back.entrants[static_cast<std::size_t>(back.boards[0].red)].name ||
                               n == back.entrants[static_cast<std::size_t>(back.boards[0].black)].name;
        EXPECT_EQ(snap.table.id, back.boards[on_board1 ? 0 : 1].table) << n;
        EXPECT_EQ(snap.ply, on_board1 ? 1 : 0) << n;
    }
    // Board 1 goes on from its move; the director is still its arbiter.
    const auto& b1 = back.boards[0];
    Client& b1_black = *players[back.entrants[static_cast<std::size_t>(b1.black)].name];
    dora->send(proto::ArbiterRequest{b1.table, proto::ArbiterKind::Pause});
    EXPECT_EQ(b1_black.expect<proto::ArbiterAction>().by, "dora");
    dora->send(proto::ArbiterRequest{b1.table, proto::ArbiterKind::Resume});
    EXPECT_EQ(b1_black.expect<proto::ArbiterAction>().action, proto::ArbiterKind::Resume);
    b1_black.send(proto::MoveRequest{b1.table, 1, "h9g7"});
    players[back.entrants[static_cast<std::size_t>(b1.red)].name]->expect_ply(2);

    // Played to the end: in every round Red resigns on board 1 and Black on board 2.
    std::map<std::string, int> points;
    proto::Tournament t = back;
    for (int round = 1; round <= 3; ++round) {
        if (round > 1)
            t = wait_tournament(*dora, id, [&](const proto::Tournament& x) {
                return x.round == round && x.state == proto::TournamentState::Running;
            });
        ASSERT_EQ(t.boards.size(), 2u);
        for (const auto& b : t.boards) {
            ASSERT_NE(b.table, 0u);
            const std::string red = t.entrants[static_cast<std::size_t>(b.red)].name;
            const std::string black = t.entrants[static_cast<std::size_t>(b.black)].name;
            Client& loser = b.board == 1 ? *players[red] : *players[black];
            Client& winner = b.board == 1 ? *players[black] : *players[red];
            if (round > 1) {  // seated there by the server
                for (;;) {
                    const auto snap = loser.expect<proto::TableSnapshot>();
                    if (snap.table.id == b.table) break;
                }
            }
            loser.send(proto::Resign{b.table});
            winner.expect<proto::GameOver>();
            loser.expect<proto::GameOver>();
            points[b.board == 1 ? black : red] += 2;
        }
    }
    const auto done = wait_tournament(*dora, id, [](const proto::Tournament& x) {
        return x.state == proto::TournamentState::Finished;
    });
    ASSERT_EQ(done.games.size(), 6u);
    int total = 0;
    for (const auto& st : done.standings) {
        const std::string& n = done.entrants[static_cast<std::size_t>(st.entrant)].name;
        EXPECT_EQ(st.points, points[n]) << n;
        EXPECT_EQ(st.games, 3) << n;
        total += st.points;
    }
    EXPECT_EQ(total, 12);
    // A finished tournament is kept too: after another (clean) restart it is listed.
    proc.stop();
    {
        ServerProcess again(data, port, log);
        auto eve = Client::login(port, "eve");
        eve->send(proto::GetTournament{id});
        const auto kept = eve->expect<proto::Tournament>();
        EXPECT_EQ(kept.state, proto::TournamentState::Finished);
        EXPECT_EQ(kept.games.size(), 6u);
        EXPECT_EQ(kept.standings.size(), 4u);
    }
    // The whole tournament as one PGN file: its six games, by round, the arbiter's action
    // with the game it happened in.
    auto export_pgn = [&](const std::string& tournament, const std::filesystem::path& out) {
        std::vector<std::string> args = {"xiangqi-server", "export", "--data-dir", data.string(), "--tournament",
                                         tournament, "--out", out.string()};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        return server::run_archive_command(int(argv.size()), argv.data());
    };
    const auto out = tmp.path() / "club.pgn";
    EXPECT_EQ(export_pgn(std::to_string(id), out), std::optional<int>(0));
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto games = read_pgn_all(text);
    ASSERT_EQ(games.size(), 6u) << text;
    int rounds[4] = {0, 0, 0, 0};
    for (const auto& g : games) {
        ASSERT_TRUE(g.ok) << g.error;
        std::string event, round;
        for (const auto& [k, v] : g.game.tags) {
            if (k == "Event") event = v;
            if (k == "Round") round = v;
        }
        EXPECT_EQ(event, "Club night");
        ASSERT_TRUE(round == "1" || round == "2" || round == "3") << round;
        ++rounds[round[0] - '0'];
    }
    EXPECT_EQ(rounds[1], 2);
    EXPECT_EQ(rounds[2], 2);
    EXPECT_EQ(rounds[3], 2);
    EXPECT_NE(text.find("Arbiter: dora paused the game"), std::string::npos) << text;
    EXPECT_EQ(export_pgn("999", tmp.path() / "none.pgn"), std::optional<int>(1));
}

TEST(Durability, ExportWritesTheArchivedGameAsPgn) {
    TempDir tmp;
    {
        DurableServer s(test_config(), quiet(tmp));
        Pair p = seat_two(s.port());
        p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
        p.black->expect<proto::MoveMade>();
        p.black->send(proto::Resign{p.table});
        p.red->expect<proto::GameOver>();
    }
    const auto out = tmp.path() / "games.pgn";
    std::vector<std::string> args = {"xiangqi-server", "export", "--data-dir", tmp.path().string(), "--notation",
                                     "chinese", "--out", out.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    auto rc = server::run_archive_command(int(argv.size()), argv.data());
    ASSERT_TRUE(rc.has_value());
    EXPECT_EQ(*rc, 0);
    std::ifstream in(out);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("[Game \"Chinese Chess\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("[Red \"ann\"]"), std::string::npos);
    EXPECT_NE(text.find("[Result \"1-0\"]"), std::string::npos);
    EXPECT_NE(text.find("炮二平五"), std::string::npos);
    auto back = read_pgn(text);
    ASSERT_TRUE(back.ok) << back.error;
    ASSERT_EQ(back.game.moves.size(), 1u);
}

// Issue #16 point 4: a perpetual chase played over the wire is ruled with the piece, the side
// and the plies in English and Chinese, and the same sentence reaches game_over, the archive
// (get_game) and the exported PGN's Termination tag. The case is the rule book's diagram 79
// (tests/rules/repetition_cases.h): the black rook chases the unprotected red cannon.
TEST(Durability, PerpetualChaseRulingReachesTheArchiveAndThePgnTermination) {
    const RepetitionCase* chase = nullptr;
    for (const auto& c : REPETITION_CASES)
        if (c.name == "d79_rook_chases_cannon_that_attacks_two_pawns") chase = &c;
    ASSERT_NE(chase, nullptr);
    const std::vector<std::string> cycle = map_moves(chase->cycle, Form{});
    const std::string ruling =
        "Black loses: perpetual chase of the red cannon, plies 1-8 / 黑方长捉红炮，判负（第 1–4 回合）";
    TempDir tmp;
    std::int64_t id = 0;
    {
        DurableServer s(test_config(), quiet(tmp));
        auto red = Client::login(s.port(), "ann");
        red->send(proto::CreateTable{"chase", proto::Role::Red, std::string(chase->fen)});
        const proto::TableId table = red->expect<proto::TableSnapshot>().table.id;
        auto black = Client::login(s.port(), "bob");
        black->send(proto::Join{table, proto::Role::Black});
        black->expect<proto::TableSnapshot>();
        red->until_pong();
        black->until_pong();
        for (int ply = 0; ply < 2 * int(cycle.size()); ++ply) {
            const std::string& move = cycle[std::size_t(ply) % cycle.size()];
            (ply % 2 == 0 ? *red : *black).send(proto::MoveRequest{table, ply, move});
            red->expect_ply(ply + 1);
            black->expect_ply(ply + 1);
        }
        for (Client* c : {red.get(), black.get()}) {
            const auto over = c->expect<proto::GameOver>();
            EXPECT_EQ(over.result.outcome, Outcome::RedWins);
            EXPECT_EQ(over.result.reason, "perpetual_chase");
            EXPECT_EQ(over.result.text, ruling);
        }
        red->send(proto::ListGames{"ann", 0, 0});
        const auto games = red->expect<proto::Games>();
        ASSERT_EQ(games.games.size(), 1u);
        id = games.games[0].id;
        EXPECT_EQ(games.games[0].reason, "perpetual_chase");
        red->send(proto::GetGame{id});
        const auto record = red->expect<proto::GameRecord>();
        EXPECT_EQ(record.text, ruling);
        EXPECT_EQ(record.moves.size(), 8u);
    }
    const auto out = tmp.path() / "games.pgn";
    std::vector<std::string> args = {"xiangqi-server", "export", "--data-dir", tmp.path().string(), "--notation",
                                     "iccs", "--out", out.string()};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    auto rc = server::run_archive_command(int(argv.size()), argv.data());
    ASSERT_TRUE(rc.has_value());
    EXPECT_EQ(*rc, 0);
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("[Termination \"" + ruling + "\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("[Result \"1-0\"]"), std::string::npos) << text;
    const auto back = read_pgn(text);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.game.tag("Termination"), ruling);
    EXPECT_EQ(back.game.moves.size(), 8u);
}

TEST(Durability, ListGamesAndGetGameOverTheWire) {
    TempDir tmp;
    DurableServer s(test_config(), quiet(tmp));
    Pair p = seat_two(s.port());
    p.red->send(proto::MoveRequest{p.table, 0, "h2e2"});
    p.black->expect<proto::MoveMade>();
    p.black->send(proto::MoveRequest{p.table, 1, "h9g7"});
    p.red->expect_ply(2);
    p.red->send(proto::Resign{p.table});
    p.black->expect<proto::GameOver>();

    auto viewer = Client::login(s.port(), "carol");
    viewer->send(proto::ListGames{"ann", 0, 0});
    auto games = viewer->expect<proto::Games>();
    ASSERT_EQ(games.games.size(), 1u);
    EXPECT_FALSE(games.more);
    const auto& g = games.games[0];
    EXPECT_EQ(g.red, "ann");
    EXPECT_EQ(g.black, "bob");
    EXPECT_EQ(g.result, Outcome::BlackWins);
    EXPECT_EQ(g.reason, "resignation");
    EXPECT_EQ(g.plies, 2);
    EXPECT_GT(g.ended, 0);

    viewer->send(proto::GetGame{g.id});
    auto rec = viewer->expect<proto::GameRecord>();
    EXPECT_EQ(rec.game.id, g.id);
    EXPECT_EQ(rec.moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_EQ(rec.start_fen, std::string(START_FEN));
    EXPECT_FALSE(rec.text.empty());
    EXPECT_TRUE(rec.events.empty());  // no arbiter's action in this game

    viewer->send(proto::GetGame{g.id + 1000});
    viewer->expect_error(proto::ErrorCode::NoSuchGame);
    viewer->send(proto::ListGames{"nobody", 0, 0});
    EXPECT_TRUE(viewer->expect<proto::Games>().games.empty());
    // Paging: one per page, "more" until the end.
    viewer->send(proto::ListGames{"", 0, 1});
    auto page = viewer->expect<proto::Games>();
    EXPECT_EQ(page.games.size(), 1u);
    EXPECT_FALSE(page.more);
    viewer->raw("{\"type\":\"get_game\",\"id\":-5}\n");
    viewer->expect_error(proto::ErrorCode::BadField);
}

namespace {
// A raw TCP connection from a chosen loopback source address (127.0.0.0/8 is all local).
struct RawConn {
    RawConn(const char* from, std::uint16_t port) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        ::inet_pton(AF_INET, from, &a.sin_addr);
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(port);
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected = ::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
    }
    ~RawConn() { ::close(fd); }
    // Everything the server sends until it closes (or `ms` pass); closed tells which.
    std::string drain(int ms, bool& closed) {
        std::string got;
        closed = false;
        auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (std::chrono::steady_clock::now() < until) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) continue;
            char buf[4096];
            ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n <= 0) {
                closed = true;
                break;
            }
            got.append(buf, std::size_t(n));
        }
        return got;
    }
    int fd = -1;
    bool connected = false;
};
}  // namespace

TEST(Durability, PerAddressCapAndAddressBans) {
    TempDir tmp;
    auto dc = quiet(tmp);
    dc.max_per_ip = 2;
    dc.cap_loopback = true;  // every address here is loopback
    DurableServer s(test_config(), dc);
    RawConn a("127.0.0.2", s.port()), b("127.0.0.2", s.port()), c("127.0.0.2", s.port());
    ASSERT_TRUE(a.connected && b.connected && c.connected);
    bool closed = false;
    auto refused = c.drain(1000, closed);
    EXPECT_TRUE(closed);
    EXPECT_NE(refused.find("too many connections from your address"), std::string::npos) << refused;
    EXPECT_NE(refused.find("server_full"), std::string::npos) << refused;
    a.drain(100, closed);
    EXPECT_FALSE(closed);  // the first two stay
    // Another address is not affected.
    auto other = Client::login(s.port(), "ann");
    EXPECT_EQ(other->welcome.name, "ann");

    auto cmd = server::parse_admin_command("ban 127.0.0.2");
    ASSERT_TRUE(cmd && cmd->target_is_ip);
    auto reply = s.on_server([&](server::Server&, server::ServerRuntime& r) { return r.execute(*cmd); });
    EXPECT_NE(reply.find("2 connection(s) closed"), std::string::npos) << reply;
    // Told why before the close, as PROTOCOL.md promises for a ban.
    const auto told = a.drain(1000, closed);
    EXPECT_TRUE(closed);
    EXPECT_NE(told.find("\"code\":\"banned\""), std::string::npos) << told;
    RawConn d("127.0.0.2", s.port());
    auto banned = d.drain(1000, closed);
    EXPECT_TRUE(closed);
    // An address ban is said with its own code (issue #15 point 6), not server_full.
    EXPECT_NE(banned.find("\"code\":\"banned\""), std::string::npos) << banned;
    // A freed slot is counted back: after the unban two connections fit again.
    cmd = server::parse_admin_command("unban 127.0.0.2");
    s.on_server([&](server::Server&, server::ServerRuntime& r) { return r.execute(*cmd); });
    RawConn e("127.0.0.2", s.port()), f("127.0.0.2", s.port());
    e.drain(200, closed);
    EXPECT_FALSE(closed);
    f.drain(200, closed);
    EXPECT_FALSE(closed);
    other->until_pong();  // unharmed
}

}  // namespace xq::test
