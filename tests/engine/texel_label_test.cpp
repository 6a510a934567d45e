// Search scores as labels for the Texel fit (label.h) and the blend target of the fit
// (texel_tuner.h): the data format, the UCI score parser, our own and an outside engine's labels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "label.h"
#include "selfplay.h"
#include "texel_tuner.h"

namespace xq::engine {
namespace {

// Red is a rook up (Black's a-file rook is missing), with either side to move.
constexpr const char* RED_UP_RED_TO_MOVE = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
constexpr const char* RED_UP_BLACK_TO_MOVE = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
// Black is a rook up, Red to move.
constexpr const char* BLACK_UP_RED_TO_MOVE = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w - - 0 1";

Position at(const char* fen) {
    Position p;
    EXPECT_EQ(p.set_fen(fen), FenError::None) << fen;
    return p;
}

TEST(Label, ASampleWithAScoreRoundTripsAndBadScoresAreRefused) {
    std::string error;
    const std::string fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    auto s = parse_sample(fen + " | 1 | 7 | -135", error);
    ASSERT_TRUE(s) << error;
    EXPECT_EQ(s->result, 1.0);
    EXPECT_EQ(s->game, 7);
    ASSERT_TRUE(s->score);
    EXPECT_EQ(*s->score, -135);
    EXPECT_EQ(format_sample(*s), fen + " | 1 | 7 | -135");
    // Without a score the line stays in the three-field format.
    s = parse_sample(fen + " | 0 | 2", error);
    ASSERT_TRUE(s) << error;
    EXPECT_FALSE(s->score);
    EXPECT_EQ(format_sample(*s), fen + " | 0 | 2");
    EXPECT_FALSE(parse_sample(fen + " | 1 | 7 | x", error));
    EXPECT_NE(error.find("score"), std::string::npos);
    EXPECT_FALSE(parse_sample(fen + " | 1 | 7 | " + std::to_string(LABEL_MAX_CP + 1), error));
    EXPECT_FALSE(parse_sample(fen + " | 1 | 7 |", error));
    EXPECT_FALSE(parse_sample(fen + " | 1 | x | 5", error));
}

TEST(Label, UciScoresAreReadFromInfoLines) {
    EXPECT_EQ(parse_uci_score("info depth 8 seldepth 9 multipv 1 score cp -109 nodes 10069 pv i6i5"), -109);
    EXPECT_EQ(parse_uci_score("info depth 3 score cp 12"), 12);
    EXPECT_EQ(parse_uci_score("info depth 20 score mate 3 nodes 100"), LABEL_MAX_CP);
    EXPECT_EQ(parse_uci_score("info depth 20 score mate -2 nodes 100"), -LABEL_MAX_CP);
    EXPECT_EQ(parse_uci_score("info depth 9 score cp 4500"), LABEL_MAX_CP);
    EXPECT_EQ(parse_uci_score("info depth 9 score cp -4500"), -LABEL_MAX_CP);
    EXPECT_FALSE(parse_uci_score("info depth 9 score cp 40 lowerbound nodes 5"));
    EXPECT_FALSE(parse_uci_score("info depth 9 score cp 40 upperbound"));
    EXPECT_FALSE(parse_uci_score("info string score cp"));
    EXPECT_FALSE(parse_uci_score("info depth 9 nodes 500"));
    EXPECT_FALSE(parse_uci_score("bestmove h2e2"));
    EXPECT_FALSE(parse_uci_score("info depth 9 score cp 4x"));
}

TEST(Label, OurOwnLabelIsFromRedsViewWhoeverIsToMove) {
    Engine engine(1);
    EXPECT_GT(own_label(engine, at(RED_UP_RED_TO_MOVE), 3000), 400);
    EXPECT_GT(own_label(engine, at(RED_UP_BLACK_TO_MOVE), 3000), 400);
    EXPECT_LT(own_label(engine, at(BLACK_UP_RED_TO_MOVE), 3000), -400);
    // A fresh search each time: the same position gets the same label.
    EXPECT_EQ(own_label(engine, at(RED_UP_BLACK_TO_MOVE), 3000), own_label(engine, at(RED_UP_BLACK_TO_MOVE), 3000));
}

TEST(Label, AUciEngineLabelsFromRedsViewAndAMissingProgramIsAnError) {
    // Our own UCI executable stands in for the outside engine.
    UciLabeller uci;
    std::string error;
    ASSERT_TRUE(uci.start({XQ_ENGINE_EXECUTABLE}, {{"Hash", "1"}}, error)) << error;
    const auto red = uci.label(at(RED_UP_BLACK_TO_MOVE), "go nodes 3000", error);
    ASSERT_TRUE(red) << error;
    EXPECT_GT(*red, 400);
    const auto black = uci.label(at(BLACK_UP_RED_TO_MOVE), "go nodes 3000", error);
    ASSERT_TRUE(black) << error;
    EXPECT_LT(*black, -400);
    UciLabeller missing;
    EXPECT_FALSE(missing.start({"no-such-engine-program-xq"}, {}, error));
    EXPECT_NE(error.find("cannot start"), std::string::npos) << error;
}

TEST(Label, TheScoreScaleIsFittedToTheResultsAndBlended) {
    // Results drawn with probability sigmoid(0.004 * score): the fitted k comes back near 0.004.
    std::vector<std::pair<int, double>> pairs;
    std::uint64_t state = 5;
    for (int i = 0; i < 20000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const int score = int(state >> 33) % 1201 - 600;
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = double(state >> 11) / double(1ULL << 53);
        pairs.emplace_back(score, u < 1.0 / (1.0 + std::exp(-0.004 * score)) ? 1.0 : 0.0);
    }
    const double k = fit_score_k(pairs);
    EXPECT_GT(k, 0.0034);
    EXPECT_LT(k, 0.0046);
    EXPECT_DOUBLE_EQ(blend_target(0, 1.0, k, 0.5), 0.75);
    EXPECT_DOUBLE_EQ(blend_target(123, 0.0, k, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(blend_target(0, 0.0, k, 1.0), 0.5);
}

TEST(Label, TheTunerMeasuresBothTheTargetAndTheResult) {
    TexelTuner tuner;
    tuner.add(at(RED_UP_RED_TO_MOVE), 0.9, true, 0.0);  // Red ahead, and yet Red lost
    const std::vector<int> w = weights_to_vector(compiled_eval_weights());
    tuner.set_k(0.004);
    const double p = 1.0 / (1.0 + std::exp(-0.004 * tuner.red_eval(0, w)));
    EXPECT_NEAR(tuner.error(w, true), (0.9 - p) * (0.9 - p), 1e-6);  // the target is stored as a float
    EXPECT_NEAR(tuner.error_to_results(w, true), p * p, 1e-9);
}

}  // namespace
}  // namespace xq::engine
