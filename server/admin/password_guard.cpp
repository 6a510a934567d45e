#include "server/admin/password_guard.h"

#include <algorithm>

namespace xq::server {

bool password_matches(std::string_view expected, std::string_view given) {
    // Every byte of the longer text is visited whatever the content.
    std::size_t n = std::max(expected.size(), given.size());
    unsigned diff = unsigned(expected.size() ^ given.size());
    for (std::size_t i = 0; i < n; ++i) {
        unsigned char a = i < expected.size() ? static_cast<unsigned char>(expected[i]) : 0;
        unsigned char b = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
        diff |= unsigned(a ^ b);
    }
    return diff == 0;
}

}  // namespace xq::server
