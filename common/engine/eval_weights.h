// The evaluation's tunable weights: one structure (compiled into eval.cpp), a flat vector of
// named integers for the tuner, and a trace of a position that is linear in the weights.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "xiangqi/types.h"

namespace xq::engine {

// A middle-game / end-game pair; the final score blends them by the game phase.
struct Score {
    int mg = 0;
    int eg = 0;
    constexpr Score& operator+=(Score o) {
        mg += o.mg;
        eg += o.eg;
        return *this;
    }
    constexpr Score& operator-=(Score o) {
        mg -= o.mg;
        eg -= o.eg;
        return *this;
    }
    constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
    constexpr Score operator-() const { return {-mg, -eg}; }
    constexpr bool operator==(const Score&) const = default;
};

constexpr Score operator+(Score a, Score b) { return {a.mg + b.mg, a.eg + b.eg}; }
constexpr Score operator-(Score a, Score b) { return {a.mg - b.mg, a.eg - b.eg}; }

inline constexpr int PST_RANKS = 10;  // relative rank 0 (own back rank) .. 9
inline constexpr int PST_FILES = 5;   // distance from the central file 0 .. 4
inline constexpr int KING_ATTACKERS = 6;  // enemy pieces hitting the palace: 0 .. 5 or more
inline constexpr int KING_STEPS = 4;      // safe king steps: 0 .. 3 or more

// The weights, or (T = int) how often each weight occurs in a position, Red minus Black.
// The piece-square tables are formulas (eval.cpp) plus a tuned term per relative rank, one per
// distance from the central file and one per point (relative rank x distance from the central
// file, mirrored), the last a correction on top of the others.
template <class T>
struct EvalTable {
    std::array<T, PIECE_TYPE_NB> material{};  // advisor .. cannon (pawns: the tables only)
    std::array<T, PIECE_TYPE_NB> mobility{};  // per pseudo-legal move: horse, rook, cannon
    T horse_trapped{};                        // a horse without a single move
    T defended_piece{};
    T palace_attack{};        // per attacked point of the enemy palace
    T exposed_king_unit{};    // enemy attacking force x missing defenders
    T empty_headed_cannon{};  // cannon facing the king on an open file
    T central_cannon{};       // cannon on the king's file behind screens
    T rook_on_king_file{};
    // King danger (a penalty for the king's side): how many enemy pieces hit its palace, how
    // many safe steps the king has, and the points from which an enemy rook, horse or cannon
    // could give check next move that the king's side does not guard.
    std::array<T, KING_ATTACKERS> king_attackers{};
    std::array<T, KING_STEPS> king_safe_steps{};
    std::array<T, PIECE_TYPE_NB> safe_check{};  // horse, rook, cannon
    std::array<std::array<T, PST_RANKS>, PIECE_TYPE_NB> pst_rank{};
    std::array<std::array<T, PST_FILES>, PIECE_TYPE_NB> pst_file{};
    std::array<std::array<std::array<T, PST_FILES>, PST_RANKS>, PIECE_TYPE_NB> pst_square{};
    // Threats (eval_threats.h): pieces attacked by a cheaper class or undefended, and tempo.
    T threat_by_pawn{};
    std::array<T, PIECE_TYPE_NB> threat_by_minor{};  // by victim type: advisor .. pawn
    std::array<T, PIECE_TYPE_NB> threat_by_rook{};
    T hanging{};
    T threat_on_move{};
    T multi_threat{};
    // Pieces en prise: the loss (centipawns) each side's most and second most threatened piece
    // stands to suffer (the piece if undefended, else the exchange with its cheapest attacker),
    // weighted in per mille of that loss (EN_PRISE_PER; negative: a penalty), for the side to
    // move and for the other side. In EvalCounts the losses themselves, Red minus Black.
    std::array<T, 2> en_prise_to_move{};
    std::array<T, 2> en_prise_waiting{};
};

inline constexpr int EN_PRISE_PER = 1000;  // the en-prise weights' unit: per mille of a loss

// Whether a for_each_entry name is an en-prise weight (its count is a loss, not a number of
// occurrences: the evaluation takes weight x loss / EN_PRISE_PER, tapered, eval.h).
inline bool is_en_prise_entry(const std::string& name) { return name.rfind("en_prise_", 0) == 0; }

// Whether a piece of type t can stand on relative rank r at distance d from the central file
// (pawns behind the river only on their own files; king, advisors, elephants on their points).
constexpr bool pst_square_reachable(int t, int r, int d) {
    switch (t) {
    case KING: return r <= 2 && d <= 1;
    case ADVISOR: return (r == 1 && d == 0) || ((r == 0 || r == 2) && d == 1);
    case ELEPHANT: return ((r == 0 || r == 4) && d == 2) || (r == 2 && (d == 0 || d == 4));
    case PAWN: return r >= 5 || ((r == 3 || r == 4) && d % 2 == 0);
    case HORSE:
    case ROOK:
    case CANNON: return r >= 0 && r < PST_RANKS && d >= 0 && d < PST_FILES;
    default: return false;
    }
}

using EvalWeights = EvalTable<Score>;
using EvalCounts = EvalTable<int>;

// A Score packed into one 32-bit integer, the middle-game value in the upper 16 bits and the
// end-game value in the lower 16 (each signed): a sum or multiple takes one instruction
// instead of two. Unpacking is exact while both values of every result stay within 16 bits
// (the evaluation's totals stay within a few thousand centipawns).
class PackedScore {
public:
    constexpr PackedScore() = default;
    constexpr PackedScore(Score s) : v_(std::uint32_t(s.mg) * 65536u + std::uint32_t(s.eg)) {}
    constexpr Score unpack() const {
        const int eg = std::int16_t(std::uint16_t(v_));
        return {std::int16_t(std::uint16_t((v_ - std::uint32_t(eg)) >> 16)), eg};
    }
    constexpr PackedScore& operator+=(PackedScore o) {
        v_ += o.v_;
        return *this;
    }
    constexpr PackedScore& operator-=(PackedScore o) {
        v_ -= o.v_;
        return *this;
    }
    constexpr PackedScore operator*(int k) const { return raw(v_ * std::uint32_t(k)); }
    constexpr PackedScore operator+(PackedScore o) const { return raw(v_ + o.v_); }
    constexpr PackedScore operator-(PackedScore o) const { return raw(v_ - o.v_); }

private:
    static constexpr PackedScore raw(std::uint32_t v) {
        PackedScore p;
        p.v_ = v;
        return p;
    }
    std::uint32_t v_ = 0;  // unsigned: the arithmetic wraps instead of overflowing
};

using PackedWeights = EvalTable<PackedScore>;

// Every entry of a table mapped through f (all fields, including those the tuner leaves out).
template <class To, class From, class F>
constexpr EvalTable<To> map_table(const EvalTable<From>& a, F f) {
    EvalTable<To> b{};
    auto each = [&](auto& to, const auto& from) {
        for (std::size_t i = 0; i < from.size(); ++i) to[i] = f(from[i]);
    };
    auto each2 = [&](auto& to, const auto& from) {
        for (std::size_t i = 0; i < from.size(); ++i) each(to[i], from[i]);
    };
    each(b.material, a.material);
    each(b.mobility, a.mobility);
    b.horse_trapped = f(a.horse_trapped);
    b.defended_piece = f(a.defended_piece);
    b.palace_attack = f(a.palace_attack);
    b.exposed_king_unit = f(a.exposed_king_unit);
    b.empty_headed_cannon = f(a.empty_headed_cannon);
    b.central_cannon = f(a.central_cannon);
    b.rook_on_king_file = f(a.rook_on_king_file);
    each(b.king_attackers, a.king_attackers);
    each(b.king_safe_steps, a.king_safe_steps);
    each(b.safe_check, a.safe_check);
    each2(b.pst_rank, a.pst_rank);
    each2(b.pst_file, a.pst_file);
    for (std::size_t t = 0; t < a.pst_square.size(); ++t) each2(b.pst_square[t], a.pst_square[t]);
    b.threat_by_pawn = f(a.threat_by_pawn);
    each(b.threat_by_minor, a.threat_by_minor);
    each(b.threat_by_rook, a.threat_by_rook);
    b.hanging = f(a.hanging);
    b.threat_on_move = f(a.threat_on_move);
    b.multi_threat = f(a.multi_threat);
    each(b.en_prise_to_move, a.en_prise_to_move);
    each(b.en_prise_waiting, a.en_prise_waiting);
    return b;
}

// Calls f(name, a_entry, b_entry) for every tuned entry of two tables of the same shape, in
// the order of the weight vector. Entries no position can use (a king's material, pawn ranks
// behind their start) are left out.
template <class A, class B, class F>
void for_each_entry(A& a, B& b, F&& f) {
    static constexpr const char* TYPE[PIECE_TYPE_NB] = {"NO_PIECE_TYPE", "KING", "ADVISOR", "ELEPHANT",
                                                        "HORSE", "ROOK", "CANNON", "PAWN"};
    for (int t = ADVISOR; t <= CANNON; ++t) f(std::string("material[") + TYPE[t] + "]", a.material[t], b.material[t]);
    for (int t : {HORSE, ROOK, CANNON}) f(std::string("mobility[") + TYPE[t] + "]", a.mobility[t], b.mobility[t]);
    f("horse_trapped", a.horse_trapped, b.horse_trapped);
    f("defended_piece", a.defended_piece, b.defended_piece);
    f("palace_attack", a.palace_attack, b.palace_attack);
    f("exposed_king_unit", a.exposed_king_unit, b.exposed_king_unit);
    f("empty_headed_cannon", a.empty_headed_cannon, b.empty_headed_cannon);
    f("central_cannon", a.central_cannon, b.central_cannon);
    f("rook_on_king_file", a.rook_on_king_file, b.rook_on_king_file);
    for (int n = 1; n < KING_ATTACKERS; ++n)
        f("king_attackers[" + std::to_string(n) + "]", a.king_attackers[n], b.king_attackers[n]);
    for (int n = 0; n < KING_STEPS - 1; ++n)
        f("king_safe_steps[" + std::to_string(n) + "]", a.king_safe_steps[n], b.king_safe_steps[n]);
    for (int t : {HORSE, ROOK, CANNON}) f(std::string("safe_check[") + TYPE[t] + "]", a.safe_check[t], b.safe_check[t]);
    for (int t : {HORSE, ROOK, CANNON, PAWN})
        for (int r = t == PAWN ? 3 : 0; r < PST_RANKS; ++r)
            f(std::string("pst_rank[") + TYPE[t] + "][" + std::to_string(r) + "]", a.pst_rank[t][r], b.pst_rank[t][r]);
    for (int t : {HORSE, ROOK, CANNON, PAWN})
        for (int d = 0; d < PST_FILES; ++d)
            f(std::string("pst_file[") + TYPE[t] + "][" + std::to_string(d) + "]", a.pst_file[t][d], b.pst_file[t][d]);
    for (int t = KING; t <= PAWN; ++t)
        for (int r = 0; r < PST_RANKS; ++r)
            for (int d = 0; d < PST_FILES; ++d)
                if (pst_square_reachable(t, r, d))
                    f(std::string("pst_square[") + TYPE[t] + "][" + std::to_string(r) + "][" + std::to_string(d) + "]",
                      a.pst_square[t][r][d], b.pst_square[t][r][d]);
    f("threat_by_pawn", a.threat_by_pawn, b.threat_by_pawn);
    for (int t = ADVISOR; t <= PAWN; ++t)
        f(std::string("threat_by_minor[") + TYPE[t] + "]", a.threat_by_minor[t], b.threat_by_minor[t]);
    for (int t = ADVISOR; t <= PAWN; ++t)
        f(std::string("threat_by_rook[") + TYPE[t] + "]", a.threat_by_rook[t], b.threat_by_rook[t]);
    f("hanging", a.hanging, b.hanging);
    f("threat_on_move", a.threat_on_move, b.threat_on_move);
    f("multi_threat", a.multi_threat, b.multi_threat);
    for (int k = 0; k < 2; ++k)
        f("en_prise_to_move[" + std::to_string(k) + "]", a.en_prise_to_move[k], b.en_prise_to_move[k]);
    for (int k = 0; k < 2; ++k)
        f("en_prise_waiting[" + std::to_string(k) + "]", a.en_prise_waiting[k], b.en_prise_waiting[k]);
}

// The compiled weights (the top of eval.cpp).
const EvalWeights& compiled_eval_weights();

// The flat vector: mg and eg of each entry of for_each_entry, in that order, with names
// ("material[HORSE].mg").
std::vector<int> weights_to_vector(const EvalWeights& w);
// Fills `w` from a vector of weights_to_vector's length; false (w unchanged) otherwise.
bool weights_from_vector(const std::vector<int>& v, EvalWeights& w);
std::vector<std::string> weight_names();

}  // namespace xq::engine
