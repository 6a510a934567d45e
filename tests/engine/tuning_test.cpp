// The tuning pipeline: self-play data (selfplay.h), the weight vector and its linear trace
// (eval_weights.h, eval.h), and the Texel fit (texel_tuner.h), on small data sets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "engine/eval.h"
#include "engine_test_position.h"
#include "selfplay.h"
#include "texel_tuner.h"
#include "xiangqi/game.h"

namespace xq::engine {
namespace {

SelfplayOptions small_options(std::uint64_t seed) {
    SelfplayOptions o;
    o.seed = seed;
    o.nodes = 300;
    o.random_plies_min = 2;
    o.random_plies_max = 4;
    o.max_plies = 60;
    o.openings = {"h2e2 h9g7", "c3c4 g6g5"};
    return o;
}

std::vector<Sample> play(std::uint64_t seed, int games) {
    Engine engine(1);
    std::vector<Sample> out;
    for (int g = 0; g < games; ++g) {
        const SelfplayGame sg = play_selfplay_game(engine, small_options(seed), g);
        out.insert(out.end(), sg.samples.begin(), sg.samples.end());
    }
    return out;
}

TEST(Selfplay, SamplesAreQuietLegalPositionsWithTheGameResult) {
    const std::vector<Sample> samples = play(7, 3);
    ASSERT_GT(samples.size(), 20u);
    for (const Sample& s : samples) {
        Position p;
        ASSERT_EQ(p.set_fen(s.fen), FenError::None) << s.fen;
        EXPECT_FALSE(p.in_check()) << s.fen;
        Game g(p);
        EXPECT_FALSE(g.legal_moves().empty()) << s.fen;
        EXPECT_TRUE(s.result == 0.0 || s.result == 0.5 || s.result == 1.0);
        EXPECT_GE(s.game, 0);
        EXPECT_LT(s.game, 3);
        std::string error;
        const auto back = parse_sample(format_sample(s), error);
        ASSERT_TRUE(back) << error;
        EXPECT_EQ(back->fen, s.fen);
        EXPECT_EQ(back->result, s.result);
        EXPECT_EQ(back->game, s.game);
    }
}

TEST(Selfplay, TheSameSeedGivesTheSameDataAndAnotherSeedOtherData) {
    const std::vector<Sample> a = play(11, 2), b = play(11, 2), c = play(12, 2);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].fen, b[i].fen);
        EXPECT_EQ(a[i].result, b[i].result);
    }
    bool differs = a.size() != c.size();
    for (std::size_t i = 0; !differs && i < a.size(); ++i) differs = a[i].fen != c[i].fen;
    EXPECT_TRUE(differs);
    // A game can be played alone: game 1 of the series is the same as within the series.
    Engine engine(1);
    const SelfplayGame one = play_selfplay_game(engine, small_options(11), 1);
    std::vector<Sample> second;
    for (const Sample& s : a)
        if (s.game == 1) second.push_back(s);
    ASSERT_EQ(one.samples.size(), second.size());
    for (std::size_t i = 0; i < second.size(); ++i) EXPECT_EQ(one.samples[i].fen, second[i].fen);
}

TEST(Selfplay, BadSampleLinesAreRefusedWithAReason) {
    std::string error;
    EXPECT_FALSE(parse_sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 2 | 0", error));
    EXPECT_NE(error.find("result"), std::string::npos);
    EXPECT_FALSE(parse_sample("not a fen | 1 | 0", error));
    EXPECT_NE(error.find("FEN"), std::string::npos);
    EXPECT_FALSE(parse_sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 1", error));
    EXPECT_FALSE(parse_sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 1 | x", error));
    const auto ok = parse_sample("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 0.5 | 4", error);
    ASSERT_TRUE(ok) << error;
    EXPECT_EQ(ok->result, 0.5);
    EXPECT_EQ(ok->game, 4);
}

TEST(EvalWeights, TheVectorRoundTrips) {
    const EvalWeights& compiled = compiled_eval_weights();
    const std::vector<int> v = weights_to_vector(compiled);
    EXPECT_EQ(v.size(), weight_names().size());
    EvalWeights w{};
    ASSERT_TRUE(weights_from_vector(v, w));
    EXPECT_EQ(weights_to_vector(w), v);
    EXPECT_EQ(w.material[HORSE], compiled.material[HORSE]);
    EXPECT_FALSE(weights_from_vector(std::vector<int>(v.size() - 1), w));
}

TEST(EvalWeights, TheTraceWithTheCompiledWeightsIsTheEvaluation) {
    const EvalWeights& compiled = compiled_eval_weights();
    const std::vector<int> v = weights_to_vector(compiled);
    EvalWeights other = compiled;
    other.material[HORSE].mg += 137;
    other.mobility[ROOK].eg -= 3;
    other.pst_rank[PAWN][6].mg += 21;
    other.palace_attack.eg += 5;
    other.threat_by_minor[ROOK].mg += 40;
    other.threat_on_move.eg -= 25;
    other.multi_threat.mg += 30;
    const std::vector<int> v_other = weights_to_vector(other);
    TexelTuner tuner;
    const std::vector<Position> positions = engine_test::random_game_positions(1500, 12345, 80);
    int changed = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& p = positions[i];
        const EvalTrace tr = trace_evaluation(p);
        ASSERT_EQ(evaluate_trace(tr, compiled), evaluate(p)) << p.fen();
        tuner.add(p, 0.5, false);
        const int red = p.side_to_move() == RED ? evaluate(p) : -evaluate(p);
        ASSERT_EQ(tuner.red_eval(i, v), red) << p.fen();
        // Other weights: the tuner's sparse form and the trace agree, and the score moves.
        const int other_eval = evaluate_trace(tr, other);
        ASSERT_EQ(tuner.red_eval(i, v_other), p.side_to_move() == RED ? other_eval : -other_eval) << p.fen();
        changed += other_eval != evaluate(p);
    }
    EXPECT_GT(changed, 500);
}

TEST(Texel, TheFitLowersTheErrorOnASyntheticSet) {
    // Results drawn from an evaluation with a dearer horse and more rook mobility: the fit
    // from the compiled weights must lower the error on both parts and raise the horse.
    EvalWeights truth = compiled_eval_weights();
    truth.material[HORSE] = {700, 750};
    truth.mobility[ROOK] = {12, 12};
    const std::vector<Position> positions = engine_test::random_game_positions(1200, 12345, 80);
    TexelTuner tuner;
    std::uint64_t state = 99;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& p = positions[i];
        const int stm = evaluate_trace(trace_evaluation(p), truth);
        const double prob = 1.0 / (1.0 + std::exp(-0.006 * (p.side_to_move() == RED ? stm : -stm)));
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double u = double(state >> 11) / double(1ULL << 53);
        tuner.add(p, u < prob ? 1.0 : 0.0, i % 5 == 0);
    }
    const std::vector<int> start = weights_to_vector(compiled_eval_weights());
    tuner.fit_k(start);
    const double train0 = tuner.error(start, false), hold0 = tuner.error(start, true);
    TexelTuner::TuneOptions opt;
    opt.iterations = 300;
    opt.rate = 3.0;
    const auto names = weight_names();
    opt.tuned.assign(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) opt.tuned[i] = names[i].rfind("material", 0) == 0 || names[i].rfind("mobility", 0) == 0;
    const std::vector<int> tuned = tuner.tune(start, opt);
    EXPECT_LT(tuner.error(tuned, false), train0 - 0.002);
    EXPECT_LT(tuner.error(tuned, true), hold0);
    EvalWeights fitted{};
    ASSERT_TRUE(weights_from_vector(tuned, fitted));
    EXPECT_GT(fitted.material[HORSE].mg, compiled_eval_weights().material[HORSE].mg + 50);
    // Weights not in the tuned set stay where they were.
    EXPECT_EQ(fitted.palace_attack, compiled_eval_weights().palace_attack);
}

TEST(Texel, RoundsRestartAdamUntilARoundGainsTooLittle) {
    // A short fit of material and mobility towards a dearer horse: a second and third round
    // (Adam restarted, the same start for the penalty) go on lowering the error where one
    // round stopped; a round that must gain more than the error itself stops after the first.
    EvalWeights truth = compiled_eval_weights();
    truth.material[HORSE] = {700, 750};
    const std::vector<Position> positions = engine_test::random_game_positions(800, 12345, 80);
    TexelTuner tuner;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& p = positions[i];
        const int stm = evaluate_trace(trace_evaluation(p), truth);
        tuner.add(p, 1.0 / (1.0 + std::exp(-0.006 * (p.side_to_move() == RED ? stm : -stm))), false);
    }
    const std::vector<int> start = weights_to_vector(compiled_eval_weights());
    tuner.fit_k(start);
    TexelTuner::TuneOptions opt;
    opt.iterations = 40;
    opt.rate = 2.0;
    opt.l2 = 1e-8;
    const auto names = weight_names();
    opt.tuned.assign(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) opt.tuned[i] = names[i].rfind("material", 0) == 0 || names[i].rfind("mobility", 0) == 0;
    const std::vector<int> one = tuner.tune(start, opt);
    opt.rounds = 3;
    opt.min_gain = 0;
    int last = 0;
    const std::vector<int> three = tuner.tune(start, opt, [&](int it, double) { last = it; });
    EXPECT_EQ(last, 120);
    EXPECT_LT(tuner.error(three, false), tuner.error(one, false));
    opt.min_gain = 1.0;
    EXPECT_EQ(tuner.tune(start, opt, [&](int it, double) { last = it; }), one);
    EXPECT_EQ(last, 40);
}

TEST(Texel, TheWeightsBlockReplacesOnlyTheMarkedLines) {
    std::string source = "a\n// TUNED-WEIGHTS-BEGIN x\nold\n// TUNED-WEIGHTS-END\nb\n";
    std::vector<int> v = weights_to_vector(compiled_eval_weights());
    const std::string block = weights_block(v, "line one\nline two");
    ASSERT_TRUE(replace_weights_block(source, block));
    EXPECT_EQ(source.find("old"), std::string::npos);
    EXPECT_EQ(source.rfind("a\n// TUNED-WEIGHTS-BEGIN x\n// line one\n// line two\n", 0), 0u);
    const Score horse = compiled_eval_weights().material[HORSE];
    EXPECT_NE(source.find("    w.material[HORSE] = {" + std::to_string(horse.mg) + ", " + std::to_string(horse.eg) + "};\n"),
              std::string::npos);
    EXPECT_NE(source.find("// TUNED-WEIGHTS-END\nb\n"), std::string::npos);
    std::string no_markers = "nothing here";
    EXPECT_FALSE(replace_weights_block(no_markers, block));
    EXPECT_EQ(no_markers, "nothing here");
}

}  // namespace
}  // namespace xq::engine
