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

const TTEntry* TranspositionTable::probe(std::uint64_t key) const {
    const auto k32 = std::uint32_t(key);
    const Bucket& b = bucket_of(key);
    for (const TTEntry& e : b.e)
        if (e.key32 == k32 && e.gen_bound != 0) return &e;
    return nullptr;
}

void TranspositionTable::store(std::uint64_t key, Move move, int score, int eval, int depth,
                               Bound bound) {
    const auto k32 = std::uint32_t(key);
    Bucket& b = bucket_of(key);
    TTEntry* slot = nullptr;
    for (TTEntry& e : b.e)
        if (e.key32 == k32 && e.gen_bound != 0) {
            slot = &e;
            break;
        }
    if (!slot) {
        // Replace the entry worth least: old generations first, then shallow ones.
        int worst = 1 << 30;
        for (TTEntry& e : b.e) {
            const int age = ((generation_ - (e.gen_bound & 0xFC)) & 0xFC) / 4;
            const int worth = e.gen_bound == 0 ? -1000 : e.depth - 8 * age;
            if (worth < worst) {
                worst = worth;
                slot = &e;
            }
        }
    } else if (bound != Bound::Exact && depth + 2 < slot->depth &&
               (slot->gen_bound & 0xFC) == generation_) {
        // Keep a deeper result from this search; still remember a move if it had none.
        if (!slot->move && move) slot->move = move.raw();
        return;
    }
    if (move || slot->key32 != k32) slot->move = move.raw();
    slot->key32 = k32;
    slot->score = std::int16_t(score);
    slot->eval = std::int16_t(eval);
    slot->depth = std::uint8_t(std::clamp(depth, 0, 255));
    slot->gen_bound = std::uint8_t(generation_ | std::uint8_t(bound));
}

int TranspositionTable::hashfull() const {
    const std::size_t n = std::min<std::size_t>(buckets_.size(), 250);
    int used = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (const TTEntry& e : buckets_[i].e)
            if (e.gen_bound != 0 && (e.gen_bound & 0xFC) == generation_) ++used;
    return n ? int(used * 1000 / (n * BUCKET)) : 0;
}

}  // namespace xq::engine
