// xiangqi-match: plays N games between two UCI engines (e.g. xiangqi-engine and
// Fairy-Stockfish) with the rules library as referee, each opening with both colours, and
// prints W/D/L, the score and an Elo difference with a 95% error bar.
//
//   xiangqi-match --engine1 build/bin/xiangqi-engine --option1 Level=10
//                 --engine2 /usr/games/fairy-stockfish --option2 "Skill Level=10"
//                 --games 24 --movetime 200 [--pgn out.pgn] [--max-plies 400] [--quiet]
//
// Engines that introduce themselves as Fairy-Stockfish get `UCI_Variant xiangqi` and their
// rank numbering (1-10) is translated to ours (0-9) at this boundary. Engines run as child
// processes on pipes; nothing here touches the network.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "child_process.h"
#include "opening_lines.h"
#include "xiangqi/game.h"
#include "xiangqi/pgn.h"

namespace {

using namespace xq;
using Clock = std::chrono::steady_clock;

constexpr int DEFAULT_GAMES = 24;
constexpr int DEFAULT_MOVETIME_MS = 200;
constexpr int DEFAULT_MAX_PLIES = 400;   // adjudicated as a draw beyond this
constexpr int REPLY_GRACE_MS = 2000;     // an engine later than movetime + this forfeits
constexpr int HANDSHAKE_TIMEOUT_MS = 10000;

// Short, common openings (ICCS moves from the start), each played with both colours.
const std::vector<std::string> OPENINGS = {
    "h2e2 h9g7",       // central cannon against the screen horse
    "h2e2 h7e7",       // same-direction cannons
    "c3c4 g6g5",       // pawn opening, opposite pawn
    "b2e2 b9c7",       // central cannon (left) against horse
    "c0e2 h7e7",       // elephant opening against central cannon
    "h0g2 h9g7",       // horse opening
    "h2d2 h9g7",       // cross-palace cannon
    "g3g4 h9g7",       // pawn opening
    "h2e2 b9c7 h0g2",  // central cannon, screen horses
    "b2d2 h7e7",       // cross-palace cannon against central cannon
    "c3c4 b9c7",       // pawn opening against horse
    "h2f2 h9g7",       // edge-rib cannon
};

struct Options {
    std::string engine[2];
    std::vector<std::string> options[2];
    int games = DEFAULT_GAMES;
    int movetime = DEFAULT_MOVETIME_MS;
    int engine_movetime[2] = {0, 0};  // --movetime1/--movetime2: one engine's own time (0: movetime)
    long long nodes = 0;  // when set, `go nodes N` instead of movetime (faster, reproducible tuning)
    long long engine_nodes[2] = {0, 0};  // --nodes1/--nodes2: one engine's own node limit (0: nodes)
    int max_plies = DEFAULT_MAX_PLIES;
    std::string pgn_path;
    bool quiet = false;
    std::vector<std::string> openings = OPENINGS;  // --openings FILE replaces the built-in list
};

Move from_engine_text(const Position& pos, const std::string& text, bool fsf);

// A UCI engine in a child process.
class EngineProcess {
public:
    bool start(const std::string& command, std::string& error) {
        std::vector<std::string> args;
        std::istringstream in(command);
        for (std::string a; in >> a;) args.push_back(a);
        if (args.empty()) {
            error = "empty engine command";
            return false;
        }
        return child_.start(args, error);
    }

    ~EngineProcess() { shutdown(); }

    void send(const std::string& line) { child_.send(line); }

    // Next line, or nullopt after timeout_ms or end of output.
    std::optional<std::string> read_line(int timeout_ms) { return child_.read_line(timeout_ms); }

    // Reads until a line starting with `prefix`; returns it or nullopt on timeout.
    std::optional<std::string> wait_for(const std::string& prefix, int timeout_ms,
                                        std::vector<std::string>* seen = nullptr) {
        const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return std::nullopt;
            auto line = read_line(int(left));
            if (!line) return std::nullopt;
            if (seen) seen->push_back(*line);
            if (line->rfind(prefix, 0) == 0) return line;
        }
    }

    void shutdown() { child_.stop("quit"); }

    bool fsf = false;  // Fairy-Stockfish: ranks 1-10 in its move text
    std::string name;

private:
    tools::ChildProcess child_;
};

// Fairy-Stockfish writes ranks 1..10; we write 0..9.
std::string to_engine_text(Move m, bool fsf) {
    if (!fsf) return move_to_iccs(m);
    std::string out;
    for (Square s : {m.from(), m.to()}) {
        out += char('a' + file_of(s));
        out += std::to_string(rank_of(s) + 1);
    }
    return out;
}

Move from_engine_text(const Position& pos, const std::string& text, bool fsf) {
    std::size_t i = 0;
    auto square = [&](Square& out) -> bool {
        if (i >= text.size() || text[i] < 'a' || text[i] > 'i') return false;
        const int file = text[i++] - 'a';
        int rank = 0, digits = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 2) {
            rank = rank * 10 + (text[i++] - '0');
            ++digits;
        }
        if (!digits) return false;
        if (fsf) --rank;
        if (rank < 0 || rank > 9) return false;
        out = make_square(file, rank);
        return true;
    };
    Square from, to;
    if (!square(from) || !square(to) || i != text.size()) return Move::none();
    MoveList legal;
    pos.generate_legal(legal);
    for (Move m : legal)
        if (m.from() == from && m.to() == to) return m;
    return Move::none();
}

bool handshake(EngineProcess& e, const std::vector<std::string>& options, std::string& error) {
    e.send("uci");
    std::vector<std::string> seen;
    if (!e.wait_for("uciok", HANDSHAKE_TIMEOUT_MS, &seen)) {
        error = "no uciok";
        return false;
    }
    for (const auto& l : seen)
        if (l.rfind("id name ", 0) == 0) e.name = l.substr(8);
    e.fsf = e.name.find("Fairy-Stockfish") != std::string::npos;
    if (e.fsf) e.send("setoption name UCI_Variant value xiangqi");
    for (const auto& opt : options) {
        const auto eq = opt.find('=');
        if (eq == std::string::npos) {
            error = "option must be Name=Value: " + opt;
            return false;
        }
        e.send("setoption name " + opt.substr(0, eq) + " value " + opt.substr(eq + 1));
    }
    e.send("isready");
    if (!e.wait_for("readyok", HANDSHAKE_TIMEOUT_MS)) {
        error = "no readyok";
        return false;
    }
    return true;
}

struct GameOutcome {
    double score_first = 0.5;  // for engine 1
    std::string result;        // "1-0" ...
    std::string reason;
    int plies = 0;
};

GameOutcome play_game(EngineProcess* eng[2], int red_index, const std::string& opening, const Options& opt,
                      std::string& pgn_out, int round) {
    Game game;
    std::istringstream in(opening);
    for (std::string t; in >> t;) {
        const Move m = from_engine_text(game.position(), t, false);
        if (!m || !game.play(m)) break;
    }
    for (int i = 0; i < 2; ++i) {
        eng[i]->send("ucinewgame");
        eng[i]->send("isready");
        eng[i]->wait_for("readyok", HANDSHAKE_TIMEOUT_MS);
    }
    GameOutcome out;
    auto finish = [&](Outcome o, const std::string& reason) {
        if (!game.over()) {
            EndReason r = EndReason::Abandonment;
            if (reason.find("time") != std::string::npos) r = EndReason::Timeout;
            game.finish(o, r, reason);
        }
        out.result = std::string(outcome_pgn(game.result().outcome));
        out.reason = game.result().text;
        const Outcome res = game.result().outcome;
        const bool first_red = red_index == 0;
        if (res == Outcome::Draw) out.score_first = 0.5;
        else out.score_first = ((res == Outcome::RedWins) == first_red) ? 1.0 : 0.0;
    };
    while (!game.over()) {
        if (game.ply() >= opt.max_plies) {
            game.finish(Outcome::Draw, EndReason::Agreement, "Draw: adjudicated after " + std::to_string(opt.max_plies) + " plies");
            break;
        }
        const int side = game.side_to_move() == RED ? red_index : 1 - red_index;
        EngineProcess& e = *eng[side];
        std::string pos = "position startpos";
        if (!game.moves().empty()) {
            pos += " moves";
            for (Move m : game.moves()) {
                pos += ' ';
                pos += to_engine_text(m, e.fsf);
            }
        }
        e.send(pos);
        const int movetime = opt.engine_movetime[side] > 0 ? opt.engine_movetime[side] : opt.movetime;
        const long long nodes = opt.engine_nodes[side] > 0 ? opt.engine_nodes[side] : opt.nodes;
        if (nodes > 0) e.send("go nodes " + std::to_string(nodes));
        else e.send("go movetime " + std::to_string(movetime));
        const auto line = e.wait_for("bestmove", (nodes > 0 ? 60000 : movetime) + REPLY_GRACE_MS);
        const Outcome they_win = game.side_to_move() == RED ? Outcome::BlackWins : Outcome::RedWins;
        const std::string who = std::string(color_name(game.side_to_move()));
        if (!line) {
            finish(they_win, who + " loses on time (no bestmove)");
            break;
        }
        std::istringstream ls(*line);
        std::string word, text;
        ls >> word >> text;
        const Move m = from_engine_text(game.position(), text, e.fsf);
        if (!m) {
            finish(they_win, who + " loses: illegal move '" + text + "' from " + e.name);
            break;
        }
        game.play(m);
    }
    if (out.result.empty()) finish(Outcome::Draw, "");
    out.plies = game.ply();
    PgnTags tags = {{"Event", "xiangqi-match"},
                    {"Round", std::to_string(round)},
                    {"Red", eng[red_index]->name},
                    {"Black", eng[1 - red_index]->name},
                    {"Termination", game.result().text}};
    pgn_out += write_pgn(game, tags, Notation::Iccs) + "\n";
    return out;
}

double elo_of(double p) {
    p = std::clamp(p, 1e-3, 1 - 1e-3);
    return -400.0 * std::log10(1.0 / p - 1.0);
}

int usage() {
    std::cerr << "usage: xiangqi-match --engine1 CMD [--option1 Name=Value]... --engine2 CMD [--option2 Name=Value]...\n"
                 "                     [--games N] [--movetime MS | --nodes N] [--movetime1 MS] [--movetime2 MS] [--nodes1 N] [--nodes2 N] [--max-plies N] [--pgn FILE] [--quiet]\n"
                 "                     [--openings FILE]  (one opening per line; default: the built-in tuning list)\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    signal(SIGPIPE, SIG_IGN);
    Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::optional<std::string> {
            if (i + 1 >= argc) return std::nullopt;
            return std::string(argv[++i]);
        };
        auto number = [&](int lo, int hi, int& out) -> bool {
            const auto v = value();
            if (!v) return false;
            try {
                const int n = std::stoi(*v);
                if (n < lo || n > hi) return false;
                out = n;
                return true;
            } catch (...) {
                return false;
            }
        };
        if (a == "--engine1" || a == "--engine2") {
            const auto v = value();
            if (!v) return usage();
            opt.engine[a == "--engine2"] = *v;
        } else if (a == "--option1" || a == "--option2") {
            const auto v = value();
            if (!v) return usage();
            opt.options[a == "--option2"].push_back(*v);
        } else if (a == "--games") {
            if (!number(1, 10000, opt.games)) return usage();
        } else if (a == "--movetime") {
            if (!number(1, 600000, opt.movetime)) return usage();
        } else if (a == "--movetime1" || a == "--movetime2") {
            if (!number(1, 600000, opt.engine_movetime[a == "--movetime2"])) return usage();
        } else if (a == "--nodes") {
            int n = 0;
            if (!number(1, 1000000000, n)) return usage();
            opt.nodes = n;
        } else if (a == "--nodes1" || a == "--nodes2") {
            int n = 0;
            if (!number(1, 1000000000, n)) return usage();
            opt.engine_nodes[a == "--nodes2"] = n;
        } else if (a == "--max-plies") {
            if (!number(10, 5000, opt.max_plies)) return usage();
        } else if (a == "--pgn") {
            const auto v = value();
            if (!v) return usage();
            opt.pgn_path = *v;
        } else if (a == "--quiet") {
            opt.quiet = true;
        } else if (a == "--openings") {
            const auto v = value();
            std::string error;
            if (!v) return usage();
            if (!load_opening_lines(*v, opt.openings, error)) {
                std::cerr << "xiangqi-match: " << error << "\n";
                return 2;
            }
        } else {
            std::cerr << "unknown argument: " << a << "\n";
            return usage();
        }
    }
    if (opt.engine[0].empty() || opt.engine[1].empty()) return usage();

    EngineProcess e1, e2;
    EngineProcess* eng[2] = {&e1, &e2};
    for (int i = 0; i < 2; ++i) {
        std::string error;
        if (!eng[i]->start(opt.engine[i], error) || !handshake(*eng[i], opt.options[i], error)) {
            std::cerr << "engine " << i + 1 << " (" << opt.engine[i] << "): " << error << "\n";
            return 1;
        }
    }
    auto limit_text = [&](int i) {
        const long long n = opt.engine_nodes[i] > 0 ? opt.engine_nodes[i] : opt.nodes;
        if (n > 0) return "nodes " + std::to_string(n);
        return "movetime " + std::to_string(opt.engine_movetime[i] ? opt.engine_movetime[i] : opt.movetime) + " ms";
    };
    auto label = [&](int i) {
        std::string s = eng[i]->name;
        for (const auto& o : opt.options[i]) s += " " + o;
        return s;
    };
    std::cout << "engine 1: " << label(0) << "\nengine 2: " << label(1) << "\n"
              << opt.games << " games, "
              << limit_text(0) << " / " << limit_text(1)
              << ", " << opt.openings.size() << " openings\n";

    int wins = 0, draws = 0, losses = 0;
    std::vector<double> scores;
    std::string pgn;
    for (int g = 0; g < opt.games; ++g) {
        const std::string& opening = opt.openings[std::size_t(g / 2) % opt.openings.size()];
        const int red_index = g % 2;  // engine 1 is Red in even games
        const GameOutcome o = play_game(eng, red_index, opening, opt, pgn, g + 1);
        scores.push_back(o.score_first);
        if (o.score_first == 1.0) ++wins;
        else if (o.score_first == 0.0) ++losses;
        else ++draws;
        if (!opt.quiet)
            std::cout << "game " << g + 1 << "/" << opt.games << " [" << opening << "] engine 1 plays "
                      << (red_index == 0 ? "Red" : "Black") << ": " << o.result << " (" << o.reason << ", "
                      << o.plies << " plies)  running W/D/L " << wins << "/" << draws << "/" << losses << std::endl;
    }
    const double n = double(scores.size());
    const double p = (wins + 0.5 * draws) / n;
    double var = 0;
    for (double s : scores) var += (s - p) * (s - p);
    var /= n;
    const double se = std::sqrt(var / n);
    const double elo = elo_of(p);
    const double lo = elo_of(p - 1.96 * se), hi = elo_of(p + 1.96 * se);
    // Near 0% or 100% the interval is lopsided (and open-ended at the extremes): print it.
    auto bound = [](double q, double e) {
        if (q <= 0) return std::string("-inf");
        if (q >= 1) return std::string("+inf");
        char t[32];
        std::snprintf(t, sizeof t, "%+.0f", e);
        return std::string(t);
    };
    char buf[320];
    std::snprintf(buf, sizeof buf, "Score of engine 1 vs engine 2: W/D/L %d/%d/%d  score %.1f%% (%.1f/%d)\n"
                                   "Elo difference: %+.0f +/- %.0f (95%%), interval [%s, %s]\n",
                  wins, draws, losses, 100 * p, wins + 0.5 * draws, int(n), elo, (hi - lo) / 2,
                  bound(p - 1.96 * se, lo).c_str(), bound(p + 1.96 * se, hi).c_str());
    if (var == 0 && (wins == int(n) || losses == int(n)))
        std::snprintf(buf, sizeof buf, "Score of engine 1 vs engine 2: W/D/L %d/%d/%d  score %.1f%% (%.1f/%d)\n"
                                       "Elo difference: %s (every game %s; no finite estimate)\n",
                      wins, draws, losses, 100 * p, wins + 0.5 * draws, int(n), wins ? "+inf" : "-inf",
                      wins ? "won" : "lost");
    std::cout << buf;
    if (!opt.pgn_path.empty()) {
        std::ofstream f(opt.pgn_path);
        f << pgn;
    }
    return 0;
}
