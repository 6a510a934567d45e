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

void report_setup(const std::vector<Setup>& parts) {
    std::vector<double> welcome, table;
    for (const auto& p : parts) {
        welcome.insert(welcome.end(), p.welcome_us.begin(), p.welcome_us.end());
        table.insert(table.end(), p.table_us.begin(), p.table_us.end());
    }
    std::printf("setup: hello->welcome n=%zu p50=%.2fms p99=%.2fms max=%.2fms; "
                "create_table->snapshot n=%zu p50=%.2fms p99=%.2fms max=%.2fms\n",
                welcome.size(), percentile(welcome, 0.50) / 1000, percentile(welcome, 0.99) / 1000,
                percentile(welcome, 1.0) / 1000, table.size(), percentile(table, 0.50) / 1000,
                percentile(table, 0.99) / 1000, percentile(table, 1.0) / 1000);
    std::fflush(stdout);
}

void report(const char* label, const Stats& st, double seconds, const GamesOptions& opt, std::size_t threads,
            int connected, int failed, double server_cpu, double own_cpu) {
    std::printf("%-8s server_cpu=%.0f%% loadgen_cpu=%.0f%% threads=%zu load=%.2f connections=%d failed=%d moves=%llu "
                "moves/s=%.0f rtt_p50=%.3fms rtt_p99=%.3fms rtt_max=%.3fms "
                "spectator_lines/s=%.0f errors=%llu games_ended=%llu\n",
                label, 100.0 * server_cpu / seconds, 100.0 * own_cpu / seconds, threads, load_average(), connected,
                failed, static_cast<unsigned long long>(st.moves), st.moves / seconds,
                percentile(st.rtt_us, 0.50) / 1000, percentile(st.rtt_us, 0.99) / 1000,
                percentile(st.rtt_us, 1.0) / 1000, st.spectator_lines / seconds,
                static_cast<unsigned long long>(st.errors), static_cast<unsigned long long>(st.games_ended));
    if (opt.probes > 0)
        std::printf("%-8s ai_reply(level %d, %d probe table(s)): n=%zu p50=%.0fms p99=%.0fms max=%.0fms\n", label,
                    opt.probe_level, opt.probes, st.ai_reply_us.size(), percentile(st.ai_reply_us, 0.50) / 1000,
                    percentile(st.ai_reply_us, 0.99) / 1000, percentile(st.ai_reply_us, 1.0) / 1000);
    if (opt.analyses > 0)
        std::printf("%-8s analyses: %d running, %llu finished in the phase\n", label, opt.analyses,
                    static_cast<unsigned long long>(st.analyses_done));
    if (opt.long_searches > 0)
        std::printf("%-8s long_reply(level %d, %d table(s)): n=%zu p50=%.0fms p99=%.0fms max=%.0fms\n", label,
                    opt.long_level, opt.long_searches, st.long_reply_us.size(),
                    percentile(st.long_reply_us, 0.50) / 1000, percentile(st.long_reply_us, 0.99) / 1000,
                    percentile(st.long_reply_us, 1.0) / 1000);
    std::fflush(stdout);
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
