// External engines as real child processes: the Debian fairy-stockfish, plus small scripted
// engines that crash, hang, babble or speak only UCCI.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <fstream>
#include <thread>

#include "server/ai/external_engine.h"
#include "temp_dir.h"
#include "xiangqi/game.h"

using namespace xq;
using namespace xq::server;
using namespace std::chrono_literals;
using xq::test::TempDir;

namespace {

constexpr const char* FAIRY = "/usr/games/fairy-stockfish";

// Writes an executable /bin/sh script that plays a fake engine.
std::string script(const TempDir& dir, const std::string& name, const std::string& body) {
    auto path = dir.path() / name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    ::chmod(path.c_str(), 0755);
    return path.string();
}

// A UCI handshake followed by `on_go` for every "go".
std::string uci_engine(const std::string& on_go) {
    return "while read -r line; do\n"
           "  case \"$line\" in\n"
           "    uci) echo 'id name Scripted'; echo uciok ;;\n"
           "    isready) echo readyok ;;\n"
           "    go*) " + on_go + " ;;\n"
           "    quit) exit 0 ;;\n"
           "  esac\n"
           "done\n";
}

std::unique_ptr<ExternalEngine> start_ok(const std::string& name, const std::string& path) {
    std::string err;
    auto e = ExternalEngine::start({name, path}, &err);
    EXPECT_TRUE(e) << err;
    return e;
}

bool process_exists(pid_t pid) { return pid > 0 && ::kill(pid, 0) == 0; }

}  // namespace

TEST(EngineSpec, ParsesNameEqualsPath) {
    auto s = parse_engine_spec("fairy=/usr/games/fairy-stockfish");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->name, "fairy");
    EXPECT_EQ(s->path, "/usr/games/fairy-stockfish");
    EXPECT_TRUE(parse_engine_spec("pika_2.0=./pikafish"));
    for (const char* bad : {"", "fairy", "=/bin/x", "fairy=", "bad name=/x", "a;rm=/x", "123456789012345678901=/x"}) {
        std::string err;
        EXPECT_FALSE(parse_engine_spec(bad, &err)) << bad;
        EXPECT_FALSE(err.empty());
    }
}

TEST(ExternalEngine, FairyStockfishSpeaksUciWithRanksFromOne) {
    auto e = start_ok("fairy", FAIRY);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->protocol(), EngineProtocol::Uci);
    EXPECT_TRUE(e->ranks_from_one());
    EXPECT_NE(e->id_name().find("Fairy-Stockfish"), std::string::npos) << e->id_name();
    // The table from docs/RULES.md: our h2e2 is Fairy-Stockfish's h3e3, h9g7 is h10g8.
    EXPECT_EQ(e->to_engine(Move(square_from_string("h2"), square_from_string("e2"))), "h3e3");
    EXPECT_EQ(e->to_engine(Move(square_from_string("h9"), square_from_string("g7"))), "h10g8");
    Position pos;
    auto m = e->from_engine("h3e3", pos);
    ASSERT_TRUE(m);
    EXPECT_EQ(move_to_iccs(*m), "h2e2");
    EXPECT_FALSE(e->from_engine("h2e2", pos));   // h1..h2 in FSF terms: no piece moves so
    EXPECT_FALSE(e->from_engine("h3e3x", pos));
    EXPECT_FALSE(e->from_engine("j3e3", pos));
    EXPECT_FALSE(e->from_engine("h11e3", pos));
}

TEST(ExternalEngine, FairyStockfishPlaysLegalMovesThroughTheReferee) {
    auto red = start_ok("fairy", FAIRY);
    auto black = start_ok("fairy2", FAIRY);
    ASSERT_TRUE(red && black);
    Game game;
    // 24 plies of engine against engine; every move must pass the rules library.
    for (int ply = 0; ply < 24 && !game.over(); ++ply) {
        ExternalEngine& e = game.side_to_move() == RED ? *red : *black;
        EngineReply r = e.best_move(game.start_position(), game.moves(), EngineLimits{EngineMs(30)});
        ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
        ASSERT_TRUE(game.play(r.move)) << "ply " << ply << ": " << move_to_iccs(r.move);
        EXPECT_LT(r.took, 30ms + ENGINE_LATENCY_ALLOWANCE);
    }
    EXPECT_GE(game.ply(), 10);
    // Black's replies use rank 10 in FSF's text; reaching here means they converted back.
}

TEST(ExternalEngine, FairyStockfishFromASetUpPosition) {
    auto e = start_ok("fairy", FAIRY);
    ASSERT_TRUE(e);
    Position pos;
    // Red rook and king against a lone black king: Red to move and mate soon.
    ASSERT_EQ(pos.set_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"), FenError::None);
    EngineReply r = e->best_move(pos, {}, EngineLimits{EngineMs(50)});
    ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
    EXPECT_TRUE(pos.is_legal(r.move));
}

TEST(ExternalEngine, UcciOnlyEngineIsSpokenToInUcci) {
    TempDir tmp;
    auto path = script(tmp, "ucci.sh",
                       "while read -r line; do\n"
                       "  case \"$line\" in\n"
                       "    ucci) echo 'id name Old school'; echo ucciok ;;\n"
                       "    uci) exit 0 ;;\n"  // a UCCI-only engine that quits on unknown input
                       "    isready) echo readyok ;;\n"
                       "    'go time'*) echo 'bestmove h2e2' ;;\n"
                       "    quit) exit 0 ;;\n"
                       "  esac\n"
                       "done\n");
    auto e = start_ok("old", path);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->protocol(), EngineProtocol::Ucci);
    EXPECT_FALSE(e->ranks_from_one());
    EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(100)});
    ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
    EXPECT_EQ(move_to_iccs(r.move), "h2e2");
}

TEST(ExternalEngine, CrashDuringSearchIsAFailureNotACrashOfOurs) {
    TempDir tmp;
    auto e = start_ok("crashy", script(tmp, "crash.sh", uci_engine("kill -SEGV $$")));
    ASSERT_TRUE(e);
    pid_t pid = e->pid();
    EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(1000)});
    EXPECT_EQ(r.failure, EngineFailure::Crashed);
    EXPECT_NE(r.detail.find("signal 11"), std::string::npos) << r.detail;
    EXPECT_LT(r.took, 1000ms);  // noticed at once, not at the deadline
    EXPECT_FALSE(e->alive());
    EXPECT_FALSE(process_exists(pid));  // reaped, no zombie
    // Asking again is answered, not crashed on.
    EXPECT_EQ(e->best_move(Position(), {}, EngineLimits{EngineMs(10)}).failure, EngineFailure::Crashed);
}

TEST(ExternalEngine, HungEngineIsStoppedThenKilled) {
    TempDir tmp;
    // Ignores stop: sleeps far beyond its time (the sleep is a helper process of its own).
    auto e = start_ok("hung", script(tmp, "hung.sh", uci_engine("sleep 30")));
    ASSERT_TRUE(e);
    pid_t pid = e->pid();
    auto t0 = std::chrono::steady_clock::now();
    EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(100)});
    auto waited = std::chrono::steady_clock::now() - t0;
    EXPECT_EQ(r.failure, EngineFailure::Hung) << r.detail;
    EXPECT_GE(waited, 100ms + ENGINE_LATENCY_ALLOWANCE);  // its full time, then the stop grace
    EXPECT_LT(waited, 100ms + ENGINE_LATENCY_ALLOWANCE + ENGINE_STOP_GRACE + 2000ms);
    EXPECT_FALSE(process_exists(pid));
    EXPECT_FALSE(process_exists(-pid)) << "the engine's helper (sleep) survived";
}

TEST(ExternalEngine, IllegalOrMalformedBestmoveIsBadMove) {
    TempDir tmp;
    for (const char* answer : {"echo 'bestmove h2h8'", "echo 'bestmove zz'", "echo bestmove", "echo 'bestmove e1e2'"}) {
        auto e = start_ok("liar", script(tmp, "liar.sh", uci_engine(answer)));
        ASSERT_TRUE(e);
        EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(100)});
        EXPECT_EQ(r.failure, EngineFailure::BadMove) << answer << ": " << r.detail;
    }
}

TEST(ExternalEngine, FloodOfOutputCannotHoldTheServer) {
    TempDir tmp;
    // Endless info lines and one endless line without a newline: bounded memory, bounded time.
    auto e = start_ok("flood", script(tmp, "flood.sh", uci_engine("yes 'info depth 1 score cp 0' | head -c 50000000; "
                                                                  "head -c 10000000 /dev/zero | tr '\\\\0' x")));
    ASSERT_TRUE(e);
    EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(200)});
    EXPECT_EQ(r.failure, EngineFailure::Hung) << r.detail;
    EXPECT_LT(r.took, 200ms + ENGINE_LATENCY_ALLOWANCE + ENGINE_STOP_GRACE + 2000ms);
}

TEST(ExternalEngine, AbortFromAnotherThread) {
    TempDir tmp;
    auto e = start_ok("slow", script(tmp, "slow.sh", uci_engine("sleep 30")));
    ASSERT_TRUE(e);
    std::thread killer([&] {
        std::this_thread::sleep_for(50ms);
        e->abort();
    });
    EngineReply r = e->best_move(Position(), {}, EngineLimits{EngineMs(5000)});
    killer.join();
    EXPECT_EQ(r.failure, EngineFailure::Aborted);
    EXPECT_LT(r.took, 2000ms);
}

TEST(ExternalEngine, StartFailuresAreMessages) {
    TempDir tmp;
    std::string err;
    EXPECT_FALSE(ExternalEngine::start({"none", (tmp.path() / "missing").string()}, &err));
    EXPECT_NE(err.find("cannot execute"), std::string::npos) << err;
    EXPECT_FALSE(ExternalEngine::start({"quits", script(tmp, "quits.sh", "exit 0\n")}, &err));
    EXPECT_NE(err.find("exited"), std::string::npos) << err;
    auto notexec = tmp.path() / "plain.txt";
    std::ofstream(notexec) << "hello";
    EXPECT_FALSE(ExternalEngine::start({"plain", notexec.string()}, &err));
}

TEST(ExternalEngine, NoLegalMoveIsNoMoveWithoutAsking) {
    auto e = start_ok("fairy", FAIRY);
    ASSERT_TRUE(e);
    Position pos;
    // Red is checkmated (a rook checks on the d-file, the other guards the e-file).
    ASSERT_EQ(pos.set_fen("5k3/3r5/4r4/9/9/9/9/9/9/3K5 w - - 0 1"), FenError::None);
    ASSERT_FALSE(pos.has_legal_move());
    EngineReply r = e->best_move(pos, {}, EngineLimits{EngineMs(50)});
    EXPECT_EQ(r.failure, EngineFailure::NoMove);
    EXPECT_TRUE(e->alive());
}

TEST(ExternalEngine, InfoLinesAreParsed) {
    auto i = parse_engine_info("info depth 12 seldepth 15 multipv 1 score cp -34 nodes 12345 nps 99 pv h3e3 h10g8");
    ASSERT_TRUE(i);
    EXPECT_EQ(i->depth, 12);
    EXPECT_EQ(i->score_cp, -34);
    EXPECT_FALSE(i->mate);
    EXPECT_EQ(i->nodes, 12345);
    EXPECT_EQ(i->pv_text, (std::vector<std::string>{"h3e3", "h10g8"}));
    EXPECT_TRUE(i->pv.empty());  // moves only once best_move checked them in its position
    // A long line keeps its head only, each word bounded.
    auto longer = parse_engine_info("info depth 3 score cp 1 pv a1a2 b1b2 c1c2 d1d2 e1e2 f1f2 g1g2 h1h2 i1i2 " +
                                    std::string(100, 'x'));
    ASSERT_TRUE(longer);
    ASSERT_EQ(longer->pv_text.size(), ENGINE_PV_WORDS);
    EXPECT_EQ(longer->pv_text.back(), "h1h2");
    auto mate = parse_engine_info("info depth 5 score mate 3");
    ASSERT_TRUE(mate);
    EXPECT_TRUE(mate->mate);
    EXPECT_EQ(mate->score_cp, ENGINE_MATE_SCORE_CP - 3);
    auto mated = parse_engine_info("info score mate -2 depth 9");
    ASSERT_TRUE(mated);
    EXPECT_EQ(mated->score_cp, -ENGINE_MATE_SCORE_CP + 2);
    EXPECT_EQ(mated->depth, 9);
    EXPECT_FALSE(parse_engine_info("info string depth 3 score cp 5"));  // free text
    EXPECT_FALSE(parse_engine_info("info nodes 5"));
    EXPECT_FALSE(parse_engine_info("information depth 3"));
    EXPECT_FALSE(parse_engine_info("info depth x score cp y"));
    auto huge = parse_engine_info("info depth 99999999999999999999 score cp 99999999999");
    ASSERT_TRUE(huge);  // the score is clamped; the depth did not parse
    EXPECT_EQ(huge->score_cp, 1'000'000);
}

TEST(ExternalEngine, FairyStockfishReportsProgressAndHasASkillLevel) {
    auto e = start_ok("fairy", FAIRY);
    ASSERT_TRUE(e);
    ASSERT_TRUE(e->skill_level().has_value());
    EXPECT_LT(e->skill_level()->min, 0);
    EXPECT_GT(e->skill_level()->max, 0);
    EXPECT_TRUE(e->set_option("Skill Level", "3"));
    int infos = 0, max_depth = 0;
    EngineLimits limits{EngineMs(150)};
    limits.on_info = [&](const EngineInfo& i) {
        ++infos;
        max_depth = std::max(max_depth, i.depth);
    };
    EngineReply r = e->best_move(Position(), {}, limits);
    ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
    EXPECT_GT(infos, 0);
    EXPECT_GT(max_depth, 1);
}

TEST(ExternalEngine, PrincipalVariationKeepsOnlyItsLegalHead) {
    TempDir tmp;
    // h2e2 h9g7 is legal from the start; h0h9 is not (a horse), nor is anything after it.
    auto e = start_ok("pv", script(tmp, "pv.sh", uci_engine("echo 'info depth 4 score cp 12 pv h2e2 h9g7 h0h9 b0c2'; "
                                                            "echo 'info depth 5 score cp 10 pv zz9 h2e2'; "
                                                            "echo 'bestmove h2e2'")));
    ASSERT_TRUE(e);
    std::vector<std::vector<std::string>> lines;
    EngineLimits limits{EngineMs(500)};
    limits.on_info = [&](const EngineInfo& i) {
        std::vector<std::string> line;
        for (Move m : i.pv) line.push_back(move_to_iccs(m));
        lines.push_back(line);
    };
    EngineReply r = e->best_move(Position(), {}, limits);
    ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_TRUE(lines[1].empty());
}

TEST(ExternalEngine, FairyStockfishPrincipalVariationIsLegal) {
    auto e = start_ok("fairy", FAIRY);
    ASSERT_TRUE(e);
    std::size_t longest = 0;
    bool all_legal = true;
    EngineLimits limits{EngineMs(300)};
    limits.on_info = [&](const EngineInfo& i) {
        longest = std::max(longest, i.pv.size());
        EXPECT_LE(i.pv.size(), ENGINE_PV_WORDS);
        Position p;
        for (Move m : i.pv) {
            MoveList legal;
            p.generate_legal(legal);
            if (!legal.contains(m)) all_legal = false;
            UndoInfo u;
            p.do_move(m, u);
        }
    };
    EngineReply r = e->best_move(Position(), {}, limits);
    ASSERT_EQ(r.failure, EngineFailure::None) << r.detail;
    EXPECT_TRUE(all_legal);
    EXPECT_GE(longest, 2u) << "Fairy-Stockfish's pv did not come through";
}

TEST(ExternalEngine, CancelFlagEndsASearchSoon) {
    TempDir tmp;
    auto e = start_ok("slow", script(tmp, "slow.sh", uci_engine("sleep 30")));
    ASSERT_TRUE(e);
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(100ms);
        cancel = true;
    });
    EngineLimits limits{EngineMs(5000)};
    limits.cancel = &cancel;
    EngineReply r = e->best_move(Position(), {}, limits);
    canceller.join();
    EXPECT_EQ(r.failure, EngineFailure::Aborted);
    EXPECT_LT(r.took, 100ms + 5 * ENGINE_CANCEL_POLL + 500ms);
    EXPECT_FALSE(e->alive());
}
