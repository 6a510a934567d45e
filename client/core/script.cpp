#include "core/script.h"

#include <sstream>

namespace xq::client {

namespace {

struct Arity {
    const char* verb;
    int min, max;
};

constexpr Arity VERBS[] = {
    {"create", 1, 99}, {"join", 2, 2},     {"move", 1, 1},       {"drag", 1, 1},    {"click", 1, 1},
    {"chat", 1, 999},  {"ai", 2, 3},       {"wait", 1, 2},       {"wait_turn", 0, 1}, {"sleep", 1, 1},
    {"screenshot", 1, 1}, {"expect", 2, 99}, {"lang", 1, 1},    {"theme", 1, 1},   {"notation", 1, 1},
    {"flip", 0, 0},    {"takeback", 0, 0}, {"draw", 0, 0},       {"resign", 0, 0},  {"newgame", 0, 0},
    {"leave", 0, 0},   {"quit", 0, 0},     {"lan", 0, 0},      {"grace", 1, 1},
    {"settings", 1, 99}, {"dialog", 1, 1},  {"archive", 1, 1},  {"claim", 0, 0},     {"keep_waiting", 0, 0}, {"drop", 0, 0},
    {"clock_check", 1, 1}, {"back", 0, 0}, {"endgame", 1, 1}, {"editor", 1, 99}, {"choose", 1, 99},
    {"copy", 1, 1}, {"locate", 1, 3}, {"tournament", 1, 99},
};

}  // namespace

bool parse_script(std::string_view text, std::vector<ScriptAction>& out, std::string& error) {
    out.clear();
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t nl = text.find('\n', pos);
        std::string line(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
        pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
        ++line_no;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream in(line);
        ScriptAction a;
        a.line = line_no;
        if (!(in >> a.verb)) continue;
        std::getline(in >> std::ws, a.rest);
        std::istringstream args(a.rest);
        for (std::string w; args >> w;) a.args.push_back(w);
        const Arity* found = nullptr;
        for (const Arity& v : VERBS)
            if (a.verb == v.verb) found = &v;
        if (!found) {
            error = "line " + std::to_string(line_no) + ": unknown action '" + a.verb + "'";
            return false;
        }
        const int n = int(a.args.size());
        if (n < found->min || n > found->max) {
            error = "line " + std::to_string(line_no) + ": wrong number of arguments for '" + a.verb + "'";
            return false;
        }
        out.push_back(std::move(a));
    }
    return true;
}

}  // namespace xq::client
