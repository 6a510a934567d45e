#include "core/move_text.h"

#include "xiangqi/notation.h"

namespace xq::client {

MoveEntry describe_move(const Position& before, Move m) {
    MoveEntry e;
    e.move = m;
    e.iccs = to_iccs(m);
    // The writers need a legal move; a move that is not (a corrupt record) keeps ICCS only.
    if (before.is_pseudo_legal(m) && before.is_legal(m)) {
        e.wxf = to_wxf(before, m);
        e.chinese = to_chinese(before, m);
    }
    return e;
}

std::vector<MoveEntry> describe_moves(const Position& start, const std::vector<Move>& moves) {
    std::vector<MoveEntry> out;
    out.reserve(moves.size());
    Position pos = start;
    for (Move m : moves) {
        out.push_back(describe_move(pos, m));
        UndoInfo u;
        pos.do_move(m, u);
    }
    return out;
}

std::vector<Move> parse_pv(const Position& pos, Color side, const std::vector<std::string>& words) {
    std::vector<Move> out;
    if (pos.side_to_move() != side) return out;
    Position p = pos;
    for (const auto& w : words) {
        if (out.size() >= PV_MAX) break;
        const ParsedMove m = parse_iccs(p, w);
        if (!m.ok()) break;
        out.push_back(m.move);
        UndoInfo u;
        p.do_move(m.move, u);
    }
    return out;
}

std::vector<std::string> pv_texts(const Position& pos, const std::vector<Move>& pv, MoveNotation n) {
    const Notation notation = n == MoveNotation::Chinese ? Notation::Chinese
                              : n == MoveNotation::Wxf   ? Notation::Wxf
                                                         : Notation::Iccs;
    return format_moves(pos, pv, notation);
}

std::string fit_parts(const std::vector<std::string>& parts, float max_width,
                      const std::function<float(const std::string&)>& width) {
    static constexpr std::string_view ELLIPSIS = "…";
    std::string best;
    std::string line;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        line += (i ? " " : "") + parts[i];
        const bool last = i + 1 == parts.size();
        const std::string shown = last ? line : line + " " + std::string(ELLIPSIS);
        if (width(shown) <= max_width) best = shown;
        else if (width(line) > max_width) break;
    }
    return best;
}

}  // namespace xq::client
