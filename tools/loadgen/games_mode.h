// xiangqi-loadgen's games mode (the default): pairs of bots play random legal moves,
// spectators watch, and it prints connections held, moves/s and the move round trip, first
// without AI load, then with AI-versus-AI tables, probes and analyses. Loopback only.
#pragma once

#include <cstdint>
#include <string>

namespace xq::loadgen {

struct GamesOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 5050;
    int games = 500;
    int spectators = 1000;
    int think_ms = 200;
    double setup_s = 30;  // longest wait for every bot to connect
    double warmup_s = 3;
    double duration_s = 15;
    int ai_tables = 2;
    int ai_level = 10;
    double ai_duration_s = 15;
    int server_pid = 0;  // when set, the server's CPU use per phase is reported
    int probes = 1;        // tables where a bot plays the AI at probe_level (0 = none)
    int probe_level = 1;
    int long_searches = 0;  // tables where a bot plays the AI at long_level: long searches a human waits for
    int long_level = 10;
    int analyses = 0;         // users asking for whole-game analyses on the AI pool during the AI phase
    int analysis_plies = 80;  // moves of each analysed game
    int threads = 1;          // io_context threads the bots are spread over (a game's bots share one)
};

// Connects the bots and measures each phase; returns the process exit code.
int run_games(const GamesOptions& opt);

}  // namespace xq::loadgen
