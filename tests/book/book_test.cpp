// The opening book: building from PGN, the file format (and its refusals), the choice by
// level, and the AI's first moves from the book (checked by a short search) with variety
// across seeds at lower levels.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "book/book_player.h"
#include "book/opening_book.h"
#include "book/starter_openings.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"

namespace xq::test {
namespace {

Move iccs(const Position& pos, const char* text) {
    const ParsedMove pm = parse_iccs(pos, text);
    EXPECT_TRUE(pm.move) << text;
    return pm.move;
}

book::Book starter_book() {
    book::Book b;
    for (const auto& f : book::starter_openings()) {
        const auto r = book::add_pgn(b, f.pgn);
        EXPECT_TRUE(r.errors.empty()) << f.name;
    }
    return b;
}

TEST(Book, CountsMovesAndResultsForTheSideThatPlayedThem) {
    const std::string pgn =
        "[Result \"1-0\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n\n"
        "[Result \"0-1\"]\n\n1. h2e2 b9c7 0-1\n\n"
        "[Result \"1/2-1/2\"]\n\n1. b0c2 1/2-1/2\n";
    book::Book b;
    const auto r = book::add_pgn(b, pgn);
    ASSERT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_EQ(r.games, 3);
    const Position start;
    const auto c = b.candidates(start);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].move, iccs(start, "h2e2"));  // most played first
    EXPECT_EQ(c[0].stats.plays, 2u);
    EXPECT_EQ(c[0].stats.wins, 1u);
    EXPECT_EQ(c[0].stats.losses, 1u);
    EXPECT_EQ(c[1].stats.draws, 1u);
    // Black's reply after 1. h2e2 h9g7 lost for Black.
    Position p = start;
    UndoInfo u;
    p.do_move(iccs(p, "h2e2"), u);
    const auto replies = b.candidates(p);
    ASSERT_EQ(replies.size(), 2u);
    for (const auto& bm : replies) {
        if (bm.move == iccs(p, "h9g7")) EXPECT_EQ(bm.stats.losses, 1u);
        else EXPECT_EQ(bm.stats.wins, 1u);
    }
}

TEST(Book, FileRoundTripsAndBadFilesAreRefusedWithTheLine) {
    const book::Book b = starter_book();
    ASSERT_GT(b.positions(), 50u);
    const std::string text = b.serialize();
    std::string err;
    const auto back = book::Book::parse(text, &err);
    ASSERT_TRUE(back.has_value()) << err;
    EXPECT_EQ(back->serialize(), text);
    EXPECT_EQ(back->moves(), b.moves());

    const std::pair<const char*, const char*> bad[] = {
        {"", "header"},
        {"hello\n", "header"},
        {"xqbook 1\n0123 h2e2 1 0 0 0\n", "16 hex"},
        {"xqbook 1\n0123456789abcdeg h2e2 1 0 0 0\n", "16 hex"},
        {"xqbook 1\n0123456789abcdef h2z2 1 0 0 0\n", "ICCS"},
        {"xqbook 1\n0123456789abcdef h2e2 1 0 0\n", "6 fields"},
        {"xqbook 1\n0123456789abcdef h2e2 1 1 1 0\n", "exceed"},
        {"xqbook 1\n0123456789abcdef h2e2 -1 0 0 0\n", "number"},
        {"xqbook 1\n0123456789abcdef h2e2 99999999999 0 0 0\n", "number"},
    };
    for (const auto& [input, why] : bad) {
        std::string e;
        EXPECT_FALSE(book::Book::parse(input, &e).has_value()) << input;
        EXPECT_NE(e.find(why), std::string::npos) << input << " -> " << e;
        EXPECT_NE(e.find("line "), std::string::npos) << e;
    }
}

TEST(Book, KeyCollisionsNeverYieldAnIllegalMove) {
    book::Book b;
    const Position start;
    // A move no piece can make from the start, stored under the start's key.
    b.add(start.key(), Move(SQ_E0, SQ_E9), book::MoveStats{5, 5, 0, 0});
    EXPECT_TRUE(b.candidates(start).empty());
}

TEST(Book, LevelTenPlaysTheBestScoringMoveAndLowerLevelsVary) {
    const Position start;
    std::vector<book::BookMove> c = {
        {iccs(start, "h2e2"), {100, 55, 10, 35}},  // 60%, many games
        {iccs(start, "c3c4"), {40, 20, 8, 12}},    // 60%, fewer games
        {iccs(start, "b0c2"), {1, 1, 0, 0}},       // one lucky win
        {iccs(start, "h0g2"), {10, 1, 0, 9}},      // refuted: never played
    };
    for (std::uint64_t seed = 0; seed < 20; ++seed) EXPECT_EQ(book::choose(c, 10, seed), c[0].move);
    for (int level : {1, 5, 9}) {
        std::set<std::uint16_t> seen;
        for (std::uint64_t seed = 0; seed < 200; ++seed) {
            const Move m = book::choose(c, level, seed);
            ASSERT_NE(m, c[3].move) << "a refuted move was chosen at level " << level;
            seen.insert(m.raw());
        }
        EXPECT_GE(seen.size(), 2u) << "level " << level << " always plays the same move";
    }
    // All refuted: nothing to choose.
    EXPECT_FALSE(book::choose({c[3]}, 10, 1));
}

// The AI's first moves: from the book while the book knows the position, checked by the short
// search, deterministic at level 10 and varied across seeds at low levels.
TEST(BookPlay, BookMovesLeadTheAisFirstMoves) {
    const book::Book b = starter_book();
    engine::Engine e(1);
    engine::Limits lim;
    lim.nodes = 20'000;

    // Level 10: the most played first move of the collection (no results: all score alike).
    lim.level = 10;
    const Position start;
    std::map<std::uint16_t, std::uint32_t> plays;
    for (const auto& bm : b.candidates(start)) plays[bm.move.raw()] = bm.stats.plays;
    std::uint16_t most = 0;
    for (const auto& [m, n] : plays)
        if (!most || n > plays[most]) most = m;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        lim.seed = seed;
        const auto r = book::play(e, start, {}, b.candidates(start), lim);
        EXPECT_TRUE(r.from_book);
        EXPECT_EQ(r.result.best.raw(), most);
    }

    // Low levels: several different first moves over seeds, every one a book move; and the
    // first plies of the game stay in the book while it knows the position.
    lim.level = 3;
    std::set<std::uint16_t> firsts;
    int book_plies = 0, plies = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        lim.seed = seed;
        Game game;
        for (int ply = 0; ply < 6; ++ply) {
            const auto cands = b.candidates(game.position());
            if (cands.empty()) break;
            const auto r = book::play(e, game.start_position(), game.moves(), cands, lim);
            ++plies;
            if (r.from_book) {
                ++book_plies;
                bool listed = false;
                for (const auto& bm : cands) listed |= bm.move == r.result.best;
                EXPECT_TRUE(listed) << "a book play that is not in the book";
            }
            if (ply == 0) firsts.insert(r.result.best.raw());
            ASSERT_TRUE(game.play(r.result.best));
        }
    }
    EXPECT_GE(firsts.size(), 3u) << "level 3 opens with the same move over 12 seeds";
    EXPECT_GE(book_plies * 10, plies * 9) << book_plies << " of " << plies << " plies from the book";
}

TEST(BookPlay, ABlunderInTheBookIsRefusedByTheSearch) {
    // After 1. h2e2 h9g7, 2. e2e6 takes the centre pawn and loses the cannon to the horse on
    // g7: a book that "scored well" with it must not make the AI play it.
    Game game;
    for (const char* t : {"h2e2", "h9g7"}) ASSERT_TRUE(game.play(iccs(game.position(), t)));
    const Move gift = iccs(game.position(), "e2e6");
    book::Book b;
    b.add(game.position().key(), gift, book::MoveStats{50, 40, 5, 5});
    engine::Engine e(1);
    engine::Limits lim;
    lim.nodes = 20'000;
    for (int level : {1, 10}) {
        lim.level = level;
        const auto r = book::play(e, game.start_position(), game.moves(), b.candidates(game.position()), lim);
        EXPECT_FALSE(r.from_book) << "level " << level;
        ASSERT_EQ(r.rejected.size(), 1u);
        EXPECT_EQ(r.rejected[0], gift);
        EXPECT_NE(r.result.best, gift);
        EXPECT_TRUE(r.result.best);
    }
}

TEST(BookPlay, RefutedBookMovesAreBannedFromTheSearch) {
    const Position start;
    engine::Engine e(1);
    engine::Limits lim;
    lim.nodes = 20'000;
    lim.level = 10;
    // What the search plays on its own, then the same position with that move refuted.
    const auto own = e.search(start, {}, lim);
    ASSERT_TRUE(own.best);
    std::vector<book::BookMove> c = {{own.best, {6, 0, 0, 6}}};
    const auto r = book::play(e, start, {}, c, lim);
    EXPECT_FALSE(r.from_book);
    EXPECT_TRUE(r.result.best);
    EXPECT_NE(r.result.best, own.best);
}

}  // namespace
}  // namespace xq::test

namespace xq::test {
namespace {

// A stopped search still answers a legal move (as Engine::search does), book or not.
TEST(BookPlay, AStopStillGivesALegalMove) {
    book::Book b;
    for (const auto& f : book::starter_openings()) book::add_pgn(b, f.pgn);
    const Position start;
    engine::Engine e(1);
    engine::Limits lim;
    std::atomic<bool> stop{true};
    const auto r = book::play(e, start, {}, b.candidates(start), lim, {}, &stop);
    MoveList legal;
    start.generate_legal(legal);
    EXPECT_TRUE(legal.contains(r.result.best));
}

}  // namespace
}  // namespace xq::test
