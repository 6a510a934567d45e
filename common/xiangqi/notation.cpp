#include "notation.h"

#include <array>
#include <cstdint>
#include <vector>

namespace xq {

namespace {

// ---------------------------------------------------------------------------------------------
// Shared vocabulary

constexpr std::array<std::string_view, 10> RED_DIGITS = {"", "一", "二", "三", "四", "五",
                                                         "六", "七", "八", "九"};
constexpr std::array<std::string_view, PIECE_TYPE_NB> RED_NAMES = {"", "帅", "仕", "相", "马",
                                                                   "车", "炮", "兵"};
constexpr std::array<std::string_view, PIECE_TYPE_NB> BLACK_NAMES = {"", "将", "士", "象", "马",
                                                                     "车", "炮", "卒"};
constexpr std::string_view WXF_LETTERS = ".KAEHRCP";

// Files as each player counts them: 1..9 from the player's own right.
constexpr int file_number(Color c, int file) { return c == RED ? 9 - file : file + 1; }

std::string lower_color(Color c) { return c == RED ? "red" : "black"; }

// Where a piece stands among the like pieces (same colour and type) on its file.
struct Standing {
    PieceType type = NO_PIECE_TYPE;
    int file_no = 0;       // 1..9 as the owner counts
    int index = 0;         // 1 = frontmost (nearest the enemy) among like pieces on this file
    int count = 0;         // like pieces on this file
    int tandem_files = 0;  // pawns only: files holding two or more of the owner's pawns
};

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

// Direction ('+' forward, '-' backward, '.' sideways) and number of a move, as in docs/RULES.md.
struct Shape {
    char dir = '.';
    int num = 0;
};

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

// A parsed text: which piece, then the direction and number.
struct Query {
    Selector sel;
    char dir = '.';
    int num = 0;
};

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

// Picks the first candidate text that reads back as this move (the first one almost always).
template <typename Parse>
std::string first_readable(const Position& pos, Move m, const std::vector<std::string>& candidates,
                           Parse parse) {
    for (const std::string& c : candidates)
        if (parse(pos, c).move == m) return c;
    return candidates.front();
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

enum class CnKind { Piece, Mark, Digit, Dir, Unknown };

struct CnToken {
    CnKind kind = CnKind::Unknown;
    int value = 0;  // piece type, Mark, digit 1..9, or direction char
    std::string_view text;
};

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

}  // namespace

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    char32_t cp;
    while (i < s.size())
        if (!next_code_point(s, i, cp)) return false;
    return true;
}

// -------------------------------------------------------------------------------------------------
// Writers

std::string to_iccs(Move m) { return move_to_iccs(m); }

std::string to_iccs_pgn(Move m) {
    const std::string s = move_to_iccs(m);
    if (s.size() != 4) return s;
    return std::string{upper(s[0]), s[1], '-', upper(s[2]), s[3]};
}

std::string to_wxf(const Position& pos, Move m) {
    if (!writable(pos, m)) return to_iccs(m);
    const Standing st = standing(pos, m.from());
    const Shape sh = shape(pos, m);
    const std::string tail{sh.dir, char('0' + sh.num)};
    const char letter = WXF_LETTERS[st.type];
    const std::string plain = std::string{letter, char('0' + st.file_no)} + tail;
    std::vector<std::string> candidates;
    if (st.count < 2 || st.type == KING || st.type == ADVISOR || st.type == ELEPHANT) {
        candidates.push_back(plain);
    } else if (st.type != PAWN) {
        candidates.push_back(std::string{letter, st.index == 1 ? '+' : '-'} + tail);
    } else {
        // Pawns doubled on two files name the file instead of the letter: "3+.4".
        const std::string mark = wxf_pawn_mark(st.index, st.count);
        const std::string by_file = std::string{char('0' + st.file_no), mark[1]} + tail;
        if (st.tandem_files >= 2) {
            candidates.push_back(by_file);
        } else {
            candidates.push_back(mark + tail);
            candidates.push_back(by_file);
        }
        candidates.push_back(plain);
    }
    return first_readable(pos, m, candidates, [](const Position& p, std::string_view t) { return parse_wxf(p, t); });
}

std::string to_chinese(const Position& pos, Move m) {
    if (!writable(pos, m)) return to_iccs(m);
    const Color us = pos.side_to_move();
    const Standing st = standing(pos, m.from());
    const Shape sh = shape(pos, m);
    const std::string name(us == RED ? RED_NAMES[st.type] : BLACK_NAMES[st.type]);
    const std::string tail = cn_dir(sh.dir) + cn_digit(us, sh.num);
    const std::string plain = name + cn_digit(us, st.file_no) + tail;
    std::vector<std::string> candidates;
    if (st.count < 2 || st.type == KING || st.type == ADVISOR || st.type == ELEPHANT) {
        candidates.push_back(plain);
    } else if (st.type != PAWN) {
        candidates.push_back((st.index == 1 ? "前" : "后") + name + tail);
    } else {
        const std::string mark = cn_ordinal(st.index, st.count);
        // Pawns doubled on two files: the file replaces the piece name, "前三进一".
        const std::string by_file = mark + cn_digit(us, st.file_no) + tail;
        if (st.tandem_files >= 2) {
            candidates.push_back(by_file);
        } else {
            candidates.push_back(mark + name + tail);
            candidates.push_back(by_file);
        }
        candidates.push_back(plain);
    }
    return first_readable(pos, m, candidates,
                          [](const Position& p, std::string_view t) { return parse_chinese(p, t); });
}

std::string format_move(const Position& pos, Move m, Notation n) {
    switch (n) {
    case Notation::Iccs: return to_iccs(m);
    case Notation::Wxf: return to_wxf(pos, m);
    case Notation::Chinese: return to_chinese(pos, m);
    }
    return to_iccs(m);
}

std::vector<std::string> format_moves(const Position& start, const std::vector<Move>& moves, Notation n) {
    std::vector<std::string> out;
    Position pos = start;
    for (Move m : moves) {
        MoveList legal;
        pos.generate_legal(legal);
        if (!legal.contains(m)) break;
        out.push_back(format_move(pos, m, n));
        UndoInfo undo;
        pos.do_move(m, undo);
    }
    return out;
}

// -------------------------------------------------------------------------------------------------
// Parsers

ParsedMove parse_iccs(const Position& pos, std::string_view text) {
    const std::string_view t = trim_ascii(text);
    if (t.empty()) return fail(NotationError::Empty, "no move given");
    if (t.size() > MAX_MOVE_TEXT) return fail(NotationError::Malformed, "move text too long");
    std::string s(t);
    if (s.size() == 5 && s[2] == '-') s.erase(2, 1);
    const Square from = s.size() == 4 ? square_from_string(std::string_view(s).substr(0, 2)) : SQ_NONE;
    const Square to = s.size() == 4 ? square_from_string(std::string_view(s).substr(2, 2)) : SQ_NONE;
    if (from == SQ_NONE || to == SQ_NONE)
        return fail(NotationError::Malformed, quote(text) + " is not an ICCS move like h2e2 or H2-E2");
    const Color us = pos.side_to_move();
    const Piece p = pos.piece_on(from);
    const std::string from_name = square_to_string(from);
    if (p == NO_PIECE) return fail(NotationError::NoSuchPiece, "no piece on " + from_name);
    const std::string what = lower_color(color_of(p)) + " " + std::string(piece_type_name(type_of(p)));
    if (color_of(p) != us)
        return fail(NotationError::NoSuchPiece,
                    from_name + " holds a " + what + ", but " + std::string(color_name(us)) + " is to move");
    const Move m(from, to);
    MoveList legal;
    pos.generate_legal(legal);
    if (legal.contains(m)) {
        ParsedMove r;
        r.move = m;
        return r;
    }
    MoveList pseudo;
    pos.generate_pseudo(pseudo);
    if (pseudo.contains(m))
        return fail(NotationError::IllegalMove, move_to_iccs(m) + " would leave the " + lower_color(us) + " king in check");
    return fail(NotationError::IllegalMove,
                "the " + what + " on " + from_name + " cannot move to " + square_to_string(to));
}

ParsedMove parse_wxf(const Position& pos, std::string_view text) {
    const std::string_view t = trim_ascii(text);
    if (t.empty()) return fail(NotationError::Empty, "no move given");
    if (t.size() > MAX_MOVE_TEXT) return fail(NotationError::Malformed, "move text too long");
    std::string s;
    for (char c : t) s += upper(c);
    // "+R.3" / "-C.1": the tandem mark written before the letter.
    if (s.size() == 4 && (s[0] == '+' || s[0] == '-') && s[1] >= 'A' && s[1] <= 'Z') std::swap(s[0], s[1]);
    auto digit = [](char c) { return c >= '1' && c <= '9'; };
    // "C25": sideways moves written without a separator.
    if (s.size() == 3 && wxf_type(s[0]) != NO_PIECE_TYPE && digit(s[1]) && digit(s[2])) s.insert(2, 1, '.');
    const auto malformed = [&] {
        return fail(NotationError::Malformed, quote(text) + " is not a WXF move like C2.5 or R+.3");
    };
    if (s.size() != 4) return malformed();
    Query q;
    q.dir = s[2] == '=' ? '.' : s[2];
    if (q.dir != '+' && q.dir != '-' && q.dir != '.') return malformed();
    if (!digit(s[3])) return malformed();
    q.num = s[3] - '0';
    const char c0 = s[0], c1 = s[1];
    Selector& a = q.sel;
    if (c0 >= 'A' && c0 <= 'Z') {
        a.type = wxf_type(c0);
        if (a.type == NO_PIECE_TYPE)
            return fail(NotationError::UnknownPiece, "unknown piece letter '" + std::string(1, c0) +
                                                         "' (K A E H R C P, also B and N)");
        if (digit(c1)) {
            a.file = c1 - '0';
            // "P3" names the pawn on file 3 or, failing that, the middle of three or five
            // pawns on one file; writers fall back to "53.4" where the readings collide.
            if (a.type == PAWN && c1 == '3') {
                const ParsedMove by_file = resolve(pos, q, text);
                if (by_file.ok() || by_file.error == NotationError::Ambiguous) return by_file;
                Query middle = q;
                middle.sel = Selector{PAWN, 0, Mark::WxMiddle, 0};
                const ParsedMove by_middle = resolve(pos, middle, text);
                return by_middle.ok() || by_middle.error == NotationError::Ambiguous ? by_middle : by_file;
            }
        } else if (c1 == '+' || c1 == '-') {
            a.mark = c1 == '+' ? Mark::WxFront : Mark::WxRear;
        } else {
            return malformed();
        }
    } else if (digit(c0)) {  // pawns on two files: "3+.4"
        a.type = PAWN;
        a.file = c0 - '0';
        if (c1 == '+') a.mark = Mark::WxFront;
        else if (c1 == '-') a.mark = Mark::WxRear;
        else if (c1 == '3') a.mark = Mark::WxMiddle;
        else return malformed();
    } else if ((c0 == '+' || c0 == '-') && c1 == c0) {  // "++" / "--": ends of four or five pawns
        a.type = PAWN;
        a.mark = c0 == '+' ? Mark::WxFirst : Mark::WxLast;
    } else {
        return malformed();
    }
    return resolve(pos, q, text);
}

ParsedMove parse_chinese(const Position& pos, std::string_view text) {
    if (text.size() > MAX_MOVE_TEXT) return fail(NotationError::Malformed, "move text too long");
    std::vector<CnToken> tokens;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = i;
        char32_t cp;
        if (!next_code_point(text, i, cp))
            return fail(NotationError::Malformed, "move text is not valid UTF-8");
        if (is_space(cp)) continue;
        tokens.push_back(classify(text.substr(start, i - start), cp));
    }
    if (tokens.empty()) return fail(NotationError::Empty, "no move given");
    const auto malformed = [&] {
        return fail(NotationError::Malformed, quote(text) + " is not a Chinese move like 炮二平五 or 前车进一");
    };
    if (tokens.size() != 4 || tokens[2].kind != CnKind::Dir || tokens[3].kind != CnKind::Digit)
        return malformed();
    Query q;
    q.dir = char(tokens[2].value);
    q.num = tokens[3].value;
    Selector& a = q.sel;
    const CnToken &t0 = tokens[0], &t1 = tokens[1];
    const auto unknown = [&](const CnToken& t) {
        return fail(NotationError::UnknownPiece, "unknown piece '" + std::string(t.text) + "' in " + quote(text));
    };
    if (t0.kind == CnKind::Piece) {  // 炮二平五, also 车前进一
        a.type = PieceType(t0.value);
        if (t1.kind == CnKind::Digit) a.file = t1.value;
        else if (t1.kind == CnKind::Mark) a.mark = Mark(t1.value);
        else return malformed();
    } else if (t0.kind == CnKind::Mark || t0.kind == CnKind::Digit) {
        if (t0.kind == CnKind::Mark) {
            a.mark = Mark(t0.value);
        } else {
            if (t0.value > 5) return malformed();  // at most five pawns share a file
            a.mark = Mark::CnOrdinal;
            a.ordinal = t0.value;
        }
        if (t1.kind == CnKind::Piece) {  // 前车进一, 二兵平四
            a.type = PieceType(t1.value);
        } else if (t1.kind == CnKind::Digit) {  // pawns on two files: 前三进一
            a.type = PAWN;
            a.file = t1.value;
        } else if (t1.kind == CnKind::Unknown) {
            return unknown(t1);
        } else {
            return malformed();
        }
    } else if (t0.kind == CnKind::Unknown) {
        return unknown(t0);
    } else {
        return malformed();
    }
    return resolve(pos, q, text);
}

ParsedMove parse_move(const Position& pos, std::string_view text) {
    ParsedMove r = parse_iccs(pos, text);
    if (r.error != NotationError::Malformed) return r;
    r = parse_wxf(pos, text);
    if (r.error != NotationError::Malformed) return r;
    r = parse_chinese(pos, text);
    if (r.error != NotationError::Malformed) return r;
    return fail(NotationError::Malformed,
                quote(text) + " is not a move in ICCS (h2e2), WXF (C2.5) or Chinese (炮二平五) notation");
}

ParsedMove parse_move(const Position& pos, std::string_view text, Notation n) {
    switch (n) {
    case Notation::Iccs: return parse_iccs(pos, text);
    case Notation::Wxf: return parse_wxf(pos, text);
    case Notation::Chinese: return parse_chinese(pos, text);
    }
    return parse_move(pos, text);
}

std::string_view notation_error_name(NotationError e) {
    switch (e) {
    case NotationError::None: return "none";
    case NotationError::Empty: return "empty";
    case NotationError::Malformed: return "malformed";
    case NotationError::UnknownPiece: return "unknown_piece";
    case NotationError::NoSuchPiece: return "no_such_piece";
    case NotationError::Ambiguous: return "ambiguous";
    case NotationError::IllegalMove: return "illegal_move";
    }
    return "none";
}

std::string_view notation_name(Notation n) {
    switch (n) {
    case Notation::Iccs: return "ICCS";
    case Notation::Wxf: return "WXF";
    case Notation::Chinese: return "Chinese";
    }
    return "ICCS";
}

}  // namespace xq
