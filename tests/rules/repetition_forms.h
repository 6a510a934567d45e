// The four forms a repetition case is played in (as given, mirrored, colours exchanged, both):
// its FEN, moves, verdict and victim mapped into each form.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "repetition_case.h"
#include "xiangqi/position.h"

namespace xq::test {

// The four forms a case is played in. The rules know no left or right and treat both
// colours alike, so a mirrored case, or one with the colours exchanged (the board turned by
// 180 degrees, upper and lower case swapped), gets the same verdict with the colours
// exchanged where they are.
struct Form {
    bool mirror = false;
    bool flip = false;  // colours exchanged: the board turned by 180 degrees, cases swapped
    std::string name() const { return std::string(mirror ? "mirrored" : "plain") + (flip ? "_flipped" : ""); }
};

inline std::string map_square(std::string_view s, Form f) {
    int file = s[0] - 'a', rank = s[1] - '0';
    if (f.mirror != f.flip) file = 8 - file;
    if (f.flip) rank = 9 - rank;
    return {char('a' + file), char('0' + rank)};
}

inline std::vector<std::string> map_moves(std::string_view cycle, Form f) {
    std::vector<std::string> out;
    std::istringstream in{std::string(cycle)};
    std::string m;
    while (in >> m) out.push_back(map_square(m.substr(0, 2), f) + map_square(m.substr(2, 2), f));
    return out;
}

inline std::string map_fen(std::string_view fen, Form f) {
    Position p;
    if (p.set_fen(fen) != FenError::None) return {};
    std::string board;
    for (int rank = 9; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 9; ++file) {
            int sf = file, sr = rank;  // the source point that lands here
            if (f.mirror != f.flip) sf = 8 - sf;
            if (f.flip) sr = 9 - sr;
            Piece pc = p.piece_on(make_square(sf, sr));
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (f.flip) pc = make_piece(~color_of(pc), type_of(pc));
            if (empty) board += char('0' + empty), empty = 0;
            board += piece_to_char(pc);
        }
        if (empty) board += char('0' + empty);
        if (rank) board += '/';
    }
    Color stm = p.side_to_move();
    if (f.flip) stm = ~stm;
    return board + (stm == RED ? " w" : " b") + " - - 0 1";
}

inline Verdict map_verdict(Verdict v, Form f) {
    if (!f.flip || v == Verdict::Draw) return v;
    return v == Verdict::RedLoses ? Verdict::BlackLoses : Verdict::RedLoses;
}

inline std::string map_victim(std::string_view victim, Form f) {
    if (!f.flip || victim.empty()) return std::string(victim);
    if (victim.starts_with("black ")) return "red " + std::string(victim.substr(6));
    return "black " + std::string(victim.substr(4));
}

}  // namespace xq::test
