#include "core/board_model.h"

#include <cstdlib>

namespace xq::client {

BoardModel::BoardModel() = default;

void BoardModel::reset_start() { game_.reset(Position()); }

std::string BoardModel::load_snapshot(std::string_view start_fen,
                                      const std::vector<std::string>& moves) {
    Game g;
    if (!start_fen.empty()) {
        const FenError e = g.reset(start_fen);
        if (e != FenError::None) return "bad start FEN: " + std::string(fen_error_message(e));
    }
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const std::string& text = moves[i];
        if (text.size() != 4) return "bad move text at ply " + std::to_string(i + 1);
        const Square from = square_from_string(std::string_view(text).substr(0, 2));
        const Square to = square_from_string(std::string_view(text).substr(2, 2));
        // A finished game's last move may already have been adjudicated; Game::play refuses
        // moves after the end, so a snapshot can only hold moves before or at the end.
        if (from == SQ_NONE || to == SQ_NONE || !g.play(Move(from, to)))
            return "illegal move " + text + " at ply " + std::to_string(i + 1);
    }
    game_ = std::move(g);
    return {};
}

ApplyResult BoardModel::apply_server_move(int ply, std::string_view move_text,
                                          std::string_view fen_after) {
    if (ply <= game_.ply()) {
        // A resend of a move we hold is harmless only when it is the same move.
        if (ply >= 1 && move_to_iccs(game_.moves()[std::size_t(ply - 1)]) == move_text)
            return ApplyResult::Duplicate;
        return ApplyResult::NeedResync;
    }
    if (ply != game_.ply() + 1 || move_text.size() != 4) return ApplyResult::NeedResync;
    const Square from = square_from_string(move_text.substr(0, 2));
    const Square to = square_from_string(move_text.substr(2, 2));
    if (from == SQ_NONE || to == SQ_NONE) return ApplyResult::NeedResync;
    Game copy = game_;
    if (!copy.play(Move(from, to))) return ApplyResult::NeedResync;
    if (!fen_after.empty() && !same_placement(copy.position().fen(), fen_after))
        return ApplyResult::NeedResync;
    game_ = std::move(copy);
    return ApplyResult::Applied;
}

bool BoardModel::rewind_to(int ply) {
    if (ply < 0 || ply > game_.ply()) return false;
    while (game_.ply() > ply) game_.undo();
    return true;
}

Square BoardModel::checked_king() const {
    const Position& p = game_.position();
    return p.in_check() ? p.king_square(p.side_to_move()) : SQ_NONE;
}

void BoardModel::set_seat(std::optional<Color> seat) {
    seat_ = seat;
    flipped_ = seat && *seat == BLACK;
}

bool BoardModel::seat_has_moved() const {
    if (!seat_) return false;
    return game_.start_position().side_to_move() == *seat_ ? game_.ply() >= 1 : game_.ply() >= 2;
}

bool BoardModel::my_turn() const {
    return in_progress_ && seat_ && !game_.over() && *seat_ == game_.side_to_move();
}

bool BoardModel::is_movable(Square s) const {
    if (!my_turn() || !is_ok(s)) return false;
    const Piece p = position().piece_on(s);
    if (p == NO_PIECE || color_of(p) != game_.side_to_move()) return false;
    return !targets_from(s).empty();
}

MoveList BoardModel::targets_from(Square from) const {
    MoveList all, out;
    position().generate_legal(all);
    for (Move m : all)
        if (m.from() == from) out.push(m);
    return out;
}

bool same_placement(std::string_view a, std::string_view b) {
    // Board and side fields: everything up to the second space.
    auto head = [](std::string_view f) {
        const auto sp = f.find(' ');
        if (sp == std::string_view::npos) return f;
        const auto sp2 = f.find(' ', sp + 1);
        std::string_view h = f.substr(0, sp2);
        return h;
    };
    std::string ha(head(a)), hb(head(b));
    // 'r' is accepted for Red on input; compare in one spelling.
    for (std::string* h : {&ha, &hb})
        if (!h->empty() && h->back() == 'r') h->back() = 'w';
    return ha == hb;
}

namespace {

int count_between(const Position& pos, Square a, Square b) {
    const int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
    const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    int n = 0;
    for (int f = file_of(a) + sf, r = rank_of(a) + sr; f != file_of(b) || r != rank_of(b);
         f += sf, r += sr)
        n += !pos.empty(make_square(f, r));
    return n;
}

bool generals_face(const Position& pos) {
    const Square r = pos.king_square(RED), b = pos.king_square(BLACK);
    return r != SQ_NONE && b != SQ_NONE && file_of(r) == file_of(b) && count_between(pos, r, b) == 0;
}

}  // namespace

IllegalReason explain_illegal(const Position& pos, Move m) {
    const Square from = m.from(), to = m.to();
    if (!is_ok(from) || !is_ok(to) || from == to) return IllegalReason::Other;
    const Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE) return IllegalReason::EmptySquare;
    const Color us = color_of(pc);
    if (us != pos.side_to_move()) return IllegalReason::NotYourPiece;
    const Piece target = pos.piece_on(to);
    if (target != NO_PIECE && color_of(target) == us) return IllegalReason::OwnPieceOnTarget;

    const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    const int adf = std::abs(df), adr = std::abs(dr);
    switch (type_of(pc)) {
    case KING:
        if (adf + adr != 1) return IllegalReason::KingMove;
        if (!in_palace(us, to)) return IllegalReason::KingLeavesPalace;
        break;
    case ADVISOR:
        if (adf != 1 || adr != 1 || !in_palace(us, to)) return IllegalReason::AdvisorMove;
        break;
    case ELEPHANT:
        if (adf != 2 || adr != 2) return IllegalReason::ElephantMove;
        if (crossed_river(us, to)) return IllegalReason::ElephantCrossesRiver;
        if (!pos.empty(make_square(file_of(from) + df / 2, rank_of(from) + dr / 2)))
            return IllegalReason::ElephantEyeBlocked;
        break;
    case HORSE: {
        if (!((adf == 1 && adr == 2) || (adf == 2 && adr == 1))) return IllegalReason::HorseMove;
        const Square leg = adf == 2 ? make_square(file_of(from) + df / 2, rank_of(from))
                                    : make_square(file_of(from), rank_of(from) + dr / 2);
        if (!pos.empty(leg)) return IllegalReason::HorseLegBlocked;
        break;
    }
    case ROOK:
        if (df != 0 && dr != 0) return IllegalReason::StraightLineOnly;
        if (count_between(pos, from, to) != 0) return IllegalReason::PathBlocked;
        break;
    case CANNON: {
        if (df != 0 && dr != 0) return IllegalReason::StraightLineOnly;
        const int between = count_between(pos, from, to);
        if (target == NO_PIECE && between != 0) return IllegalReason::PathBlocked;
        if (target != NO_PIECE && between != 1) return IllegalReason::CannonNeedsScreen;
        break;
    }
    case PAWN: {
        const int forward = us == RED ? 1 : -1;
        const bool step_forward = df == 0 && dr == forward;
        const bool step_side = adf == 1 && dr == 0 && crossed_river(us, from);
        if (!step_forward && !step_side) return IllegalReason::PawnMove;
        break;
    }
    default: return IllegalReason::Other;
    }
    if (!pos.is_pseudo_legal(m)) return IllegalReason::Other;
    if (pos.is_legal(m)) return IllegalReason::None;
    Position after = pos;
    UndoInfo u;
    after.do_move(m, u);
    return generals_face(after) ? IllegalReason::GeneralsFace : IllegalReason::LeavesKingInCheck;
}

}  // namespace xq::client
