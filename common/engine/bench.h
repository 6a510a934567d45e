// The bench: a fixed set of positions searched to a fixed depth on a fresh engine. The total
// node count is the search's signature (pinned by a test); nodes/second measure speed.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "search.h"

namespace xq::engine {

inline constexpr int BENCH_DEPTH = 8;
inline constexpr std::size_t BENCH_HASH_MB = 16;

struct BenchPosition {
    std::string_view fen;
    Move best;
    int score_cp = 0;
    std::uint64_t nodes = 0;
};

struct BenchResult {
    std::vector<BenchPosition> positions;
    std::uint64_t nodes = 0;
    int elapsed_ms = 0;
    std::uint64_t nps = 0;
};

// The bench positions (FEN), in order.
const std::vector<std::string_view>& bench_fens();

// Runs the bench at `depth` (full strength, 1 thread, fresh hash per position).
BenchResult run_bench(int depth = BENCH_DEPTH);

}  // namespace xq::engine
