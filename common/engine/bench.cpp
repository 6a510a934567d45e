#include "bench.h"

#include <chrono>

namespace xq::engine {

const std::vector<std::string_view>& bench_fens() {
    // The start, two common openings, and middle games and endings from the published perft
    // positions (tests/data/perft_published.tsv).
    static const std::vector<std::string_view> fens = {
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    };
    return fens;
}

const char* bench_kind_name(BenchKind k) {
    switch (k) {
    case BenchKind::Opening: return "openings";
    case BenchKind::Middle: return "middle games";
    case BenchKind::Ending: return "endings";
    }
    return "?";
}

BenchKind bench_kind(std::string_view fen) {
    const auto& fens = bench_fens();
    if (fen == fens[0] || fen == fens[1] || fen == fens[2]) return BenchKind::Opening;
    int pieces = 0;
    for (char c : fen.substr(0, fen.find(' '))) pieces += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    return pieces >= 20 ? BenchKind::Middle : BenchKind::Ending;
}

BenchResult run_bench(int depth) {
    BenchResult out;
    Engine engine(BENCH_HASH_MB);
    const auto t0 = std::chrono::steady_clock::now();
    for (std::string_view fen : bench_fens()) {
        Position pos;
        if (pos.set_fen(fen) != FenError::None) continue;
        engine.new_game();
        Limits lim;
        lim.depth = depth;
        const auto s0 = std::chrono::steady_clock::now();
        const Result r = engine.search(pos, {}, lim);
        const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - s0).count();
        out.positions.push_back(BenchPosition{fen, bench_kind(fen), r.best, r.score_cp, r.nodes, std::int64_t(us)});
        out.nodes += r.nodes;
    }
    for (int k = 0; k < BENCH_KIND_NB; ++k) {
        std::uint64_t nodes = 0;
        std::int64_t us = 0;
        for (const auto& p : out.positions)
            if (int(p.kind) == k) {
                nodes += p.nodes;
                us += p.search_us;
            }
        out.nps_by_kind[k] = us > 0 ? nodes * 1000000 / std::uint64_t(us) : 0;
    }
    out.elapsed_ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::steady_clock::now() - t0).count());
    out.nps = out.elapsed_ms > 0 ? out.nodes * 1000 / std::uint64_t(out.elapsed_ms) : out.nodes * 1000;
    return out;
}

}  // namespace xq::engine
