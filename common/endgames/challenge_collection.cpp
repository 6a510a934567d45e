#include "endgames/challenge_collection.h"

#include <charconv>
#include <set>

#include "xiangqi/position.h"

namespace xq::endgames {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split_fields(std::string_view line) {
    std::vector<std::string_view> fields;
    for (;;) {
        const auto bar = line.find('|');
        fields.push_back(trim(line.substr(0, bar)));
        if (bar == std::string_view::npos) return fields;
        line.remove_prefix(bar + 1);
    }
}

bool valid_id(std::string_view id) {
    if (id.empty() || id.size() > 32) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
    return true;
}

// "win N" (1 <= N <= 99) or "draw".
bool parse_verdict(std::string_view text, Challenge& c) {
    if (text == "draw") {
        c.verdict = Verdict::Draw;
        c.mate_in = 0;
        return true;
    }
    if (text.substr(0, 4) != "win ") return false;
    const std::string_view number = text.substr(4);
    int n = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
    if (ec != std::errc{} || end != number.data() + number.size() || n < 1 || n > 99) return false;
    c.verdict = Verdict::Win;
    c.mate_in = n;
    return true;
}

}  // namespace

ParseResult parse_collection(std::string_view text) {
    ParseResult out;
    std::set<std::string, std::less<>> ids;
    int number = 0;
    while (!text.empty()) {
        const auto newline = text.find('\n');
        const std::string_view line = trim(text.substr(0, newline));
        text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
        ++number;
        if (line.empty() || line.front() == '#') continue;
        const auto fail = [&](const std::string& why) {
            out.error = "line " + std::to_string(number) + ": " + why;
            return out;
        };
        const auto fields = split_fields(line);
        if (fields.size() != 5) return fail("5 fields expected, separated by '|'");
        Challenge c;
        c.id = std::string(fields[0]);
        c.name_en = std::string(fields[1]);
        c.name_zh = std::string(fields[2]);
        c.fen = std::string(fields[3]);
        if (!valid_id(c.id)) return fail("bad id '" + c.id + "' (a-z, 0-9 and '-', at most 32)");
        if (ids.count(c.id) > 0) return fail("id '" + c.id + "' repeated");
        if (c.name_en.empty() || c.name_zh.empty()) return fail("a name is empty");
        Position pos;
        if (const FenError e = pos.set_fen(c.fen); e != FenError::None)
            return fail("bad FEN: " + std::string(fen_error_message(e)));
        c.side_to_move = pos.side_to_move();
        if (!parse_verdict(fields[4], c))
            return fail("verdict must be 'win N' (1-99) or 'draw', not '" + std::string(fields[4]) + "'");
        ids.insert(c.id);
        out.challenges.push_back(std::move(c));
    }
    return out;
}

const std::vector<Challenge>& challenges() {
    static const std::vector<Challenge> all = parse_collection(collection_text()).challenges;
    return all;
}

const Challenge* find_challenge(std::string_view id) {
    for (const Challenge& c : challenges())
        if (c.id == id) return &c;
    return nullptr;
}

}  // namespace xq::endgames
