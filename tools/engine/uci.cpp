#include "uci.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "book/book_player.h"
#include "engine/bench.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::engine {

namespace {

constexpr int DEFAULT_HASH_MB = 16;
constexpr int MAX_HASH_MB = 4096;
constexpr int MAX_PERFT_DEPTH = 12;
constexpr int MAX_THREADS = Engine::MAX_THREADS;  // Lazy SMP; see docs/engine.md
constexpr std::size_t MAX_LINE = 64 * 1024;

enum class Protocol { Uci, Ucci };

bool parse_int(const std::string& s, long long lo, long long hi, long long& out) {
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return false;
    out = v;
    return true;
}

bool parse_move(const Position& pos, const std::string& text, Move& out) {
    if (text.size() != 4) return false;
    const Square from = square_from_string(text.substr(0, 2));
    const Square to = square_from_string(text.substr(2, 2));
    if (from == SQ_NONE || to == SQ_NONE) return false;
    MoveList legal;
    pos.generate_legal(legal);
    for (Move m : legal)
        if (m.from() == from && m.to() == to) {
            out = m;
            return true;
        }
    return false;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace

struct UciSession::Impl {
    std::ostream& out;
    std::mutex out_mutex;
    Protocol proto = Protocol::Uci;
    bool first_command = true;

    Engine engine{DEFAULT_HASH_MB};
    Position start;
    std::vector<Move> moves;
    Position current;
    std::vector<Move> banmoves;
    int level = MAX_LEVEL;
    std::uint64_t seed = 0;
    bool ucci_millisec = false;
    std::optional<book::Book> book;  // option BookFile (xiangqi-engine book build)

    std::thread worker;
    std::atomic<bool> stop{false};
    std::atomic<bool> searching{false};
    bool infinite_search = false;  // the running search ends only by stop

    explicit Impl(std::ostream& o) : out(o) {}

    void say(const std::string& line) {
        std::lock_guard<std::mutex> lock(out_mutex);
        out << line << std::endl;
    }
    void error(const std::string& what) { say("info string error: " + what); }

    void wait(bool do_stop) {
        if (worker.joinable()) {
            if (do_stop || infinite_search) stop = true;
            worker.join();
        }
    }

    void cmd_uci() {
        say("id name xiangqi-engine");
        say("id author the LAN Xiangqi team");
        say("option name Hash type spin default " + std::to_string(DEFAULT_HASH_MB) + " min 1 max " +
            std::to_string(MAX_HASH_MB));
        say("option name Threads type spin default 1 min 1 max " + std::to_string(MAX_THREADS));
        say("option name Level type spin default 10 min 1 max 10");
        say("option name Seed type spin default 0 min 0 max 2147483647");
        say("option name Clear Hash type button");
        say("option name BookFile type string default <empty>");
        say("option name UCI_Variant type combo default xiangqi var xiangqi");
        say("uciok");
    }

    void cmd_ucci() {
        proto = Protocol::Ucci;
        say("id name xiangqi-engine");
        say("id author the LAN Xiangqi team");
        say("option usemillisec type check default false");
        say("option hashsize type spin min 1 max " + std::to_string(MAX_HASH_MB) + " default " +
            std::to_string(DEFAULT_HASH_MB));
        say("option level type spin min 1 max 10 default 10");
        say("option seed type spin min 0 max 2147483647 default 0");
        say("ucciok");
    }

    bool set_option(const std::string& name_in, const std::string& value) {
        const std::string name = lower(name_in);
        long long v = 0;
        if (name == "hash" || name == "hashsize") {
            if (!parse_int(value, 1, MAX_HASH_MB, v)) {
                error("Hash needs a number 1.." + std::to_string(MAX_HASH_MB) + " (MiB)");
                return false;
            }
            engine.set_hash_mb(std::size_t(v));
        } else if (name == "level") {
            if (!parse_int(value, MIN_LEVEL, MAX_LEVEL, v)) {
                error("Level needs a number 1..10");
                return false;
            }
            level = int(v);
        } else if (name == "threads") {
            if (!parse_int(value, 1, MAX_THREADS, v)) {
                error("Threads needs a number 1.." + std::to_string(MAX_THREADS));
                return false;
            }
            engine.set_threads(int(v));
        } else if (name == "seed") {
            if (!parse_int(value, 0, 0x7FFFFFFFLL, v)) {
                error("Seed needs a number 0..2147483647");
                return false;
            }
            seed = std::uint64_t(v);
        } else if (name == "bookfile") {
            if (value.empty() || value == "<empty>") {
                book.reset();
                return true;
            }
            std::ifstream in(value, std::ios::binary);
            if (!in) {
                error("BookFile: cannot read " + value);
                return false;
            }
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::string why;
            auto loaded = book::Book::parse(text, &why);
            if (!loaded) {
                error("BookFile " + value + ": " + why);
                return false;
            }
            book = std::move(*loaded);
            say("info string book " + value + ": " + std::to_string(book->positions()) + " positions");
        } else if (name == "clear hash") {
            engine.new_game();
        } else if (name == "uci_variant") {
            if (lower(value) != "xiangqi") error("only UCI_Variant xiangqi is supported");
        } else if (name == "usemillisec") {
            ucci_millisec = lower(value) == "true" || value == "1";
        } else if (name == "ponder" || name == "multipv" || name == "uci_showwdl" || name == "move overhead" ||
                   name == "batch" || name == "debug" || name == "newgame" || name == "promotion" ||
                   name == "idle" || name == "style" || name == "knowledge" || name == "pruning" ||
                   name == "randomness" || name == "bookfiles" || name == "usebook" || name == "evalfile") {
            // Known GUI options without effect here: accepted silently.
        } else {
            error("unknown option '" + name_in + "'");
            return false;
        }
        return true;
    }

    void cmd_setoption(std::istringstream& in) {
        std::vector<std::string> tokens;
        for (std::string t; in >> t;) tokens.push_back(t);
        if (proto == Protocol::Ucci && (tokens.empty() || tokens[0] != "name")) {
            // UCCI: setoption <name> <value>
            if (tokens.empty()) {
                error("setoption needs a name");
                return;
            }
            if (tokens[0] == "newgame") {
                engine.new_game();
                return;
            }
            set_option(tokens[0], tokens.size() > 1 ? tokens[1] : "");
            return;
        }
        // UCI: setoption name <words...> [value <words...>]
        std::string name, value;
        std::size_t i = 0;
        if (tokens.empty() || tokens[0] != "name") {
            error("expected 'setoption name <name> [value <value>]'");
            return;
        }
        for (i = 1; i < tokens.size() && tokens[i] != "value"; ++i) name += (name.empty() ? "" : " ") + tokens[i];
        for (++i; i < tokens.size(); ++i) value += (value.empty() ? "" : " ") + tokens[i];
        if (name.empty()) {
            error("setoption needs a name");
            return;
        }
        set_option(name, value);
    }

    void cmd_position(std::istringstream& in) {
        std::string token;
        in >> token;
        Position s;
        if (token == "fen") {
            std::string fen, part;
            bool has_moves = false;
            while (in >> part) {
                if (part == "moves") {
                    has_moves = true;
                    break;
                }
                fen += part + " ";
            }
            if (const FenError e = s.set_fen(fen); e != FenError::None) {
                error("bad FEN: " + std::string(fen_error_message(e)));
                return;
            }
            token = has_moves ? "moves" : "";
        } else if (token == "startpos") {
            token.clear();
            in >> token;
        } else {
            error("expected 'position startpos' or 'position fen <fen>'");
            return;
        }
        std::vector<Move> ms;
        Position cur = s;
        if (token == "moves") {
            std::string mt;
            UndoInfo u;
            while (in >> mt) {
                Move m;
                if (!parse_move(cur, mt, m)) {
                    error("illegal move " + mt);
                    return;
                }
                cur.do_move(m, u);
                ms.push_back(m);
            }
        } else if (!token.empty()) {
            error("expected 'moves' after the position, got '" + token + "'");
            return;
        }
        start = s;
        moves = std::move(ms);
        current = cur;
        banmoves.clear();
    }

    void cmd_banmoves(std::istringstream& in) {
        banmoves.clear();
        for (std::string mt; in >> mt;) {
            Move m;
            if (!parse_move(current, mt, m)) {
                error("banmoves: not a legal move " + mt);
                continue;
            }
            banmoves.push_back(m);
        }
    }

    void cmd_perft(int depth) {
        const auto t0 = std::chrono::steady_clock::now();
        MoveList list;
        current.generate_legal(list);
        std::uint64_t total = 0;
        Position pos = current;
        UndoInfo u;
        std::ostringstream text;
        for (Move m : list) {
            std::uint64_t n = 1;
            if (depth > 1) {
                pos.do_move(m, u);
                n = perft(pos, depth - 1);
                pos.undo_move(m, u);
            }
            total += n;
            text << move_to_iccs(m) << ": " << n << "\n";
        }
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - t0).count();
        text << "\nNodes searched: " << total << "\n";
        text << "info string perft time " << ms << " ms";
        say(text.str());
    }

    void cmd_bench(std::istringstream& in) {
        int depth = BENCH_DEPTH;
        std::string t;
        if (in >> t) {
            long long v = 0;
            if (!parse_int(t, 1, 30, v)) {
                error("bench depth must be 1..30");
                return;
            }
            depth = int(v);
        }
        const BenchResult r = run_bench(depth);
        std::ostringstream text;
        for (std::size_t i = 0; i < r.positions.size(); ++i) {
            const auto& p = r.positions[i];
            text << "position " << i + 1 << ": bestmove " << move_to_iccs(p.best) << " score " << p.score_cp
                 << " nodes " << p.nodes << "\n";
        }
        text << "===========================\n";
        text << "Total time (ms) : " << r.elapsed_ms << "\n";
        text << "Nodes searched  : " << r.nodes << "\n";
        text << "Nodes/second    : " << r.nps;
        say(text.str());
    }

    std::string score_text(int cp, int mate) const {
        if (proto == Protocol::Ucci) return mate ? "score " + std::to_string(mate > 0 ? 30000 - (2 * mate - 1) : -30000 + 2 * -mate) : "score " + std::to_string(cp);
        return mate ? "score mate " + std::to_string(mate) : "score cp " + std::to_string(cp);
    }

    void cmd_go(std::istringstream& in) {
        std::vector<std::string> tokens;
        for (std::string t; in >> t;) tokens.push_back(t);
        if (!tokens.empty() && tokens[0] == "perft") {
            long long d = 0;
            if (tokens.size() < 2 || !parse_int(tokens[1], 1, MAX_PERFT_DEPTH, d)) {
                error("go perft needs a depth 1..12");
                return;
            }
            cmd_perft(int(d));
            return;
        }
        Limits lim;
        lim.level = level;
        lim.seed = seed;
        lim.banmoves = banmoves;
        bool wait_for_stop = false;
        const Color us = current.side_to_move();
        auto number = [&](std::size_t& i, long long lo, long long hi, long long& v) -> bool {
            if (i + 1 >= tokens.size() || !parse_int(tokens[i + 1], lo, hi, v)) {
                error("go " + tokens[i] + " needs a number");
                return false;
            }
            ++i;
            return true;
        };
        constexpr long long MAX_MS = 1LL << 30;
        const long long unit = (proto == Protocol::Ucci && !ucci_millisec) ? 1000 : 1;
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const std::string& t = tokens[i];
            long long v = 0;
            if (t == "infinite") {
                lim.infinite = true;
                wait_for_stop = true;
            } else if (t == "ponder") {
                lim.infinite = true;  // pondering searches until ponderhit or stop
                wait_for_stop = true;
            } else if (t == "draw") {
                // UCCI: the opponent offers a draw; we never accept through this engine.
            } else if (t == "depth") {
                if (number(i, 1, 64, v)) lim.depth = int(v);
            } else if (t == "nodes") {
                if (number(i, 1, 1LL << 50, v)) lim.nodes = std::uint64_t(v);
            } else if (t == "mate") {
                if (number(i, 1, 30, v)) lim.depth = int(2 * v + 1);
            } else if (t == "movetime") {
                if (number(i, 0, MAX_MS, v)) lim.movetime_ms = int(std::max(1LL, v));
            } else if (t == "wtime" || t == "btime") {
                if (number(i, -MAX_MS, MAX_MS, v)) lim.time_ms[t == "wtime" ? RED : BLACK] = int(std::max(1LL, v));
            } else if (t == "winc" || t == "binc") {
                if (number(i, 0, MAX_MS, v)) lim.inc_ms[t == "winc" ? RED : BLACK] = int(v);
            } else if (t == "movestogo") {
                if (number(i, 1, 1000, v)) lim.movestogo = int(v);
            } else if (t == "time") {  // UCCI
                if (number(i, 0, MAX_MS, v)) lim.time_ms[us] = int(std::max(1LL, v * unit));
            } else if (t == "increment") {
                if (number(i, 0, MAX_MS, v)) lim.inc_ms[us] = int(v * unit);
            } else if (t == "opptime") {
                if (number(i, 0, MAX_MS, v)) lim.time_ms[~us] = int(v * unit);
            } else if (t == "oppincrement") {
                if (number(i, 0, MAX_MS, v)) lim.inc_ms[~us] = int(v * unit);
            } else if (t == "oppmovestogo") {
                number(i, 0, 1000, v);
            } else if (t == "searchmoves") {
                for (++i; i < tokens.size(); ++i) {
                    Move m;
                    if (!parse_move(current, tokens[i], m)) {
                        --i;
                        break;
                    }
                    lim.searchmoves.push_back(m);
                }
            } else {
                error("go: unknown parameter '" + t + "'");
            }
        }
        wait(true);
        stop = false;
        searching = true;
        // Without any limit the search ends only by stop, like `go infinite` (but answers
        // as soon as it ends by itself).
        const bool unbounded = lim.depth == 0 && lim.nodes == 0 && lim.movetime_ms == 0 &&
                               lim.time_ms[us] == 0 && level == MAX_LEVEL;
        infinite_search = wait_for_stop || unbounded;
        // A finite search from a position the book knows plays from the book (checked by a
        // short search, see book_player.h).
        std::vector<book::BookMove> from_book;
        if (book && !infinite_search) from_book = book->candidates(current);
        worker = std::thread([this, lim, wait_for_stop, from_book] {
            const Position s = start;
            const std::vector<Move> ms = moves;
            auto progress = [this](const Progress& p) {
                if (!p.iteration_done) return;
                std::ostringstream line;
                line << "info depth " << p.depth;
                if (proto == Protocol::Uci) line << " seldepth " << p.seldepth << " multipv 1";
                line << " " << score_text(p.score_cp, p.mate_in) << " nodes " << p.nodes << " nps " << p.nps;
                if (proto == Protocol::Uci) line << " hashfull " << p.hashfull;
                line << " time " << p.elapsed_ms << " pv";
                for (Move m : p.pv) line << " " << move_to_iccs(m);
                say(line.str());
            };
            const Result r = from_book.empty() ? engine.search(s, ms, lim, progress, &stop)
                                               : book::play(engine, s, ms, from_book, lim, progress, &stop).result;
            // `go infinite` and `go ponder` answer only after stop (UCI rule).
            while (wait_for_stop && !stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            if (!r.best) {
                say(proto == Protocol::Ucci ? "nobestmove" : "bestmove (none)");
            } else {
                std::string line = "bestmove " + move_to_iccs(r.best);
                if (r.ponder) line += " ponder " + move_to_iccs(r.ponder);
                say(line);
            }
            searching = false;
        });
    }

    bool handle(const std::string& raw) {
        if (raw.size() > MAX_LINE) {
            error("line too long");
            return true;
        }
        std::string line = raw;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd.empty()) return true;
        const bool first = first_command;
        first_command = false;
        if (cmd == "quit") {
            wait(true);
            if (proto == Protocol::Ucci) say("bye");
            return false;
        }
        if (cmd == "stop" || cmd == "ponderhit") {
            stop = true;
            return true;
        }
        if (cmd == "isready") {
            say("readyok");
            return true;
        }
        // Everything else changes state: let a running search finish first (GUIs send these
        // only between searches; a stray one must not corrupt the running search).
        if (cmd == "ucci" && first) {
            cmd_ucci();
        } else if (cmd == "uci") {
            cmd_uci();
        } else if (cmd == "ucci") {
            error("ucci must be the first command");
        } else if (cmd == "ucinewgame") {
            wait(true);
            engine.new_game();
        } else if (cmd == "setoption") {
            wait(true);
            cmd_setoption(in);
        } else if (cmd == "position") {
            wait(true);
            cmd_position(in);
        } else if (cmd == "banmoves") {
            cmd_banmoves(in);
        } else if (cmd == "go") {
            cmd_go(in);
        } else if (cmd == "bench") {
            wait(true);
            cmd_bench(in);
        } else if (cmd == "d") {
            say(current.fen());
        } else if (cmd == "eval") {
            say(eval_trace(current));
        } else if (cmd == "probe") {
            error("probe is not supported");
        } else {
            error("unknown command '" + cmd + "'");
        }
        return true;
    }
};

UciSession::UciSession(std::ostream& out) : impl_(std::make_unique<Impl>(out)) {}
UciSession::~UciSession() { impl_->wait(true); }
bool UciSession::handle(const std::string& line) { return impl_->handle(line); }
void UciSession::wait(bool stop) { impl_->wait(stop); }

int run_uci(std::istream& in, std::ostream& out) {
    UciSession session(out);
    std::string line;
    while (std::getline(in, line))
        if (!session.handle(line)) return 0;
    // End of input: let a finite search finish; an infinite one can only end by stop.
    session.wait(false);
    return 0;
}

}  // namespace xq::engine
