#include "notation_detail.h"

#include <cstdint>

namespace xq::notation_detail {

// ---------------------------------------------------------------------------------------------
// Shared vocabulary

std::string lower_color(Color c) { return c == RED ? "red" : "black"; }

Standing standing(const Position& pos, Square s) {
    Standing st;
    const Piece p = pos.piece_on(s);
    if (p == NO_PIECE) return st;
    const Color c = color_of(p);
    const int f = file_of(s);
    st.type = type_of(p);
    st.file_no = file_number(c, f);
    for (int i = 0; i < RANK_NB; ++i) {
        const Square q = make_square(f, c == RED ? RANK_NB - 1 - i : i);  // front first
        if (pos.piece_on(q) != p) continue;
        ++st.count;
        if (q == s) st.index = st.count;
    }
    if (st.type == PAWN) {
        for (int ff = 0; ff < FILE_NB; ++ff) {
            int n = 0;
            for (int r = 0; r < RANK_NB; ++r) n += pos.piece_on(make_square(ff, r)) == p;
            st.tandem_files += n >= 2;
        }
    }
    return st;
}

Shape shape(const Position& pos, Move m) {
    const Piece p = pos.piece_on(m.from());
    const Color c = color_of(p);
    const PieceType t = type_of(p);
    const int fr = relative_rank(c, m.from()), tr = relative_rank(c, m.to());
    if (fr == tr) return {'.', file_number(c, file_of(m.to()))};
    const bool diagonal = t == ADVISOR || t == ELEPHANT || t == HORSE;
    const int steps = tr > fr ? tr - fr : fr - tr;
    return {tr > fr ? '+' : '-', diagonal ? file_number(c, file_of(m.to())) : steps};
}


namespace {

bool mark_fits(Mark mark, int ordinal, int k, int n) {
    const bool odd_middle = n >= 3 && n % 2 == 1 && k == (n + 1) / 2;
    switch (mark) {
    case Mark::None: return true;
    case Mark::CnFront: return n >= 2 && k == 1;
    case Mark::CnRear: return n >= 2 && k == n;
    case Mark::CnMiddle: return odd_middle;
    case Mark::CnOrdinal: return n >= 2 && k == ordinal;
    case Mark::WxFront: return n <= 3 ? n >= 2 && k == 1 : k == 2;
    case Mark::WxRear: return n <= 3 ? n >= 2 && k == n : k == n - 1;
    case Mark::WxFirst: return n >= 4 && k == 1;
    case Mark::WxLast: return n >= 4 && k == n;
    case Mark::WxMiddle: return odd_middle;
    }
    return false;
}

bool selects(const Selector& sel, const Standing& st) {
    return sel.type == st.type && (sel.file == 0 || sel.file == st.file_no) &&
           mark_fits(sel.mark, sel.ordinal, st.index, st.count);
}

std::string_view mark_words(const Selector& sel) {
    switch (sel.mark) {
    case Mark::None: return "";
    case Mark::CnFront: return "front ";
    case Mark::CnRear: return "rear ";
    case Mark::CnMiddle: return "middle ";
    case Mark::CnOrdinal: {
        constexpr std::array<std::string_view, 6> words = {"", "1st ", "2nd ", "3rd ", "4th ", "5th "};
        return sel.ordinal >= 1 && sel.ordinal <= 5 ? words[sel.ordinal] : "";
    }
    case Mark::WxFront: return "front (+) ";
    case Mark::WxRear: return "rear (-) ";
    case Mark::WxFirst: return "foremost (++) ";
    case Mark::WxLast: return "rearmost (--) ";
    case Mark::WxMiddle: return "middle ";
    }
    return "";
}

std::string describe(Color us, const Selector& sel) {
    std::string s(mark_words(sel));
    s += lower_color(us);
    s += ' ';
    s += piece_type_name(sel.type);
    if (sel.file) s += " on file " + std::to_string(sel.file);
    return s;
}

}  // namespace

// The input, quoted for an error message, without passing on bytes that are not text.
std::string quote(std::string_view text) {
    bool printable = valid_utf8(text) && text.size() <= MAX_MOVE_TEXT;
    for (unsigned char ch : text)
        if (ch < 0x20 || ch == 0x7F) printable = false;
    if (printable) return "'" + std::string(text) + "'";
    return "(" + std::to_string(text.size()) + " bytes that are not move text)";
}

ParsedMove fail(NotationError e, std::string message) {
    ParsedMove r;
    r.error = e;
    r.message = std::move(message);
    return r;
}

// Finds the one legal move the query describes, or says why there is none or several.
ParsedMove resolve(const Position& pos, const Query& q, std::string_view text) {
    const Color us = pos.side_to_move();
    std::array<bool, SQ_NB> chosen{};
    bool any_piece = false;
    for (int s = 0; s < SQ_NB; ++s) {
        const Piece p = pos.piece_on(Square(s));
        if (p == NO_PIECE || color_of(p) != us) continue;
        chosen[s] = selects(q.sel, standing(pos, Square(s)));
        any_piece = any_piece || chosen[s];
    }
    if (!any_piece) return fail(NotationError::NoSuchPiece, "no " + describe(us, q.sel));
    auto fits = [&](Move m) {
        if (!chosen[m.from()]) return false;
        const Shape sh = shape(pos, m);
        return sh.dir == q.dir && sh.num == q.num;
    };
    MoveList legal;
    pos.generate_legal(legal);
    Move found = Move::none();
    int matches = 0;
    std::string list;
    for (Move m : legal) {
        if (!fits(m)) continue;
        found = m;
        ++matches;
        list += (list.empty() ? "" : ", ") + move_to_iccs(m);
    }
    if (matches == 1) {
        ParsedMove r;
        r.move = found;
        return r;
    }
    if (matches > 1)
        return fail(NotationError::Ambiguous,
                    quote(text) + " fits " + std::to_string(matches) + " legal moves (" + list + ")");
    MoveList pseudo;
    pos.generate_pseudo(pseudo);
    for (Move m : pseudo)
        if (fits(m))
            return fail(NotationError::IllegalMove,
                        quote(text) + " would leave the " + lower_color(us) + " king in check");
    return fail(NotationError::IllegalMove, "the " + describe(us, q.sel) + " cannot move " + quote(text));
}

// A move of the side to move? Writers fall back to coordinates for anything else.
bool writable(const Position& pos, Move m) {
    if (!m.is_ok() || !is_ok(m.from()) || !is_ok(m.to())) return false;
    const Piece p = pos.piece_on(m.from());
    return p != NO_PIECE && color_of(p) == pos.side_to_move();
}

std::string_view trim_ascii(std::string_view s) {
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

// ---------------------------------------------------------------------------------------------
// UTF-8

// Decodes one code point at s[i], advancing i; false for any invalid, overlong, surrogate or
// truncated sequence.
bool next_code_point(std::string_view s, std::size_t& i, char32_t& out) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b0 = byte(i);
    int len;
    char32_t cp;
    if (b0 < 0x80) {
        out = b0;
        ++i;
        return true;
    } else if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
        cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        cp = b0 & 0x0F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        cp = b0 & 0x07;
    } else {
        return false;
    }
    if (i + len > s.size()) return false;
    for (int k = 1; k < len; ++k) {
        const unsigned char b = byte(i + k);
        if ((b & 0xC0) != 0x80) return false;
        cp = (cp << 6) | (b & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return false;
    if (cp >= 0xD800 && cp <= 0xDFFF) return false;
    out = cp;
    i += len;
    return true;
}

// ---------------------------------------------------------------------------------------------
// Chinese


struct CnWord {
    std::string_view text;
    CnKind kind;
    int value;
};

constexpr CnWord CN_WORDS[] = {
    {"帅", CnKind::Piece, KING},     {"帥", CnKind::Piece, KING},     {"将", CnKind::Piece, KING},
    {"將", CnKind::Piece, KING},     {"仕", CnKind::Piece, ADVISOR},  {"士", CnKind::Piece, ADVISOR},
    {"相", CnKind::Piece, ELEPHANT}, {"象", CnKind::Piece, ELEPHANT}, {"马", CnKind::Piece, HORSE},
    {"馬", CnKind::Piece, HORSE},    {"傌", CnKind::Piece, HORSE},    {"车", CnKind::Piece, ROOK},
    {"車", CnKind::Piece, ROOK},     {"俥", CnKind::Piece, ROOK},     {"炮", CnKind::Piece, CANNON},
    {"砲", CnKind::Piece, CANNON},   {"包", CnKind::Piece, CANNON},   {"兵", CnKind::Piece, PAWN},
    {"卒", CnKind::Piece, PAWN},
    {"前", CnKind::Mark, int(Mark::CnFront)},   {"后", CnKind::Mark, int(Mark::CnRear)},
    {"後", CnKind::Mark, int(Mark::CnRear)},    {"中", CnKind::Mark, int(Mark::CnMiddle)},
    {"进", CnKind::Dir, '+'}, {"進", CnKind::Dir, '+'}, {"退", CnKind::Dir, '-'}, {"平", CnKind::Dir, '.'},
    {"一", CnKind::Digit, 1}, {"二", CnKind::Digit, 2}, {"三", CnKind::Digit, 3},
    {"四", CnKind::Digit, 4}, {"五", CnKind::Digit, 5}, {"六", CnKind::Digit, 6},
    {"七", CnKind::Digit, 7}, {"八", CnKind::Digit, 8}, {"九", CnKind::Digit, 9},
};

CnToken classify(std::string_view text, char32_t cp) {
    CnToken t;
    t.text = text;
    if (cp >= U'1' && cp <= U'9') {
        t.kind = CnKind::Digit;
        t.value = int(cp - U'0');
        return t;
    }
    if (cp >= 0xFF11 && cp <= 0xFF19) {  // full-width １..９
        t.kind = CnKind::Digit;
        t.value = int(cp - 0xFF10);
        return t;
    }
    for (const CnWord& w : CN_WORDS) {
        if (w.text == text) {
            t.kind = w.kind;
            t.value = w.value;
            return t;
        }
    }
    return t;
}

bool is_space(char32_t cp) { return cp == U' ' || cp == U'\t' || cp == U'\r' || cp == U'\n' || cp == 0x3000; }

std::string cn_digit(Color c, int d) { return c == RED ? std::string(RED_DIGITS[d]) : std::string(1, char('0' + d)); }

std::string cn_dir(char dir) { return dir == '+' ? "进" : dir == '-' ? "退" : "平"; }

// The Chinese ordinal word for the k-th of n like pawns on one file (docs/RULES.md: 前/二/三/四/五
// for four or five, 前/中/后 for three, 前/后 for two).
std::string cn_ordinal(int k, int n) {
    if (k == 1) return "前";
    if (n <= 3) return k == n ? "后" : "中";
    return std::string(RED_DIGITS[k]);
}

// ---------------------------------------------------------------------------------------------
// WXF

PieceType wxf_type(char c) {
    switch (c) {
    case 'K': return KING;
    case 'A': return ADVISOR;
    case 'E': case 'B': return ELEPHANT;
    case 'H': case 'N': return HORSE;
    case 'R': return ROOK;
    case 'C': return CANNON;
    case 'P': return PAWN;
    default: return NO_PIECE_TYPE;
    }
}

char upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }

// The WXF mark of the k-th of n like pawns on a file.
std::string wxf_pawn_mark(int k, int n) {
    if (n <= 3) return k == 1 ? "P+" : k == n ? "P-" : "P3";
    if (k == 1) return "++";
    if (k == n) return "--";
    if (k == 2) return "P+";
    if (k == n - 1) return "P-";
    return "P3";
}

}  // namespace xq::notation_detail
