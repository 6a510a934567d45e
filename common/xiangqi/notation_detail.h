// The notation code's shared vocabulary (internal to the rules library; not installed with
// notation.h): where a piece stands among like pieces, a move's direction and number, the
// marks that pick one of several like pieces, the query a parser builds and its resolution to
// the one legal move, UTF-8 decoding, and the Chinese and WXF words. notation_detail.cpp
// defines it; notation.cpp writes and parses moves with it.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "notation.h"

namespace xq::notation_detail {

inline constexpr std::array<std::string_view, 10> RED_DIGITS = {"", "一", "二", "三", "四",
                                                                "五", "六", "七", "八", "九"};
inline constexpr std::array<std::string_view, PIECE_TYPE_NB> RED_NAMES = {"", "帅", "仕", "相",
                                                                          "马", "车", "炮", "兵"};
inline constexpr std::array<std::string_view, PIECE_TYPE_NB> BLACK_NAMES = {"", "将", "士", "象",
                                                                            "马", "车", "炮", "卒"};
inline constexpr std::string_view WXF_LETTERS = ".KAEHRCP";

// Files as each player counts them: 1..9 from the player's own right.
constexpr int file_number(Color c, int file) { return c == RED ? 9 - file : file + 1; }

std::string lower_color(Color c);

// Where a piece stands among the like pieces (same colour and type) on its file.
struct Standing {
    PieceType type = NO_PIECE_TYPE;
    int file_no = 0;       // 1..9 as the owner counts
    int index = 0;         // 1 = frontmost (nearest the enemy) among like pieces on this file
    int count = 0;         // like pieces on this file
    int tandem_files = 0;  // pawns only: files holding two or more of the owner's pawns
};

Standing standing(const Position& pos, Square s);

// Direction ('+' forward, '-' backward, '.' sideways) and number of a move, as in docs/RULES.md.
struct Shape {
    char dir = '.';
    int num = 0;
};

Shape shape(const Position& pos, Move m);

// How a text picks the moving piece. WXF and Chinese marks count differently when four or
// five pawns share a file, so each system has its own marks.
enum class Mark {
    None,
    CnFront,    // 前: frontmost
    CnRear,     // 后: rearmost
    CnMiddle,   // 中: middle of three (or five)
    CnOrdinal,  // 一/二/三/四/五: n-th from the front
    WxFront,    // '+': front of two or three; second of four or five
    WxRear,     // '-': rear of two or three; second-last of four or five
    WxFirst,    // "++": foremost of four or five
    WxLast,     // "--": rearmost of four or five
    WxMiddle,   // '3': middle of three or five
};

struct Selector {
    PieceType type = NO_PIECE_TYPE;
    int file = 0;  // 1..9, or 0 when the text gives none
    Mark mark = Mark::None;
    int ordinal = 0;  // for CnOrdinal
};

// A parsed text: which piece, then the direction and number.
struct Query {
    Selector sel;
    char dir = '.';
    int num = 0;
};

// The input, quoted for an error message, without passing on bytes that are not text.
std::string quote(std::string_view text);
ParsedMove fail(NotationError e, std::string message);
// Finds the one legal move the query describes, or says why there is none or several.
ParsedMove resolve(const Position& pos, const Query& q, std::string_view text);
// A move of the side to move? Writers fall back to coordinates for anything else.
bool writable(const Position& pos, Move m);

// Picks the first candidate text that reads back as this move (the first one almost always).
template <typename Parse>
std::string first_readable(const Position& pos, Move m, const std::vector<std::string>& candidates,
                           Parse parse) {
    for (const std::string& c : candidates)
        if (parse(pos, c).move == m) return c;
    return candidates.front();
}

std::string_view trim_ascii(std::string_view s);

// Decodes one code point at s[i], advancing i; false for any invalid, overlong, surrogate or
// truncated sequence.
bool next_code_point(std::string_view s, std::size_t& i, char32_t& out);

enum class CnKind { Piece, Mark, Digit, Dir, Unknown };

struct CnToken {
    CnKind kind = CnKind::Unknown;
    int value = 0;  // piece type, Mark, digit 1..9, or direction char
    std::string_view text;
};

CnToken classify(std::string_view text, char32_t cp);
bool is_space(char32_t cp);
std::string cn_digit(Color c, int d);
std::string cn_dir(char dir);
// The Chinese ordinal word for the k-th of n like pawns on one file (docs/RULES.md: 前/二/三/四/五
// for four or five, 前/中/后 for three, 前/后 for two).
std::string cn_ordinal(int k, int n);

PieceType wxf_type(char c);
char upper(char c);
// The WXF mark of the k-th of n like pawns on a file.
std::string wxf_pawn_mark(int k, int n);

}  // namespace xq::notation_detail
