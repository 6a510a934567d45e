// xiangqi-engine: the command-line front end of the rules library and the AI.
// Speaks UCI (as Pikafish does) or UCCI (when the first command is `ucci`) on stdin/stdout;
// `go perft N` counts the legal move tree, `bench` prints the search signature and speed;
// `book build OUT PGN...` builds an opening book for the `BookFile` option.
#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "book/game_analysis.h"
#include "book/opening_book.h"
#include "xiangqi/pgn.h"
#include "uci.h"

namespace {

// `xiangqi-engine book build [--plies N] OUT.book IN.pgn...`: every game of the PGN files
// (their first N plies, default 30) into one book file. A file that cannot be read, or a
// game that cannot be parsed, is reported; the book is written only when every file was read.
int book_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-engine book build [--plies N] OUT.book IN.pgn...\n";
        return 2;
    };
    if (argc < 3 || std::string(argv[2]) != "build") return usage();
    int i = 3;
    int plies = xq::book::DEFAULT_BOOK_PLIES;
    if (i < argc && std::string(argv[i]) == "--plies") {
        if (i + 1 >= argc) return usage();
        try {
            plies = std::stoi(argv[i + 1]);
        } catch (const std::exception&) {
            plies = 0;
        }
        if (plies < 1 || plies > 200) {
            std::cerr << "error: --plies needs a number 1..200\n";
            return 2;
        }
        i += 2;
    }
    if (argc - i < 2) return usage();
    const std::string out_path = argv[i++];
    xq::book::Book book;
    int games = 0, bad = 0;
    for (; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::cerr << "error: cannot read " << argv[i] << "\n";
            return 1;
        }
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto r = xq::book::add_pgn(book, text, plies);
        games += r.games;
        bad += int(r.errors.size());
        for (const auto& e : r.errors) std::cerr << argv[i] << ": " << e << "\n";
    }
    std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
    out << book.serialize();
    out.close();
    if (!out) {
        std::cerr << "error: cannot write " << out_path << "\n";
        return 1;
    }
    std::cout << "book " << out_path << ": " << games << " games, " << book.positions() << " positions, "
              << book.moves() << " moves" << (bad ? ", " + std::to_string(bad) + " games skipped" : "") << "\n";
    return bad ? 1 : 0;
}

// `xiangqi-engine analyse [--no-book] [--nodes N] [--depth D] GAMES.pgn`: every game analysed position
// by position (book/game_analysis.h), written back as PGN with [%eval] comments and marks;
// then the speed in plies per second (the analysis benchmark).
int analyse_command(int argc, char** argv) {
    int i = 2;
    xq::book::AnalysisBudget budget;
    auto number = [](const char* s, long long lo, long long hi) -> long long {
        try {
            const long long v = std::stoll(s);
            return v >= lo && v <= hi ? v : -1;
        } catch (const std::exception&) {
            return -1;
        }
    };
    for (; i < argc && std::string(argv[i]) == "--no-book"; ++i) budget.book_moves = false;
    for (; i + 1 < argc && (std::string(argv[i]) == "--nodes" || std::string(argv[i]) == "--depth"); i += 2) {
        if (std::string(argv[i]) == "--nodes") {
            const long long n = number(argv[i + 1], 100, 100'000'000);
            if (n < 0) {
                std::cerr << "error: --nodes needs a number 100..100000000\n";
                return 2;
            }
            budget.nodes = std::uint64_t(n);
        } else {
            const long long d = number(argv[i + 1], 2, 40);
            if (d < 0) {
                std::cerr << "error: --depth needs a number 2..40\n";
                return 2;
            }
            budget.depth = int(d);
        }
    }
    if (i >= argc) {
        std::cerr << "usage: xiangqi-engine analyse [--no-book] [--nodes N] [--depth D] GAMES.pgn...\n";
        return 2;
    }
    xq::engine::Engine engine(16);
    long long plies = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (; i < argc; ++i) {
        std::ifstream in(argv[i], std::ios::binary);
        if (!in) {
            std::cerr << "error: cannot read " << argv[i] << "\n";
            return 1;
        }
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (auto& g : xq::read_pgn_all(text)) {
            if (!g.ok) {
                std::cerr << argv[i] << ": line " << g.line << ": " << g.error << "\n";
                return 1;
            }
            engine.new_game();
            const auto evals = xq::book::analyse_game(engine, g.game.start, g.game.moves, budget);
            for (std::size_t k = 0; k + 1 < evals.size(); ++k)
                g.game.comments[k] = xq::book::analysis_comment(evals[k], evals[k + 1]);
            plies += long(evals.size());
            std::cout << xq::write_pgn(g.game, xq::Notation::Chinese) << "\n";
        }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "analysed " << plies << " positions at depth " << budget.depth << " (at most " << budget.nodes
              << " nodes) each in " << s << " s: "
              << (s > 0 ? double(plies) / s : 0.0) << " plies/s\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    // Command-line arguments run as one command, e.g. `xiangqi-engine go perft 5` or
    // `xiangqi-engine bench`.
    if (argc > 1 && std::string(argv[1]) == "book") return book_command(argc, argv);
    if (argc > 1 && std::string(argv[1]) == "analyse") return analyse_command(argc, argv);
    if (argc > 1) {
        std::string args;
        for (int i = 1; i < argc; ++i) args += std::string(i > 1 ? " " : "") + argv[i];
        std::istringstream in(args + "\nquit\n");
        return xq::engine::run_uci(in, std::cout);
    }
    return xq::engine::run_uci(std::cin, std::cout);
}
