// The opening book that learns: after every finished game the built-in AI played (a seat of
// its own or an absent player's seat it held), the game's opening plies are added to the
// live book with the result and persisted in SQLite (by the StoreWriter's thread when there is
// one, never on the I/O thread), so the AI leaves lines that lose.
#pragma once

#include <cstdint>
#include <unordered_set>
#include <vector>

#include "book/opening_book.h"
#include "server/store/storage.h"
#include "server/store/store_writer.h"
#include "server/table/table_observer.h"

namespace xq::server {

// The book entries a finished game teaches: for each of its first `plies` positions the move
// played, counted for its player with the outcome.
std::vector<LearnedBookMove> book_lessons(const Position& start, const std::vector<Move>& moves, Outcome outcome,
                                          int plies = book::DEFAULT_BOOK_PLIES);
// Adds stored lessons to a book (at start: the base book plus what was learned before).
void apply_lessons(book::Book& book, const std::vector<LearnedBookMove>& lessons);
// The stored lessons as a book of their own (the operator's `book export`).
book::Book lessons_book(const std::vector<LearnedBookMove>& lessons);

class BookLearner final : public TableObserver {
public:
    // `book` is the live book the tables read (on the I/O thread, as this observer runs);
    // `storage` may be null (then the lessons last until the process ends). With `writer`
    // the lessons are queued to it (a failure is logged there); without, written to `storage`.
    BookLearner(book::Book& book, Storage* storage, StoreWriter* writer = nullptr,
                int plies = book::DEFAULT_BOOK_PLIES);

    void game_started(const Table& t) override;
    void game_over(const Table& t, const proto::GameOver& go) override;

    // Learns one finished game (game_over's work, also for tests). False when persisting failed
    // (the live book has learned it anyway); with a writer, true once queued.
    bool learn(const Position& start, const std::vector<Move>& moves, Outcome outcome);
    std::uint64_t games_learned() const { return games_learned_; }

private:
    book::Book& book_;
    Storage* storage_;
    StoreWriter* writer_;
    int plies_;
    std::unordered_set<std::uint32_t> done_;  // tables whose current game was learned (a takeback may reopen it)
    std::uint64_t games_learned_ = 0;
};

}  // namespace xq::server
