// Restarts of a real xiangqi-server process on the same database file: moves committed before
// they are seen (the process killed with SIGKILL while both players move), players and engine
// seats back in their seats, and rated games that keep their ratings. Loopback only.
#include "durability/server_process.h"

#include <thread>

namespace xq::test {

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

}  // namespace xq::test

namespace xq::test {

// The clocks come back as they stood after the last move (a time control of 600+5): the
// time each side had used is still charged after a kill -9 and a restart, and the time the
// server was down is charged to nobody.
TEST(Durability, ClocksComeBackAsTheyStoodAfterTheLastMove) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    const std::vector<std::string> clock = {"--clock", "fischer:600+5"};
    std::string red_token;
    proto::TableId table = 0;
    proto::Clocks before;
    {
        ServerProcess proc(data, port, log, clock);
        Pair p = seat_two(port);
        table = p.table;
        red_token = p.red->welcome.resume_token;
        p.red->send(proto::MoveRequest{table, 0, "h2e2"});
        p.black->expect<proto::MoveMade>();
        p.red->expect<proto::MoveMade>();
        std::this_thread::sleep_for(1500ms);  // Black thinks 1.5 s
        p.black->send(proto::MoveRequest{table, 1, "h9g7"});
        auto mm = p.red->expect<proto::MoveMade>();
        p.black->expect<proto::MoveMade>();
        ASSERT_TRUE(mm.clocks.has_value());
        before = *mm.clocks;
        EXPECT_LE(before.black_ms, 605'000 - 1'400);  // 1.5 s used, 5 s added
        proc.kill9();
    }
    ServerProcess proc(data, port, log, clock);
    auto red = std::make_unique<Client>(port);
    red->send(proto::Hello{"someone", proto::PROTOCOL_VERSION, red_token});
    ASSERT_TRUE(red->expect<proto::Welcome>().resumed);
    auto snap = red->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    ASSERT_EQ(snap.ply, 2);
    ASSERT_TRUE(snap.clocks.has_value());
    EXPECT_EQ(snap.clocks->black_ms, before.black_ms);
    // Red's clock runs again from where it stood (the moment since the restart aside).
    EXPECT_LE(snap.clocks->red_ms, before.red_ms);
    EXPECT_GE(snap.clocks->red_ms, before.red_ms - 5'000);
    EXPECT_EQ(snap.clocks->running, std::optional<Color>(RED));
}

// A table keeps its creator through a kill -9 (schema 7): dave created it without a name and
// sat as Black, so after the restart it is still "dave's table", flagged as a default name
// (clients word it in their language), not renamed after its Red player.
TEST(Durability, TableCreatorAndDefaultNameSurviveARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    const auto data = tmp.path() / "data";
    const auto log = tmp.path() / "server.log";
    const std::uint16_t port = free_port();
    std::string token;
    proto::TableId table = 0;
    {
        ServerProcess proc(data, port, log);
        auto dave = Client::login(port, "dave");
        dave->send(proto::CreateTable{"", proto::Role::Black, ""});
        auto created = dave->expect<proto::TableSnapshot>();
        table = created.table.id;
        EXPECT_EQ(created.table.name, "dave's table");
        EXPECT_TRUE(created.table.default_name);
        auto ann = Client::login(port, "ann");
        token = ann->welcome.resume_token;
        ann->send(proto::Join{table, proto::Role::Red});
        ann->expect<proto::TableSnapshot>();
        ann->send(proto::MoveRequest{table, 0, "h2e2"});
        ann->expect<proto::MoveMade>();
        dave->expect<proto::MoveMade>();
        proc.kill9();
    }
    ServerProcess proc(data, port, log);
    auto ann = std::make_unique<Client>(port);
    ann->send(proto::Hello{"someone", proto::PROTOCOL_VERSION, token});
    ASSERT_TRUE(ann->expect<proto::Welcome>().resumed);
    auto snap = ann->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.id, table);
    EXPECT_EQ(snap.table.name, "dave's table");
    EXPECT_TRUE(snap.table.default_name);
}

}  // namespace xq::test
