// The starter collection: the opening lines of data/openings/*.pgn, built into the program
// (CMake embeds the files) so that the AI has a book and openings have names out of the box.
#pragma once

#include <string_view>
#include <vector>

namespace xq::book {

struct StarterFile {
    std::string_view name;  // file name, e.g. "cross_palace_cannon.pgn"
    std::string_view pgn;   // its whole text
};

// Every file of data/openings, in file-name order.
const std::vector<StarterFile>& starter_openings();

}  // namespace xq::book
