#include "core/text_wrap.h"

namespace xq::client {

std::vector<std::u32string> wrap_lines(const std::u32string& text, float max_width,
                                       const std::function<float(const std::u32string&)>& width) {
    std::vector<std::u32string> out;
    std::u32string line;
    for (const char32_t c : text) {
        if (line.empty() && c == U' ' && !out.empty()) continue;  // no line starts with a space
        line.push_back(c);
        if (line.size() < 2 || width(line) <= max_width) continue;
        // Too wide with c: break at the last space before c, else just before c.
        const std::size_t space = line.find_last_of(U' ', line.size() - 2);
        std::u32string rest;
        if (space != std::u32string::npos && space > 0) {
            rest = line.substr(space + 1);
            line.resize(space);
        } else {
            rest.assign(1, c);
            line.pop_back();
        }
        while (!line.empty() && line.back() == U' ') line.pop_back();
        out.push_back(std::move(line));
        line = rest == U" " ? std::u32string() : std::move(rest);
    }
    if (!line.empty() || out.empty()) out.push_back(std::move(line));
    return out;
}

}  // namespace xq::client
