// UTF-8 checks for untrusted text: validation, code point counting, cutting at a code point;
// and the encoder tests and tools use to build worst-case text. No allocation except in
// cut_code_points' result and the encoder's output.
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
// Appends code point `cp` (at most U+10FFFF, no surrogate) to `out` as 1 to 4 bytes.
void append_utf8(std::string& out, char32_t cp);
// `n` code points from `first` on, each `first + i % cycle` (cycle 0: no repeat), as UTF-8:
// e.g. 4n bytes of CJK Extension B (U+20000...) for the widest text a limit allows.
std::string utf8_run(std::size_t n, char32_t first, std::size_t cycle = 0);

}  // namespace xq::proto
