// xiangqi-engine: the command-line front end of the rules library and the AI.
// Speaks UCI (as Pikafish does) on stdin/stdout; `go perft N` counts the legal move tree.
#include <chrono>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/search.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

struct State {
    Position start;
    std::vector<Move> moves;
    Position current;
};

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

void cmd_position(State& st, std::istringstream& in) {
    std::string token;
    in >> token;
    Position start;
    if (token == "fen") {
        std::string fen, part;
        while (in >> part && part != "moves") fen += part + " ";
        if (const FenError e = start.set_fen(fen); e != FenError::None) {
            std::cout << "info string error: bad FEN: " << fen_error_message(e) << std::endl;
            return;
        }
        token = part;
    } else if (token == "startpos") {
        in >> token;
    } else {
        std::cout << "info string error: expected 'position startpos' or 'position fen <fen>'" << std::endl;
        return;
    }
    std::vector<Move> moves;
    Position cur = start;
    if (token == "moves") {
        std::string mt;
        UndoInfo u;
        while (in >> mt) {
            Move m;
            if (!parse_move(cur, mt, m)) {
                std::cout << "info string error: illegal move " << mt << std::endl;
                return;
            }
            cur.do_move(m, u);
            moves.push_back(m);
        }
    }
    st.start = start;
    st.moves = std::move(moves);
    st.current = cur;
}

void cmd_perft(State& st, int depth) {
    const auto t0 = std::chrono::steady_clock::now();
    MoveList list;
    st.current.generate_legal(list);
    std::uint64_t total = 0;
    Position pos = st.current;
    UndoInfo u;
    for (Move m : list) {
        std::uint64_t n = 1;
        if (depth > 1) {
            pos.do_move(m, u);
            n = perft(pos, depth - 1);
            pos.undo_move(m, u);
        }
        total += n;
        std::cout << move_to_iccs(m) << ": " << n << "\n";
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - t0).count();
    std::cout << "\nNodes searched: " << total << "\n";
    std::cout << "info string perft time " << ms << " ms" << std::endl;
}

}  // namespace

int main(int argc, char** argv) {
    State st;
    engine::Engine eng;
    // Command-line arguments run as one command, e.g. `xiangqi-engine go perft 5`.
    std::string args;
    for (int i = 1; i < argc; ++i) args += std::string(i > 1 ? " " : "") + argv[i];
    std::string line;
    auto next_line = [&](std::string& out) -> bool {
        if (!args.empty()) {
            out = args;
            args = "quit";
            return true;
        }
        return bool(std::getline(std::cin, out));
    };
    while (next_line(line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd.empty()) continue;
        if (cmd == "quit") break;
        if (cmd == "uci") {
            std::cout << "id name xiangqi-engine\nid author the LAN Xiangqi team\nuciok" << std::endl;
        } else if (cmd == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (cmd == "ucinewgame") {
            eng.new_game();
        } else if (cmd == "position") {
            cmd_position(st, in);
        } else if (cmd == "go") {
            std::string sub;
            in >> sub;
            if (sub == "perft") {
                int d = 0;
                if (!(in >> d) || d < 1 || d > 12) {
                    std::cout << "info string error: go perft needs a depth 1..12" << std::endl;
                    continue;
                }
                cmd_perft(st, d);
            } else {
                engine::Limits lim;
                if (sub == "depth") in >> lim.depth;
                const auto r = eng.search(st.start, st.moves, lim);
                std::cout << "bestmove " << (r.best ? move_to_iccs(r.best) : "(none)") << std::endl;
            }
        } else if (cmd == "d") {
            std::cout << st.current.fen() << std::endl;
        } else {
            std::cout << "info string error: unknown command '" << cmd << "'" << std::endl;
        }
    }
    return 0;
}
