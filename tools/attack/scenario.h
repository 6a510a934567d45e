// The frame every attack scenario shares: the run's settings and result rows (Env, Row), a
// scenario's own server (Session), small formatting helpers, and the scenarios themselves
// (one file per group: input, identity, promises, connections, floods, soak, kill9 (its
// players in kill9_run.h), tournaments).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"
#include "server_process.h"

namespace xq::attack {

struct Row {
    std::string scenario;
    std::string metric;
    std::string value;
    std::string goal;
    bool ok = true;
};

struct Env {
    std::string server_bin;
    std::string work_dir;
    bool full = false;  // the documented long sizes instead of the CI ones
    std::uint32_t seed = 1;
    std::vector<Row> rows;
    bool verbose = false;
    int kill_rounds = 30;  // kill9 rounds (about 0.8 s each)
    int soak_seconds = 0;  // the soak's measured time; 0: 60 s (ci) or 600 s (full)
    // The server is a sanitizer build: its memory and latency figures are shown, not judged
    // (shadow memory and ASan's quarantine change them; LeakSanitizer judges leaks at exit).
    bool sanitized = false;
};

std::string fmt(double v, int decimals = 2);

std::string source_addr(int i);

void add(Env& env, const std::string& scenario, const std::string& metric, const std::string& value,
         const std::string& goal, bool ok);

// Every server listens on loopback only, with LAN discovery off (no UDP socket at all) and
// no operator console.
std::vector<std::string> base_args(const Target& t);

// Lines a server logged at level error or critical (database failures among them).
int log_errors(const std::string& path);

// Starts a server for one scenario on a fresh port; at the end stops it with SIGTERM and
// checks that it exits 0 (a crash, a sanitizer report or a hang on shutdown fails). With
// `console` its operator console reads server.console()'s lines.
struct Session {
    Env& env;
    std::string name;
    Target target;
    ServerProc server;
    std::string log;
    bool ok = false;

    Session(Env& e, std::string scenario, std::vector<std::string> extra = {}, int nofile = 0, bool console = false);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

// Plays `n` control moves and returns their round-trip stats.
bool play(Hub& hub, ControlGame& g, int n, Stats& st, std::string* why = nullptr);

std::string lat(const Stats& s);

void oversized(Env& env);
void garbage(Env& env);
void chat_cut(Env& env);
void identity(Env& env);
void promises(Env& env);
void tournaments(Env& env);
void slowloris(Env& env);
void nonreader(Env& env);
void caps(Env& env);
void floods(Env& env);
void forged(Env& env);
void soak(Env& env);
void kill9(Env& env);

}  // namespace xq::attack
