// xiangqi-loadgen: opens many bot connections to a xiangqi-server on loopback. Pairs of bots
// play random legal moves, spectators watch, and the tool reports connections held, moves/s
// and the p50/p99 move round trip (own `move` sent -> own `move_made` received), first
// without AI load, then with AI-versus-AI tables searching. Probe tables (a bot against a
// low-level AI) measure how long the AI takes to answer, showing whether the server's AI
// scheduling stays fair while the AI-versus-AI tables and whole-game analyses search.
// Loopback addresses only.
#include <CLI/CLI.hpp>
#include <boost/asio/ip/address.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "games_mode.h"
#include "idle_mode.h"
#include "login_mode.h"

namespace {

void raise_fd_limit() {
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

}  // namespace

int main(int argc, char** argv) {
    xq::loadgen::GamesOptions opt;
    CLI::App app{"xiangqi-loadgen: loopback load test for xiangqi-server"};
    app.add_option("--host", opt.host, "server address (loopback only)")->capture_default_str();
    app.add_option("--port", opt.port, "server port")->capture_default_str();
    app.add_option("--games", opt.games, "concurrent games (two bots each)")->capture_default_str();
    app.add_option("--spectators", opt.spectators, "spectator connections, spread over the games")->capture_default_str();
    app.add_option("--think-ms", opt.think_ms, "mean delay before a bot moves (uniform 0.5x..1.5x)")->capture_default_str();
    app.add_option("--warmup", opt.warmup_s, "seconds before measuring")->capture_default_str();
    app.add_option("--duration", opt.duration_s, "seconds measured without AI load")->capture_default_str();
    app.add_option("--ai-tables", opt.ai_tables, "AI-versus-AI tables searching during the second phase (0 = skip)")
        ->capture_default_str();
    app.add_option("--ai-level", opt.ai_level, "level of those AIs")->capture_default_str();
    app.add_option("--ai-duration", opt.ai_duration_s, "seconds measured with AI load")->capture_default_str();
    app.add_option("--server-pid", opt.server_pid, "report this process's CPU use per phase");
    app.add_option("--probes", opt.probes, "tables where a bot plays the AI and times its replies (0 = none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    app.add_option("--probe-level", opt.probe_level, "AI level of the probe tables")
        ->capture_default_str()
        ->check(CLI::Range(1, 10));
    app.add_option("--long-searches", opt.long_searches,
                   "tables where a bot plays the AI at --long-level: long searches a player waits for (0 = none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    app.add_option("--long-level", opt.long_level, "AI level of the long-search tables")
        ->capture_default_str()
        ->check(CLI::Range(1, 10));
    app.add_option("--setup", opt.setup_s, "longest wait in seconds for every bot to connect")
        ->capture_default_str()
        ->check(CLI::Range(1.0, 3600.0));
    app.add_option("--analyses", opt.analyses,
                   "users each keeping a whole-game analysis running on the AI pool during the AI phase (0 = none)")
        ->capture_default_str()
        ->check(CLI::Range(0, 100));
    app.add_option("--analysis-plies", opt.analysis_plies, "moves of each analysed game")
        ->capture_default_str()
        ->check(CLI::Range(1, 600));
    opt.threads = static_cast<int>(std::max(1u, std::min(8u, std::thread::hardware_concurrency())));
    app.add_option("--threads", opt.threads,
                   "games mode: io_context threads the bots are spread over (a game's bots share one), so that the "
                   "tool is not the bottleneck")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    xq::loadgen::IdleOptions idle;
    app.add_option("--idle", idle.connections,
                   "instead of games: hold this many idle connections on a bare Asio echo server (started here) "
                   "and on the xiangqi-server, and print the memory per connection (needs --server-pid)")
        ->check(CLI::Range(1, 100000));
    app.add_option("--idle-per-table", idle.per_table, "--idle: spectators per table")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    app.add_option("--pings", idle.pings, "--idle: round trips timed on one more connection")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
    xq::loadgen::LoginOptions logins;
    app.add_option("--logins", logins.logins,
                   "instead of games: time this many logins per round (to the last users page) while the server "
                   "holds a lobby of --lobby users; with --baseline-port, another server in the same run")
        ->check(CLI::Range(1, 100000));
    app.add_option("--lobby", logins.lobby, "--logins: users held logged in")
        ->capture_default_str()
        ->check(CLI::Range(0, 100000));
    app.add_option("--lobby-per-table", logins.per_table, "--logins: one lobby user in this many creates a table")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_option("--baseline-port", logins.baseline_port,
                   "--logins: port of a second server (e.g. an earlier build) measured in alternating rounds");
    app.add_option("--rounds", logins.rounds, "--logins: rounds on each server (the median is reported)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100));
    CLI11_PARSE(app, argc, argv);
    if (app.count("--logins") > 0) {
        raise_fd_limit();
        logins.host = opt.host;
        logins.port = opt.port;
        return xq::loadgen::run_logins(logins);
    }
    if (app.count("--idle") > 0) {
        raise_fd_limit();
        idle.host = opt.host;
        idle.port = opt.port;
        idle.server_pid = opt.server_pid;
        return xq::loadgen::run_idle(idle);
    }

    boost::system::error_code ec;
    const auto addr = boost::asio::ip::make_address(opt.host, ec);
    if (ec || !addr.is_loopback()) {
        std::fprintf(stderr, "xiangqi-loadgen: --host must be a loopback address (127.0.0.0/8 or ::1)\n");
        return 2;
    }
    if (opt.games <= 0 || opt.spectators < 0 || opt.think_ms < 0 || opt.duration_s <= 0) {
        std::fprintf(stderr, "xiangqi-loadgen: bad counts\n");
        return 2;
    }
    raise_fd_limit();
    return xq::loadgen::run_games(opt);
}
