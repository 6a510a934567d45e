// The session of xiangqi-engine's text protocols: lines dispatched to their commands, the
// search thread waited for, and the helpers the commands share (uci_session.h).
#include "uci.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "engine/eval.h"
#include "uci_session.h"

namespace xq::engine {

namespace uci_detail {

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

}  // namespace uci_detail

using namespace uci_detail;

void UciSession::Impl::say(const std::string& line) {
    std::lock_guard<std::mutex> lock(out_mutex);
    out << line << std::endl;
}

void UciSession::Impl::wait(bool do_stop) {
    if (worker.joinable()) {
        if (do_stop || infinite_search) stop = true;
        worker.join();
    }
}

bool UciSession::Impl::handle(const std::string& raw) {
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
    if (cmd == "stop") {
        stop = true;
        return true;
    }
    if (cmd == "ponderhit") {
        // The opponent played the move we pondered on: the search goes on as a normal one, on
        // the clock given with `go ponder` from now. Outside a ponder search it means nothing.
        if (pondering.exchange(false)) infinite_search = ponder_unbounded;
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
