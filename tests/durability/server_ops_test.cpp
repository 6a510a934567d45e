// A real server's durability runtime at work: clocks that end games, discovery of a running
// server, the operator console, the archive over the wire and its PGN export, and the
// per-address connection cap and bans. Loopback only.
#include "durability/server_process.h"
#include "rules/repetition_cases.h"
#include "rules/repetition_forms.h"
#include "server/store/book_learner.h"

namespace xq::test {

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

// The console's book commands see what the store writer has queued (the learner's lessons go
// there) and reset it there, after the lessons queued before.
TEST(Durability, ConsoleBookCommandsSeeAndResetWhatTheWriterHolds) {
    TempDir tmp;
    DurableServer s(test_config(), quiet(tmp));
    Game g;
    for (const char* t : {"h2e2", "h9g7"}) ASSERT_TRUE(g.play(parse_iccs(g.position(), t).move));
    const auto lessons = server::book_lessons(g.start_position(), g.moves(), Outcome::RedWins);
    auto run = [&](std::string_view line, bool queue_lessons) {
        auto cmd = server::parse_admin_command(line);
        EXPECT_TRUE(cmd) << line;
        return s.on_server([&](server::Server&, server::ServerRuntime& r) {
            if (queue_lessons) r.writer()->post("the test's lessons", [&](server::Storage& st) { return st.learn_book(lessons); });
            return r.execute(*cmd);
        });
    };
    const std::string shown = run("book", true);
    EXPECT_NE(shown.find(", 2 learned entries stored"), std::string::npos) << shown;
    const std::string reset = run("book reset", true);
    EXPECT_NE(reset.find("forgot 2 learned entries"), std::string::npos) << reset;
    const std::string after = run("book", false);
    EXPECT_NE(after.find(", 0 learned entries stored"), std::string::npos) << after;
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
