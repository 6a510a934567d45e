// Transposition table: a per-engine hash of searched positions keyed by Zobrist keys.
// Owned by an Engine (no global state); its size is set in MiB (the UCI `Hash` option).
// Shared by the threads of one search (Lazy SMP): each entry is two 64-bit words read and
// written atomically (relaxed), and the key check folds in the second word, so that an entry
// torn by two threads writing at once reads as a miss instead of as a wrong hit.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "large_array.h"
#include "xiangqi/types.h"

namespace xq::engine {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// A decoded copy of one entry.
struct TTEntry {
    std::uint32_t key32 = 0;
    std::uint16_t move = 0;
    std::int16_t score = 0;
    std::int16_t eval = 0;
    std::uint8_t depth = 0;
    std::uint8_t gen_bound = 0;  // generation in the upper 6 bits, Bound in the lower 2

    Bound bound() const { return Bound(gen_bound & 3); }
};

class TranspositionTable {
public:
    static constexpr std::size_t MIN_MB = 1;
    static constexpr std::size_t MAX_MB = 4096;
    static constexpr int BUCKET = 4;

    explicit TranspositionTable(std::size_t mb = 16) { resize(mb); }

    // Neither runs while a search does.
    void resize(std::size_t mb);  // clamped to MIN_MB..MAX_MB; clears the table
    void clear();
    void new_search() { generation_ = std::uint8_t((generation_ + 4) & 0xFC); }

    // Starts loading the bucket of `key` into the cache (a probe follows soon after).
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket_of(key)); }

    // Copies the entry for `key` into `out` and returns &out, or returns nullptr.
    const TTEntry* probe(std::uint64_t key, TTEntry& out) const;
    void store(std::uint64_t key, Move move, int score, int eval, int depth, Bound bound);

    // Permille of a sample of entries written in this search (UCI `hashfull`).
    int hashfull() const;
    std::size_t size_mb() const { return mb_; }

private:
    // Entry i is words 2i (check, move, score) and 2i+1 (eval, depth, generation and bound).
    struct alignas(64) Bucket {
        std::uint64_t w[2 * BUCKET];
    };
    static_assert(sizeof(Bucket) == 64);

    static std::uint64_t load(const std::uint64_t& w) {
        return std::atomic_ref<std::uint64_t>(const_cast<std::uint64_t&>(w)).load(std::memory_order_relaxed);
    }
    static void save(std::uint64_t& w, std::uint64_t v) {
        std::atomic_ref<std::uint64_t>(w).store(v, std::memory_order_relaxed);
    }
    static TTEntry decode(std::uint64_t w0, std::uint64_t w1);
    static void encode(const TTEntry& e, std::uint64_t& w0, std::uint64_t& w1);

    // Maps the key onto the table by a multiply-high (no modulo, any table size).
    std::size_t index_of(std::uint64_t key) const {
        __extension__ using u128 = unsigned __int128;
        return std::size_t((u128(key) * u128(buckets_.size())) >> 64);
    }
    Bucket& bucket_of(std::uint64_t key) { return buckets_[index_of(key)]; }
    const Bucket& bucket_of(std::uint64_t key) const { return buckets_[index_of(key)]; }

    LargeArray<Bucket> buckets_;
    std::uint8_t generation_ = 0;
    std::size_t mb_ = 0;
};

}  // namespace xq::engine
