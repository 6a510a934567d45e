// Reads tests/data/perft_published.tsv (name, fen, depth, nodes) for the perft tests.
// A missing or unreadable file gives no cases, and every caller asserts a minimum count,
// so the test fails (never skips) with a message naming the file.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace xq::test {

// Where the table lives in the source tree (set by tests/rules/CMakeLists.txt).
inline std::string published_perft_path() { return std::string(XQ_TEST_DATA_DIR) + "/perft_published.tsv"; }

struct PerftCase {
    std::string name, fen;
    int depth = 0;
    std::uint64_t nodes = 0;
};

inline std::vector<PerftCase> load_published_perft(int min_depth, int max_depth) {
    std::vector<PerftCase> out;
    std::ifstream in(published_perft_path());
    std::string line;
    bool header_seen = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;  // the file's source notes
        if (!header_seen) {  // the column names
            header_seen = true;
            continue;
        }
        std::istringstream ls(line);
        PerftCase c;
        std::string depth, nodes;
        if (!std::getline(ls, c.name, '\t') || !std::getline(ls, c.fen, '\t') ||
            !std::getline(ls, depth, '\t') || !std::getline(ls, nodes, '\t'))
            continue;
        c.depth = std::stoi(depth);
        c.nodes = std::stoull(nodes);
        if (c.depth >= min_depth && c.depth <= max_depth) out.push_back(c);
    }
    return out;
}

}  // namespace xq::test
