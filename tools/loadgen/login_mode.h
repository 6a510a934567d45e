// xiangqi-loadgen --logins M: how many logins per second a server answers while it holds a
// lobby (--lobby users, one table per --per-table of them), each login counted when its last
// `users` page arrives. With --baseline-port, a second server (for instance one built from an
// earlier commit) is measured in the same run, in alternating rounds, and the ratio printed.
#pragma once

#include <cstdint>
#include <string>

namespace xq::loadgen {

struct LoginOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 5050;     // the server measured
    std::uint16_t baseline_port = 0;  // 0: no baseline
    int logins = 200;              // timed logins per round
    int lobby = 2000;              // users held logged in on each server
    int per_table = 4;             // one of this many lobby users creates a table
    int rounds = 3;                // alternating rounds (the median is reported)
    int parallel = 4;              // logins in flight at once
};

// Returns the process exit code (2 when a measurement could not be made).
int run_logins(const LoginOptions& opt);

}  // namespace xq::loadgen
