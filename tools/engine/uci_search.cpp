// The session's positions and searches: `position`, `banmoves`, `go` (a search on its own
// thread, from the book when it knows the position), `go perft` and `bench`.
#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "book/book_player.h"
#include "engine/bench.h"
#include "uci_session.h"

namespace xq::engine {

using namespace uci_detail;

void UciSession::Impl::cmd_position(std::istringstream& in) {
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

void UciSession::Impl::cmd_banmoves(std::istringstream& in) {
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

void UciSession::Impl::cmd_perft(int depth) {
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

void UciSession::Impl::cmd_bench(std::istringstream& in) {
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
    // The searches alone, by kind of position (positions named by number).
    for (int k = 0; k < BENCH_KIND_NB; ++k) {
        text << "\nSearch speed, " << bench_kind_name(BenchKind(k)) << " (positions";
        for (std::size_t i = 0; i < r.positions.size(); ++i)
            if (int(r.positions[i].kind) == k) text << " " << i + 1;
        text << "): " << r.nps_by_kind[k] << " nodes/s";
    }
    say(text.str());
}

std::string UciSession::Impl::score_text(int cp, int mate) const {
    if (proto == Protocol::Ucci) return mate ? "score " + std::to_string(mate > 0 ? 30000 - (2 * mate - 1) : -30000 + 2 * -mate) : "score " + std::to_string(cp);
    return mate ? "score mate " + std::to_string(mate) : "score cp " + std::to_string(cp);
}

void UciSession::Impl::cmd_go(std::istringstream& in) {
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
    bool ponder = false;
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
            ponder = true;  // no clock until ponderhit; no answer before ponderhit or stop
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
    infinite_search = wait_for_stop || unbounded || ponder;
    ponder_unbounded = wait_for_stop || unbounded;
    pondering = ponder;
    if (ponder) lim.pondering = &pondering;
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
        // `go infinite` answers only after stop, `go ponder` only after ponderhit or stop (UCI rule).
        while ((wait_for_stop || pondering.load()) && !stop.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        pondering = false;
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

}  // namespace xq::engine
