#include "game.h"

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
    std::uint8_t next = 1;
    for (int s = 0; s < SQ_NB; ++s) ids_[s] = pos_.empty(Square(s)) ? 0 : next++;
    result_ = GameResult{};
    adjudicate();
}

MoveList Game::legal_moves() const {
    MoveList l;
    pos_.generate_legal(l);
    return l;
}

bool Game::play(Move m) {
    if (over()) return false;
    const MoveList legal = legal_moves();
    if (!legal.contains(m)) return false;
    PlyRecord rec;
    rec.move = m;
    pos_.do_move(m, rec.undo);
    rec.key_after = pos_.key();
    rec.gave_check = pos_.in_check();
    ids_[m.to()] = ids_[m.from()];
    ids_[m.from()] = 0;
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
    // Identities are rebuilt by replay: cheap, and exact after captures.
    Position p = start_;
    std::uint8_t next = 1;
    for (int s = 0; s < SQ_NB; ++s) ids_[s] = p.empty(Square(s)) ? 0 : next++;
    for (Move m : moves_) {
        ids_[m.to()] = ids_[m.from()];
        ids_[m.from()] = 0;
    }
    result_ = GameResult{};
    adjudicate();
    return true;
}

void Game::finish(Outcome outcome, EndReason reason, std::string text) {
    result_ = GameResult{outcome, reason, std::move(text)};
}

void Game::adjudicate() {
    const Color us = pos_.side_to_move();
    const Outcome they_win = us == RED ? Outcome::BlackWins : Outcome::RedWins;
    if (!pos_.has_legal_move()) {
        if (pos_.in_check())
            result_ = {they_win, EndReason::Checkmate, std::string(color_name(us)) + " is checkmated"};
        else
            result_ = {they_win, EndReason::Stalemate, std::string(color_name(us)) + " has no legal move (stalemate) and loses"};
        return;
    }
    auto attackers = [&](Color c) {
        return pos_.count(c, ROOK) + pos_.count(c, HORSE) + pos_.count(c, CANNON) + pos_.count(c, PAWN);
    };
    if (attackers(RED) == 0 && attackers(BLACK) == 0) {
        result_ = {Outcome::Draw, EndReason::InsufficientMaterial, "Draw: neither side has attacking pieces left"};
        return;
    }
    // Repetition: the current position occurred twice before with the same side to move.
    const int n = int(keys_.size()) - 1;
    int occurrences = 0, first = -1;
    for (int i = n - 2; i >= 0 && n - i <= pos_.rule50() + 0; i -= 2) {
        if (keys_[i] == keys_[n]) {
            ++occurrences;
            first = i;
        }
    }
    if (occurrences >= 2) {
        // Classify each side's moves in the cycle since `first`: plies first..n-1.
        bool all_check[COLOR_NB] = {true, true};
        Color mover = start_.side_to_move();
        if (first % 2) mover = ~mover;
        for (int i = first; i < n; ++i) {
            const Color c = ((i - first) % 2 == 0) ? mover : ~mover;
            if (!records_[i].gave_check) all_check[c] = false;
        }
        if (all_check[RED] != all_check[BLACK]) {
            const Color loser = all_check[RED] ? RED : BLACK;
            result_ = {loser == RED ? Outcome::BlackWins : Outcome::RedWins, EndReason::PerpetualCheck,
                       std::string(color_name(loser)) + " loses: perpetual check, plies " +
                           std::to_string(first + 1) + "-" + std::to_string(n)};
        } else {
            result_ = {Outcome::Draw, EndReason::Repetition, "Draw by repetition"};
        }
        return;
    }
    if (pos_.rule50() >= 120) {
        result_ = {Outcome::Draw, EndReason::MoveLimit, "Draw: 60 moves without a capture"};
        return;
    }
}

}  // namespace xq
