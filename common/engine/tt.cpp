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
