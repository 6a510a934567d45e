// The opening book: for each position (by Zobrist key) the moves played from it in game
// records, how often, and how they scored for the side that played them. Built from PGN and
// archived games, updated by the AI's own results (learning), stored as a compact text file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "xiangqi/game.h"
#include "xiangqi/position.h"

namespace xq::book {

// Results of one move from one position, counted for the side that played it.
struct MoveStats {
    std::uint32_t plays = 0;   // every game that played it, with or without a result
    std::uint32_t wins = 0;
    std::uint32_t draws = 0;
    std::uint32_t losses = 0;

    // The move's expected score for its player, 0..1, with one win and one loss added as a
    // prior so that a single game does not read as certainty.
    double score() const;
    void add(const MoveStats& o);
};

struct BookMove {
    Move move;
    MoveStats stats;
};

// Plies of a game recorded in a book by default: the opening, not the middle game.
inline constexpr int DEFAULT_BOOK_PLIES = 30;
// Upper bound on the positions a book file may describe (a malformed file cannot exhaust
// memory): far above any collection of club games.
inline constexpr std::size_t MAX_BOOK_ENTRIES = 4'000'000;

class Book {
public:
    // Adds one game's first `max_plies` plies: for each position the move played and the
    // game's outcome seen by its player (Ongoing counts as a play without a result). Stops at
    // the first illegal move; returns the plies added.
    int add_game(const Position& start, const std::vector<Move>& moves, Outcome outcome,
                 int max_plies = DEFAULT_BOOK_PLIES);
    void add(std::uint64_t key, Move move, const MoveStats& stats);
    void merge(const Book& other);
    void clear() { entries_.clear(); }

    // The moves recorded for a position (nullptr when none).
    const std::vector<BookMove>* find(std::uint64_t key) const;
    // The recorded moves that are legal in `pos` (a key collision cannot yield an illegal
    // move), most played first.
    std::vector<BookMove> candidates(const Position& pos) const;

    std::size_t positions() const { return entries_.size(); }
    std::size_t moves() const;
    bool empty() const { return entries_.empty(); }

    // The text form: a header line "xqbook 1", then one line per (position, move):
    // "<key as 16 hex digits> <ICCS move> <plays> <wins> <draws> <losses>".
    std::string serialize() const;
    // Reads the text form; nullopt and a message naming the line on malformed input.
    static std::optional<Book> parse(std::string_view text, std::string* error);

    const std::unordered_map<std::uint64_t, std::vector<BookMove>>& entries() const { return entries_; }

private:
    std::unordered_map<std::uint64_t, std::vector<BookMove>> entries_;
};

// What adding a PGN collection to a book did.
struct PgnImport {
    int games = 0;       // games added
    int plies = 0;       // plies added
    std::vector<std::string> errors;  // "game 3, line 41: ..." for games that could not be read
};

// Adds every game of a PGN text (several games per file allowed).
PgnImport add_pgn(Book& book, std::string_view pgn_text, int max_plies = DEFAULT_BOOK_PLIES);

// How the book picks among candidates at a strength level (1..10): level 10 plays the
// best-scoring move (its score less a doubt that shrinks with its games; the most played
// among equals); lower levels draw at random, weighted by
// plays and score, the lower the level the wider. Moves that lost clearly (see refuted())
// are never picked. Deterministic for equal inputs and seed. Move::none() when nothing fits.
Move choose(const std::vector<BookMove>& candidates, int level, std::uint64_t seed);

// A move that has lost clearly for its player: played at least twice and scoring below 25%.
bool refuted(const MoveStats& s);

}  // namespace xq::book
