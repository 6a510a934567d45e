// Chat text made drawable by the UI font: Debian's Dear ImGui (16-bit ImWchar) has no glyphs
// above U+FFFF, so emoji become short names (":+1:") or a visible code ("[U+1F9FF]").
#pragma once

#include <string>
#include <string_view>

namespace xq::client {

// The text with every character above U+FFFF replaced: a common emoji by its :name:, a pair
// of regional indicators by :flag-xx:, skin-tone modifiers and emoji joiners/variation
// selectors dropped, anything else by [U+XXXXX]. Invalid UTF-8 bytes become '?'.
std::string bmp_text(std::string_view utf8);

}  // namespace xq::client
