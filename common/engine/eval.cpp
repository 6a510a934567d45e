#include "eval.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <sstream>

#include "xiangqi/tables.h"

namespace xq::engine {

namespace {

using tables::TABLES;

// A middle-game / end-game pair; the final score blends them by the game phase.
struct Score {
    int mg = 0;
    int eg = 0;
    constexpr Score() = default;
    constexpr Score(int m, int e) : mg(m), eg(e) {}
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
};

constexpr Score operator+(Score a, Score b) { return {a.mg + b.mg, a.eg + b.eg}; }
constexpr Score operator-(Score a, Score b) { return {a.mg - b.mg, a.eg - b.eg}; }

// ---- Weights (centipawns). Tuned by self-play and matches, see docs/engine.md. ----
constexpr Score MATERIAL[PIECE_TYPE_NB] = {
    {0, 0}, {0, 0}, {200, 230}, {200, 230}, {420, 470}, {950, 1020}, {450, 420}, {0, 0}};

constexpr Score MOBILITY_PER_MOVE[PIECE_TYPE_NB] = {
    {0, 0}, {0, 0}, {0, 0}, {0, 0}, {8, 7}, {4, 5}, {2, 1}, {0, 0}};
constexpr Score HORSE_TRAPPED = {-40, -40};  // a horse without a single move
constexpr Score DEFENDED_PIECE = {6, 4};
constexpr Score PALACE_ATTACK = {9, 4};      // per attacked point of the enemy palace
constexpr Score EXPOSED_KING_UNIT = {7, 3};  // enemy attacking force x missing defenders
constexpr Score EMPTY_HEADED_CANNON = {90, 30};  // cannon facing the king on an open file
constexpr Score CENTRAL_CANNON = {25, 5};         // cannon on the king's file behind screens
constexpr Score ROOK_ON_KING_FILE = {20, 10};
constexpr int TEMPO = 12;
constexpr int PHASE_MAX = 16;  // 2 per rook, 1 per horse or cannon at the start

constexpr int KING_VALUE_FOR_SEE = 3000;

// Piece-square tables written as formulas over (relative rank, file); Red's point of view.
constexpr Score pst_value(PieceType t, int r, int f) {
    const int cd = f > 4 ? f - 4 : 4 - f;  // distance from the central file
    switch (t) {
    case PAWN: {
        if (r < 5) {
            // Own side of the river: the central pawn and the third/seventh-file pawns guard.
            const int mg = (r == 4 ? 10 : 0) + (f == 4 ? 8 : 0);
            return {90 + mg, 100 + mg / 2};
        }
        // Crossed: strongest near the enemy palace (ranks 6-8, files d-f), weak on the last rank.
        constexpr int rank_mg[10] = {0, 0, 0, 0, 0, 150, 175, 190, 185, 120};
        constexpr int rank_eg[10] = {0, 0, 0, 0, 0, 170, 200, 215, 200, 130};
        const int file_pen = cd >= 3 ? 25 : cd * 5;
        return {rank_mg[r] - file_pen, rank_eg[r] - file_pen};
    }
    case HORSE: {
        int mg = 12 - 6 * cd;
        if (f == 0 || f == 8) mg -= 18;
        constexpr int adv[10] = {-10, 0, 8, 14, 20, 26, 34, 38, 26, 6};
        mg += adv[r];
        // Horse close to the enemy palace ("horse at the palace corner") is a real threat.
        if (r >= 6 && r <= 8 && f >= 2 && f <= 6) mg += 16;
        if (r == 2 && f == 4) mg -= 10;  // in front of the own king: blocks and gets pinned
        return {mg, mg / 2 + 6 - 5 * cd};
    }
    case ROOK: {
        constexpr int adv[10] = {-6, 4, 2, 6, 14, 14, 16, 24, 20, 8};
        int mg = adv[r];
        if (f == 3 || f == 5) mg += 10;  // rib files
        if (f == 4) mg += 4;
        if ((f == 0 || f == 8) && r == 0) mg -= 12;  // undeveloped corner rook
        return {mg, adv[r] / 2 + (4 - cd) * 2};
    }
    case CANNON: {
        int mg = 0;
        if (f == 4) mg += 22;
        if (r <= 2) mg += 4;
        if (r == 9 && (f == 3 || f == 5)) mg += 8;  // bottom cannon
        if (r >= 5 && r <= 8) mg += 6 - 3 * cd;
        return {mg, 4 - 2 * cd};
    }
    case KING: {
        constexpr int rank_mg[3] = {0, -16, -40};
        constexpr int rank_eg[3] = {0, -4, -14};
        const int rr = r > 2 ? 2 : r;
        return {rank_mg[rr] - (f != 4 ? 8 : 0), rank_eg[rr] + (f != 4 ? -2 : 0)};
    }
    case ADVISOR:
        if (r == 1 && f == 4) return {10, 6};
        if (r == 0) return {4, 2};
        return {-6, -4};
    case ELEPHANT:
        if (r == 2 && f == 4) return {14, 8};
        if (r == 0) return {4, 2};
        if (r == 2) return {-6, -4};  // edge elephant
        return {0, 0};
    default: return {0, 0};
    }
}

struct Pst {
    std::array<std::array<Score, SQ_NB>, PIECE_NB> v{};
};

constexpr Pst build_pst() {
    Pst p{};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int t = KING; t <= PAWN; ++t)
            for (int sq = 0; sq < SQ_NB; ++sq) {
                const int r = c == RED ? sq / 9 : 9 - sq / 9;
                const int f = sq % 9;
                p.v[make_piece(Color(c), PieceType(t))][sq] = pst_value(PieceType(t), r, f);
            }
    return p;
}

constexpr Pst PST = build_pst();

// Attack bookkeeping for one evaluation.
struct AttackInfo {
    std::array<std::array<std::uint8_t, SQ_NB>, COLOR_NB> count{};
    std::array<std::array<std::int16_t, SQ_NB>, COLOR_NB> min_value{};  // cheapest attacker
    std::array<Score, COLOR_NB> mobility{};
};

inline int value_for_exchange(PieceType t) {
    return t == KING ? KING_VALUE_FOR_SEE : PIECE_VALUE[t];
}

inline void mark(AttackInfo& ai, Color c, int sq, PieceType by) {
    auto& cnt = ai.count[c][sq];
    const int v = value_for_exchange(by);
    if (cnt == 0 || v < ai.min_value[c][sq]) ai.min_value[c][sq] = std::int16_t(v);
    ++cnt;
}

void collect_attacks(const Position& pos, AttackInfo& ai) {
    for (Color pc : {RED, BLACK}) pos.for_each_piece(pc, [&](Square from) {
        const int sq = from;
        const Piece p = pos.piece_on(from);
        const Color c = color_of(p);
        const PieceType t = type_of(p);
        int moves = 0;
        auto own = [&](int s) {
            const Piece q = pos.piece_on(Square(s));
            return q != NO_PIECE && color_of(q) == c;
        };
        switch (t) {
        case KING:
        case ADVISOR: {
            const auto& l = t == KING ? TABLES.king[sq] : TABLES.advisor[sq];
            for (int i = 0; i < l.count; ++i)
                if (in_palace(c, Square(l.steps[i].to))) mark(ai, c, l.steps[i].to, t);
            break;
        }
        case ELEPHANT: {
            const auto& l = TABLES.elephant[sq];
            for (int i = 0; i < l.count; ++i)
                if (pos.empty(Square(l.steps[i].block))) mark(ai, c, l.steps[i].to, t);
            break;
        }
        case HORSE: {
            const auto& l = TABLES.horse[sq];
            for (int i = 0; i < l.count; ++i)
                if (pos.empty(Square(l.steps[i].block))) {
                    mark(ai, c, l.steps[i].to, t);
                    if (!own(l.steps[i].to)) ++moves;
                }
            ai.mobility[c] += moves ? MOBILITY_PER_MOVE[HORSE] * moves : HORSE_TRAPPED;
            break;
        }
        case PAWN: {
            const auto& l = TABLES.pawn[c][sq];
            for (int i = 0; i < l.count; ++i) mark(ai, c, l.steps[i].to, t);
            break;
        }
        case ROOK:
            for (int d = 0; d < 4; ++d) {
                const auto& ray = TABLES.rays[sq][d];
                for (int i = 0; i < ray.count; ++i) {
                    const int s = ray.squares[i];
                    mark(ai, c, s, t);
                    if (pos.empty(Square(s))) {
                        ++moves;
                        continue;
                    }
                    if (!own(s)) ++moves;
                    break;
                }
            }
            ai.mobility[c] += MOBILITY_PER_MOVE[ROOK] * moves;
            break;
        case CANNON:
            for (int d = 0; d < 4; ++d) {
                const auto& ray = TABLES.rays[sq][d];
                int i = 0;
                for (; i < ray.count && pos.empty(Square(ray.squares[i])); ++i) ++moves;
                for (++i; i < ray.count; ++i) {
                    const int s = ray.squares[i];
                    if (pos.empty(Square(s))) continue;
                    mark(ai, c, s, t);
                    if (!own(s)) ++moves;
                    break;
                }
            }
            ai.mobility[c] += MOBILITY_PER_MOVE[CANNON] * moves;
            break;
        default: break;
        }
    });
}

struct Terms {
    Score material[COLOR_NB];
    Score pst[COLOR_NB];
    Score mobility[COLOR_NB];
    Score relations[COLOR_NB];
    Score king[COLOR_NB];
    int threat[COLOR_NB] = {0, 0};  // side-to-move dependent: pieces en prise
    int phase = 0;
};

// King safety of colour c: attacks on its palace, attackers against missing defenders, and
// cannons or rooks lined up on the king's file.
// The nine palace points of each colour.
constexpr std::array<std::array<std::int8_t, 9>, COLOR_NB> PALACE = {{
    {3, 4, 5, 12, 13, 14, 21, 22, 23},
    {66, 67, 68, 75, 76, 77, 84, 85, 86},
}};

Score king_safety(const Position& pos, const AttackInfo& ai, Color c, int force) {
    const Color them = ~c;
    Score s;
    const Square ks = pos.king_square(c);
    int palace_hits = 0;
    for (int sq : PALACE[c])
        if (ai.count[them][sq]) ++palace_hits;
    s -= PALACE_ATTACK * palace_hits;

    const int defenders = pos.count(c, ADVISOR) + pos.count(c, ELEPHANT);
    s -= EXPOSED_KING_UNIT * (force * (4 - defenders));

    // Pieces on the king's file, walking away from the king towards the enemy.
    const int dir = c == RED ? 0 : 1;  // ray 0 goes up the board (towards rank 9)
    const auto& ray = TABLES.rays[ks][dir];
    int screens = 0;
    for (int i = 0; i < ray.count; ++i) {
        const Piece p = pos.piece_on(Square(ray.squares[i]));
        if (p == NO_PIECE) continue;
        if (color_of(p) == them && type_of(p) == CANNON) {
            if (screens == 0) s -= EMPTY_HEADED_CANNON;
            else if (screens >= 2) s -= CENTRAL_CANNON;
            break;
        }
        if (color_of(p) == them && type_of(p) == ROOK) {
            if (screens >= 1) s -= ROOK_ON_KING_FILE;
            break;
        }
        if (++screens > 3) break;
    }
    return s;
}

void compute(const Position& pos, Terms& t) {
    AttackInfo ai;
    collect_attacks(pos, ai);
    const Color stm = pos.side_to_move();
    int worst[COLOR_NB][2] = {{0, 0}, {0, 0}};  // two largest expected losses per colour
    int force[COLOR_NB] = {0, 0};                // attacking force against the enemy palace
    for (Color pc : {RED, BLACK}) pos.for_each_piece(pc, [&](Square from) {
        const int sq = from;
        const Piece p = pos.piece_on(from);
        const Color c = color_of(p);
        const PieceType ty = type_of(p);
        t.pst[c] += PST.v[p][sq];
        if (ty == KING) return;
        if (ty != PAWN) t.material[c] += MATERIAL[ty];
        const bool crossed = crossed_river(c, Square(sq));
        switch (ty) {
        case ROOK: force[c] += 3; break;
        case HORSE: force[c] += crossed ? 3 : 1; break;
        case CANNON: force[c] += 2; break;
        case PAWN: force[c] += crossed ? 1 : 0; break;
        default: break;
        }
        const bool defended = ai.count[c][sq] > 0;
        if (defended && ty != PAWN) t.relations[c] += DEFENDED_PIECE;
        if (ai.count[~c][sq]) {
            int value = PIECE_VALUE[ty];
            if (ty == PAWN && crossed) value = 150;
            int loss = 0;
            if (!defended) loss = value;
            else if (ai.min_value[~c][sq] < value) loss = value - ai.min_value[~c][sq];
            if (loss > worst[c][0]) {
                worst[c][1] = worst[c][0];
                worst[c][0] = loss;
            } else if (loss > worst[c][1]) {
                worst[c][1] = loss;
            }
        }
    });
    for (int c = 0; c < COLOR_NB; ++c) {
        t.mobility[c] = ai.mobility[c];
        t.king[c] = king_safety(pos, ai, Color(c), force[~Color(c)]);
        // The side to move can save one threatened piece; the opponent's en-prise pieces are
        // mostly collected by the quiescence search, so they count only a little.
        if (Color(c) == stm) t.threat[c] = -(worst[c][0] / 8 + worst[c][1] / 2);
        else t.threat[c] = -(worst[c][0] / 10);
    }
    t.phase = 2 * (pos.count(RED, ROOK) + pos.count(BLACK, ROOK)) + pos.count(RED, HORSE) +
              pos.count(BLACK, HORSE) + pos.count(RED, CANNON) + pos.count(BLACK, CANNON);
    t.phase = std::min(t.phase, PHASE_MAX);
}

int taper(Score s, int phase) { return (s.mg * phase + s.eg * (PHASE_MAX - phase)) / PHASE_MAX; }

int red_view(const Terms& t) {
    Score total;
    total += t.material[RED] - t.material[BLACK];
    total += t.pst[RED] - t.pst[BLACK];
    total += t.mobility[RED] - t.mobility[BLACK];
    total += t.relations[RED] - t.relations[BLACK];
    total += t.king[RED] - t.king[BLACK];
    return taper(total, t.phase) + t.threat[RED] - t.threat[BLACK];
}

// Scales a score towards a draw when the stronger side cannot force much (few attackers).
int scale_for_drawishness(const Position& pos, int v) {
    const Color strong = v > 0 ? RED : BLACK;
    const int rooks = pos.count(strong, ROOK), horses = pos.count(strong, HORSE),
              cannons = pos.count(strong, CANNON), pawns = pos.count(strong, PAWN);
    const int attackers = rooks + horses + cannons + pawns;
    if (attackers == 0) return v / 16;  // kings and defenders only: no way to mate
    if (rooks == 0 && horses == 0 && cannons == 0 && pawns == 1) {
        // A lone pawn rarely wins against two defenders.
        const Color weak = ~strong;
        if (pos.count(weak, ADVISOR) + pos.count(weak, ELEPHANT) >= 2) return v / 4;
    }
    if (rooks == 0 && horses == 0 && pawns == 0 && cannons == 1) return v / 8;  // lone cannon
    return v;
}

}  // namespace

int evaluate(const Position& pos) {
    Terms t;
    compute(pos, t);
    int v = scale_for_drawishness(pos, red_view(t));
    v = pos.side_to_move() == RED ? v : -v;
    return v + TEMPO;
}

std::string eval_trace(const Position& pos) {
    Terms t;
    compute(pos, t);
    std::ostringstream out;
    auto line = [&](const char* name, Score r, Score b) {
        out << name << " red " << r.mg << "/" << r.eg << " black " << b.mg << "/" << b.eg << "\n";
    };
    line("material ", t.material[RED], t.material[BLACK]);
    line("pst      ", t.pst[RED], t.pst[BLACK]);
    line("mobility ", t.mobility[RED], t.mobility[BLACK]);
    line("relations", t.relations[RED], t.relations[BLACK]);
    line("king     ", t.king[RED], t.king[BLACK]);
    out << "threats   red " << t.threat[RED] << " black " << t.threat[BLACK] << "\n";
    out << "phase " << t.phase << "/" << PHASE_MAX << "\n";
    const int red = scale_for_drawishness(pos, red_view(t));
    out << "total (Red's view) " << red << ", side to move " << (pos.side_to_move() == RED ? red : -red) + TEMPO;
    return out.str();
}

}  // namespace xq::engine
