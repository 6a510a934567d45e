// xiangqi-rulings-bench: how long judging a repetition takes, on every cycle of the rules
// suite (tests/rules/repetition_cases.h). Two costs per cycle, in microseconds:
//   play  - Game::play of the move that makes the third occurrence (its chase analysis and
//           the ruling over the whole cycle): what the server spends on that move;
//   cycle - rule_cycle over the cycle from scratch (every move's chases recomputed): what the
//           engine's search spends when a position repeats inside its tree.
// Also a full-board cycle from the start position. Prints each case and the worst of each; the goal is under 1000 us for the worst cycle.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "repetition_cases.h"
#include "xiangqi/game.h"
#include "xiangqi/rulings.h"

namespace {

using Clock = std::chrono::steady_clock;

std::vector<xq::Move> parse_cycle(std::string_view text) {
    std::vector<xq::Move> out;
    std::istringstream in{std::string(text)};
    std::string m;
    while (in >> m)
        out.emplace_back(xq::square_from_string(m.substr(0, 2)), xq::square_from_string(m.substr(2, 2)));
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 200;
    if (argc > 1) {
        char* end = nullptr;
        const long n = std::strtol(argv[1], &end, 10);
        if (*end != '\0' || n < 1 || n > 1000000) {
            std::fprintf(stderr, "usage: %s [repetitions 1..1000000, default 200]\n", argv[0]);
            return 2;
        }
        reps = int(n);
    }
    double worst_play = 0, worst_cycle = 0;
    std::string worst_play_name, worst_cycle_name;
    std::printf("%-40s %6s %10s %10s\n", "case", "plies", "play_us", "cycle_us");
    // The suite's positions are sparse; a full board (the start position, horses and rooks
    // shuffling) shows the cost where every side has the most captures to examine.
    std::vector<xq::test::RepetitionCase> cases(std::begin(xq::test::REPETITION_CASES),
                                                std::end(xq::test::REPETITION_CASES));
    cases.push_back({"full_board_shuffle (start position)", "", xq::START_FEN, "h0g2 h9g7 g2h0 g7h9",
                     xq::test::Verdict::Draw, xq::test::Why::Repetition, ""});
    for (const auto& c : cases) {
        const std::vector<xq::Move> cycle = parse_cycle(c.cycle);
        const int end_ply = c.end_ply ? c.end_ply : 2 * int(cycle.size());
        xq::Game base;
        if (base.reset(c.fen) != xq::FenError::None) {
            std::fprintf(stderr, "%.*s: bad FEN\n", int(c.name.size()), c.name.data());
            return 1;
        }
        for (int p = 0; p + 1 < end_ply; ++p)
            if (!base.play(cycle[std::size_t(p) % cycle.size()])) {
                std::fprintf(stderr, "%.*s: illegal move at ply %d\n", int(c.name.size()), c.name.data(), p);
                return 1;
            }
        const xq::Move last = cycle[std::size_t(end_ply - 1) % cycle.size()];
        std::vector<double> play_us, cycle_us;
        for (int r = 0; r < reps; ++r) {
            xq::Game g = base;
            const auto t0 = Clock::now();
            const bool ok = g.play(last);
            const auto t1 = Clock::now();
            if (!ok || !g.over()) {
                std::fprintf(stderr, "%.*s: no ruling on the last move\n", int(c.name.size()), c.name.data());
                return 1;
            }
            play_us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
            const auto t2 = Clock::now();
            const xq::CycleRuling ruling = xq::rule_cycle(base.start_position(), cycle.data(), int(cycle.size()));
            const auto t3 = Clock::now();
            if (ruling.verdict.decisive && ruling.verdict.loser > xq::BLACK) return 1;  // keep the call
            cycle_us.push_back(std::chrono::duration<double, std::micro>(t3 - t2).count());
        }
        const double p = median(play_us), y = median(cycle_us);
        std::printf("%-40.*s %6zu %10.1f %10.1f\n", int(c.name.size()), c.name.data(), cycle.size(), p, y);
        if (p > worst_play) worst_play = p, worst_play_name = c.name;
        if (y > worst_cycle) worst_cycle = y, worst_cycle_name = c.name;
    }
    std::printf("worst play (third-occurrence move): %.1f us (%s)\n", worst_play, worst_play_name.c_str());
    std::printf("worst cycle (rule_cycle):           %.1f us (%s)\n", worst_cycle, worst_cycle_name.c_str());
    std::printf("goal: under 1000 us: %s\n", std::max(worst_play, worst_cycle) < 1000 ? "met" : "NOT met");
    return 0;
}
