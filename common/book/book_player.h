// The AI's use of the opening book: pick a book move for the level, check it with a short
// search so that a book never plays a blunder, else search as usual (never repeating a move
// the book has seen lose clearly).
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "book/opening_book.h"
#include "engine/search.h"

namespace xq::book {

// The sanity check: two searches of this many nodes (all moves, then the book move alone);
// the book move passes unless it scores SANITY_MARGIN_CP or more below the best move. Three
// pawns: a blunder (a piece lost, or a pawn with a collapsing position), not a difference of
// taste between sound opening moves, which a short search judges unreliably (measured on the
// starter lines: sound moves came out up to ~250 cp behind the search's own choice).
inline constexpr std::uint64_t SANITY_NODES = 20'000;
inline constexpr int SANITY_MARGIN_CP = 300;
// With a time budget (limits.hard_ms or movetime_ms) each check search also stops at a
// quarter of it. Book moves tried (best first by choose()) before the search takes over.
inline constexpr int SANITY_TRIES = 3;

struct BookPlay {
    engine::Result result;    // what the seat plays (result.best), as a search would report it
    bool from_book = false;   // result.best came from the book and passed the check
    std::vector<Move> rejected;  // book moves that failed the check
};

// Plays the position reached from `start` by `moves`: a book move from `candidates` when one
// passes the check, else `engine.search` with `limits` (refuted book moves banned while
// another legal move exists). `limits.level` and `limits.seed` drive the choice.
BookPlay play(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
              const std::vector<BookMove>& candidates, const engine::Limits& limits,
              const engine::ProgressFn& on_progress = {}, const std::atomic<bool>* stop = nullptr);

}  // namespace xq::book
