// Transposition table: a per-engine hash of searched positions keyed by Zobrist keys.
// Owned by an Engine (no global state); its size is set in MiB (the UCI `Hash` option).
#pragma once

#include <cstddef>
#include <cstdint>
#include "large_array.h"
#include "xiangqi/types.h"

namespace xq::engine {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

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

    void resize(std::size_t mb);  // clamped to MIN_MB..MAX_MB; clears the table
    void clear();
    void new_search() { generation_ = std::uint8_t((generation_ + 4) & 0xFC); }

    // Starts loading the bucket of `key` into the cache (a probe follows soon after).
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&bucket_of(key)); }

    // Returns the entry for `key` or nullptr.
    const TTEntry* probe(std::uint64_t key) const;
    void store(std::uint64_t key, Move move, int score, int eval, int depth, Bound bound);

    // Permille of a sample of entries written in this search (UCI `hashfull`).
    int hashfull() const;
    std::size_t size_mb() const { return mb_; }

private:
    struct Bucket {
        TTEntry e[BUCKET];
        std::uint8_t pad[64 - BUCKET * sizeof(TTEntry)];
    };
    static_assert(sizeof(TTEntry) == 12);

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
