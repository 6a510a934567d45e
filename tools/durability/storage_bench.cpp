// xq-storage-bench: what committing a move costs. Appends N moves (default 2000) to a fresh
// database in a temporary directory, once with synchronous=NORMAL (the default: survives a
// killed server) and once with FULL (--sync-full: also survives a power cut), and prints
// p50/p99/max per commit and FULL's cost as a ratio of NORMAL's, measured in the same run.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "server/store/storage.h"

namespace {

using namespace xq::server;
using Clock = std::chrono::steady_clock;

struct Stats {
    double p50_us = 0, p99_us = 0, max_us = 0, total_ms = 0;
};

Stats run(const std::filesystem::path& dir, Storage::Sync sync, int moves) {
    std::string err;
    auto s = Storage::open(dir, &err, sync);
    if (!s) {
        std::fprintf(stderr, "%s\n", err.c_str());
        std::exit(1);
    }
    GameRecord g;
    g.table_id = 1;
    g.start_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    g.red = "a";
    g.black = "b";
    std::vector<double> us;
    us.reserve(std::size_t(moves));
    auto t0 = Clock::now();
    std::int64_t game = 0;
    for (int i = 0; i < moves; ++i) {
        if (i % 200 == 0) game = s->create_game(g).value_or(0);  // games of 200 plies
        MoveRecord m;
        m.ply = i % 200;
        m.move = "h2e2";
        m.at_ms = i;
        auto a = Clock::now();
        if (!s->append_move(game, m)) {
            std::fprintf(stderr, "append failed: %s\n", s->last_error().c_str());
            std::exit(1);
        }
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - a).count());
    }
    Stats st;
    st.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::sort(us.begin(), us.end());
    st.p50_us = us[us.size() / 2];
    st.p99_us = us[us.size() * 99 / 100];
    st.max_us = us.back();
    return st;
}

}  // namespace

int main(int argc, char** argv) {
    int moves = argc > 1 ? std::atoi(argv[1]) : 2000;
    moves = std::clamp(moves, 100, 100000);
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/xq-storage-bench-XXXXXX";
    if (!::mkdtemp(tmpl.data())) return 1;
    std::filesystem::path dir = tmpl;
    Stats normal = run(dir / "normal", Storage::Sync::Normal, moves);
    Stats full = run(dir / "full", Storage::Sync::Full, moves);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::printf("moves committed per mode: %d\n", moves);
    std::printf("synchronous=NORMAL (default): p50 %.1f us  p99 %.1f us  max %.1f us  %.0f commits/s\n", normal.p50_us,
                normal.p99_us, normal.max_us, moves / (normal.total_ms / 1000));
    std::printf("synchronous=FULL (--sync-full): p50 %.1f us  p99 %.1f us  max %.1f us  %.0f commits/s\n", full.p50_us,
                full.p99_us, full.max_us, moves / (full.total_ms / 1000));
    std::printf("FULL / NORMAL: p50 x%.1f  p99 x%.1f\n", full.p50_us / normal.p50_us, full.p99_us / normal.p99_us);
    return 0;
}
