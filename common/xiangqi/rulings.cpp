#include "rulings.h"

#include <bitset>

namespace xq {

namespace {

using ThreatSet = std::bitset<SQ_NB>;

// Points of the pieces of ~us that attack us's king (the facing king included).
std::bitset<SQ_NB> king_attackers(const Position& pos, Color us) {
    Position them = pos;
    UndoInfo nu;
    if (them.side_to_move() == us) them.do_null_move(nu);
    MoveList caps;
    them.generate_captures(caps);
    const Square k = pos.king_square(us);
    std::bitset<SQ_NB> out;
    for (Move m : caps)
        if (m.to() == k) out.set(std::size_t(m.from()));
    const Square ek = pos.king_square(~us);
    if (file_of(ek) == file_of(k)) {
        const int step = ek > k ? FILE_NB : -FILE_NB;
        bool open = true;
        for (int s = k + step; s != ek && open; s += step) open = pos.empty(Square(s));
        if (open) out.set(std::size_t(ek));
    }
    return out;
}

// Captures of the side to move that are attacks in the ruling sense: a pinned piece does
// not attack, but a check the side is under does not stop its pieces from threatening
// (otherwise every escape from check would "newly" attack whatever its pieces aimed at).
// A capture counts unless it would open a new line to the own king.
void ruling_captures(const Position& pos, MoveList& out) {
    MoveList pseudo;
    pos.generate_captures(pseudo);
    const Color us = pos.side_to_move();
    const bool in_check = pos.in_check();
    std::bitset<SQ_NB> checkers;
    if (in_check) checkers = king_attackers(pos, us);
    for (Move m : pseudo) {
        if (pos.is_legal(m)) {
            out.push(m);
            continue;
        }
        if (!in_check || type_of(pos.moved_piece(m)) == KING) continue;
        Position q = pos;
        UndoInfo u;
        q.do_move(m, u);
        if ((king_attackers(q, us) & ~checkers).none()) out.push(m);
    }
}

// True when the side to move has a capture onto target in the ruling sense (a recapture
// that would be illegal, e.g. by a pinned protector or into a facing king, protects nothing).
bool ruling_capture_onto(const Position& pos, Square target) {
    MoveList caps;
    ruling_captures(pos, caps);
    for (Move c : caps)
        if (c.to() == target) return true;
    return false;
}

bool chase_exempt_attacker(PieceType t) { return t == KING || t == PAWN; }

bool can_be_chased(Piece victim, Square s) {
    const PieceType t = type_of(victim);
    if (t == KING) return false;
    if (t == PAWN && !crossed_river(color_of(victim), s)) return false;
    return true;
}

// Attacks that chase even a protected piece: a stronger piece attacked by a weaker one.
bool chases_even_if_protected(PieceType attacker, PieceType victim) {
    if (victim == ROOK && (attacker == HORSE || attacker == CANNON)) return true;
    if ((victim == ROOK || victim == HORSE || victim == CANNON) &&
        (attacker == ADVISOR || attacker == ELEPHANT))
        return true;
    return false;
}

// WXF rule 19: a rook standing on the leg of an enemy horse that would check the rook's
// king if the leg were free cannot move away because of that horse.
bool held_by_horse(const Position& pos, Square s) {
    const Piece p = pos.piece_on(s);
    if (p == NO_PIECE || type_of(p) != ROOK) return false;
    const Color c = color_of(p);
    const Square k = pos.king_square(c);
    const int sf = file_of(s), sr = rank_of(s);
    const int df = file_of(k) - sf, dr = rank_of(k) - sr;
    if ((df != 1 && df != -1) || (dr != 1 && dr != -1)) return false;  // a leg is diagonal to the target
    const Piece horse = make_piece(~c, HORSE);
    auto horse_at = [&](int f, int r) {
        return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB && pos.piece_on(make_square(f, r)) == horse;
    };
    return horse_at(sf - df, sr) || horse_at(sf, sr - dr);
}

// WXF rule 27: a rook that is one of the two pieces between an enemy cannon and its own king
// on a file or rank cannot leave that line (the cannon would give check). Returns the line:
// 1 a file, 2 a rank, 0 when the rook is not confined.
int cannon_confined_line(const Position& pos, Square s) {
    const Piece p = pos.piece_on(s);
    if (p == NO_PIECE || type_of(p) != ROOK) return 0;
    const Color c = color_of(p);
    const Square k = pos.king_square(c);
    const int kf = file_of(k), kr = rank_of(k);
    const bool on_file = file_of(s) == kf;
    if (!on_file && rank_of(s) != kr) return 0;
    const int df = on_file ? 0 : (file_of(s) > kf ? 1 : -1);
    const int dr = on_file ? (rank_of(s) > kr ? 1 : -1) : 0;
    int between = 0;
    bool rook_between = false;
    for (int f = kf + df, r = kr + dr; f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; f += df, r += dr) {
        const Square q = make_square(f, r);
        const Piece x = pos.piece_on(q);
        if (x == NO_PIECE) continue;
        if (between == 2) return rook_between && x == make_piece(~c, CANNON) ? (on_file ? 1 : 2) : 0;
        rook_between = rook_between || q == s;
        ++between;
    }
    return 0;
}

// The enemy pieces the side to move threatens in the ruling sense: it has a capture of the
// piece (not by its king or a pawn; not of the king or of a pawn on its own side of the
// river) and either the capture wins material outright by the rules' scale (a rook taken
// by a horse or cannon; a rook, horse or cannon taken by an advisor or elephant) or the
// victim is not truly protected (no recapture the rules allow) and the attack is not an
// offer to exchange (a victim of the attacker's type that could capture it back; a rook
// confined by a cannon, WXF rule 27, or held by a horse, rule 19, cannot: its recapture
// would expose its king). When `by` is a square,
// `by_out` receives the pieces that the piece on `by` threatens itself.
ThreatSet threats(const Position& pos, Square by = SQ_NONE, ThreatSet* by_out = nullptr) {
    MoveList caps;
    ruling_captures(pos, caps);
    Position theirs = pos;
    UndoInfo nu;
    theirs.do_null_move(nu);
    MoveList back;
    bool back_done = false;
    ThreatSet out;
    for (Move a : caps) {
        const Square x = a.to();
        const bool mine = a.from() == by;
        if (out.test(std::size_t(x)) && !mine) continue;
        const Piece attacker = pos.piece_on(a.from());
        const Piece victim = pos.piece_on(x);
        if (chase_exempt_attacker(type_of(attacker)) || !can_be_chased(victim, x)) continue;
        if (!chases_even_if_protected(type_of(attacker), type_of(victim))) {
            Position taken = pos;
            UndoInfo tu;
            taken.do_move(a, tu);
            if (ruling_capture_onto(taken, x)) continue;  // truly protected
            if (type_of(attacker) == type_of(victim)) {
                if (!back_done) {
                    ruling_captures(theirs, back);
                    back_done = true;
                }
                if (back.contains(Move(x, a.from()))) continue;  // an offer to exchange
            }
        }
        out.set(std::size_t(x));
        if (mine) by_out->set(std::size_t(x));
    }
    return out;
}

}  // namespace

int chased_by_move(const Position& before, Move m, Square out[MAX_CHASED]) {
    // WXF rule 27: a rook confined by a cannon chases nothing by moving along its line.
    const int line = cannon_confined_line(before, m.from());
    if ((line == 1 && file_of(m.to()) == file_of(m.from())) || (line == 2 && rank_of(m.to()) == rank_of(m.from())))
        return 0;
    // A chase is a threat the move creates: a piece threatened after the move that was not
    // threatened before it, however the threat arose (the moved piece, a discovered line, a
    // protector taken away or blocked, a pin released). A piece threatened all along by one
    // piece and now by another as well is no new threat.
    const ThreatSet old_threats = threats(before);
    Position ours = before;
    UndoInfo u, nu;
    ours.do_move(m, u);
    ours.do_null_move(nu);  // hand the mover the move again to see what it threatens now
    ThreatSet by_moved;
    ThreatSet new_threats = threats(ours, m.to(), &by_moved) & ~old_threats;
    // WXF rule 19: a rook that cannot move away because of a horse is chased by every move
    // whose piece threatens it, even when it was threatened before (it cannot escape).
    if (by_moved.any())
        for (int s = 0; s < SQ_NB; ++s)
            if (by_moved.test(std::size_t(s)) && held_by_horse(ours, Square(s))) new_threats.set(std::size_t(s));
    int n = 0;
    for (int s = 0; s < SQ_NB && n < MAX_CHASED; ++s)
        if (new_threats.test(std::size_t(s))) out[n++] = Square(s);
    return n;
}

void CycleSide::add_move(bool gave_check, const std::uint8_t* chased_ids, int chased_count) {
    ++moves_;
    all_check_ = all_check_ && gave_check;
    std::uint64_t mask = 0;
    for (int i = 0; i < chased_count; ++i)
        if (chased_ids[i] < 64) mask |= std::uint64_t(1) << chased_ids[i];
    chased_every_ &= mask;
}

CycleClass CycleSide::cls() const {
    if (moves_ == 0) return CycleClass::Idle;
    if (all_check_) return CycleClass::Check;
    if (chased_every_ != 0) return CycleClass::Chase;
    return CycleClass::Idle;
}

std::uint8_t CycleSide::chased_id() const {
    if (moves_ == 0 || chased_every_ == 0) return 0;
    for (int i = 1; i < 64; ++i)
        if (chased_every_ & (std::uint64_t(1) << i)) return std::uint8_t(i);
    return 0;
}

RepetitionVerdict judge_repetition(CycleClass red, CycleClass black) {
    RepetitionVerdict v;
    v.red = red;
    v.black = black;
    if (red != black) {
        v.decisive = true;
        v.loser = red > black ? RED : BLACK;
        v.loser_class = red > black ? red : black;
    }
    return v;
}

CycleRuling rule_cycle(const Position& start, const Move* moves, int count) {
    std::array<std::uint8_t, SQ_NB> ids{};
    std::array<Square, 64> home{};
    home.fill(SQ_NONE);
    std::uint8_t next = 1;
    for (int s = 0; s < SQ_NB; ++s)
        if (!start.empty(Square(s)) && next < 64) {
            home[next] = Square(s);
            ids[s] = next++;
        }
    CycleSide side[COLOR_NB];
    Position pos = start;
    for (int i = 0; i < count; ++i) {
        const Move m = moves[i];
        const Color mover = pos.side_to_move();
        Square sq[MAX_CHASED];
        const int n = chased_by_move(pos, m, sq);
        UndoInfo u;
        pos.do_move(m, u);
        ids[m.to()] = ids[m.from()];
        ids[m.from()] = 0;
        std::uint8_t chased[MAX_CHASED];
        for (int k = 0; k < n; ++k) chased[k] = ids[sq[k]];
        side[mover].add_move(pos.in_check(), chased, n);
    }
    CycleRuling r;
    r.verdict = judge_repetition(side[RED].cls(), side[BLACK].cls());
    for (int c = 0; c < COLOR_NB; ++c) {
        r.chased_id[c] = side[c].chased_id();
        r.chased_square[c] = home[r.chased_id[c]];
    }
    return r;
}

std::string_view cycle_class_name(CycleClass c) {
    switch (c) {
    case CycleClass::Idle: return "idle";
    case CycleClass::Chase: return "perpetual chase";
    case CycleClass::Check: return "perpetual check";
    }
    return "idle";
}

}  // namespace xq
