// The arbiter and the tournament director in a real xiangqi-server process: a paused clock and
// added time shown in the export and kept through kill -9, and a tournament killed mid-round
// that is played to its end after the restart. Loopback only.
#include "durability/server_process.h"

namespace xq::test {

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

}  // namespace xq::test
