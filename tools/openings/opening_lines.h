// Opening lists of the measuring tools (xiangqi-match, xiangqi-tune): one line of ICCS moves
// from the start position per opening, each move checked legal by the rules library.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace xq {

// Reads one opening per line ('#' starts a comment, blank lines are skipped); `source` names
// the input in errors ("FILE:LINE: ..."). A bad line is an error, never a silently shortened
// opening; on error `out` is left empty.
bool read_opening_lines(std::istream& in, const std::string& source, std::vector<std::string>& out,
                        std::string& error);

// The same from a file; "cannot read FILE" when it does not open.
bool load_opening_lines(const std::string& path, std::vector<std::string>& out, std::string& error);

}  // namespace xq
