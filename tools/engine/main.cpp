// xiangqi-engine: the command-line front end of the rules library and the AI.
// Speaks UCI (as Pikafish does) or UCCI (when the first command is `ucci`) on stdin/stdout;
// `go perft N` counts the legal move tree, `bench` prints the search signature and speed.
#include <iostream>
#include <sstream>
#include <string>

#include "uci.h"

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    // Command-line arguments run as one command, e.g. `xiangqi-engine go perft 5` or
    // `xiangqi-engine bench`.
    if (argc > 1) {
        std::string args;
        for (int i = 1; i < argc; ++i) args += std::string(i > 1 ? " " : "") + argv[i];
        std::istringstream in(args + "\nquit\n");
        return xq::engine::run_uci(in, std::cout);
    }
    return xq::engine::run_uci(std::cin, std::cout);
}
