#include "game.h"

#include "rulings.h"

namespace xq {

std::string_view end_reason_name(EndReason r) {
    switch (r) {
    case EndReason::None: return "none";
    case EndReason::Checkmate: return "checkmate";
    case EndReason::Stalemate: return "stalemate";
    case EndReason::PerpetualCheck: return "perpetual_check";
    case EndReason::PerpetualChase: return "perpetual_chase";
    case EndReason::Repetition: return "repetition";
    case EndReason::MoveLimit: return "move_limit";
    case EndReason::InsufficientMaterial: return "insufficient_material";
    case EndReason::Resignation: return "resignation";
    case EndReason::Agreement: return "agreement";
    case EndReason::Timeout: return "timeout";
    case EndReason::Abandonment: return "abandonment";
    case EndReason::EngineFailure: return "engine_failure";
    case EndReason::Adjudication: return "adjudication";
    case EndReason::Cancelled: return "cancelled";
    }
    return "none";
}

std::string_view outcome_pgn(Outcome o) {
    switch (o) {
    case Outcome::RedWins: return "1-0";
    case Outcome::BlackWins: return "0-1";
    case Outcome::Draw: return "1/2-1/2";
    case Outcome::Ongoing: return "*";
    }
    return "*";
}

Game::Game() { reset(Position()); }
Game::Game(const Position& start) { reset(start); }

FenError Game::reset(std::string_view fen) {
    Position p;
    const FenError e = p.set_fen(fen);
    if (e == FenError::None) reset(p);
    return e;
}

void Game::reset(const Position& start) {
    start_ = start;
    pos_ = start;
    moves_.clear();
    records_.clear();
    keys_.assign(1, pos_.key());
    rebuild_ids();
    result_ = GameResult{};
    adjudicate();
}

void Game::rebuild_ids() {
    std::uint8_t next = 1;
    for (int s = 0; s < SQ_NB; ++s) ids_[s] = start_.empty(Square(s)) ? 0 : next++;
    for (Move m : moves_) {
        ids_[m.to()] = ids_[m.from()];
        ids_[m.from()] = 0;
    }
}

MoveList Game::legal_moves() const {
    MoveList l;
    pos_.generate_legal(l);
    return l;
}

int Game::limit_plies() const {
    return records_.empty() ? start_.rule50() : records_.back().limit_plies;
}

bool Game::play(Move m) {
    if (over()) return false;
    // generate_legal() is the pseudo-legal moves that pass is_legal(): one move is checked alone.
    if (!pos_.is_pseudo_legal(m) || !pos_.is_legal(m)) return false;
    const Color mover = pos_.side_to_move();
    PlyRecord rec;
    rec.move = m;
    Square chased[MAX_CHASED];
    const int n_chased = chased_by_move(pos_, m, chased);
    const bool capture = pos_.is_capture(m);
    pos_.do_move(m, rec.undo);
    rec.key_after = pos_.key();
    rec.gave_check = pos_.in_check();
    ids_[m.to()] = ids_[m.from()];
    ids_[m.from()] = 0;
    rec.chased_count = std::uint8_t(n_chased);
    for (int i = 0; i < n_chased; ++i) {
        rec.chased_ids[i] = ids_[chased[i]];
        rec.chased_squares[i] = std::uint8_t(chased[i]);
    }

    // Natural move limit with the check cap.
    rec.limit_plies = limit_plies();
    if (!records_.empty()) {
        rec.checks_counted[RED] = records_.back().checks_counted[RED];
        rec.checks_counted[BLACK] = records_.back().checks_counted[BLACK];
    }
    const bool reply_to_uncounted = !records_.empty() && records_.back().uncounted_check;
    if (capture) {
        rec.limit_plies = 0;
        rec.checks_counted[RED] = rec.checks_counted[BLACK] = 0;
    } else if (rec.gave_check && rec.checks_counted[mover] >= CHECKS_COUNTED_PER_SIDE) {
        rec.uncounted_check = true;
    } else if (!reply_to_uncounted) {
        ++rec.limit_plies;
        if (rec.gave_check) ++rec.checks_counted[mover];
    }

    moves_.push_back(m);
    records_.push_back(rec);
    keys_.push_back(pos_.key());
    adjudicate();
    return true;
}

bool Game::undo() {
    if (moves_.empty()) return false;
    const PlyRecord rec = records_.back();
    pos_.undo_move(rec.move, rec.undo);
    moves_.pop_back();
    records_.pop_back();
    keys_.pop_back();
    rebuild_ids();  // exact after captures, and cheap
    result_ = GameResult{};
    adjudicate();
    return true;
}

void Game::finish(Outcome outcome, EndReason reason, std::string text) {
    result_ = GameResult{outcome, reason, std::move(text)};
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

Outcome win_for(Color c) { return c == RED ? Outcome::RedWins : Outcome::BlackWins; }

std::string_view color_name_zh(Color c) { return c == RED ? "红方" : "黑方"; }

// The common Chinese names (帅/将, 仕/士, 相/象, 兵/卒 differ by side).
std::string_view piece_name_zh(Piece p) {
    const bool red = color_of(p) == RED;
    switch (type_of(p)) {
    case KING: return red ? "帅" : "将";
    case ADVISOR: return red ? "仕" : "士";
    case ELEPHANT: return red ? "相" : "象";
    case HORSE: return "马";
    case ROOK: return "车";
    case CANNON: return "炮";
    case PAWN: return red ? "兵" : "卒";
    default: return "子";
    }
}

}  // namespace

bool Game::adjudicate_repetition() {
    // Third occurrence of the current position with the same side to move.
    const int n = int(keys_.size()) - 1;
    int occurrences = 0, first = -1;
    for (int i = n - 2; i >= 0 && n - i <= pos_.rule50() && occurrences < 2; i -= 2) {
        if (keys_[i] == keys_[n]) {
            ++occurrences;
            first = i;
        }
    }
    if (occurrences < 2) return false;

    // Plies first..n-1 (0-based) form the cycle; ply i was played by the side to move at i.
    CycleSide side[COLOR_NB];
    const Color first_mover = (first % 2 == 0) ? start_.side_to_move() : ~start_.side_to_move();
    for (int i = first; i < n; ++i) {
        const Color c = ((i - first) % 2 == 0) ? first_mover : ~first_mover;
        const PlyRecord& r = records_[i];
        side[c].add_move(r.gave_check, r.chased_ids, r.chased_count);
    }
    const RepetitionVerdict v = judge_repetition(side[RED].cls(), side[BLACK].cls());
    // English names the plies; Chinese names the rounds (回合) those plies belong to.
    const std::string plies = "plies " + std::to_string(first + 1) + "-" + std::to_string(n);
    const int black_first = start_.side_to_move() == BLACK ? 1 : 0;
    const auto round_of = [&](int ply) { return start_.fullmove() + (ply + black_first) / 2; };
    const std::string rounds =
        "（第 " + std::to_string(round_of(first)) + "–" + std::to_string(round_of(n - 1)) + " 回合）";
    if (!v.decisive) {
        std::string why, zh;
        switch (v.red) {
        case CycleClass::Check: why = "both sides give perpetual check", zh = "双方长将"; break;
        case CycleClass::Chase: why = "both sides chase perpetually", zh = "双方长捉"; break;
        case CycleClass::Idle: why = "neither side checks or chases", zh = "双方均无长将长捉"; break;
        }
        result_ = {Outcome::Draw, EndReason::Repetition,
                   "Draw by repetition: " + why + ", " + plies + " / " + zh + "，判和" + rounds};
        return true;
    }
    const Color loser = v.loser;
    std::string text = std::string(color_name(loser)) + " loses: ";
    std::string zh = std::string(color_name_zh(loser));
    EndReason reason;
    if (v.loser_class == CycleClass::Check) {
        reason = EndReason::PerpetualCheck;
        text += "perpetual check, " + plies;
        zh += "长将";
    } else {
        reason = EndReason::PerpetualChase;
        const std::uint8_t id = side[loser].chased_id();
        std::string victim = "piece", victim_zh = "子";
        for (int s = 0; s < SQ_NB; ++s)
            if (id != 0 && ids_[s] == id && !pos_.empty(Square(s))) {
                const Piece p = pos_.piece_on(Square(s));
                victim = lower(color_name(color_of(p))) + " " + std::string(piece_type_name(type_of(p)));
                victim_zh = std::string(color_of(p) == RED ? "红" : "黑") + std::string(piece_name_zh(p));
            }
        text += "perpetual chase of the " + victim + ", " + plies;
        zh += "长捉" + victim_zh;
    }
    result_ = {win_for(~loser), reason, text + " / " + zh + "，判负" + rounds};
    return true;
}

void Game::adjudicate() {
    const Color us = pos_.side_to_move();
    if (!pos_.has_legal_move()) {
        if (pos_.in_check())
            result_ = {win_for(~us), EndReason::Checkmate,
                       std::string(color_name(us)) + " loses: checkmated"};
        else
            result_ = {win_for(~us), EndReason::Stalemate,
                       std::string(color_name(us)) + " loses: no legal move (stalemate)"};
        return;
    }
    auto attackers = [&](Color c) {
        return pos_.count(c, ROOK) + pos_.count(c, HORSE) + pos_.count(c, CANNON) + pos_.count(c, PAWN);
    };
    if (attackers(RED) == 0 && attackers(BLACK) == 0) {
        result_ = {Outcome::Draw, EndReason::InsufficientMaterial,
                   "Draw: neither side has a rook, horse, cannon or pawn left"};
        return;
    }
    if (adjudicate_repetition()) return;
    if (limit_plies() >= MOVE_LIMIT_PLIES) {
        result_ = {Outcome::Draw, EndReason::MoveLimit,
                   "Draw: 60 moves (120 plies) without a capture (checks beyond 10 per side not counted)"};
        return;
    }
}

}  // namespace xq
