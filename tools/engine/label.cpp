#include "label.h"


#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "selfplay.h"

namespace xq::engine {

std::optional<int> parse_uci_score(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::vector<std::string> t;
    for (std::string w; in >> w;) t.push_back(w);
    if (t.empty() || t[0] != "info") return std::nullopt;
    for (std::size_t i = 1; i < t.size(); ++i) {
        if (t[i] != "score") continue;
        if (i + 2 >= t.size()) return std::nullopt;
        if (i + 3 < t.size() && (t[i + 3] == "lowerbound" || t[i + 3] == "upperbound")) return std::nullopt;
        char* end = nullptr;
        const long v = std::strtol(t[i + 2].c_str(), &end, 10);
        if (*end) return std::nullopt;
        if (t[i + 1] == "cp") return int(std::clamp<long>(v, -LABEL_MAX_CP, LABEL_MAX_CP));
        if (t[i + 1] == "mate") return v > 0 ? LABEL_MAX_CP : -LABEL_MAX_CP;  // "mate 0": mated
        return std::nullopt;
    }
    return std::nullopt;
}

int own_label(Engine& engine, const Position& pos, std::uint64_t nodes) {
    engine.new_game();
    Limits limits;
    limits.nodes = nodes;
    const Result r = engine.search(pos, {}, limits);
    int v = std::clamp(r.score_cp, -LABEL_MAX_CP, LABEL_MAX_CP);
    if (r.mate_in != 0) v = r.mate_in > 0 ? LABEL_MAX_CP : -LABEL_MAX_CP;
    return pos.side_to_move() == RED ? v : -v;
}

bool UciLabeller::wait_for(const std::string& token, std::string& error) {
    while (auto line = child_.read_line())
        if (line->rfind(token, 0) == 0) return true;
    error = "the engine ended before '" + token + "'";
    return false;
}

bool UciLabeller::start(const std::vector<std::string>& argv,
                        const std::vector<std::pair<std::string, std::string>>& options, std::string& error) {
    if (argv.empty()) {
        error = "no engine program";
        return false;
    }
    if (!child_.start(argv, error)) return false;
    if (!child_.send("uci") || !wait_for("uciok", error)) {
        error = "cannot start " + argv[0] + " as a UCI engine: " + error;
        return false;
    }
    for (const auto& [name, value] : options)
        if (!child_.send("setoption name " + name + " value " + value)) break;
    if (!child_.send("isready") || !wait_for("readyok", error)) return false;
    return true;
}

std::optional<int> UciLabeller::label(const Position& pos, const std::string& go, std::string& error) {
    if (!child_.send("ucinewgame") || !child_.send("position fen " + pos.fen()) || !child_.send(go)) {
        error = "the engine stopped reading";
        return std::nullopt;
    }
    std::optional<int> score;
    while (auto line = child_.read_line()) {
        if (line->rfind("bestmove", 0) == 0) {
            if (!score) {
                error = "no score before '" + *line + "' for " + pos.fen();
                return std::nullopt;
            }
            return pos.side_to_move() == RED ? *score : -*score;
        }
        if (const auto s = parse_uci_score(*line)) score = s;
    }
    error = "the engine ended during a search";
    return std::nullopt;
}

int label_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-tune label IN OUT [--nodes N] [--uci PROGRAM [--uci-option NAME=VALUE]...]\n"
                     "  every position of IN gets a search score (Red's view) as a fourth field in OUT:\n"
                     "  our engine's (default) or the UCI engine's after 'go nodes N' (default 20000)\n";
        return 2;
    };
    if (argc < 4) return usage();
    const std::string in_path = argv[2], out_path = argv[3];
    std::uint64_t nodes = 20000;
    std::vector<std::string> uci;
    std::vector<std::pair<std::string, std::string>> options;
    for (int i = 4; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        const std::string v = argv[++i];
        if (a == "--nodes") {
            char* end = nullptr;
            const long long n = std::strtoll(v.c_str(), &end, 10);
            if (v.empty() || *end || n < 1 || n > 1'000'000'000) return usage();
            nodes = std::uint64_t(n);
        } else if (a == "--uci") {
            std::istringstream words(v);
            for (std::string w; words >> w;) uci.push_back(w);
        } else if (a == "--uci-option") {
            const auto eq = v.find('=');
            if (eq == std::string::npos || eq == 0) {
                std::cerr << "error: --uci-option needs NAME=VALUE\n";
                return 2;
            }
            options.emplace_back(v.substr(0, eq), v.substr(eq + 1));
        } else {
            std::cerr << "error: bad option: " << a << "\n";
            return usage();
        }
    }
    std::ifstream in(in_path);
    if (!in) {
        std::cerr << "error: cannot read " << in_path << "\n";
        return 1;
    }
    std::ofstream out(out_path, std::ios::trunc);
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    UciLabeller outside;
    std::optional<Engine> own;
    std::string error;
    if (!uci.empty()) {
        if (!outside.start(uci, options, error)) {
            std::cerr << "error: " << error << "\n";
            return 1;
        }
    } else {
        own.emplace(16);
    }
    const std::string go = "go nodes " + std::to_string(nodes);
    const auto t0 = std::chrono::steady_clock::now();
    long long done = 0;
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        if (line.empty() || line[0] == '#') continue;
        auto s = parse_sample(line, error);
        if (!s) {
            std::cerr << "error: " << in_path << ":" << line_no << ": " << error << "\n";
            return 1;
        }
        Position pos;
        pos.set_fen(s->fen);
        if (own) {
            s->score = own_label(*own, pos, nodes);
        } else {
            s->score = outside.label(pos, go, error);
            if (!s->score) {
                std::cerr << "error: " << in_path << ":" << line_no << ": " << error << "\n";
                return 1;
            }
        }
        out << format_sample(*s) << "\n";
        if (++done % 5000 == 0) {
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::cerr << "labelled " << done << " positions, " << int(secs) << " s\n";
            out.flush();
        }
    }
    out.close();
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "labelled " << done << " positions of " << in_path << " into " << out_path << " in " << secs << " s\n";
    return 0;
}

}  // namespace xq::engine
