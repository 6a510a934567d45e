// xiangqi-tune: the evaluation tuned by data.
//   gen OUT [--games N] [--first-game G] [--seed S] [--nodes N] [--random-plies MIN-MAX]
//       [--openings FILE] [--max-plies N]: self-play games, quiet positions with the result
//   positions OUT PGN... [--skip-plies N] [--first-game G]: the quiet positions of played games
//       with their results (pgn_positions.h)
//   label IN OUT [--nodes N] [--uci PROGRAM [--uci-option NAME=VALUE]...]: a search score for
//       each position (label.h)
//   fit DATA... [--iterations N] [--holdout-every N] [--lambda L] [--write EVAL.cpp]: Texel fit
//       of the evaluation weights to the results, or to a blend with the scores (texel_tuner.h)
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "label.h"
#include "opening_lines.h"
#include "pgn_positions.h"
#include "selfplay.h"
#include "texel_tuner.h"

namespace {

using namespace xq::engine;

std::optional<long long> number(const char* text, long long lo, long long hi) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (!text[0] || *end || v < lo || v > hi) return std::nullopt;
    return v;
}

int gen_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-tune gen OUT [--games N] [--first-game G] [--seed S] [--nodes N]\n"
                     "                          [--random-plies MIN-MAX] [--openings FILE] [--max-plies N]\n";
        return 2;
    };
    if (argc < 3) return usage();
    const std::string out_path = argv[2];
    SelfplayOptions opt;
    int games = 100, first = 0;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        const char* v = argv[++i];
        std::optional<long long> n;
        if (a == "--games" && (n = number(v, 1, 10'000'000))) games = int(*n);
        else if (a == "--first-game" && (n = number(v, 0, 1'000'000'000))) first = int(*n);
        else if (a == "--seed" && (n = number(v, 0, (1LL << 62)))) opt.seed = std::uint64_t(*n);
        else if (a == "--nodes" && (n = number(v, 1, 100'000'000))) opt.nodes = std::uint64_t(*n);
        else if (a == "--max-plies" && (n = number(v, 10, 10'000))) opt.max_plies = int(*n);
        else if (a == "--random-plies") {
            const std::string s = v;
            const auto dash = s.find('-');
            const auto lo = number(s.substr(0, dash).c_str(), 0, 100);
            const auto hi = dash == std::string::npos ? lo : number(s.substr(dash + 1).c_str(), 0, 100);
            if (!lo || !hi || *hi < *lo) {
                std::cerr << "error: --random-plies needs MIN-MAX, 0..100\n";
                return 2;
            }
            opt.random_plies_min = int(*lo);
            opt.random_plies_max = int(*hi);
        } else if (a == "--openings") {
            std::string error;
            if (!xq::load_opening_lines(v, opt.openings, error)) {
                std::cerr << "error: " << error << "\n";
                return 1;
            }
        } else {
            std::cerr << "error: bad option or value: " << a << " " << v << "\n";
            return usage();
        }
    }
    std::ofstream out(out_path, std::ios::trunc);
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    Engine engine(4);
    const auto t0 = std::chrono::steady_clock::now();
    long long samples = 0;
    int wins[3] = {0, 0, 0};  // Black, draw, Red
    for (int g = first; g < first + games; ++g) {
        const SelfplayGame sg = play_selfplay_game(engine, opt, g);
        for (const Sample& s : sg.samples) out << format_sample(s) << "\n";
        samples += long(sg.samples.size());
        ++wins[int(sg.result * 2)];
        if ((g - first + 1) % 50 == 0 || g + 1 == first + games) {
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << "games " << g - first + 1 << "/" << games << ", positions " << samples << ", Red/draw/Black "
                      << wins[2] << "/" << wins[1] << "/" << wins[0] << ", " << int(secs) << " s\n";
        }
    }
    out.close();
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "wrote " << samples << " positions of " << games << " games to " << out_path << " in " << secs
              << " s (Red/draw/Black " << wins[2] << "/" << wins[1] << "/" << wins[0] << ")\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "gen") return gen_command(argc, argv);
    if (cmd == "positions") return positions_command(argc, argv);
    if (cmd == "label") return label_command(argc, argv);
    if (cmd == "fit") return fit_command(argc, argv);
    std::cerr << "usage: xiangqi-tune gen OUT [options] | positions OUT PGN... [options]\n"
                 "       | label IN OUT [options] | fit DATA... [options]\n";
    return 2;
}
