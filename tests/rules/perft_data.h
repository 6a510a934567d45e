// Reads ../shared/data/perft_published.tsv (name, fen, depth, nodes) for the perft tests.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace xq::test {

struct PerftCase {
    std::string name, fen;
    int depth = 0;
    std::uint64_t nodes = 0;
};

inline std::vector<PerftCase> load_published_perft(int min_depth, int max_depth) {
    std::vector<PerftCase> out;
    std::ifstream in(std::string(XQ_SHARED_DIR) + "/data/perft_published.tsv");
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
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
