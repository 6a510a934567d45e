#include "tt.h"

#include <algorithm>

namespace xq::engine {

void TranspositionTable::resize(std::size_t mb) {
    mb = std::clamp(mb, MIN_MB, MAX_MB);
    mb_ = mb;
    const std::size_t count = mb * 1024 * 1024 / sizeof(Bucket);
    buckets_.reset(std::max<std::size_t>(count, 1));
    generation_ = 0;
}

void TranspositionTable::clear() {
    buckets_.clear();
    generation_ = 0;
}

TTEntry TranspositionTable::decode(std::uint64_t w0, std::uint64_t w1) {
    TTEntry e;
    e.key32 = std::uint32_t(w0) ^ std::uint32_t(w1);
    e.move = std::uint16_t(w0 >> 32);
    e.score = std::int16_t(std::uint16_t(w0 >> 48));
    e.eval = std::int16_t(std::uint16_t(w1));
    e.depth = std::uint8_t(w1 >> 16);
    e.gen_bound = std::uint8_t(w1 >> 24);
    return e;
}

void TranspositionTable::encode(const TTEntry& e, std::uint64_t& w0, std::uint64_t& w1) {
    w1 = std::uint64_t(std::uint16_t(e.eval)) | std::uint64_t(e.depth) << 16 | std::uint64_t(e.gen_bound) << 24;
    w0 = std::uint64_t(e.key32 ^ std::uint32_t(w1)) | std::uint64_t(e.move) << 32 |
         std::uint64_t(std::uint16_t(e.score)) << 48;
}

const TTEntry* TranspositionTable::probe(std::uint64_t key, TTEntry& out) const {
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

void TranspositionTable::store(std::uint64_t key, Move move, int score, int eval, int depth,
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

int TranspositionTable::hashfull() const {
    const std::size_t n = std::min<std::size_t>(buckets_.size(), 250);
    int used = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (int j = 0; j < BUCKET; ++j) {
            const auto gen_bound = std::uint8_t(load(buckets_[i].w[2 * j + 1]) >> 24);
            if (gen_bound != 0 && (gen_bound & 0xFC) == generation_) ++used;
        }
    return n ? int(used * 1000 / (n * BUCKET)) : 0;
}

}  // namespace xq::engine
