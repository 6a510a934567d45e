#include "notation.h"
#include "notation_detail.h"

#include <array>
#include <cstdint>
#include <vector>

namespace xq {

using namespace notation_detail;

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
