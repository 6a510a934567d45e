#include "opening_lines.h"

#include <fstream>
#include <sstream>

#include "xiangqi/game.h"
#include "xiangqi/notation.h"

namespace xq {

bool read_opening_lines(std::istream& in, const std::string& source, std::vector<std::string>& out,
                        std::string& error) {
    out.clear();
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        Game game;
        std::string moves;
        for (std::string t; words >> t;) {
            const ParsedMove p = parse_iccs(game.position(), t);
            if (!p.move || !game.play(p.move)) {
                error = source + ":" + std::to_string(line_no) + ": illegal move '" + t + "'";
                out.clear();
                return false;
            }
            moves += (moves.empty() ? "" : " ") + t;
        }
        if (!moves.empty()) out.push_back(moves);
    }
    if (out.empty()) {
        error = source + ": no openings";
        return false;
    }
    return true;
}

bool load_opening_lines(const std::string& path, std::vector<std::string>& out, std::string& error) {
    std::ifstream f(path);
    if (!f) {
        out.clear();
        error = "cannot read " + path;
        return false;
    }
    return read_opening_lines(f, path, out, error);
}

}  // namespace xq
