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

// What each bench position is, for the speed by kind: the start and two first moves, middle
// games (20 pieces or more), endings (fewer).
enum class BenchKind { Opening, Middle, Ending };
inline constexpr int BENCH_KIND_NB = 3;
const char* bench_kind_name(BenchKind k);

struct BenchPosition {
    std::string_view fen;
    BenchKind kind = BenchKind::Opening;
    Move best;
    int score_cp = 0;
    std::uint64_t nodes = 0;
    std::int64_t search_us = 0;  // the search alone (not the clearing of the tables before it)
};

struct BenchResult {
    std::vector<BenchPosition> positions;
    std::uint64_t nodes = 0;
    int elapsed_ms = 0;   // the whole run: the searches and the table clears before each
    std::uint64_t nps = 0;
    // Nodes per second of the searches alone, by kind of position (BenchKind order).
    std::uint64_t nps_by_kind[BENCH_KIND_NB] = {};
};

// The bench positions (FEN), in order.
const std::vector<std::string_view>& bench_fens();
// The kind of each (the same order).
BenchKind bench_kind(std::string_view fen);

// Runs the bench at `depth` (full strength, 1 thread, fresh hash per position).
BenchResult run_bench(int depth = BENCH_DEPTH);

}  // namespace xq::engine
