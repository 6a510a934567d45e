#include "scenario.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <utility>

namespace xq::attack {

std::string fmt(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string source_addr(int i) {
    return "127.0.0." + std::to_string(2 + i % 250);
}

void add(Env& env, const std::string& scenario, const std::string& metric, const std::string& value,
         const std::string& goal, bool ok) {
    env.rows.push_back({scenario, metric, value, goal, ok});
    std::printf("  %-12s %-44s %-16s %-20s %s\n", scenario.c_str(), metric.c_str(), value.c_str(),
                goal.c_str(), ok ? "ok" : "FAIL");
    std::fflush(stdout);
}

std::vector<std::string> base_args(const Target& t) {
    return {"--bind", "127.0.0.1", "--port", t.port, "--log-level", "warn", "--discovery-port", "0", "--no-console"};
}

int log_errors(const std::string& path) {
    std::ifstream f(path);
    int n = 0;
    for (std::string line; std::getline(f, line);)
        n += line.find("[error]") != std::string::npos || line.find("[critical]") != std::string::npos;
    return n;
}

bool play(Hub& hub, ControlGame& g, int n, Stats& st, std::string* why) {
    for (int i = 0; i < n; ++i) {
        if (!g.step(st)) {
            if (why) *why = g.why();
            return false;
        }
        hub.pump(0);
    }
    return true;
}

std::string lat(const Stats& s) {
    return fmt(s.pct(50) / 1000.0) + "/" + fmt(s.pct(99) / 1000.0) + " ms";
}

Session::Session(Env& e, std::string scenario, std::vector<std::string> extra, int nofile, bool console)
    : env(e), name(std::move(scenario)) {
    target.port = free_port();
    log = env.work_dir + "/" + name + ".server.log";
    std::vector<std::string> args = base_args(target);
    if (console) {
        args.erase(std::remove(args.begin(), args.end(), std::string("--no-console")), args.end());
        server.with_console = true;
    }
    args.insert(args.end(), extra.begin(), extra.end());
    // Each scenario gets a fresh database (the server keeps games across restarts).
    if (std::find(extra.begin(), extra.end(), "--data-dir") == extra.end()) {
        const std::string data = env.work_dir + "/" + name + "-data";
        std::filesystem::remove_all(data);
        args.insert(args.end(), {"--data-dir", data});
    }
    std::string why;
    ok = server.start(env.server_bin, args, log, target, nofile, &why);
    if (!ok) add(env, name, "server start", why, "starts", false);
}

Session::~Session() {
    if (server.pid() <= 0) return;
    const int code = server.stop();
    add(env, name, "server exit status on SIGTERM", std::to_string(code), "0 (see " + name + ".server.log)",
        code == 0);
}

}  // namespace xq::attack
