// The games mode's measurements: see games_stats.h.
#include "games_stats.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

namespace xq::loadgen {

double cpu_seconds(int pid) {
    if (pid <= 0) return 0;
    std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return 0;
    char buf[1024];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = 0;
    const char* p = std::strrchr(buf, ')');
    if (!p) return 0;
    unsigned long utime = 0, stime = 0;
    // Fields after the command: state(3) ... utime(14) stime(15).
    if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) != 2) return 0;
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

Stats merged(const std::vector<Stats>& parts) {
    Stats all;
    for (const auto& p : parts) {
        all.rtt_us.insert(all.rtt_us.end(), p.rtt_us.begin(), p.rtt_us.end());
        all.moves += p.moves;
        all.spectator_lines += p.spectator_lines;
        all.errors += p.errors;
        all.games_ended += p.games_ended;
        all.ai_reply_us.insert(all.ai_reply_us.end(), p.ai_reply_us.begin(), p.ai_reply_us.end());
        all.long_reply_us.insert(all.long_reply_us.end(), p.long_reply_us.begin(), p.long_reply_us.end());
        all.analyses_done += p.analyses_done;
    }
    return all;
}

double load_average() {
    double l = -1;
    if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &l) != 1) l = -1;
        std::fclose(f);
    }
    return l;
}

}  // namespace xq::loadgen
