// Transposition table: a per-engine hash of searched positions keyed by Zobrist keys.
// Owned by an Engine (no global state); its size is set in MiB (the UCI `Hash` option).
// Shared by the threads of one search (Lazy SMP): each entry is two 64-bit words read and
// written atomically (relaxed), and the key check folds in the second word, so that an entry
// torn by two threads writing at once reads as a miss instead of as a wrong hit.
#pragma once

#include <algorithm>
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

// The probe and the store run at nearly every node: defined here so that the search inlines
// them (twenty-fifth session: `bench` middle games 1-3% faster than with the calls).
inline TTEntry TranspositionTable::decode(std::uint64_t w0, std::uint64_t w1) {
    TTEntry e;
    e.key32 = std::uint32_t(w0) ^ std::uint32_t(w1);
    e.move = std::uint16_t(w0 >> 32);
    e.score = std::int16_t(std::uint16_t(w0 >> 48));
    e.eval = std::int16_t(std::uint16_t(w1));
    e.depth = std::uint8_t(w1 >> 16);
    e.gen_bound = std::uint8_t(w1 >> 24);
    return e;
}

inline const TTEntry* TranspositionTable::probe(std::uint64_t key, TTEntry& out) const {
    const auto k32 = std::uint32_t(key);
    const Bucket& b = bucket_of(key);
    for (int i = 0; i < BUCKET; ++i) {
        const TTEntry e = decode(load(b.w[2 * i]), load(b.w[2 * i + 1]));
        if (e.key32 == k32 && e.gen_bound != 0) {
            out = e;
            return &out;
        }
    }
    return nullptr;
}

inline void TranspositionTable::encode(const TTEntry& e, std::uint64_t& w0, std::uint64_t& w1) {
    w1 = std::uint64_t(std::uint16_t(e.eval)) | std::uint64_t(e.depth) << 16 | std::uint64_t(e.gen_bound) << 24;
    w0 = std::uint64_t(e.key32 ^ std::uint32_t(w1)) | std::uint64_t(e.move) << 32 |
         std::uint64_t(std::uint16_t(e.score)) << 48;
}

inline void TranspositionTable::store(std::uint64_t key, Move move, int score, int eval, int depth,
                                      Bound bound) {
    const auto k32 = std::uint32_t(key);
    Bucket& b = bucket_of(key);
    TTEntry entries[BUCKET];
    for (int i = 0; i < BUCKET; ++i) entries[i] = decode(load(b.w[2 * i]), load(b.w[2 * i + 1]));
    int slot = -1;
    for (int i = 0; i < BUCKET; ++i)
        if (entries[i].key32 == k32 && entries[i].gen_bound != 0) {
            slot = i;
            break;
        }
    TTEntry e;
    if (slot < 0) {
        // Replace the entry worth least: old generations first, then shallow ones.
        int worst = 1 << 30;
        for (int i = 0; i < BUCKET; ++i) {
            const TTEntry& x = entries[i];
            const int age = ((generation_ - (x.gen_bound & 0xFC)) & 0xFC) / 4;
            const int worth = x.gen_bound == 0 ? -1000 : x.depth - 8 * age;
            if (worth < worst) {
                worst = worth;
                slot = i;
            }
        }
        e = entries[slot];
    } else {
        e = entries[slot];
        if (bound != Bound::Exact && depth + 2 < e.depth && (e.gen_bound & 0xFC) == generation_) {
            // Keep a deeper result from this search; still remember a move if it had none.
            if (!e.move && move) {
                e.move = move.raw();
                std::uint64_t w0, w1;
                encode(e, w0, w1);
                save(b.w[2 * slot], w0);
            }
            return;
        }
    }
    if (move || e.key32 != k32) e.move = move.raw();
    e.key32 = k32;
    e.score = std::int16_t(score);
    e.eval = std::int16_t(eval);
    e.depth = std::uint8_t(std::clamp(depth, 0, 255));
    e.gen_bound = std::uint8_t(generation_ | std::uint8_t(bound));
    std::uint64_t w0, w1;
    encode(e, w0, w1);
    save(b.w[2 * slot + 1], w1);
    save(b.w[2 * slot], w0);
}

}  // namespace xq::engine
