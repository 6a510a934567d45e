// The opening book learns from the AI's games: a scripted opponent beats the AI (level 10,
// playing from the starter book) again and again with one line; the AI leaves the line within
// a few games, the lesson is in SQLite and survives a restart, and the operator's reset
// forgets it. The opponent's win is declared at ply 8 (the scripted line does not mate: what
// is tested is what the book does with a lost result).
#include <gtest/gtest.h>

#include <future>

#include "book/book_player.h"
#include "book/starter_openings.h"
#include "server/store/archive.h"
#include "server/store/book_learner.h"
#include "server/store/storage.h"
#include "temp_dir.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"
#include "xiangqi/pgn.h"

namespace xq::test {
namespace {

book::Book starter_book() {
    book::Book b;
    for (const auto& f : book::starter_openings()) book::add_pgn(b, f.pgn);
    return b;
}

// One game: the AI (Red) from the book as an AI seat plays it, the scripted opponent (Black)
// answers with its line (or its first legal move once the line does not fit). Returns the
// AI's moves; the game itself in `game`.
std::vector<Move> play_game(const book::Book& b, engine::Engine& e, Game& game) {
    static const char* const black_line[] = {"h7e7", "h9g7", "i9h9", "b9c7"};
    engine::Limits lim;
    lim.level = 10;
    lim.nodes = 20'000;
    lim.seed = 1;
    std::vector<Move> ai;
    for (int ply = 0; ply < 8; ++ply) {
        Move m;
        if (game.side_to_move() == RED) {
            const auto cands = b.candidates(game.position());
            m = cands.empty() ? e.search(game.start_position(), game.moves(), lim).best
                              : book::play(e, game.start_position(), game.moves(), cands, lim).result.best;
            ai.push_back(m);
        } else {
            m = parse_iccs(game.position(), black_line[ply / 2]).move;
            if (!m) m = game.legal_moves()[0];
        }
        EXPECT_TRUE(game.play(m));
    }
    return ai;
}

TEST(BookLearning, TheAiLeavesALosingLineAndRemembersItAfterARestart) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    std::string err;
    auto storage = server::Storage::open(dir.path(), &err);
    ASSERT_TRUE(storage) << err;
    book::Book live = starter_book();
    server::BookLearner learner(live, storage.get());
    engine::Engine e(1);

    Game first;
    const std::vector<Move> line = play_game(live, e, first);
    ASSERT_TRUE(learner.learn(first.start_position(), first.moves(), Outcome::BlackWins)) << storage->last_error();
    constexpr int MAX_GAMES = 4;  // the N of the issue: the AI must leave the line within it
    int deviated_at = 0;
    std::vector<Move> last;
    for (int g = 2; g <= MAX_GAMES && !deviated_at; ++g) {
        Game game;
        last = play_game(live, e, game);
        if (last != line) deviated_at = g;
        ASSERT_TRUE(learner.learn(game.start_position(), game.moves(), Outcome::BlackWins));
    }
    ASSERT_NE(deviated_at, 0) << "the AI kept playing the losing line for " << MAX_GAMES << " games";
    EXPECT_EQ(learner.games_learned(), std::uint64_t(deviated_at));

    // A restart: a new process reads the base book and the stored lessons.
    storage.reset();
    storage = server::Storage::open(dir.path(), &err);
    ASSERT_TRUE(storage) << err;
    const auto lessons = storage->learned_book();
    ASSERT_FALSE(lessons.empty());
    book::Book restarted = starter_book();
    server::apply_lessons(restarted, lessons);
    {
        Game game;
        // The lessons include the deviating game's own result, so compare with what the book
        // held before that game was learned: not the original line.
        EXPECT_NE(play_game(restarted, e, game), line) << "the lesson was lost in the restart";
    }
    // The export is a book file of the lessons only.
    const auto exported = book::Book::parse(server::lessons_book(lessons).serialize(), &err);
    ASSERT_TRUE(exported.has_value()) << err;
    EXPECT_EQ(exported->moves(), lessons.size());

    // The operator's reset: nothing learned remains; the AI plays the original line again.
    EXPECT_EQ(storage->forget_learned_book(), int(lessons.size()));
    EXPECT_TRUE(storage->learned_book().empty());
    Game again;
    EXPECT_EQ(play_game(starter_book(), e, again), line);
}

TEST(BookLearning, LessonsCountForTheSideThatPlayedAndAddUp) {
    TempDir dir;
    std::string err;
    auto storage = server::Storage::open(dir.path(), &err);
    ASSERT_TRUE(storage) << err;
    Game g;
    for (const char* t : {"h2e2", "h9g7"}) ASSERT_TRUE(g.play(parse_iccs(g.position(), t).move));
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(storage->learn_book(server::book_lessons(g.start_position(), g.moves(), Outcome::RedWins)));
    const auto rows = storage->learned_book();
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& r : rows) {
        EXPECT_EQ(r.plays, 3u);
        if (r.key == Position().key()) EXPECT_EQ(r.wins, 3u);  // Red's move
        else EXPECT_EQ(r.losses, 3u);                          // Black's reply
    }
    // A game without a result teaches nothing.
    book::Book live;
    server::BookLearner learner(live, storage.get());
    EXPECT_TRUE(learner.learn(g.start_position(), g.moves(), Outcome::Ongoing));
    EXPECT_EQ(learner.games_learned(), 0u);
    EXPECT_TRUE(live.empty());
    EXPECT_EQ(storage->learned_book().size(), 2u);
}

// In the server the lessons go to the store writer: the live book learns at once, the file
// once the writer gets to them (nothing is written on the caller's connection).
TEST(BookLearning, TheLessonsAreWrittenByTheStoreWriter) {
    TempDir dir;
    ASSERT_TRUE(dir.ok());
    std::string err;
    auto storage = server::Storage::open(dir.path(), &err);
    ASSERT_TRUE(storage) << err;
    auto writes = server::Storage::open(dir.path(), &err, server::Storage::Sync::Normal, false);
    ASSERT_TRUE(writes) << err;
    server::StoreWriter writer(std::move(writes), nullptr, nullptr);
    std::promise<void> gate, running;
    writer.post("the test's gate", [&running, open = gate.get_future().share()](server::Storage&) {
        running.set_value();
        open.wait();
        return true;
    });
    running.get_future().wait();
    book::Book live;
    server::BookLearner learner(live, storage.get(), &writer);
    Game g;
    for (const char* t : {"h2e2", "h9g7"}) ASSERT_TRUE(g.play(parse_iccs(g.position(), t).move));
    EXPECT_TRUE(learner.learn(g.start_position(), g.moves(), Outcome::RedWins));
    EXPECT_EQ(learner.games_learned(), 1u);
    EXPECT_EQ(live.moves(), 2u);
    EXPECT_TRUE(storage->learned_book().empty());  // queued behind the gate
    gate.set_value();
    writer.drain();
    const auto rows = storage->learned_book();
    ASSERT_EQ(rows.size(), 2u);
    for (const auto& r : rows) EXPECT_EQ(r.plays, 1u);
    EXPECT_EQ(writer.failed(), 0u);
}

// Exported PGN names the opening (Opening, OpeningEnglish, ECCO tags), and an import reads
// the tags back as written.
TEST(BookLearning, ExportedPgnNamesTheOpening) {
    server::GameRecord rec;
    rec.id = 1;
    rec.start_fen = std::string(START_FEN);
    rec.red = "alice";
    rec.black = "bob";
    int ply = 0;
    for (const char* t : {"h2d2", "h7e7", "h0g2", "h9g7", "i0h0", "i9h9", "b0c2", "b9c7", "a0a1", "a9a8"})
        rec.moves.push_back(server::MoveRecord{ply++, t, 0, {}});
    std::string err;
    const auto pgn = server::record_pgn(rec, Notation::Chinese, "LAN", &err);
    ASSERT_TRUE(pgn.has_value()) << err;
    EXPECT_NE(pgn->find("[Opening \"过宫炮局\"]"), std::string::npos) << *pgn;
    EXPECT_NE(pgn->find("[ECCO \"A6\"]"), std::string::npos) << *pgn;
    const auto back = read_pgn(*pgn);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.game.tag("Opening"), "过宫炮局");
    EXPECT_EQ(back.game.tag("OpeningEnglish"), "Cross-Palace Cannon");
    EXPECT_EQ(back.game.tag("ECCO"), "A6");

    // With a stored analysis every move carries its evaluation; a move that lost 3 pawns
    // against the best is marked.
    server::StoredAnalysis an;
    an.game_id = 1;
    an.nodes = 30000;
    for (int i = 0; i <= 10; ++i) {
        an.evals.push_back(i == 3 ? -320 : 10);
        an.best.push_back(i == 2 ? "a0a1" : rec.moves[std::size_t(std::min(i, 9))].move);
    }
    an.best[10] = "";
    const auto commented = server::record_pgn(rec, Notation::Iccs, "LAN", &err, &an);
    ASSERT_TRUE(commented.has_value()) << err;
    EXPECT_NE(commented->find("{[%eval 0.10]}"), std::string::npos) << *commented;
    EXPECT_NE(commented->find("{[%eval -3.20] best: a0a1 (blunder)}"), std::string::npos) << *commented;
    const auto reread = read_pgn(*commented);
    ASSERT_TRUE(reread.ok) << reread.error;
    EXPECT_EQ(reread.game.comments.size(), 10u);
    EXPECT_EQ(reread.game.tag("Opening"), "过宫炮局");
}

}  // namespace
}  // namespace xq::test
