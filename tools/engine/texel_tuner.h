// Texel tuning of the evaluation: a logistic fit of the evaluation of labelled positions to
// their game results. The evaluation is linear in its weights per position (EvalTrace), so
// each position is stored as its sparse weight counts and the fit runs without re-evaluating.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "xiangqi/position.h"

namespace xq::engine {

class TexelTuner {
public:
    TexelTuner();

    // Adds a position with its target from Red's view (0..1: the game result, or a blend with a
    // search score's win probability) and the game result itself (negative: the target);
    // held-out positions are only measured, never fitted.
    void add(const Position& pos, double target, bool holdout, double result = -1);
    std::size_t size(bool holdout) const;

    // The integer evaluation (Red's view) of position i with the weight vector w, as the
    // engine computes it with those weights compiled in.
    int red_eval(std::size_t i, const std::vector<int>& w) const;

    // Mean squared error between the targets and sigmoid(k * eval), over the training part
    // (holdout = false) or the held-out part; error_to_results against the game results.
    double error(const std::vector<int>& w, bool holdout) const { return error_to(&Entry::target, w, holdout); }
    double error_to_results(const std::vector<int>& w, bool holdout) const {
        return error_to(&Entry::game_result, w, holdout);
    }
    // The k (per centipawn) that minimises the training error for w; stored for error/tune.
    double fit_k(const std::vector<int>& w);
    double k() const { return k_; }
    void set_k(double k) { k_ = k; }

    struct TuneOptions {
        int iterations = 600;
        double rate = 1.0;         // Adam step, centipawns
        double l2 = 0.0;           // penalty l2 * sum((w - start)^2): keeps weights the data hardly sees
        int rounds = 1;            // rounds of `iterations`, Adam's moments restarted each round
        double min_gain = 1e-7;    // ... until a round lowers error + penalty by less than this
        std::vector<bool> tuned;   // which weights may move (empty: all)
    };
    // Adam descent on the training error from `start`, full batch; returns the rounded weights.
    // `progress(iteration, training error)` is called every 50 iterations.
    std::vector<int> tune(const std::vector<int>& start, const TuneOptions& options,
                          const std::function<void(int, double)>& progress = {}) const;

private:
    static constexpr int MAX_EN_PRISE = 4;
    struct Entry {
        std::uint32_t first = 0;  // into idx_/coef_
        std::uint16_t n = 0;
        std::int8_t phase = 0;
        std::int8_t stm_sign = 1;      // +1 Red to move
        std::int8_t div_pos = 1;       // draw scaling divisor when Red is ahead
        std::int8_t div_neg = 1;       // ... when Black is ahead
        std::int32_t fixed_mg = 0, fixed_eg = 0;
        std::array<std::int16_t, MAX_EN_PRISE> en_prise{};  // the losses of the en-prise entries
        float target = 0.5f;       // the target of the fit
        float game_result = 0.5f;  // the game's result
        bool holdout = false;
    };
    // Mean squared error between the entries' `goal` field and sigmoid(k * eval).
    double error_to(float Entry::*goal, const std::vector<int>& w, bool holdout) const;
    std::vector<Entry> entries_;
    std::vector<std::uint16_t> idx_;  // weight entry (vector index / 2)
    std::vector<std::int16_t> coef_;
    std::vector<std::uint16_t> en_prise_index_;  // weight entry of each Entry::en_prise
    std::size_t weights_ = 0;
    double k_ = 0.0058;  // about ln(10) / 400
};

// The k of sigmoid(k * score) that best predicts the results (least squares) for (score,
// result) pairs: it turns a search score into a win probability for the blend target.
double fit_score_k(const std::vector<std::pair<int, double>>& score_result);
// lambda * sigmoid(k * score) + (1 - lambda) * result.
double blend_target(int score, double result, double k, double lambda);

// The C++ text of eval.cpp's tuned-weights function for the weight vector w, with a comment.
std::string weights_block(const std::vector<int>& w, const std::string& comment);
// Replaces the lines between the markers TUNED-WEIGHTS-BEGIN and TUNED-WEIGHTS-END of an
// evaluation source with `block`; false (source unchanged) when the markers are missing.
bool replace_weights_block(std::string& source, const std::string& block);

// `xiangqi-tune fit ...` (tune.cpp).
int fit_command(int argc, char** argv);

}  // namespace xq::engine
