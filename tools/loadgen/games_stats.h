// The games mode's measurements: the setup's login and table times, a phase's counters and
// round trips (Stats), merged over the shards, their percentiles and printed lines, and the
// CPU time and load average read from /proc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "games_mode.h"

namespace xq::loadgen {

// The setup's timings, per shard.
struct Setup {
    std::vector<double> welcome_us;  // hello sent -> welcome received, every bot
    std::vector<double> table_us;    // a game's creator: create_table sent -> its table_snapshot
};

// Prints the setup's timings of every shard in one line.
void report_setup(const std::vector<Setup>& parts);

struct Stats {
    std::vector<double> rtt_us;
    std::uint64_t moves = 0;           // move_made lines received by movers for their own moves
    std::uint64_t spectator_lines = 0;
    std::uint64_t errors = 0;
    std::uint64_t games_ended = 0;
    std::vector<double> ai_reply_us;    // probe: own move acknowledged -> the AI's move_made
    std::vector<double> long_reply_us;  // the same at the long-search tables
    std::uint64_t analyses_done = 0;    // whole-game analyses finished (each is asked again at once)
};

// One phase's line; server_cpu and own_cpu are the CPU seconds the server and this tool used.
void report(const char* label, const Stats& st, double seconds, const GamesOptions& opt, std::size_t threads,
            int connected, int failed, double server_cpu, double own_cpu);

// CPU seconds (user + system) a process has used so far, from /proc; 0 when unknown.
double cpu_seconds(int pid);

// The p-quantile (0..1) of v; 0 when empty.
double percentile(std::vector<double> v, double p);

// The phase's stats of every shard in one.
Stats merged(const std::vector<Stats>& parts);

// The 1-minute load average, from /proc; -1 when unknown.
double load_average();

}  // namespace xq::loadgen
