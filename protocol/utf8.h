// UTF-8 checks for untrusted text: validation, code point counting, cutting at a code point.
// No allocation except in cut_code_points' result.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace xq::proto {

// True for well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
bool valid_utf8(std::string_view s);
// Number of code points in valid UTF-8 text.
std::size_t count_code_points(std::string_view s);
// The first `max` code points of valid UTF-8 text (never cuts inside a character).
std::string cut_code_points(std::string_view s, std::size_t max);
// True if the text contains a C0/C1 control character or DEL (newline, tab included).
bool has_control_chars(std::string_view s);

}  // namespace xq::proto
