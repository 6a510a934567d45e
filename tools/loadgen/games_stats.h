// The games mode's measurements: a phase's counters and round trips (Stats), merged over the
// shards, their percentiles, and the CPU time and load average read from /proc.
#pragma once

#include <cstdint>
#include <vector>

namespace xq::loadgen {

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

// CPU seconds (user + system) a process has used so far, from /proc; 0 when unknown.
double cpu_seconds(int pid);

// The p-quantile (0..1) of v; 0 when empty.
double percentile(std::vector<double> v, double p);

// The phase's stats of every shard in one.
Stats merged(const std::vector<Stats>& parts);

// The 1-minute load average, from /proc; -1 when unknown.
double load_average();

}  // namespace xq::loadgen
