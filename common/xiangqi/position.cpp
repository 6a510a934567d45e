#include "position.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <vector>

#include "key_after.h"
#include "lines.h"
#include "placement.h"
#include "tables.h"

namespace xq {

using lines::LINES;
using tables::TABLES;

namespace {

constexpr int MAX_PER_TYPE[PIECE_TYPE_NB] = {0, 1, 2, 2, 2, 2, 2, 5};

// The points a step piece's steps reach from each point (legs and eyes ignored), as the two
// words of the occupancy sets: when none holds an enemy piece, the capture generation skips the
// piece without walking its steps. Kinds: 0 king, 1 advisor, 2 elephant, 3 horse, 4 and 5 the
// red and black pawn.
struct StepReach {
    std::array<std::array<std::array<std::uint64_t, 2>, SQ_NB>, 6> w{};
};

constexpr StepReach build_step_reach() {
    StepReach r{};
    const tables::StepList* lists[6] = {TABLES.king.data(), TABLES.advisor.data(), TABLES.elephant.data(),
                                        TABLES.horse.data(), TABLES.pawn[RED].data(), TABLES.pawn[BLACK].data()};
    for (int k = 0; k < 6; ++k)
        for (int sq = 0; sq < SQ_NB; ++sq)
            for (int i = 0; i < lists[k][sq].count; ++i) {
                const int to = lists[k][sq].steps[i].to;
                r.w[k][sq][to >> 6] |= std::uint64_t(1) << (to & 63);
            }
    return r;
}

constexpr StepReach STEP_REACH = build_step_reach();

// The moves of a rook or cannon from each point along each ray (Tables::rays' order), nearest
// point first; entry `count` is a spare that generation writes and does not count.
struct RayMoves {
    std::array<std::array<std::array<Move, 10>, 4>, SQ_NB> m{};
};

constexpr RayMoves build_ray_moves() {
    RayMoves t{};
    for (int sq = 0; sq < SQ_NB; ++sq)
        for (int d = 0; d < 4; ++d)
            for (int i = 0; i < TABLES.rays[sq][d].count; ++i)
                t.m[sq][d][i] = Move(Square(sq), Square(TABLES.rays[sq][d].squares[i]));
    return t;
}

constexpr RayMoves RAY_MOVES = build_ray_moves();

// A point's bits in the occupancy sets: its word and bit there, its rank and file and its bit
// on each line (a table instead of divisions by 9 on every move).
struct PointBits {
    std::uint64_t bit;
    std::uint16_t rank_bit, file_bit;
    std::uint8_t half, rank, file;
};

constexpr std::array<PointBits, SQ_NB> build_point_bits() {
    std::array<PointBits, SQ_NB> t{};
    for (int s = 0; s < SQ_NB; ++s)
        t[s] = PointBits{std::uint64_t(1) << (s & 63), std::uint16_t(1u << file_of(Square(s))),
                         std::uint16_t(1u << rank_of(Square(s))), std::uint8_t(s >> 6),
                         std::uint8_t(rank_of(Square(s))), std::uint8_t(file_of(Square(s)))};
    return t;
}

constexpr auto POINT_BITS = build_point_bits();

bool advisor_point(Color c, Square s) {
    const int f = file_of(s), r = relative_rank(c, s);
    return (r == 0 || r == 2) ? (f == 3 || f == 5) : (r == 1 && f == 4);
}

bool elephant_point(Color c, Square s) {
    const int f = file_of(s), r = relative_rank(c, s);
    if (r == 0 || r == 4) return f == 2 || f == 6;
    if (r == 2) return f == 0 || f == 4 || f == 8;
    return false;
}

bool pawn_point(Color c, Square s) {
    const int r = relative_rank(c, s);
    if (r >= 5) return true;
    return (r == 3 || r == 4) && file_of(s) % 2 == 0;
}

std::vector<std::string_view> split_ws(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
        std::size_t j = i;
        while (j < s.size() && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\r' || s[j] == '\n')) ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

bool parse_int(std::string_view s, int lo, int hi, int& out) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return false;
    out = v;
    return true;
}

}  // namespace

FenError placement_error(Piece p, Square s) {
    const Color c = color_of(p);
    switch (type_of(p)) {
        case KING: return in_palace(c, s) ? FenError::None : FenError::BadKingSquare;
        case ADVISOR: return advisor_point(c, s) ? FenError::None : FenError::BadAdvisorSquare;
        case ELEPHANT: return elephant_point(c, s) ? FenError::None : FenError::BadElephantSquare;
        case PAWN: return pawn_point(c, s) ? FenError::None : FenError::BadPawnSquare;
        default: return FenError::None;
    }
}

int pieces_in_a_set(PieceType t) { return MAX_PER_TYPE[t]; }

std::string placement_fen(const std::array<Piece, SQ_NB>& board) {
    std::string out;
    for (int r = 9; r >= 0; --r) {
        int empties = 0;
        for (int f = 0; f < 9; ++f) {
            const Piece p = board[make_square(f, r)];
            if (p == NO_PIECE) {
                ++empties;
                continue;
            }
            if (empties) out += char('0' + empties);
            empties = 0;
            out += piece_to_char(p);
        }
        if (empties) out += char('0' + empties);
        if (r) out += '/';
    }
    return out;
}

std::string_view fen_error_message(FenError e) {
    switch (e) {
    case FenError::None: return "no error";
    case FenError::Empty: return "empty FEN";
    case FenError::BadRankCount: return "the board must have exactly 10 ranks separated by '/'";
    case FenError::BadFileCount: return "a rank does not describe exactly 9 points";
    case FenError::UnknownPiece: return "unknown piece letter (use K A B N R C P, upper case for Red)";
    case FenError::MissingKing: return "a side has no king";
    case FenError::TooManyKings: return "a side has more than one king";
    case FenError::TooManyPieces: return "a side has more pieces of one type than the game has";
    case FenError::BadKingSquare: return "a king stands outside its palace";
    case FenError::BadAdvisorSquare: return "an advisor stands on a point advisors can never reach";
    case FenError::BadElephantSquare: return "an elephant stands on a point elephants can never reach";
    case FenError::BadPawnSquare: return "a pawn stands on a point pawns can never reach";
    case FenError::BadSideToMove: return "side to move must be 'w' (or 'r') for Red or 'b' for Black";
    case FenError::BadCounter: return "the half-move clock and move number must be non-negative numbers";
    case FenError::SideNotToMoveInCheck: return "the side that is not to move is in check (or the kings face each other)";
    case FenError::TrailingGarbage: return "unexpected text after the FEN fields";
    }
    return "unknown FEN error";
}

Position::Position() {
    const FenError e = set_fen(START_FEN);
    (void)e;
}

[[gnu::always_inline]] inline void Position::toggle_occupancy(Piece p, Square s) {
    const PointBits& b = POINT_BITS[s];
    const Color c = color_of(p);
    pieces_[p][b.half] ^= b.bit;
    occupied_[c][b.half] ^= b.bit;
    rank_occ_[c][b.rank] ^= b.rank_bit;
    file_occ_[c][b.file] ^= b.file_bit;
    rank_all_[b.rank] ^= b.rank_bit;
    file_all_[b.file] ^= b.file_bit;
}

void Position::put(Piece p, Square s) {
    board_[s] = p;
    toggle_occupancy(p, s);
    ++counts_[p];
    key_ ^= TABLES.zobrist[p][s];
    if (type_of(p) == KING) king_[color_of(p)] = s;
}

void Position::remove(Square s) {
    const Piece p = board_[s];
    --counts_[p];
    key_ ^= TABLES.zobrist[p][s];
    toggle_occupancy(p, s);
    board_[s] = NO_PIECE;
}

FenError Position::set_fen(std::string_view text) {
    const auto fields = split_ws(text);
    if (fields.empty()) return FenError::Empty;
    if (fields.size() > 6) return FenError::TrailingGarbage;

    // Count the ranks first, so that a missing or extra rank is named as such instead of
    // showing up as a piece on an impossible point.
    int slashes = 0;
    for (char c : fields[0]) slashes += c == '/';
    if (slashes != 9) return FenError::BadRankCount;

    Position p{EmptyTag{}};  // built aside so that a refused FEN changes nothing
    int rank = 9, file = 0;
    int ranks_seen = 1;
    for (char c : fields[0]) {
        if (c == '/') {
            if (file != 9) return FenError::BadFileCount;
            if (++ranks_seen > 10) return FenError::BadRankCount;
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > 9) return FenError::BadFileCount;
        } else {
            const Piece pc = piece_from_char(c);
            if (pc == NO_PIECE) return FenError::UnknownPiece;
            if (file >= 9) return FenError::BadFileCount;
            const Square s = make_square(file, rank);
            ++file;
            const PieceType t = type_of(pc);
            if (p.counts_[pc] >= MAX_PER_TYPE[t])
                return t == KING ? FenError::TooManyKings : FenError::TooManyPieces;
            if (const FenError e = placement_error(pc, s); e != FenError::None) return e;
            p.put(pc, s);
        }
    }
    if (ranks_seen != 10) return FenError::BadRankCount;
    if (file != 9) return FenError::BadFileCount;
    if (p.king_[RED] == SQ_NONE || p.king_[BLACK] == SQ_NONE) return FenError::MissingKing;

    if (fields.size() >= 2) {
        const auto s = fields[1];
        if (s == "w" || s == "r" || s == "W" || s == "R") p.side_ = RED;
        else if (s == "b" || s == "B") p.side_ = BLACK;
        else return FenError::BadSideToMove;
    }
    if (fields.size() >= 5 && !parse_int(fields[4], 0, 100000, p.rule50_)) return FenError::BadCounter;
    if (fields.size() >= 6 && !parse_int(fields[5], 1, 100000, p.fullmove_)) {
        // Some tools write move number 0; accept it as 1.
        int v = -1;
        if (!parse_int(fields[5], 0, 0, v)) return FenError::BadCounter;
        p.fullmove_ = 1;
    }
    if (p.side_ == BLACK) p.key_ ^= TABLES.zobrist_side;
    if (p.king_attacked(~p.side_)) return FenError::SideNotToMoveInCheck;
    *this = p;
    return FenError::None;
}

std::string Position::fen() const {
    std::string out = placement_fen(board_);
    out += side_ == RED ? " w - - " : " b - - ";
    out += std::to_string(rule50_);
    out += ' ';
    out += std::to_string(fullmove_);
    return out;
}

void Position::do_move(Move m, UndoInfo& undo) {
    const Square from = m.from(), to = m.to();
    const Piece p = board_[from], captured = board_[to];
    undo.captured = captured;
    undo.key = key_;
    undo.rule50 = rule50_;
    key_ = key_after(*this, m);
    if (captured != NO_PIECE) {
        --counts_[captured];
        toggle_occupancy(captured, to);
        rule50_ = 0;
    } else {
        ++rule50_;
    }
    board_[from] = NO_PIECE;
    board_[to] = p;
    toggle_occupancy(p, from);
    toggle_occupancy(p, to);
    if (type_of(p) == KING) king_[color_of(p)] = to;
    if (side_ == BLACK) ++fullmove_;
    side_ = ~side_;
}

void Position::undo_move(Move m, const UndoInfo& undo) {
    const Square from = m.from(), to = m.to();
    side_ = ~side_;
    if (side_ == BLACK) --fullmove_;
    const Piece p = board_[to];
    board_[to] = NO_PIECE;
    board_[from] = p;
    toggle_occupancy(p, to);
    toggle_occupancy(p, from);
    if (type_of(p) == KING) king_[color_of(p)] = from;
    if (undo.captured != NO_PIECE) {
        board_[to] = undo.captured;
        toggle_occupancy(undo.captured, to);
        ++counts_[undo.captured];
    }
    key_ = undo.key;
    rule50_ = undo.rule50;
}

void Position::do_null_move(UndoInfo& undo) {
    undo.captured = NO_PIECE;
    undo.key = key_;
    undo.rule50 = rule50_;
    side_ = ~side_;
    key_ ^= TABLES.zobrist_side;
}

void Position::undo_null_move(const UndoInfo& undo) {
    side_ = ~side_;
    key_ = undo.key;
    rule50_ = undo.rule50;
}

// Every move is written to the list and counted only when it is one (`out += ok`): whether a
// step reaches an empty point, an enemy piece or an own one, and how far a rook or cannon
// slides, change from node to node, and the branches on them were mispredicted often. The
// order is that of a walk (the search breaks ties in list order, so it is part of the tree;
// `MoveGen.PseudoLegalGenerationListsTheMovesInWalkOrder` checks it): the pieces by point, a
// step piece's steps in the tables' order, a slider's rays up, down, left, right, each ray's
// empty points nearest first, then its capture. The writes reach at most nine entries past the count (a slider's copied ray); no position has
// more than 119 pseudo-legal moves (two rooks and two cannons 17 each, two horses 8, the king
// 4, two advisors and two elephants 4 each, five pawns 3), far inside MAX_MOVES.
template <bool CapturesOnly, Color us>
void Position::generate(MoveList& list) const {
    // Bit q set: a piece q (NO_PIECE included) that a step may land on.
    constexpr unsigned TARGETS = CapturesOnly ? (us == RED ? 0xFE00u : 0x00FEu) : (us == RED ? 0xFE01u : 0x00FFu);
    Move* out = list.moves.data() + list.count;
    // `blocked`: the elephant's eye or the horse's leg must be empty (the others' steps name no
    // such point).
    auto steps = [&](Square from, const tables::StepList& l, bool blocked) {
        for (int i = 0; i < l.count; ++i) {
            *out = Move(from, Square(l.steps[i].to));
            out += (TARGETS >> board_[l.steps[i].to]) & unsigned(!blocked || board_[l.steps[i].block] == NO_PIECE);
        }
    };
    // One ray of a rook or cannon, from its line's occupancy (bit i: point i of the line), the
    // enemy's, and the piece's place on the line: the empty points in order (all nine entries
    // copied, the empty ones counted), then the capture: the first piece (rook) or the first
    // beyond a screen (cannon), when an enemy's. Up and right run to higher bits, down and left
    // to lower ones.
    auto ray = [&](const std::array<Move, 10>& moves, unsigned occ, unsigned enemy, int at, int count, bool rook,
                   bool ascending) {
        int empty, target;
        unsigned hit;
        if (ascending) {
            const unsigned ahead = occ >> (at + 1);  // bit i: the ray's point i
            empty = std::min(std::countr_zero(ahead), count);
            const unsigned beyond = ahead & (ahead - 1);
            target = rook ? empty : std::min(std::countr_zero(beyond), count);
            hit = (enemy >> (at + 1 + target)) & 1u;  // bit 10 at most: zero past the line
        } else {
            const unsigned behind = occ & ((1u << at) - 1);  // bit at - 1 - i: the ray's point i
            const int first = std::bit_width(behind) - 1;     // -1: none
            empty = at - 1 - first;
            const int last = rook ? first : std::bit_width(behind ^ std::bit_floor(behind)) - 1;
            target = at - 1 - last;
            hit = ((enemy << 1) >> (last + 1)) & 1u;  // bit 0 of enemy << 1 is zero: none
        }
        if constexpr (!CapturesOnly) {
            std::copy_n(moves.data(), 9, out);
            out += empty;
        }
        *out = moves[target];
        out += hit;
    };
    auto slider = [&](Square from, bool rook) {
        const int r = rank_of(from), f = file_of(from);
        const unsigned file_occ = file_all_[f], rank_occ = rank_all_[r];
        const unsigned file_enemy = file_occ_[~us][f], rank_enemy = rank_occ_[~us][r];
        const auto& m = RAY_MOVES.m[from];
        ray(m[0], file_occ, file_enemy, r, RANK_NB - 1 - r, rook, true);
        ray(m[1], file_occ, file_enemy, r, r, rook, false);
        ray(m[2], rank_occ, rank_enemy, f, f, rook, false);
        ray(m[3], rank_occ, rank_enemy, f, FILE_NB - 1 - f, rook, true);
    };
    for_each_piece(us, [&](Square from) {
        const int sq = from;
        const Piece p = board_[sq];
        if constexpr (CapturesOnly) {
            // A step piece with no enemy piece on any point its steps reach has no capture.
            constexpr int KIND[PIECE_TYPE_NB] = {0, 0, 1, 2, 3, -1, -1, 4};
            if (const int k = KIND[type_of(p)]; k >= 0) {
                const auto& w = STEP_REACH.w[k + (k == 4 && us == BLACK)][sq];
                if (!((w[0] & occupied_[~us][0]) | (w[1] & occupied_[~us][1]))) return;
            }
        }
        switch (type_of(p)) {
        case KING: steps(from, TABLES.king[sq], false); break;
        case ADVISOR: steps(from, TABLES.advisor[sq], false); break;
        case ELEPHANT: steps(from, TABLES.elephant[sq], true); break;
        case HORSE: steps(from, TABLES.horse[sq], true); break;
        case PAWN: steps(from, TABLES.pawn[us][sq], false); break;
        case ROOK: slider(from, true); break;
        case CANNON: slider(from, false); break;
        default: break;
        }
    });
    list.count = int(out - list.moves.data());
}

void Position::generate_pseudo(MoveList& list) const { generate<false>(list); }
void Position::generate_captures(MoveList& list) const { generate<true>(list); }

void Position::generate_legal(MoveList& list) const {
    MoveList pseudo;
    generate<false>(pseudo);
    for (Move m : pseudo)
        if (is_legal(m)) list.push(m);
}

bool Position::has_legal_move() const {
    MoveList pseudo;
    generate<false>(pseudo);
    for (Move m : pseudo)
        if (is_legal(m)) return true;
    return false;
}

bool Position::is_pseudo_legal(Move m) const {
    // The same set as generate<false> (tests/rules/movegen_test.cpp compares every 14-bit value
    // on positions of random games), decided from the piece's own rule without generating.
    const Square from = m.from(), to = m.to();
    if (!m.is_ok() || m != Move(from, to) || !xq::is_ok(from) || !xq::is_ok(to)) return false;
    const Piece p = board_[from], q = board_[to];
    if (p == NO_PIECE || color_of(p) != side_ || (q != NO_PIECE && color_of(q) == side_)) return false;
    auto in_steps = [&](const tables::StepList& l, bool blockable) {
        for (int i = 0; i < l.count; ++i)
            if (l.steps[i].to == to) return !blockable || board_[l.steps[i].block] == NO_PIECE;
        return false;
    };
    switch (type_of(p)) {
    case KING: return in_steps(TABLES.king[from], false);
    case ADVISOR: return in_steps(TABLES.advisor[from], false);
    case ELEPHANT: return in_steps(TABLES.elephant[from], true);
    case HORSE: return in_steps(TABLES.horse[from], true);
    case PAWN: return in_steps(TABLES.pawn[side_][from], false);
    case ROOK:
    case CANNON: {
        // Pieces strictly between from and to on their common rank or file.
        const int fr = rank_of(from), ff = file_of(from), tr = rank_of(to), tf = file_of(to);
        unsigned occ, lo, hi;
        if (fr == tr) {
            occ = rank_all_[fr];
            lo = unsigned(std::min(ff, tf)), hi = unsigned(std::max(ff, tf));
        } else if (ff == tf) {
            occ = file_all_[ff];
            lo = unsigned(std::min(fr, tr)), hi = unsigned(std::max(fr, tr));
        } else {
            return false;
        }
        const int between = LINES.pop[occ & ((1u << hi) - 1) & ~((2u << lo) - 1)];
        if (type_of(p) == ROOK) return between == 0;
        return q == NO_PIECE ? between == 0 : between == 1;
    }
    default: return false;
    }
}

std::uint64_t perft(Position& pos, int depth) {
    MoveList list;
    pos.generate_legal(list);
    if (depth <= 1) return depth == 1 ? std::uint64_t(list.size()) : 1;
    std::uint64_t nodes = 0;
    UndoInfo u;
    for (Move m : list) {
        pos.do_move(m, u);
        nodes += perft(pos, depth - 1);
        pos.undo_move(m, u);
    }
    return nodes;
}

}  // namespace xq
