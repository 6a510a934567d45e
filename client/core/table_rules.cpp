#include "core/table_rules.h"

#include "core/handicap.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace xq::client {

namespace {

// Whole seconds 0..MAX_CLOCK_SECONDS; the whole text must be digits.
std::optional<int> parse_seconds(std::string_view s) {
    if (s.empty() || s.size() > 6) return std::nullopt;
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 0 || v > MAX_CLOCK_SECONDS) return std::nullopt;
    return v;
}

std::optional<int> parse_int(std::string_view s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

// Main time in words: "10 min", or "90 s" when it is not whole minutes.
std::string main_time(Lang lang, int s) {
    if (s % 60 == 0) return tr(lang, Str::UnitMinutes, {std::to_string(s / 60)});
    return tr(lang, Str::UnitSeconds, {std::to_string(s)});
}

// Fischer's compact base: "5" (minutes), or "1:30" when it is not whole minutes.
std::string compact_minutes(int s) {
    if (s % 60 == 0) return std::to_string(s / 60);
    const int sec = s % 60;
    return std::to_string(s / 60) + (sec < 10 ? ":0" : ":") + std::to_string(sec);
}

constexpr ClockPreset FISCHER_PRESETS[] = {
    {"3+2", {ClockSpec::Kind::Fischer, 180, 2, 0, 0}},
    {"5+3", {ClockSpec::Kind::Fischer, 300, 3, 0, 0}},
    {"10+5", {ClockSpec::Kind::Fischer, 600, 5, 0, 0}},
    {"15+10", {ClockSpec::Kind::Fischer, 900, 10, 0, 0}},
    {"30+20", {ClockSpec::Kind::Fischer, 1800, 20, 0, 0}},
};
constexpr ClockPreset ASIAN_PRESETS[] = {
    {"5 / 30 / 20", {ClockSpec::Kind::Asian, 300, 30, 0, 20}},
    {"10 / 60 / 30", {ClockSpec::Kind::Asian, 600, 60, 0, 30}},
    {"20 / 120 / 60", {ClockSpec::Kind::Asian, 1200, 120, 0, 60}},
};

}  // namespace

std::optional<ClockSpec> parse_clock(std::string_view text) {
    ClockSpec c;
    if (text.empty() || text == "none") return c;
    if (text.starts_with("fischer:")) {
        const std::string_view rest = text.substr(8);
        const auto plus = rest.find('+');
        if (plus == std::string_view::npos) return std::nullopt;
        const auto base = parse_seconds(rest.substr(0, plus));
        const auto inc = parse_seconds(rest.substr(plus + 1));
        if (!base || !inc || *base == 0) return std::nullopt;
        c.kind = ClockSpec::Kind::Fischer;
        c.base_s = *base;
        c.increment_s = *inc;
        return c;
    }
    if (text.starts_with("asian:")) {
        const std::string_view rest = text.substr(6);
        const auto s1 = rest.find('/');
        const auto s2 = s1 == std::string_view::npos ? s1 : rest.find('/', s1 + 1);
        if (s2 == std::string_view::npos) return std::nullopt;
        const auto base = parse_seconds(rest.substr(0, s1));
        const auto limit = parse_seconds(rest.substr(s1 + 1, s2 - s1 - 1));
        const auto countdown = parse_seconds(rest.substr(s2 + 1));
        if (!base || !limit || !countdown || (*base == 0 && *countdown == 0)) return std::nullopt;
        c.kind = ClockSpec::Kind::Asian;
        c.base_s = *base;
        c.move_limit_s = *limit;
        c.countdown_s = *countdown;
        return c;
    }
    return std::nullopt;
}

std::string clock_wire(const ClockSpec& c) {
    switch (c.kind) {
    case ClockSpec::Kind::None: return "none";
    case ClockSpec::Kind::Fischer: return "fischer:" + std::to_string(c.base_s) + "+" + std::to_string(c.increment_s);
    case ClockSpec::Kind::Asian:
        return "asian:" + std::to_string(c.base_s) + "/" + std::to_string(c.move_limit_s) + "/" +
               std::to_string(c.countdown_s);
    }
    return "none";
}

std::string clock_words(Lang lang, const ClockSpec& c) {
    switch (c.kind) {
    case ClockSpec::Kind::None: return tr(lang, Str::ClockNone);
    case ClockSpec::Kind::Fischer:
        return tr(lang, Str::ClockFischer, {compact_minutes(c.base_s), std::to_string(c.increment_s)});
    case ClockSpec::Kind::Asian:
        return tr(lang, Str::ClockAsian,
                  {main_time(lang, c.base_s), tr(lang, Str::UnitSeconds, {std::to_string(c.move_limit_s)}),
                   tr(lang, Str::UnitSeconds, {std::to_string(c.countdown_s)})});
    }
    return tr(lang, Str::ClockNone);
}

std::string clock_words(Lang lang, std::string_view wire) {
    const auto c = parse_clock(wire);
    return c ? clock_words(lang, *c) : std::string(wire);
}

std::optional<Str> clock_problem(const ClockSpec& c) {
    auto in_range = [](int s) { return s >= 0 && s <= MAX_CLOCK_SECONDS; };
    switch (c.kind) {
    case ClockSpec::Kind::None: return std::nullopt;
    case ClockSpec::Kind::Fischer:
        if (!in_range(c.base_s) || !in_range(c.increment_s)) return Str::ProblemClockRange;
        if (c.base_s == 0) return Str::ProblemFischerBase;
        return std::nullopt;
    case ClockSpec::Kind::Asian:
        if (!in_range(c.base_s) || !in_range(c.move_limit_s) || !in_range(c.countdown_s)) return Str::ProblemClockRange;
        if (c.base_s == 0 && c.countdown_s == 0) return Str::ProblemAsianZero;
        return std::nullopt;
    }
    return std::nullopt;
}

std::span<const ClockPreset> fischer_presets() { return FISCHER_PRESETS; }
std::span<const ClockPreset> asian_presets() { return ASIAN_PRESETS; }

std::span<const ClockPreset> CreateTableForm::presets() const {
    switch (clock_kind) {
    case ClockSpec::Kind::Fischer: return fischer_presets();
    case ClockSpec::Kind::Asian: return asian_presets();
    case ClockSpec::Kind::None: break;
    }
    return {};
}

ClockSpec CreateTableForm::clock() const {
    if (server_clock || clock_kind == ClockSpec::Kind::None) return {};
    const auto p = presets();
    if (preset >= 0 && preset < int(p.size())) return p[std::size_t(preset)].spec;
    ClockSpec c;
    c.kind = clock_kind;
    c.base_s = custom_base_min * 60;
    if (clock_kind == ClockSpec::Kind::Fischer) {
        c.increment_s = custom_increment_s;
    } else {
        c.move_limit_s = custom_move_limit_s;
        c.countdown_s = custom_countdown_s;
    }
    return c;
}

TableRules CreateTableForm::rules() const {
    TableRules r;
    r.clock = server_clock ? std::string() : clock_wire(clock());
    r.grace_s = server_grace ? SERVER_DEFAULT_GRACE : grace_s;
    r.abandon = abandon;
    r.hold_level = hold_level;
    r.takebacks = takebacks;
    r.hints = hints;
    return r;
}

std::string CreateTableForm::start_fen() const {
    const auto all = handicaps();
    if (handicap < 0 || handicap >= int(all.size())) return {};
    return std::string(all[std::size_t(handicap)].fen);
}

std::optional<Str> CreateTableForm::problem() const {
    if (custom_base_min < 0 || custom_base_min > MAX_CLOCK_SECONDS / 60) return Str::ProblemClockRange;
    if (const auto p = clock_problem(clock())) return p;
    if (!server_grace && (grace_s < 0 || grace_s > MAX_GRACE_SECONDS)) return Str::ProblemGrace;
    if (abandon == AbandonRule::Ai && (hold_level < 1 || hold_level > 10)) return Str::ProblemHoldLevel;
    return std::nullopt;
}

bool CreateTableForm::apply(std::string_view key_values, std::string& bad_word) {
    std::istringstream in{std::string(key_values)};
    for (std::string word; in >> word;) {
        const auto eq = word.find('=');
        bad_word = word;
        if (eq == std::string::npos) return false;
        const std::string key = word.substr(0, eq), value = word.substr(eq + 1);
        if (key == "clock" && value == "default") {
            server_clock = true;
        } else if (key == "grace" && value == "default") {
            server_grace = true;
        } else if (key == "clock") {
            const auto c = parse_clock(value);
            if (!c) return false;
            server_clock = false;
            clock_kind = c->kind;
            // A preset when one matches, else the custom fields (whole minutes of main time).
            const auto p = presets();
            preset = int(std::find_if(p.begin(), p.end(), [&](const ClockPreset& x) { return x.spec == *c; }) - p.begin());
            if (custom() && c->kind != ClockSpec::Kind::None) {
                if (c->base_s % 60 != 0) return false;
                custom_base_min = c->base_s / 60;
                custom_increment_s = c->increment_s;
                custom_move_limit_s = c->move_limit_s;
                custom_countdown_s = c->countdown_s;
            }
        } else if (key == "grace") {
            const auto v = parse_int(value);
            if (!v) return false;
            server_grace = false;
            grace_s = *v;
        } else if (key == "abandon") {
            if (value == "claim") abandon = AbandonRule::Claim;
            else if (value == "ai") abandon = AbandonRule::Ai;
            else return false;
        } else if (key == "hold" || key == "hold_level") {
            const auto v = parse_int(value);
            if (!v) return false;
            hold_level = *v;
        } else if (key == "takebacks") {
            if (value != "0" && value != "1") return false;
            takebacks = value == "1";
        } else if (key == "hints") {
            if (value != "0" && value != "1") return false;
            hints = value == "1";
        } else if (key == "as") {
            if (value == "red") seat = CreateSeat::Red;
            else if (value == "black") seat = CreateSeat::Black;
            else if (value == "spectator") seat = CreateSeat::Spectator;
            else return false;
        } else if (key == "handicap") {
            const HandicapInfo* h = find_handicap(value);
            if (!h) return false;
            handicap = int(h - handicaps().data());
        } else if (key == "name") {
            name = value;
        } else {
            return false;
        }
    }
    bad_word.clear();
    return true;
}

}  // namespace xq::client
