// Whole-game analysis: one evaluation and best move per position, losses and marks by the
// documented thresholds, progress, cancelling, and the PGN comment form.
#include <gtest/gtest.h>

#include <atomic>

#include "book/game_analysis.h"
#include "book/game_walk.h"
#include "book/starter_openings.h"
#include "xiangqi/pgn.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"

namespace xq::test {
namespace {

TEST(Analysis, FindsTheBlunderAndReportsEveryPosition) {
    // 1. h2e2 h9g7 2. e2e6?? g7e6: the cannon takes the centre pawn and the horse takes it.
    Game game;
    for (const char* t : {"h2e2", "h9g7", "e2e6", "g7e6"}) ASSERT_TRUE(game.play(parse_iccs(game.position(), t).move));
    engine::Engine e(1);
    int calls = 0, last_done = 0, last_total = 0;
    const auto evals = book::analyse_game(e, game.start_position(), game.moves(), {}, [&](int done, int total) {
        ++calls;
        last_done = done;
        last_total = total;
    });
    ASSERT_EQ(evals.size(), 5u);
    EXPECT_EQ(calls, 5);
    EXPECT_EQ(last_done, 5);
    EXPECT_EQ(last_total, 5);
    EXPECT_LT(std::abs(evals[0].eval_cp), 150) << "the start is about even";
    EXPECT_EQ(book::mark_of(evals[2].loss_cp), book::Mark::Blunder) << "loss " << evals[2].loss_cp;
    EXPECT_NE(evals[2].best, evals[2].played);
    EXPECT_LT(evals[4].eval_cp, -200) << "Red is a cannon down for a pawn";
    for (const auto& ev : evals) EXPECT_GE(ev.loss_cp, 0);
    EXPECT_FALSE(evals[4].played);  // the last position has no move played

    const std::string c = book::analysis_comment(evals[2], evals[3]);
    EXPECT_EQ(c.rfind("[%eval ", 0), 0u) << c;
    EXPECT_NE(c.find("(blunder)"), std::string::npos) << c;
    EXPECT_NE(c.find("best: "), std::string::npos) << c;
}

TEST(Analysis, MarksFollowTheDocumentedThresholds) {
    EXPECT_EQ(book::mark_of(49), book::Mark::None);
    EXPECT_EQ(book::mark_of(50), book::Mark::Inaccuracy);
    EXPECT_EQ(book::mark_of(100), book::Mark::Mistake);
    EXPECT_EQ(book::mark_of(300), book::Mark::Blunder);
}

TEST(Analysis, AStopEndsItWithWhatWasDone) {
    Game game;
    for (const char* t : {"h2e2", "h9g7", "h0g2", "i9h9"}) ASSERT_TRUE(game.play(parse_iccs(game.position(), t).move));
    engine::Engine e(1);
    std::atomic<bool> stop{false};
    const auto evals = book::analyse_game(e, game.start_position(), game.moves(), {4, 5'000},
                                          [&](int done, int) { stop = done >= 2; }, &stop);
    EXPECT_EQ(evals.size(), 2u);
}

TEST(Analysis, AStoredAnalysisGivesLossesMarksAndEachPlayersSummary) {
    // 1. h2e2 h9g7 2. e2e6?? g7e6 as the server stores it: evaluations from Red's side.
    Game game;
    for (const char* t : {"h2e2", "h9g7", "e2e6", "g7e6"}) ASSERT_TRUE(game.play(parse_iccs(game.position(), t).move));
    const Position& start = game.start_position();
    auto iccs = [](const char* t) {
        return Move(square_from_string(std::string_view(t, 2)), square_from_string(std::string_view(t + 2, 2)));
    };
    const std::vector<Move> best = {iccs("h2e2"), iccs("h9g7"), iccs("b0c2"), iccs("g7e6"), Move::none()};
    const auto plies = book::stored_analysis(start, game.moves(), {20, 30, 30, -2000, -1990}, best);
    ASSERT_EQ(plies.size(), 5u);
    EXPECT_EQ(plies[0].loss_cp, 0);  // the best move loses nothing
    EXPECT_EQ(plies[2].loss_cp, 2030);
    EXPECT_EQ(book::mark_of(plies[2].loss_cp), book::Mark::Blunder);
    EXPECT_EQ(plies[3].loss_cp, 0);
    EXPECT_FALSE(plies[4].played);
    const auto s = book::summarise(plies, start.side_to_move());
    EXPECT_EQ(s[RED].moves, 2);
    EXPECT_EQ(s[RED].blunders, 1);
    EXPECT_EQ(s[RED].mistakes + s[RED].inaccuracies, 0);
    EXPECT_EQ(s[RED].average_loss_cp, book::SUMMARY_LOSS_CAP_CP / 2) << "one loss counted up to the cap, over two moves";
    EXPECT_EQ(s[BLACK].moves, 2);
    EXPECT_EQ(s[BLACK].average_loss_cp, 0);
    EXPECT_EQ(s[BLACK].blunders, 0);

    // An analysis shorter than the game reaches as far as it goes; the last analysed
    // position's move is not judged (no evaluation after it).
    const auto part = book::stored_analysis(start, game.moves(), {20, 30, 30}, {best[0], best[1], best[2]});
    ASSERT_EQ(part.size(), 3u);
    EXPECT_EQ(book::summarise(part, start.side_to_move())[RED].moves, 1);
    // A mismatched best list stops it too.
    EXPECT_EQ(book::stored_analysis(start, game.moves(), {20, 30, 30}, {best[0]}).size(), 1u);
}

TEST(Analysis, MainLinesOfTheStarterCollectionAreNotMarked) {
    // At the default budget no move of the first 10 plies of a named main line is a mistake
    // or a blunder (the side-to-move lean of the engine's scores used to mark them).
    engine::Engine e(16);
    int lines = 0;
    for (const auto& f : book::starter_openings()) {
        for (auto& g : read_pgn_all(f.pgn)) {
            ASSERT_TRUE(g.ok) << f.name;
            std::vector<Move> first(g.game.moves.begin(),
                                    g.game.moves.begin() + std::ptrdiff_t(std::min<std::size_t>(10, g.game.moves.size())));
            e.new_game();
            const auto evals = book::analyse_game(e, g.game.start, first);
            ASSERT_EQ(evals.size(), first.size() + 1);
            ++lines;
            for (std::size_t i = 0; i + 1 < evals.size(); ++i)
                EXPECT_LT(evals[i].loss_cp, 100) << f.name << ": ply " << i + 1 << " " << move_to_iccs(evals[i].played)
                                                 << " loses " << evals[i].loss_cp << " (best "
                                                 << move_to_iccs(evals[i].best) << ")";
        }
    }
    EXPECT_GE(lines, 10);
}

TEST(Analysis, APositionGivesTheEvenDepthAndTheBookFlag) {
    // 1. c3c4 (the pawn opening): judged with the book off, a book move with it.
    Game game;
    ASSERT_TRUE(game.play(parse_iccs(game.position(), "c3c4").move));
    engine::Engine e(16);
    book::AnalysisBudget budget;
    budget.book_moves = false;
    const auto pe = book::analyse_position(e, game.start_position(), {}, game.moves()[0], budget);
    ASSERT_TRUE(pe.search.best);
    EXPECT_EQ(pe.search.depth % 2, 0) << "the deepest even depth";
    EXPECT_FALSE(pe.book);
    EXPECT_GT(pe.loss_cp, 0) << "the engine prefers another first move";
    EXPECT_LT(pe.loss_cp, 300) << "but the pawn opening loses nothing big";
    // With the book it is a book move there: not judged.
    budget.book_moves = true;
    const auto booked = book::analyse_position(e, game.start_position(), {}, game.moves()[0], budget);
    EXPECT_TRUE(booked.book);
    EXPECT_EQ(booked.judged_loss_cp(), 0);
}

TEST(Analysis, TheLeanMeasuredOnAGameIsTakenOut) {
    // Evaluations that rise by 60 for whoever is to move, around moves that lost nothing:
    // the lean is 30 each way and comes out; a mate stays.
    std::vector<int> evals = {60, -60, 60, -60, 60, 29990};
    const std::vector<int> losses = {0, 0, 0, 0, 0};
    EXPECT_EQ(book::remove_lean(evals, losses, RED), 60);
    EXPECT_EQ(evals, (std::vector<int>{0, 0, 0, 0, 0, 29990}));
    std::vector<int> few = {60, -60};
    EXPECT_EQ(book::remove_lean(few, {0}, RED), 0) << "too few moves to measure it";
}

TEST(Analysis, WalkingTheGameOnceGivesWhatReplayingEachPrefixGave) {
    // Captures (the walk's base moves on), a repetition (judged from the moves since the last
    // capture) and a book line: analyse_game walks the game once; the reference analyses each
    // position as reached from the start by the whole prefix, as analyse_game did before.
    Game game;
    for (const char* t : {"h2e2", "h9g7", "e2e6", "g7e6", "h0g2", "b9c7", "g2h0", "c7b9", "h0g2", "b9c7", "b2e2",
                          "a9a8"})
        ASSERT_TRUE(game.play(parse_iccs(game.position(), t).move)) << t;
    book::AnalysisBudget budget;
    budget.depth = 4;
    budget.nodes = 20'000;
    engine::Engine walked(1);
    const auto got = book::analyse_game(walked, game.start_position(), game.moves(), budget);

    engine::Engine replayed(1);
    std::vector<book::PositionEval> want;
    std::vector<int> evals, losses;
    for (std::size_t ply = 0; ply <= game.moves().size(); ++ply) {
        const std::vector<Move> prefix(game.moves().begin(), game.moves().begin() + std::ptrdiff_t(ply));
        const Move played = ply < game.moves().size() ? game.moves()[ply] : Move::none();
        want.push_back(book::analyse_position(replayed, game.start_position(), prefix, played, budget));
        evals.push_back(want.back().eval_cp);
        if (played) losses.push_back(want.back().loss_cp);
    }
    book::remove_lean(evals, losses, RED);

    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].best, want[i].search.best) << "ply " << i;
        EXPECT_EQ(got[i].eval_cp, evals[i]) << "ply " << i;
        EXPECT_EQ(got[i].mate_in, want[i].mate_in) << "ply " << i;
        EXPECT_EQ(got[i].loss_cp, want[i].judged_loss_cp()) << "ply " << i;
    }
    EXPECT_EQ(book::mark_of(got[2].loss_cp), book::Mark::Blunder) << "2. e2e6 loses the cannon";
    // The walk itself: after the two captures its base is the position after 2... g7e6.
    book::GameWalk walk(game.start_position());
    for (Move m : game.moves()) ASSERT_TRUE(walk.step(m));
    EXPECT_EQ(walk.since_base().size(), 8u);
    EXPECT_EQ(walk.position().key(), game.position().key());
    EXPECT_FALSE(walk.step(Move::none())) << "an illegal move changes nothing";
    EXPECT_EQ(walk.since_base().size(), 8u);
}

}  // namespace
}  // namespace xq::test
