// Line breaking for text the client draws itself, outside Dear ImGui (the board's toast), and
// one-line text cut to a width with an ellipsis (the lobby's table list).
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace xq::client {

// `text` in lines at most `max_width` wide as `width` measures them: each line ends at its
// last space that fits (the space dropped), else between any two characters (Chinese has
// no spaces). A single character wider than the limit keeps a line of its own.
std::vector<std::u32string> wrap_lines(const std::u32string& text, float max_width,
                                       const std::function<float(const std::u32string&)>& width);

// `text` (UTF-8) as it fits on one line at most `max_width` wide as `width` measures it: the
// whole text when it fits, else its longest start (whole code points, trailing spaces
// dropped) followed by "…"; just "…" when not even one character fits with it.
std::string elide_text(const std::string& text, float max_width, const std::function<float(const std::string&)>& width);

}  // namespace xq::client
