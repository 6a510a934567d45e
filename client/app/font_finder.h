// Finds, through fontconfig, a font file that covers the Chinese characters the client draws,
// and a fallback font for the symbols it lacks (arrows, ☺ ♥ ✓ ★ ♟ ...).
#pragma once

#include <string>

namespace xq::client {

struct FontFile {
    std::string path;
    int index = 0;  // face index inside a .ttc collection
};

// Returns false with a message naming the Debian package to install when no CJK font exists.
bool find_cjk_font(FontFile& out, std::string& error);

// A font for the symbols the CJK font lacks (DejaVu Sans or Symbola preferred); false with a
// message naming the Debian package when none covers them. The client runs on without it.
bool find_symbol_font(FontFile& out, std::string& error);

}  // namespace xq::client
