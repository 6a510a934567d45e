#include "server/notation_fallback.h"

namespace xq::server::fallback {

namespace {
struct Parts {
    PieceType type;
    Color us;
    int file_digit;   // 1..9 from the mover's right
    int tandem;       // 0 none, 1 front, -1 rear
    int dir;          // +1 forward, -1 backward, 0 sideways
    int number;       // steps or destination file digit
};

int file_digit(Color c, int file) { return c == RED ? 9 - file : file + 1; }

Parts parts(const Position& pos, Move m) {
    const Piece p = pos.moved_piece(m);
    Parts r{};
    r.type = type_of(p);
    r.us = color_of(p);
    const int ff = file_of(m.from()), fr = rank_of(m.from());
    const int tf = file_of(m.to()), tr = rank_of(m.to());
    r.file_digit = file_digit(r.us, ff);
    if (r.type != ADVISOR && r.type != ELEPHANT) {
        for (int rank = 0; rank < RANK_NB; ++rank) {
            if (rank == fr || pos.piece_on(make_square(ff, rank)) != p) continue;
            const bool other_ahead = r.us == RED ? rank > fr : rank < fr;
            r.tandem = other_ahead ? -1 : 1;
        }
    }
    const int fwd = (r.us == RED ? 1 : -1) * (tr - fr);
    r.dir = fwd > 0 ? 1 : fwd < 0 ? -1 : 0;
    const bool diagonal_mover = r.type == ADVISOR || r.type == ELEPHANT || r.type == HORSE;
    r.number = (r.dir == 0 || diagonal_mover) ? file_digit(r.us, tf) : (fwd > 0 ? fwd : -fwd);
    return r;
}
}  // namespace

std::string to_wxf(const Position& pos, Move m) {
    static constexpr char LETTER[PIECE_TYPE_NB] = {'?', 'K', 'A', 'E', 'H', 'R', 'C', 'P'};
    const Parts p = parts(pos, m);
    std::string s(1, LETTER[p.type]);
    s += p.tandem == 0 ? char('0' + p.file_digit) : (p.tandem > 0 ? '+' : '-');
    s += p.dir > 0 ? '+' : p.dir < 0 ? '-' : '.';
    s += char('0' + p.number);
    return s;
}

std::string to_chinese(const Position& pos, Move m) {
    static const char* RED_NAME[PIECE_TYPE_NB] = {"", "帅", "仕", "相", "马", "车", "炮", "兵"};
    static const char* BLACK_NAME[PIECE_TYPE_NB] = {"", "将", "士", "象", "马", "车", "炮", "卒"};
    static const char* RED_NUM[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    const Parts p = parts(pos, m);
    auto num = [&](int n) { return p.us == RED ? std::string(RED_NUM[n]) : std::string(1, char('0' + n)); };
    const char* name = p.us == RED ? RED_NAME[p.type] : BLACK_NAME[p.type];
    std::string s;
    if (p.tandem != 0) s = std::string(p.tandem > 0 ? "前" : "后") + name;
    else s = std::string(name) + num(p.file_digit);
    s += p.dir > 0 ? "进" : p.dir < 0 ? "退" : "平";
    s += num(p.number);
    return s;
}

}  // namespace xq::server::fallback
