// Precomputed, compile-time step tables for move generation and attack detection.
// All of it is constexpr data: no init() call, no mutable globals.
#pragma once

#include <array>
#include <cstdint>

#include "types.h"

namespace xq::tables {

struct Step {
    std::int8_t to;
    std::int8_t block;  // elephant eye / horse leg, or -1
};

struct StepList {
    std::array<Step, 8> steps{};
    std::uint8_t count = 0;
};

struct Ray {
    std::array<std::int8_t, 9> squares{};
    std::uint8_t count = 0;
};

// Direction order for rays: 0 = up (towards rank 9), 1 = down, 2 = left, 3 = right.
struct Tables {
    std::array<StepList, SQ_NB> king{};                   // palace steps (either palace)
    std::array<StepList, SQ_NB> advisor{};                // palace diagonals
    std::array<StepList, SQ_NB> elephant{};               // with eye, same side of river
    std::array<StepList, SQ_NB> horse{};                  // with leg
    std::array<StepList, SQ_NB> horse_from{};             // squares a horse attacks this one from, with leg
    std::array<std::array<StepList, SQ_NB>, COLOR_NB> pawn{};  // pawn steps for each colour
    std::array<std::array<Ray, 4>, SQ_NB> rays{};
    std::array<std::array<std::uint64_t, SQ_NB>, PIECE_NB> zobrist{};
    std::uint64_t zobrist_side = 0;
};

constexpr bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }

constexpr bool palace_point(int f, int r) { return f >= 3 && f <= 5 && (r <= 2 || r >= 7); }

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

constexpr Tables build() {
    Tables t{};
    constexpr int ortho[4][2] = {{0, 1}, {0, -1}, {-1, 0}, {1, 0}};
    constexpr int diag[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int sq = 0; sq < SQ_NB; ++sq) {
        const int f = sq % FILE_NB, r = sq / FILE_NB;
        auto add = [](StepList& l, int to, int block) {
            l.steps[l.count++] = Step{std::int8_t(to), std::int8_t(block)};
        };
        for (auto& d : ortho) {
            const int nf = f + d[0], nr = r + d[1];
            if (palace_point(f, r) && on_board(nf, nr) && palace_point(nf, nr))
                add(t.king[sq], nr * 9 + nf, -1);
        }
        for (auto& d : diag) {
            const int nf = f + d[0], nr = r + d[1];
            if (palace_point(f, r) && on_board(nf, nr) && palace_point(nf, nr))
                add(t.advisor[sq], nr * 9 + nf, -1);
            const int ef = f + 2 * d[0], er = r + 2 * d[1];
            if (on_board(ef, er) && ((r <= 4) == (er <= 4)))
                add(t.elephant[sq], er * 9 + ef, (r + d[1]) * 9 + (f + d[0]));
        }
        // Horse: long leg first (the blocking "leg" point), then one diagonal step outward.
        constexpr int hj[8][2] = {{1, 2}, {-1, 2}, {1, -2}, {-1, -2}, {2, 1}, {2, -1}, {-2, 1}, {-2, -1}};
        for (auto& d : hj) {
            const int nf = f + d[0], nr = r + d[1];
            if (!on_board(nf, nr)) continue;
            // Leg of a move from (f,r): one step along the long component.
            const int lf = f + (d[0] == 2 || d[0] == -2 ? d[0] / 2 : 0);
            const int lr = r + (d[1] == 2 || d[1] == -2 ? d[1] / 2 : 0);
            add(t.horse[sq], nr * 9 + nf, lr * 9 + lf);
            // A horse on (nf,nr) attacking (f,r): its leg is one step from (nf,nr) along -long.
            const int af = nf - (d[0] == 2 || d[0] == -2 ? d[0] / 2 : 0);
            const int ar = nr - (d[1] == 2 || d[1] == -2 ? d[1] / 2 : 0);
            add(t.horse_from[sq], nr * 9 + nf, ar * 9 + af);
        }
        for (int c = 0; c < COLOR_NB; ++c) {
            const int fwd = c == RED ? 1 : -1;
            if (on_board(f, r + fwd)) add(t.pawn[c][sq], (r + fwd) * 9 + f, -1);
            const bool crossed = c == RED ? r >= 5 : r <= 4;
            if (crossed) {
                if (f > 0) add(t.pawn[c][sq], r * 9 + f - 1, -1);
                if (f < 8) add(t.pawn[c][sq], r * 9 + f + 1, -1);
            }
        }
        for (int d = 0; d < 4; ++d) {
            int nf = f + ortho[d][0], nr = r + ortho[d][1];
            while (on_board(nf, nr)) {
                t.rays[sq][d].squares[t.rays[sq][d].count++] = std::int8_t(nr * 9 + nf);
                nf += ortho[d][0];
                nr += ortho[d][1];
            }
        }
    }
    std::uint64_t state = 0x5851F42D4C957F2DULL;
    for (auto& row : t.zobrist)
        for (auto& k : row) k = splitmix64(state);
    for (int sq = 0; sq < SQ_NB; ++sq) t.zobrist[NO_PIECE][sq] = 0;
    t.zobrist_side = splitmix64(state);
    return t;
}

inline constexpr Tables TABLES = build();

}  // namespace xq::tables
