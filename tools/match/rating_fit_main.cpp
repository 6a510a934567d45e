// xiangqi-rating-fit: the built-in AI levels' ratings from level-against-level results.
//
//   xiangqi-rating-fit [--anchor LEVEL=RATING] [--prior-draws X] FILE...
//
// Reads the lines "level HIGH LOW W D L" that tools/match/calibrate_levels.sh writes
// (W/D/L counted for HIGH; lines starting with '#' are comments), fits every level's rating
// (tools/match/rating_fit.h) and prints a table with the 95% margins, then the ratings as
// one line for server/ai/level_ratings.cpp. Default anchor: level 5 at 1500.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tools/match/rating_fit.h"

namespace {

constexpr int LEVELS = 10;

int usage() {
    std::cerr << "usage: xiangqi-rating-fit [--anchor LEVEL=RATING] [--prior-draws X] FILE...\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace xq::match;
    FitOptions options;
    options.anchor = 5 - 1;
    std::vector<PairResult> results;
    int files = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--anchor" && i + 1 < argc) {
            int level = 0;
            double rating = 0;
            char eq = 0;
            std::istringstream in(argv[++i]);
            if (!(in >> level >> eq >> rating) || eq != '=' || level < 1 || level > LEVELS) return usage();
            options.anchor = level - 1;
            options.anchor_rating = rating;
        } else if (a == "--prior-draws" && i + 1 < argc) {
            try {
                options.prior_draws = std::stod(argv[++i]);
            } catch (...) {
                return usage();
            }
            if (options.prior_draws < 0) return usage();
        } else if (!a.empty() && a[0] == '-') {
            return usage();
        } else {
            std::ifstream f(a);
            if (!f) {
                std::cerr << "xiangqi-rating-fit: cannot read " << a << "\n";
                return 2;
            }
            ++files;
            std::string error;
            if (!read_level_results(f, LEVELS, results, error)) {
                std::cerr << "xiangqi-rating-fit: " << a << ": " << error << "\n";
                return 2;
            }
        }
    }
    if (files == 0) return usage();
    const FitResult fit = fit_ratings(LEVELS, results, options);
    if (!fit.ok) {
        std::cerr << "xiangqi-rating-fit: " << fit.error << "\n";
        return 1;
    }
    std::printf("level  rating  95%% margin  games\n");
    for (int l = 0; l < LEVELS; ++l)
        std::printf("%5d  %6.0f  %11s  %5.0f\n", l + 1, fit.rating[l],
                    l == options.anchor ? "anchor" : ("+/- " + std::to_string(int(std::lround(fit.margin95[l])))).c_str(),
                    fit.games[l]);
    std::printf("ratings (rounded to 10):");
    for (int l = 0; l < LEVELS; ++l) std::printf(" %ld", std::lround(fit.rating[l] / 10.0) * 10);
    std::printf("\n");
    return 0;
}
