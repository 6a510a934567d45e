// xiangqi-clock-matrix: the AI on real table clocks. Plays bounded games of the built-in AI
// (budgeted by plan_move_time, as the server's AI seats) against itself and against a scripted
// human, refereed by xq::Game and timed by the server's own GameClock, and counts time losses.
//   xiangqi-clock-matrix [--clocks SPEC,...] [--levels 1,5,10] [--modes ai,human]
//                        [--max-plies N] [--late-ms MS] [--seed N] [--quiet]
// "min slack": the least time left before the flag after any AI move (ms).
// Exit status 1 when any AI seat lost on time. The scripted human moves at once in wall time
// and is charged a virtual think time on the clock (so its games cost no real time).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "server/table/game_clock.h"
#include "engine/search.h"
#include "engine/time_budget.h"
#include "xiangqi/game.h"

namespace {

using namespace xq;
using engine::ClockType;
using engine::ClockView;
using server::ClockConfig;
using server::ClockKind;
using server::GameClock;
using server::Ms;
using SteadyClock = std::chrono::steady_clock;

const char* const DEFAULT_CLOCKS = "fischer:60+0,fischer:180+2,fischer:300+3,asian:600/60/30,asian:0/0/10";

struct Options {
    std::vector<std::string> clocks;
    std::vector<int> levels = {1, 5, 10};
    std::vector<std::string> modes = {"ai", "human"};
    int max_plies = 200;
    int late_ms = 0;  // > 0: both sides start with this much main time left (the risky phase)
    std::uint64_t seed = 1;
    bool quiet = false;
};

struct CellResult {
    int games = 0;
    int plies = 0;
    int ai_moves = 0;
    int time_losses = 0;       // by an AI seat
    int human_time_losses = 0;
    long long ai_ms = 0;
    long long min_slack_ms = -1;  // least (deadline - spent) over the AI's moves; -1: none yet
    std::string last_result;
};

ClockView view_of(const ClockConfig& cfg, const server::SideTime& t) {
    ClockView v;
    v.type = cfg.kind == ClockKind::Fischer ? ClockType::Fischer
             : cfg.kind == ClockKind::Asian ? ClockType::Asian
                                            : ClockType::None;
    v.main_ms = int(t.main.count());
    v.increment_ms = int(cfg.increment.count());
    v.move_limit_ms = int(cfg.move_limit.count());
    v.countdown_ms = int(cfg.countdown.count());
    v.in_countdown = t.in_countdown;
    return v;
}

// One game. `human` set: Black is a scripted human (a level-1 move, a virtual think time).
void play(const ClockConfig& cfg, int level, bool human, const Options& opt, std::uint64_t seed, CellResult& out) {
    Game game;
    GameClock clock(cfg);
    if (opt.late_ms > 0) {
        server::ClockState s;
        for (int c = 0; c < COLOR_NB; ++c) s.main[c] = Ms(opt.late_ms);
        clock.restore(s);
    }
    engine::Engine seat[COLOR_NB];
    Ms virtual_offset{0};
    auto now = [&] { return SteadyClock::now() + virtual_offset; };
    clock.start(game.side_to_move(), now());
    std::uint64_t rng = seed;
    while (!game.over() && game.ply() < opt.max_plies) {
        const Color side = game.side_to_move();
        const auto t0 = now();
        const server::SideTime st = clock.side_time(side, t0);
        engine::Limits lim;
        lim.seed = seed + std::uint64_t(game.ply());
        const bool is_human = human && side == BLACK;
        int deadline = 0;
        if (is_human) {
            lim.level = 1;
        } else {
            const ClockView v = view_of(cfg, st);
            const engine::TimeBudget b = engine::plan_move_time(v);
            lim.level = level;
            lim.soft_ms = b.soft_ms;
            lim.hard_ms = b.hard_ms;
            deadline = engine::move_deadline_ms(v);
        }
        const engine::Result r = seat[side].search(game.start_position(), game.moves(), lim);
        if (is_human) {
            // A human thinks 0.5-4 s, less when short of time (and may still flag: not counted).
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            const long long want = 500 + static_cast<long long>((rng >> 33) % 3500);
            // (at most a tenth of what is left, so that most games reach their end on the board)
            virtual_offset += Ms(std::min<long long>(want, std::max<long long>(1, st.move_left.count() / 10)));
        }
        const auto t1 = now();
        const long long spent = std::chrono::duration_cast<Ms>(t1 - t0).count();
        if (!is_human) {
            ++out.ai_moves;
            out.ai_ms += spent;
            const long long slack = deadline - spent;
            out.min_slack_ms = out.min_slack_ms < 0 ? slack : std::min(out.min_slack_ms, slack);
        }
        if (!clock.on_move(t1)) {
            (is_human ? out.human_time_losses : out.time_losses)++;
            game.finish(side == RED ? Outcome::BlackWins : Outcome::RedWins, EndReason::Timeout,
                        std::string(color_name(side)) + " loses on time");
            break;
        }
        if (!r.best || !game.play(r.best)) {
            game.finish(side == RED ? Outcome::BlackWins : Outcome::RedWins, EndReason::Abandonment,
                        "no legal move from the AI");
            break;
        }
    }
    ++out.games;
    out.plies += game.ply();
    out.last_result = game.over() ? game.result().text : "stopped after " + std::to_string(opt.max_plies) + " plies";
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string t; std::getline(in, t, ',');)
        if (!t.empty()) out.push_back(t);
    return out;
}

int usage() {
    std::cerr << "usage: xiangqi-clock-matrix [--clocks SPEC,...] [--levels L,...] [--modes ai,human]\n"
                 "                            [--max-plies N] [--late-ms MS] [--seed N] [--quiet]\n"
                 "  SPEC as on the server: fischer:<base s>+<inc s> | asian:<base s>/<limit s>/<countdown s>\n"
                 "  default clocks: "
              << DEFAULT_CLOCKS << "\n";
    return 2;
}

std::optional<int> parse_int(const std::string& s, int lo, int hi) {
    try {
        std::size_t used = 0;
        const long long v = std::stoll(s, &used);
        if (used != s.size() || v < lo || v > hi) return std::nullopt;
        return int(v);
    } catch (...) {
        return std::nullopt;
    }
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    opt.clocks = split(DEFAULT_CLOCKS);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quiet") {
            opt.quiet = true;
            continue;
        }
        if (i + 1 >= argc) return usage();
        const std::string v = argv[++i];
        if (a == "--clocks") {
            opt.clocks = split(v);
        } else if (a == "--levels" || a == "--modes") {
            if (a == "--modes") {
                opt.modes = split(v);
                for (const auto& m : opt.modes)
                    if (m != "ai" && m != "human") return usage();
            } else {
                opt.levels.clear();
                for (const auto& t : split(v)) {
                    const auto n = parse_int(t, engine::MIN_LEVEL, engine::MAX_LEVEL);
                    if (!n) return usage();
                    opt.levels.push_back(*n);
                }
            }
        } else if (a == "--max-plies") {
            const auto n = parse_int(v, 1, 2000);
            if (!n) return usage();
            opt.max_plies = *n;
        } else if (a == "--late-ms") {
            const auto n = parse_int(v, 0, 36000000);
            if (!n) return usage();
            opt.late_ms = *n;
        } else if (a == "--seed") {
            const auto n = parse_int(v, 0, 1000000000);
            if (!n) return usage();
            opt.seed = std::uint64_t(*n);
        } else {
            return usage();
        }
    }
    if (opt.clocks.empty() || opt.levels.empty() || opt.modes.empty()) return usage();
    std::vector<ClockConfig> configs;
    for (const auto& spec : opt.clocks) {
        std::string error;
        const auto cfg = server::parse_clock_spec(spec, &error);
        if (!cfg || cfg->kind == ClockKind::None) {
            std::cerr << "xiangqi-clock-matrix: bad clock '" << spec << "': " << (cfg ? "no clock" : error) << "\n";
            return 2;
        }
        configs.push_back(*cfg);
    }

    int total_losses = 0, total_games = 0, total_human_losses = 0;
    std::printf("%-18s %5s %-5s %5s %6s %8s %9s %10s  %s\n", "clock", "level", "mode", "games", "plies",
                "ai moves", "ms/move", "min slack", "time losses (AI)");
    for (std::size_t c = 0; c < configs.size(); ++c)
        for (int level : opt.levels)
            for (const auto& mode : opt.modes) {
                CellResult r;
                play(configs[c], level, mode == "human", opt, opt.seed + std::uint64_t(level) * 101 + c, r);
                total_losses += r.time_losses;
                total_human_losses += r.human_time_losses;
                total_games += r.games;
                std::printf("%-18s %5d %-5s %5d %6d %8d %9lld %10lld  %d   (%s)\n", opt.clocks[c].c_str(), level,
                            mode.c_str(), r.games, r.plies, r.ai_moves, r.ai_moves ? r.ai_ms / r.ai_moves : 0,
                            r.min_slack_ms, r.time_losses, r.last_result.c_str());
                std::fflush(stdout);
            }
    std::printf("games %d, AI time losses %d, scripted-human time losses %d%s\n", total_games, total_losses,
                total_human_losses, opt.late_ms > 0 ? (", clocks started at " + std::to_string(opt.late_ms) + " ms").c_str() : "");
    return total_losses == 0 ? 0 : 1;
}
