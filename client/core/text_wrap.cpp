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

std::string elide_text(const std::string& text, float max_width, const std::function<float(const std::string&)>& width) {
    static const std::string ELLIPSIS = "…";
    if (width(text) <= max_width) return text;
    // The code point boundaries of text (a UTF-8 continuation byte is 10xxxxxx).
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
    // The longest start that fits with the ellipsis (widths grow with the start: bisect).
    std::size_t lo = 0, hi = cuts.size();  // cuts[0..lo) fit; cuts[hi..) do not
    const auto with_ellipsis = [&](std::size_t n) {
        std::string s = text.substr(0, n);
        while (!s.empty() && s.back() == ' ') s.pop_back();
        return s + ELLIPSIS;
    };
    while (lo < hi) {
        const std::size_t mid = (lo + hi) / 2;
        if (width(with_ellipsis(cuts[mid])) <= max_width) lo = mid + 1;
        else hi = mid;
    }
    return lo == 0 ? ELLIPSIS : with_ellipsis(cuts[lo - 1]);
}

}  // namespace xq::client
