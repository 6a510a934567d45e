#include "texel_tuner.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "selfplay.h"

namespace xq::engine {

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The k in [0.0002, 0.05] per centipawn minimising f by golden-section search (the errors
// here are unimodal in k for any sensible data).
double golden_minimum(const std::function<double(double)>& f) {
    double lo = 0.0002, hi = 0.05;
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = f(a), fb = f(b);
    for (int i = 0; i < 60; ++i) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    return (lo + hi) / 2;
}

}  // namespace

TexelTuner::TexelTuner() : weights_(weights_to_vector(compiled_eval_weights()).size()) {
    std::uint16_t index = 0;
    for (const std::string& name : weight_names()) {
        // Two names (mg, eg) per entry.
        if (index % 2 == 0 && is_en_prise_entry(name)) en_prise_index_.push_back(std::uint16_t(index / 2));
        ++index;
    }
    if (en_prise_index_.size() > MAX_EN_PRISE) throw std::logic_error("TexelTuner: too many en-prise weights");
}

void TexelTuner::add(const Position& pos, double target, bool holdout, double result) {
    const EvalTrace tr = trace_evaluation(pos);
    Entry e;
    e.first = std::uint32_t(idx_.size());
    EvalCounts counts = tr.counts;
    std::uint16_t index = 0;
    std::size_t en_prise = 0;
    for_each_entry(counts, counts, [&](const std::string& name, int n, int) {
        if (is_en_prise_entry(name)) {
            e.en_prise[en_prise++] = std::int16_t(n);
        } else if (n != 0) {
            idx_.push_back(index);
            coef_.push_back(std::int16_t(n));
        }
        ++index;
    });
    e.n = std::uint16_t(idx_.size() - e.first);
    e.phase = std::int8_t(tr.phase);
    e.stm_sign = tr.side_to_move == RED ? 1 : -1;
    e.div_pos = std::int8_t(draw_scale_divisor(tr, 1));
    e.div_neg = std::int8_t(draw_scale_divisor(tr, -1));
    e.fixed_mg = tr.fixed_mg;
    e.fixed_eg = tr.fixed_eg;
    e.target = float(target);
    e.game_result = float(result < 0 ? target : result);
    e.holdout = holdout;
    entries_.push_back(e);
}

std::size_t TexelTuner::size(bool holdout) const {
    std::size_t n = 0;
    for (const Entry& e : entries_) n += e.holdout == holdout;
    return n;
}

int TexelTuner::red_eval(std::size_t i, const std::vector<int>& w) const {
    const Entry& e = entries_[i];
    int mg = e.fixed_mg, eg = e.fixed_eg;
    for (std::uint32_t j = e.first; j < e.first + e.n; ++j) {
        mg += coef_[j] * w[2 * idx_[j]];
        eg += coef_[j] * w[2 * idx_[j] + 1];
    }
    int v = (mg * e.phase + eg * (EVAL_PHASE_MAX - e.phase)) / EVAL_PHASE_MAX;
    for (std::size_t k = 0; k < en_prise_index_.size(); ++k) {
        const std::size_t i = 2 * std::size_t(en_prise_index_[k]);
        v += en_prise_value(Score{w[i], w[i + 1]}, e.en_prise[k], e.phase);
    }
    v /= v > 0 ? e.div_pos : e.div_neg;
    return v + e.stm_sign * EVAL_TEMPO;
}

double TexelTuner::error_to(float Entry::*goal, const std::vector<int>& w, bool holdout) const {
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (entries_[i].holdout != holdout) continue;
        const double d = entries_[i].*goal - sigmoid(k_ * red_eval(i, w));
        sum += d * d;
        ++n;
    }
    return n ? sum / double(n) : 0.0;
}

double TexelTuner::fit_k(const std::vector<int>& w) {
    k_ = golden_minimum([&](double k) {
        k_ = k;
        return error(w, false);
    });
    return k_;
}

std::vector<int> TexelTuner::tune(const std::vector<int>& start, const TuneOptions& opt,
                                  const std::function<void(int, double)>& progress) const {
    const int iterations = opt.iterations;
    const double rate = opt.rate;
    std::vector<double> w(start.begin(), start.end()), m(w.size()), v(w.size()), grad(w.size());
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const std::size_t n_train = size(false);
    if (n_train == 0) return start;
    // Rounds of `iterations` steps; each later round restarts Adam's moments (its step has
    // shrunk with the gradients it remembers) from where the last one ended, the penalty still
    // pulling towards `start`, until a round gains less than opt.min_gain.
    double round_start = 0;  // the objective (error + penalty) when the current round began
    for (int it = 1, round = 0, step = 1; it <= iterations * opt.rounds; ++it, ++step) {
        if (step > iterations) {
            step = 1;
            ++round;
            std::fill(m.begin(), m.end(), 0.0);
            std::fill(v.begin(), v.end(), 0.0);
        }
        std::fill(grad.begin(), grad.end(), 0.0);
        double err = 0;
        for (const Entry& e : entries_) {
            if (e.holdout) continue;
            double mg = e.fixed_mg, eg = e.fixed_eg;
            for (std::uint32_t j = e.first; j < e.first + e.n; ++j) {
                mg += coef_[j] * w[2 * idx_[j]];
                eg += coef_[j] * w[2 * idx_[j] + 1];
            }
            // The en-prise terms, weight (per mille) x loss tapered and truncated term by term as
            // the evaluation does (exact for whole weights); their gradient is the untruncated one.
            double en_prise = 0;
            for (std::size_t k = 0; k < en_prise_index_.size(); ++k) {
                const std::size_t i = 2 * std::size_t(en_prise_index_[k]);
                en_prise += std::trunc(e.en_prise[k] * (w[i] * e.phase + w[i + 1] * (EVAL_PHASE_MAX - e.phase)) /
                                       (EVAL_PHASE_MAX * EN_PRISE_PER));
            }
            const double raw = (mg * e.phase + eg * (EVAL_PHASE_MAX - e.phase)) / EVAL_PHASE_MAX + en_prise;
            const double div = raw > 0 ? e.div_pos : e.div_neg;
            const double p = sigmoid(k_ * (raw / div + e.stm_sign * EVAL_TEMPO));
            const double diff = e.target - p;
            err += diff * diff;
            // d(error)/d(raw) for this position; raw is linear in the weights.
            const double d_raw = -2.0 * diff * p * (1 - p) * k_ / div;
            const double dmg = d_raw * e.phase / EVAL_PHASE_MAX, deg = d_raw * (EVAL_PHASE_MAX - e.phase) / EVAL_PHASE_MAX;
            for (std::uint32_t j = e.first; j < e.first + e.n; ++j) {
                grad[2 * idx_[j]] += dmg * coef_[j];
                grad[2 * idx_[j] + 1] += deg * coef_[j];
            }
            for (std::size_t k = 0; k < en_prise_index_.size(); ++k) {
                const std::size_t i = 2 * std::size_t(en_prise_index_[k]);
                grad[i] += dmg * e.en_prise[k] / EN_PRISE_PER;
                grad[i + 1] += deg * e.en_prise[k] / EN_PRISE_PER;
            }
        }
        if (step == 1 && opt.rounds > 1) {
            double objective = err / double(n_train);
            for (std::size_t i = 0; i < w.size(); ++i) objective += opt.l2 * (w[i] - start[i]) * (w[i] - start[i]);
            if (round > 0 && round_start - objective < opt.min_gain) {
                if (progress) progress(it - 1, err / double(n_train));
                break;
            }
            round_start = objective;
        }
        for (std::size_t i = 0; i < w.size(); ++i) {
            if (!opt.tuned.empty() && !opt.tuned[i]) continue;
            const double g = grad[i] / double(n_train) + 2 * opt.l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1 - b1) * g;
            v[i] = b2 * v[i] + (1 - b2) * g * g;
            const double mh = m[i] / (1 - std::pow(b1, step)), vh = v[i] / (1 - std::pow(b2, step));
            if (vh > 0) w[i] -= rate * mh / (std::sqrt(vh) + eps);
        }
        if (progress && (it % 50 == 0 || it == iterations * opt.rounds)) progress(it, err / double(n_train));
    }
    std::vector<int> out(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) out[i] = int(std::lround(w[i]));
    return out;
}

double fit_score_k(const std::vector<std::pair<int, double>>& score_result) {
    return golden_minimum([&](double k) {
        double sum = 0;
        for (const auto& [score, result] : score_result) {
            const double d = result - sigmoid(k * score);
            sum += d * d;
        }
        return sum;
    });
}

double blend_target(int score, double result, double k, double lambda) {
    return lambda * sigmoid(k * score) + (1 - lambda) * result;
}

std::string weights_block(const std::vector<int>& w, const std::string& comment) {
    std::ostringstream out;
    std::istringstream lines(comment);
    for (std::string line; std::getline(lines, line);) out << "// " << line << "\n";
    out << "constexpr EvalWeights tuned_weights() {\n    EvalWeights w{};\n";
    EvalWeights ws{};
    std::size_t i = 0;
    for_each_entry(ws, ws, [&](const std::string& name, const Score&, const Score&) {
        const int mg = w[i], eg = w[i + 1];
        i += 2;
        if (mg != 0 || eg != 0) out << "    w." << name << " = {" << mg << ", " << eg << "};\n";
    });
    out << "    return w;\n}\n";
    return out.str();
}

bool replace_weights_block(std::string& source, const std::string& block) {
    const auto begin = source.find("TUNED-WEIGHTS-BEGIN");
    const auto end = source.find("TUNED-WEIGHTS-END");
    if (begin == std::string::npos || end == std::string::npos || end < begin) return false;
    const auto from = source.find('\n', begin);
    const auto to = source.rfind('\n', end);
    if (from == std::string::npos || to == std::string::npos || to < from) return false;
    source = source.substr(0, from + 1) + block + source.substr(to + 1);
    return true;
}

int fit_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-tune fit DATA... [--iterations N] [--rate CP] [--l2 X] [--params P1,P2...]\n"
                     "                              [--holdout-every N] [--lambda L] [--rounds R [--min-gain G]]\n"
                     "                              [--write EVAL.cpp]\n"
                     "  --rounds: up to R rounds of N iterations, Adam restarted each round (the penalty still\n"
                     "            towards the start), until a round lowers error + penalty by less than G (1e-7)\n"
                     "  --params: only the weights whose names start with one of these (e.g. material,mobility)\n"
                     "  --lambda: fit to L * sigmoid(K * score) + (1 - L) * result (scores from xiangqi-tune label)\n";
        return 2;
    };
    std::vector<std::string> files;
    TexelTuner::TuneOptions topt;
    int holdout_every = 10;
    double lambda = 0;  // weight of the search scores in the target (0: the results alone)
    std::string write_path, params;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--", 0) != 0) {
            files.push_back(a);
            continue;
        }
        if (i + 1 >= argc) return usage();
        const std::string v = argv[++i];
        try {
            if (a == "--iterations") topt.iterations = std::stoi(v);
            else if (a == "--rate") topt.rate = std::stod(v);
            else if (a == "--l2") topt.l2 = std::stod(v);
            else if (a == "--rounds") topt.rounds = std::stoi(v);
            else if (a == "--min-gain") topt.min_gain = std::stod(v);
            else if (a == "--lambda") lambda = std::stod(v);
            else if (a == "--params") params = v;
            else if (a == "--holdout-every") holdout_every = std::stoi(v);
            else if (a == "--write") write_path = v;
            else return usage();
        } catch (const std::exception&) {
            std::cerr << "error: bad value for " << a << ": " << v << "\n";
            return 2;
        }
    }
    if (files.empty() || topt.iterations < 1 || topt.iterations > 100000 || holdout_every < 2 ||
        !(topt.rate > 0 && topt.rate < 1000) || !(topt.l2 >= 0) || !(lambda >= 0 && lambda <= 1) ||
        topt.rounds < 1 || topt.rounds > 1000 || !(topt.min_gain >= 0))
        return usage();
    const auto names = weight_names();
    if (!params.empty()) {
        topt.tuned.assign(names.size(), false);
        std::istringstream in(params);
        for (std::string prefix; std::getline(in, prefix, ',');) {
            bool any = false;
            for (std::size_t i = 0; i < names.size(); ++i)
                if (!prefix.empty() && names[i].rfind(prefix, 0) == 0) topt.tuned[i] = any = true;
            if (!any) {
                std::cerr << "error: --params: no weight name starts with '" << prefix << "'\n";
                return 2;
            }
        }
    }
    std::vector<Sample> samples;
    for (const std::string& path : files) {
        std::ifstream in(path);
        if (!in) {
            std::cerr << "error: cannot read " << path << "\n";
            return 1;
        }
        int line_no = 0;
        for (std::string line; std::getline(in, line);) {
            ++line_no;
            if (line.empty() || line[0] == '#') continue;
            std::string error;
            auto s = parse_sample(line, error);
            if (!s) {
                std::cerr << "error: " << path << ":" << line_no << ": " << error << "\n";
                return 1;
            }
            if (lambda > 0 && !s->score) {
                std::cerr << "error: " << path << ":" << line_no << ": --lambda needs a score on every line (xiangqi-tune label)\n";
                return 1;
            }
            samples.push_back(std::move(*s));
        }
    }
    // The scores' own scale: the k that turns them into the results' probabilities best (training games).
    double score_k = 0;
    if (lambda > 0) {
        std::vector<std::pair<int, double>> pairs;
        for (const Sample& s : samples)
            if (s.game % holdout_every != 0) pairs.emplace_back(*s.score, s.result);
        score_k = fit_score_k(pairs);
        std::cout << "scores: K " << score_k << " per centipawn against the results; target = " << lambda
                  << " * sigmoid(K * score) + " << 1 - lambda << " * result\n";
    }
    TexelTuner tuner;
    for (const Sample& s : samples) {
        Position pos;
        pos.set_fen(s.fen);
        const double target = lambda > 0 ? blend_target(*s.score, s.result, score_k, lambda) : s.result;
        tuner.add(pos, target, s.game % holdout_every == 0, s.result);
    }
    samples.clear();
    const std::vector<int> start = weights_to_vector(compiled_eval_weights());
    const double k = tuner.fit_k(start);
    const double train0 = tuner.error(start, false), hold0 = tuner.error(start, true);
    std::cout << "positions: " << tuner.size(false) << " training, " << tuner.size(true)
              << " held out (games numbered 0 mod " << holdout_every << ")\n"
              << "fitted K: " << k << " per centipawn\n"
              << "error before: training " << train0 << ", held out " << hold0 << "\n";
    const double results0 = lambda > 0 ? tuner.error_to_results(start, true) : 0;
    const std::vector<int> tuned = tuner.tune(start, topt, [](int it, double err) {
        std::cout << "  iteration " << it << ": training error " << err << "\n";
    });
    const double train1 = tuner.error(tuned, false), hold1 = tuner.error(tuned, true);
    std::cout << "error after:  training " << train1 << ", held out " << hold1 << "\n";
    const double results1 = lambda > 0 ? tuner.error_to_results(tuned, true) : 0;
    if (lambda > 0)
        std::cout << "held out against the game results alone: " << results0 << " -> " << results1 << "\n";
    for (std::size_t i = 0; i < tuned.size(); ++i)
        if (tuned[i] != start[i]) std::cout << "  " << names[i] << ": " << start[i] << " -> " << tuned[i] << "\n";
    if (!write_path.empty()) {
        std::ifstream in(write_path);
        std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) source.clear();
        std::ostringstream comment;
        comment << "Fitted by `xiangqi-tune fit";
        // The data (file names without their folders) and options, not the --write target:
        // a path names this machine.
        for (int i = 2; i < argc; ++i) {
            const std::string arg = argv[i];
            if (arg == "--write") {
                ++i;
                continue;
            }
            comment << " " << (arg.rfind("--", 0) == 0 ? arg : arg.substr(arg.find_last_of('/') + 1));
        }
        comment << "`:\n" << tuner.size(false) << " training positions, " << tuner.size(true) << " held out; K " << k
                << ";\nmean squared error training " << train0 << " -> " << train1 << ", held out " << hold0 << " -> "
                << hold1 << (lambda > 0 ? " (against the blend; against the results " + std::to_string(results0) + " -> " +
                                               std::to_string(results1) + ", score K " + std::to_string(score_k) + ")"
                                         : std::string())
                << ";\nstarted from the weights this block held before (their history: docs/engine.md, \"The evaluation\n"
                   "tuned by data\").";
        if (source.empty() || !replace_weights_block(source, weights_block(tuned, comment.str()))) {
            std::cerr << "error: " << write_path << " has no TUNED-WEIGHTS-BEGIN/END block\n";
            return 1;
        }
        std::ofstream out(write_path, std::ios::trunc);
        out << source;
        out.close();
        if (!out) {
            std::cerr << "error: cannot write " << write_path << "\n";
            return 1;
        }
        std::cout << "wrote the weights into " << write_path << "\n";
    }
    return 0;
}

}  // namespace xq::engine
