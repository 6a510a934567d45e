// Whole-game analysis: one evaluation and best move per position, losses and marks by the
// documented thresholds, progress, cancelling, and the PGN comment form.
#include <gtest/gtest.h>

#include <atomic>

#include "book/game_analysis.h"
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
    const auto evals = book::analyse_game(e, game.start_position(), game.moves(), 20'000, [&](int done, int total) {
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
    const auto evals = book::analyse_game(e, game.start_position(), game.moves(), 5'000,
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

}  // namespace
}  // namespace xq::test
