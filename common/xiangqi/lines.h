// Rook and cannon reach along one line from the line's occupancy: a rank (9 points, bit f =
// file f) or a file (10 points, bit r = rank r), as kept by Position::rank_occupancy and
// file_occupancy. Compile-time data, used by the attack tests and the evaluation.
#pragma once

#include <array>
#include <cstdint>

namespace xq::lines {

struct LineTables {
    // For a piece at index p of a line with occupancy occ (the piece's own bit ignored): the
    // points a rook reaches (up to and including the first piece each way) and the points a
    // cannon attacks (the first piece beyond the first screen each way).
    std::array<std::array<std::uint16_t, 1024>, 10> rook{};
    std::array<std::array<std::uint16_t, 1024>, 10> cannon{};
    std::array<std::uint8_t, 1024> pop{};  // 10-bit popcounts
};

constexpr LineTables build_lines() {
    LineTables t{};
    for (int p = 0; p < 10; ++p)
        for (int occ = 0; occ < 1024; ++occ) {
            int rook = 0, cannon = 0;
            for (int dir : {1, -1}) {
                int i = p + dir;
                while (i >= 0 && i < 10 && !((occ >> i) & 1)) {
                    rook |= 1 << i;
                    i += dir;
                }
                if (i < 0 || i >= 10) continue;
                rook |= 1 << i;
                for (i += dir; i >= 0 && i < 10 && !((occ >> i) & 1); i += dir) {}
                if (i >= 0 && i < 10) cannon |= 1 << i;
            }
            t.rook[p][occ] = std::uint16_t(rook);
            t.cannon[p][occ] = std::uint16_t(cannon);
        }
    for (int v = 0; v < 1024; ++v) {
        int n = 0;
        for (int b = 0; b < 10; ++b) n += (v >> b) & 1;
        t.pop[v] = std::uint8_t(n);
    }
    return t;
}

inline constexpr LineTables LINES = build_lines();

}  // namespace xq::lines
