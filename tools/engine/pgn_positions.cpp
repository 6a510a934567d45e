#include "pgn_positions.h"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace xq::engine {

std::vector<Sample> pgn_game_samples(const PgnGame& game, int game_number, const PgnPositionOptions& opt) {
    std::vector<Sample> out;
    if (game.result == Outcome::Ongoing) return out;
    const double result = game.result == Outcome::RedWins ? 1.0 : game.result == Outcome::BlackWins ? 0.0 : 0.5;
    Position pos = game.start;
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const Move m = game.moves[i];
        if (int(i) >= opt.skip_plies && !pos.in_check() && !pos.is_capture(m))
            out.push_back({pos.fen(), result, game_number, std::nullopt});
        UndoInfo undo;
        pos.do_move(m, undo);
    }
    return out;
}

std::string position_key(std::string_view fen) {
    const auto space = fen.find(' ');
    const auto end = space == std::string_view::npos ? space : fen.find(' ', space + 1);
    return std::string(fen.substr(0, end));
}

bool read_pgn_positions(std::string_view text, const PgnPositionOptions& opt, int& next_game,
                        std::unordered_set<std::string>& seen, std::vector<Sample>& out,
                        PgnPositionsSummary& summary, std::string& error) {
    const std::vector<PgnReadResult> games = read_pgn_all(text);
    for (const PgnReadResult& g : games) {
        if (!g.ok) {
            error = "line " + std::to_string(g.line) + ": " + g.error;
            return false;
        }
    }
    for (const PgnReadResult& g : games) {
        const int number = next_game++;
        ++summary.games;
        if (g.game.result == Outcome::Ongoing) {
            ++summary.unfinished;
            continue;
        }
        for (Sample& s : pgn_game_samples(g.game, number, opt)) {
            if (!seen.insert(position_key(s.fen)).second) {
                ++summary.repeated;
                continue;
            }
            out.push_back(std::move(s));
            ++summary.samples;
        }
    }
    return true;
}

int positions_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-tune positions OUT PGN... [--skip-plies N] [--first-game G]\n";
        return 2;
    };
    if (argc < 4) return usage();
    const std::string out_path = argv[2];
    PgnPositionOptions opt;
    int next_game = 0;
    std::vector<std::string> inputs;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--skip-plies" || a == "--first-game") {
            if (i + 1 >= argc) return usage();
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (!argv[i][0] || *end || v < 0 || v > 1'000'000'000) {
                std::cerr << "error: bad value for " << a << ": " << argv[i] << "\n";
                return 2;
            }
            (a == "--skip-plies" ? opt.skip_plies : next_game) = int(v);
        } else if (a.rfind("--", 0) == 0) {
            std::cerr << "error: unknown option " << a << "\n";
            return usage();
        } else {
            inputs.push_back(a);
        }
    }
    if (inputs.empty()) return usage();
    std::unordered_set<std::string> seen;
    std::vector<Sample> samples;
    PgnPositionsSummary summary;
    for (const std::string& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << "error: cannot read " << path << "\n";
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        std::string error;
        if (!read_pgn_positions(text.str(), opt, next_game, seen, samples, summary, error)) {
            std::cerr << "error: " << path << ", " << error << " (nothing written)\n";
            return 1;
        }
    }
    std::ofstream out(out_path, std::ios::trunc);
    for (const Sample& s : samples) out << format_sample(s) << "\n";
    out.close();
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    std::cout << "wrote " << summary.samples << " positions of " << summary.games - summary.unfinished
              << " finished games to " << out_path << " (" << summary.unfinished << " unfinished games skipped, "
              << summary.repeated << " repeated positions; games numbered up to " << next_game - 1 << ")\n";
    return 0;
}

}  // namespace xq::engine
