// Small text helpers shared by the terminal client's files (cli_app.cpp, cli_commands.cpp).
#pragma once

#include <string>
#include <string_view>

namespace xq::client {

// Concatenation by appending (GCC 12 warns falsely on chains of string operator+).
template <class... Parts>
std::string cat(const Parts&... parts) {
    std::string s;
    (s.append(std::string_view(parts)), ...);
    return s;
}

inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

}  // namespace xq::client
