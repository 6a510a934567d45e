// xiangqi-attack: attack and load tests against a real xiangqi-server on loopback. Each
// scenario starts its own server (so limits can be set per scenario), attacks it, checks
// that honest clients were unharmed, and reports numbers; the run ends with one table.
// Every connection goes to 127.0.0.1 (sources 127.0.0.x); counts and durations are bounded.
// The scenarios live in scenario.h and their files (input, connections, floods, soak, kill9).
#include <signal.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "scenario.h"

int main(int argc, char** argv) {
    using namespace xq::attack;
    CLI::App cli{"xiangqi-attack: attack and load tests against xiangqi-server on loopback"};
    Env env;
    std::vector<std::string> scenarios;
    std::string scale = "ci";
    cli.add_option("--server", env.server_bin, "path to xiangqi-server")->required();
    cli.add_option("--work-dir", env.work_dir, "logs and data go here")->required();
    cli.add_option("--scale", scale, "ci (short) or full (the documented long run)")
        ->check(CLI::IsMember({"ci", "full"}))
        ->capture_default_str();
    cli.add_option("--seed", env.seed, "random seed")->capture_default_str();
    cli.add_option("--kill-rounds", env.kill_rounds, "kill -9 rounds of the kill9 scenario")->capture_default_str();
    cli.add_option("--soak-seconds", env.soak_seconds, "the soak's measured seconds (default: 60, full: 600)")
        ->check(CLI::Range(1, 3600));
    cli.add_flag("--sanitized", env.sanitized,
                 "the server is a sanitizer build: show its memory and latency figures without judging them (or with bounds loosened for ASan)");
    cli.add_flag("-v,--verbose", env.verbose, "print failures as they happen");
    cli.add_option("scenarios", scenarios, "which to run (default: all)");
    CLI11_PARSE(cli, argc, argv);
    env.full = scale == "full";
    std::filesystem::create_directories(env.work_dir);
    ::signal(SIGPIPE, SIG_IGN);
    // Hundreds of sockets: take the hard descriptor limit.
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }

    const std::vector<std::pair<std::string, void (*)(Env&)>> all = {
        {"oversized", oversized}, {"garbage", garbage}, {"chat_cut", chat_cut}, {"slowloris", slowloris},
        {"nonreader", nonreader}, {"caps", caps},       {"floods", floods},     {"forged", forged},
        {"soak", soak},           {"kill9", kill9},       {"identity", identity},
        {"promises", promises},   {"tournaments", tournaments},
    };
    std::set<std::string> want(scenarios.begin(), scenarios.end());
    for (const auto& w : want) {
        if (std::none_of(all.begin(), all.end(), [&](const auto& p) { return p.first == w; })) {
            std::fprintf(stderr, "unknown scenario %s\n", w.c_str());
            return 64;
        }
    }
    std::printf("  %-12s %-44s %-16s %-20s %s\n", "scenario", "metric", "value", "goal", "result");
    for (const auto& [n, fn] : all) {
        if (!want.empty() && !want.count(n)) continue;
        const auto t0 = Clock::now();
        fn(env);
        std::printf("  %-12s (%.1f s)\n", n.c_str(), ms_since(t0) / 1000.0);
    }
    int failed = 0;
    for (const auto& r : env.rows) failed += !r.ok;
    std::printf("\n%d checks, %d failed\n", int(env.rows.size()), failed);
    return failed == 0 ? 0 : 1;
}
