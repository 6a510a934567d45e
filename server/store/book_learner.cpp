#include "server/store/book_learner.h"

#include <spdlog/spdlog.h>

#include "server/table/table.h"

namespace xq::server {

std::vector<LearnedBookMove> book_lessons(const Position& start, const std::vector<Move>& moves, Outcome outcome,
                                          int plies) {
    book::Book one;
    one.add_game(start, moves, outcome, plies);
    std::vector<LearnedBookMove> out;
    for (const auto& [key, list] : one.entries())
        for (const auto& bm : list)
            out.push_back(LearnedBookMove{key, bm.move.raw(), bm.stats.plays, bm.stats.wins, bm.stats.draws,
                                          bm.stats.losses});
    return out;
}

void apply_lessons(book::Book& book, const std::vector<LearnedBookMove>& lessons) {
    for (const auto& l : lessons)
        book.add(l.key, Move::from_raw(l.move), book::MoveStats{l.plays, l.wins, l.draws, l.losses});
}

book::Book lessons_book(const std::vector<LearnedBookMove>& lessons) {
    book::Book b;
    apply_lessons(b, lessons);
    return b;
}

BookLearner::BookLearner(book::Book& book, Storage* storage, StoreWriter* writer, int plies)
    : book_(book), storage_(storage), writer_(storage ? writer : nullptr), plies_(plies) {}

void BookLearner::game_started(const Table& t) { done_.erase(t.id()); }

void BookLearner::game_over(const Table& t, const proto::GameOver& go) {
    if (go.result.outcome == Outcome::Ongoing || done_.count(t.id())) return;
    bool builtin_ai = false;
    for (Color c : {RED, BLACK}) {
        const Seat& s = t.seat(c);
        builtin_ai |= (s.ai() && s.engine.empty()) || s.held_by_ai();
    }
    if (!builtin_ai) return;
    done_.insert(t.id());
    if (!learn(t.game().start_position(), t.game().moves(), go.result.outcome))
        spdlog::warn("table {}: the opening book's lessons were not stored: {}", t.id(),
                     storage_ ? storage_->last_error() : std::string());
}

bool BookLearner::learn(const Position& start, const std::vector<Move>& moves, Outcome outcome) {
    if (outcome == Outcome::Ongoing) return true;
    const auto lessons = book_lessons(start, moves, outcome, plies_);
    apply_lessons(book_, lessons);
    ++games_learned_;
    if (writer_) {
        writer_->post("storing the opening book's lessons", [lessons](Storage& s) { return s.learn_book(lessons); });
        return true;
    }
    return !storage_ || storage_->learn_book(lessons);
}

}  // namespace xq::server
