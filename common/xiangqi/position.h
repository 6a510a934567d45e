// A Xiangqi position: the board, side to move, counters and Zobrist key, with do/undo,
// check detection (flying general included), legal move generation and FEN read/write.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "types.h"

namespace xq {

inline constexpr std::string_view START_FEN =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// Why a FEN was refused. Every malformed or impossible FEN maps to one of these.
enum class FenError {
    None,
    Empty,
    BadRankCount,        // not exactly 10 ranks
    BadFileCount,        // a rank does not describe exactly 9 points
    UnknownPiece,        // a letter that is no piece
    MissingKing,         // a side has no king
    TooManyKings,
    TooManyPieces,       // more advisors, elephants, horses, rooks, cannons or pawns than a side owns
    BadKingSquare,       // king outside its palace
    BadAdvisorSquare,    // advisor on a point advisors never reach
    BadElephantSquare,   // elephant on a point elephants never reach
    BadPawnSquare,       // pawn on a point pawns never reach
    BadSideToMove,       // not w, r or b
    BadCounter,          // half-move or move number not a number in range
    SideNotToMoveInCheck,  // the side that just moved left its king attacked (or kings face)
    TrailingGarbage,
};

std::string_view fen_error_message(FenError e);

// What undo_move needs to restore; owned by the caller (no heap, no chain).
struct UndoInfo {
    Piece captured = NO_PIECE;
    std::uint64_t key = 0;
    int rule50 = 0;
};

class Position {
public:
    Position();  // the start position

    // Reads a FEN. On error the position is left unchanged.
    FenError set_fen(std::string_view fen);
    std::string fen() const;
    static Position start() { return Position(); }

    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Color side_to_move() const { return side_; }
    Square king_square(Color c) const { return king_[c]; }
    std::uint64_t key() const { return key_; }
    int rule50() const { return rule50_; }       // plies since the last capture
    int fullmove() const { return fullmove_; }   // FEN move number
    int count(Color c, PieceType t) const { return counts_[make_piece(c, t)]; }
    int count(Piece p) const { return counts_[p]; }

    bool is_capture(Move m) const { return board_[m.to()] != NO_PIECE; }
    Piece moved_piece(Move m) const { return board_[m.from()]; }

    // True when the side to move's king is attacked (flying general included).
    bool in_check() const { return king_attacked(side_); }
    bool king_attacked(Color c) const;
    // True when the move (legal) leaves the opponent in check.
    bool gives_check(Move m) const;
    // The same without making the move: an attack test on the board as the move leaves it
    // (the search decides its prunings with it before making a move).
    bool gives_check_fast(Move m) const;
    // True when a piece of colour `by` could capture on s (pseudo-legally).
    bool is_attacked(Square s, Color by) const {
        return by == RED ? is_attacked<RED>(s) : is_attacked<BLACK>(s);
    }
    template <Color by>
    bool is_attacked(Square s) const;  // the same, compiled per colour

    void do_move(Move m, UndoInfo& undo);
    void undo_move(Move m, const UndoInfo& undo);
    void do_null_move(UndoInfo& undo);
    void undo_null_move(const UndoInfo& undo);

    // Pseudo-legal moves: obey piece movement but may leave the own king attacked.
    void generate_pseudo(MoveList& list) const;
    void generate_captures(MoveList& list) const;  // pseudo-legal captures only
    // Legal moves only.
    void generate_legal(MoveList& list) const;
    bool has_legal_move() const;
    // For a pseudo-legal move of the side to move: does it keep the own king safe?
    bool is_legal(Move m) const;
    // The same, faster: `side_in_check` must be in_check() of this position. When the side
    // is not in check, only a king move or a move from or to the king's rank, file or horse
    // legs can expose the king, so the attack scan runs for those alone.
    bool is_legal(Move m, bool side_in_check) const;
    // For a side in check: the points of the pieces that give the check and of what their
    // attacks pass through (the points between a rook, cannon or facing king and the king; a
    // horse's leg), as two words like pieces(). A move of another piece than the king that
    // neither leaves nor reaches one of these points leaves every check in place: it is illegal.
    struct CheckMask {
        std::uint64_t w[2] = {0, 0};
        bool touches(Move m) const {
            return ((w[m.from() >> 6] >> (m.from() & 63)) | (w[m.to() >> 6] >> (m.to() & 63))) & 1;
        }
    };
    CheckMask check_mask() const;
    // The same test as is_legal(m, true) for a side in check, with its check_mask() at hand.
    bool is_legal_in_check(Move m, const CheckMask& mask) const {
        return (type_of(board_[m.from()]) == KING || mask.touches(m)) && is_legal(m);
    }
    // False when the (legal) move certainly gives no check: neither the moved piece nor a
    // piece it uncovers or screens can reach the enemy king. True means "test it".
    bool may_give_check(Move m) const {
        return side_ == RED ? may_give_check<RED>(m) : may_give_check<BLACK>(m);
    }
    template <Color us>
    bool may_give_check(Move m) const;  // the same, us the side to move (compiled per colour)

    // Calls f(Square) for each piece of colour c, in ascending square order.
    template <class F>
    void for_each_piece(Color c, F&& f) const {
        for (int half = 0; half < 2; ++half)
            for (std::uint64_t b = occupied_[c][half]; b; b &= b - 1)
                f(Square(half * 64 + std::countr_zero(b)));
    }
    // The points of one piece (colour and type) or of one colour's pieces, as two words:
    // bit s of word 0 is point s (0-63), bit s - 64 of word 1 is point s (64-89).
    std::uint64_t pieces(Piece p, int half) const { return pieces_[p][half]; }
    std::uint64_t occupied(Color c, int half) const { return occupied_[c][half]; }
    // One colour's pieces on a rank (bit f = file f) and on a file (bit r = rank r).
    unsigned rank_occupancy(Color c, int rank) const { return rank_occ_[c][rank]; }
    unsigned file_occupancy(Color c, int file) const { return file_occ_[c][file]; }
    // Both colours' pieces on a rank and on a file (kept apart from the above: one read each).
    unsigned rank_occupancy(int rank) const { return rank_all_[rank]; }
    unsigned file_occupancy(int file) const { return file_all_[file]; }
    // Full check for any 16-bit value (e.g. from a transposition table or the wire).
    bool is_pseudo_legal(Move m) const;

    bool operator==(const Position& o) const {
        return board_ == o.board_ && side_ == o.side_;
    }

private:
    struct EmptyTag {};
    explicit Position(EmptyTag) {}
    // The side to move's moves (or captures), in the order of its pieces' points. Compiled
    // once per colour (`us`), whose piece and table indices are then constants.
    template <bool CapturesOnly, Color us>
    void generate(MoveList& list) const;
    template <bool CapturesOnly>
    void generate(MoveList& list) const {
        side_ == RED ? generate<CapturesOnly, RED>(list) : generate<CapturesOnly, BLACK>(list);
    }
    // Attack test on square k against colour `us` on a board where the piece on `from`
    // moved to `to` (Moved = false: the board as it stands, from/to unused). The mover may
    // belong to either side: `us` (a legality test) or the attackers (a check test).
    // OnlyChanged: k is not attacked before the move (the king of a side not in check, the
    // mover not that king), so only what the move changes is tested: the lines through k that
    // hold `from` or `to`, the horses whose leg `from` was, and a moved horse or pawn.
    // (Compiled once per colour `us`, like generate.)
    template <bool Moved, bool OnlyChanged, Color us>
    bool attacked_after(Square k, Square from, Square to) const;
    template <bool Moved, bool OnlyChanged = false>
    bool attacked_after(Square k, Color us, Square from, Square to) const {
        return us == RED ? attacked_after<Moved, OnlyChanged, RED>(k, from, to)
                         : attacked_after<Moved, OnlyChanged, BLACK>(k, from, to);
    }
    void put(Piece p, Square s);
    void remove(Square s);

    // Adds p on s to the occupancy sets, or takes it away (the sets only; board_ is the caller's).
    // Defined and used in position.cpp only.
    inline void toggle_occupancy(Piece p, Square s);

    std::array<Piece, SQ_NB> board_{};
    std::uint64_t occupied_[COLOR_NB][2] = {};  // squares 0-63 and 64-89 of each colour's pieces
    std::uint64_t pieces_[PIECE_NB][2] = {};    // the same per piece
    std::uint16_t rank_occ_[COLOR_NB][RANK_NB] = {};
    std::uint16_t file_occ_[COLOR_NB][FILE_NB] = {};
    std::uint16_t rank_all_[RANK_NB] = {};
    std::uint16_t file_all_[FILE_NB] = {};
    std::array<std::uint8_t, PIECE_NB> counts_{};
    std::array<Square, COLOR_NB> king_{SQ_NONE, SQ_NONE};
    Color side_ = RED;
    int rule50_ = 0;
    int fullmove_ = 1;
    std::uint64_t key_ = 0;
};

// Counts leaf nodes of the legal move tree (bulk-counted at depth 1).
std::uint64_t perft(Position& pos, int depth);

}  // namespace xq
