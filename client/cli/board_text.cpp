#include "board_text.h"

#include <array>
#include <string_view>

namespace xq::client {

namespace {

constexpr std::array<std::string_view, 8> RED_GLYPHS = {"  ", "帥", "仕", "相", "傌", "俥", "炮", "兵"};
constexpr std::array<std::string_view, 8> BLACK_GLYPHS = {"  ", "將", "士", "象", "馬", "車", "砲", "卒"};

constexpr std::string_view ANSI_RESET = "\x1b[0m";
constexpr std::string_view ANSI_RED = "\x1b[1;31m";
constexpr std::string_view ANSI_BLACK = "\x1b[1;36m";   // readable on dark and light terminals
constexpr std::string_view ANSI_FROM_BG = "\x1b[43m";   // yellow background: last move origin
constexpr std::string_view ANSI_TO_BG = "\x1b[42m";     // green background: last move target
constexpr std::string_view ANSI_CHECK_BG = "\x1b[41m";  // red background: king in check
constexpr std::string_view ANSI_DIM = "\x1b[2m";

}  // namespace

std::string piece_glyph(Piece p, bool unicode) {
    const PieceType t = type_of(p);
    if (p == NO_PIECE || t == NO_PIECE_TYPE) return unicode ? "·" : ".";
    if (unicode) return std::string(color_of(p) == RED ? RED_GLYPHS[t] : BLACK_GLYPHS[t]);
    return std::string(1, piece_to_char(p));
}

std::string render_board(const Position& pos, Move last_move, const BoardStyle& style) {
    const Square from = last_move.is_ok() ? last_move.from() : SQ_NONE;
    const Square to = last_move.is_ok() ? last_move.to() : SQ_NONE;
    const Square checked = pos.in_check() ? pos.king_square(pos.side_to_move()) : SQ_NONE;

    // Each point is 4 columns: a marker, a 2-column glyph, a marker.
    std::string files_line = "    ";
    for (int i = 0; i < FILE_NB; ++i) {
        const int file = style.flipped ? FILE_NB - 1 - i : i;
        files_line += ' ';
        files_line += char('a' + file);
        files_line += "  ";
    }
    files_line += '\n';

    std::string out = files_line;
    for (int row = 0; row < RANK_NB; ++row) {
        const int rank = style.flipped ? row : RANK_NB - 1 - row;
        if (row == 5) {
            out += style.unicode ? "    ~~~~~~~ 楚 河 ~~~~~~~~ 漢 界 ~~~~~~~\n"
                                 : "    ~~~~~~~~~~~~~~ river ~~~~~~~~~~~~~~~\n";
        }
        out += ' ';
        out += char('0' + rank);
        out += "  ";
        for (int i = 0; i < FILE_NB; ++i) {
            const int file = style.flipped ? FILE_NB - 1 - i : i;
            const Square s = make_square(file, rank);
            const Piece p = pos.piece_on(s);
            std::string glyph = piece_glyph(p, style.unicode);
            if (!style.unicode || p == NO_PIECE) glyph += ' ';  // pad to 2 columns
            char left = ' ', right = ' ';
            if (s == to)
                left = '[', right = ']';
            else if (s == from)
                left = '(', right = ')';

            if (!style.color) {
                out += left;
                out += glyph;
                out += right;
                continue;
            }
            std::string_view bg;
            if (s == checked)
                bg = ANSI_CHECK_BG;
            else if (s == to)
                bg = ANSI_TO_BG;
            else if (s == from)
                bg = ANSI_FROM_BG;
            out += left;
            out += bg;
            if (p == NO_PIECE)
                out += ANSI_DIM;
            else
                out += color_of(p) == RED ? ANSI_RED : ANSI_BLACK;
            out += glyph;
            out += ANSI_RESET;
            out += right;
        }
        out += ' ';
        out += char('0' + rank);
        out += '\n';
    }
    out += files_line;
    return out;
}

}  // namespace xq::client
