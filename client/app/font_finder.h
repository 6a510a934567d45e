// Finds a font file that covers the Chinese characters the client draws, through fontconfig.
#pragma once

#include <string>

namespace xq::client {

struct FontFile {
    std::string path;
    int index = 0;  // face index inside a .ttc collection
};

// Returns false with a message naming the Debian package to install when no CJK font exists.
bool find_cjk_font(FontFile& out, std::string& error);

}  // namespace xq::client
