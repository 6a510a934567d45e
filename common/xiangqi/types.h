// The rules library's vocabulary: colours, piece types, pieces, squares and 16-bit moves.
// Everything here is a small value type with constexpr helpers, passed by value.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace xq {

enum Color : std::uint8_t { RED, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t {
    NO_PIECE_TYPE,
    KING,
    ADVISOR,
    ELEPHANT,
    HORSE,
    ROOK,
    CANNON,
    PAWN,
    PIECE_TYPE_NB = 8
};

// A piece is colour * 8 + type; 0 means an empty point.
enum Piece : std::uint8_t {
    NO_PIECE,
    R_KING = 1, R_ADVISOR, R_ELEPHANT, R_HORSE, R_ROOK, R_CANNON, R_PAWN,
    B_KING = 9, B_ADVISOR, B_ELEPHANT, B_HORSE, B_ROOK, B_CANNON, B_PAWN,
    PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType t) { return Piece((c << 3) | t); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Points are numbered rank * 9 + file: a0 = 0 (Red's lower left), i9 = 89.
enum Square : std::int8_t { SQ_A0 = 0, SQ_E0 = 4, SQ_E9 = 85, SQ_I9 = 89, SQ_NB = 90, SQ_NONE = 90 };

constexpr int FILE_NB = 9;
constexpr int RANK_NB = 10;

constexpr Square make_square(int file, int rank) { return Square(rank * FILE_NB + file); }

namespace detail {
// File and rank of every value a Square can hold (indexed by its byte), as s % 9 and s / 9
// give them: one load instead of a multiply, shifts and a sign fix on the hot paths.
struct SquareCoords {
    std::array<std::int8_t, 256> file{}, rank{};
};
constexpr SquareCoords build_square_coords() {
    SquareCoords c;
    for (int b = 0; b < 256; ++b) {
        const int s = std::int8_t(b);
        c.file[b] = std::int8_t(s % FILE_NB);
        c.rank[b] = std::int8_t(s / FILE_NB);
    }
    return c;
}
inline constexpr SquareCoords SQUARE_COORDS = build_square_coords();
}  // namespace detail

constexpr int file_of(Square s) { return detail::SQUARE_COORDS.file[std::uint8_t(s)]; }
constexpr int rank_of(Square s) { return detail::SQUARE_COORDS.rank[std::uint8_t(s)]; }
constexpr bool is_ok(Square s) { return s >= SQ_A0 && s < SQ_NB; }

// Rank counted from a colour's own back rank (0..9).
constexpr int relative_rank(Color c, Square s) { return c == RED ? rank_of(s) : 9 - rank_of(s); }
constexpr bool crossed_river(Color c, Square s) { return relative_rank(c, s) >= 5; }
constexpr bool in_palace(Color c, Square s) {
    return file_of(s) >= 3 && file_of(s) <= 5 && relative_rank(c, s) <= 2;
}

// A move: from in bits 0-6, to in bits 7-13. The null value 0 is never a legal move.
class Move {
public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 7))) {}
    static constexpr Move from_raw(std::uint16_t raw) {
        Move m;
        m.data_ = raw;
        return m;
    }
    static constexpr Move none() { return Move(); }

    constexpr Square from() const { return Square(data_ & 0x7F); }
    constexpr Square to() const { return Square((data_ >> 7) & 0x7F); }
    constexpr std::uint16_t raw() const { return data_; }
    constexpr bool is_ok() const { return data_ != 0 && from() != to(); }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

private:
    std::uint16_t data_ = 0;
};

// More than any position's count of pseudo-legal moves.
constexpr int MAX_MOVES = 256;

// A caller-owned, fixed-capacity list: move generation never allocates.
struct MoveList {
    // The moves are left uninitialised (only [0, count) is ever read): zeroing 512 bytes for
    // every list cost the engine's search a tenth of its own time.
    MoveList() {}
    union {
        std::array<Move, MAX_MOVES> moves;
    };
    int count = 0;

    void push(Move m) { moves[count++] = m; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    void clear() { count = 0; }
    Move operator[](int i) const { return moves[i]; }
    Move* begin() { return moves.data(); }
    Move* end() { return moves.data() + count; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + count; }
    bool contains(Move m) const {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }
};

// Text helpers: "e0", "h2e2" (ICCS / UCCI coordinates, files a-i, ranks 0-9 from Red's side).
std::string square_to_string(Square s);
Square square_from_string(std::string_view text);  // SQ_NONE when malformed
std::string move_to_iccs(Move m);                   // "h2e2"

// Letters as in FEN: upper case Red (K A B N R C P), lower case Black.
char piece_to_char(Piece p);
Piece piece_from_char(char c);  // accepts E/e for elephant and H/h for horse; NO_PIECE if unknown
std::string_view piece_type_name(PieceType t);  // "king", "advisor", ...
std::string_view color_name(Color c);           // "Red", "Black"

}  // namespace xq
