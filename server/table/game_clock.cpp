#include "server/table/game_clock.h"

#include <algorithm>
#include <charconv>

#include "protocol/errors.h"

namespace xq::server {

namespace {

// Whole seconds, 0..MAX_CLOCK_PERIOD; the whole text must be digits.
std::optional<Ms> parse_seconds(std::string_view text) {
    if (text.empty() || text.size() > 6) return std::nullopt;
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
    Ms ms = std::chrono::seconds(value);
    if (ms > MAX_CLOCK_PERIOD) return std::nullopt;
    return ms;
}

std::string seconds_text(Ms ms) { return std::to_string(ms.count() / 1000); }

std::optional<ClockConfig> fail(std::string* error, std::string message, std::string_view* detail, std::string_view code) {
    if (error) *error = std::move(message);
    if (detail) *detail = code;
    return std::nullopt;
}

}  // namespace

std::optional<ClockConfig> parse_clock_spec(std::string_view text, std::string* error, std::string_view* detail) {
    namespace sd = proto::settings_detail;
    ClockConfig c;
    if (text == "none" || text.empty()) return c;
    if (text.starts_with("fischer:")) {
        std::string_view rest = text.substr(8);
        auto plus = rest.find('+');
        if (plus == std::string_view::npos)
            return fail(error, "fischer clock must be fischer:<base s>+<increment s>", detail, sd::CLOCK_FORMAT);
        auto base = parse_seconds(rest.substr(0, plus));
        auto inc = parse_seconds(rest.substr(plus + 1));
        if (!base || !inc) return fail(error, "fischer clock times must be whole seconds up to 36000", detail, sd::CLOCK_RANGE);
        if (base->count() == 0) return fail(error, "fischer clock needs a base time above 0", detail, sd::CLOCK_ZERO);
        c.kind = ClockKind::Fischer;
        c.base = *base;
        c.increment = *inc;
        return c;
    }
    if (text.starts_with("asian:")) {
        std::string_view rest = text.substr(6);
        auto s1 = rest.find('/');
        auto s2 = s1 == std::string_view::npos ? s1 : rest.find('/', s1 + 1);
        if (s2 == std::string_view::npos)
            return fail(error, "asian clock must be asian:<base s>/<move limit s>/<countdown s>", detail, sd::CLOCK_FORMAT);
        auto base = parse_seconds(rest.substr(0, s1));
        auto limit = parse_seconds(rest.substr(s1 + 1, s2 - s1 - 1));
        auto countdown = parse_seconds(rest.substr(s2 + 1));
        if (!base || !limit || !countdown)
            return fail(error, "asian clock times must be whole seconds up to 36000", detail, sd::CLOCK_RANGE);
        if (base->count() == 0 && countdown->count() == 0)
            return fail(error, "asian clock needs a base time or a countdown above 0", detail, sd::CLOCK_ZERO);
        c.kind = ClockKind::Asian;
        c.base = *base;
        c.move_limit = *limit;
        c.countdown = *countdown;
        return c;
    }
    return fail(error, "unknown clock '" + std::string(text.substr(0, 32)) +
                           "': use none, fischer:<base>+<inc> or asian:<base>/<limit>/<countdown>",
                detail, sd::CLOCK_UNKNOWN);
}

std::string clock_spec(const ClockConfig& c) {
    switch (c.kind) {
    case ClockKind::None: return "none";
    case ClockKind::Fischer: return "fischer:" + seconds_text(c.base) + "+" + seconds_text(c.increment);
    case ClockKind::Asian:
        return "asian:" + seconds_text(c.base) + "/" + seconds_text(c.move_limit) + "/" +
               seconds_text(c.countdown);
    }
    return "none";
}

GameClock::GameClock(const ClockConfig& config) : config_(config) {
    for (int c = 0; c < COLOR_NB; ++c) {
        state_.main[c] = config.base;
        // An Asian clock without main time is pure countdown from the first move.
        state_.in_countdown[c] = config.kind == ClockKind::Asian && config.base.count() == 0;
    }
}

void GameClock::start(Color side, TimePoint now) {
    if (!enabled()) return;
    turn_ = side;
    turn_start_ = now;
    running_ = true;
}

void GameClock::stop(TimePoint now) {
    if (!running_) return;
    charge(elapsed(now), false);
    running_ = false;
}

Ms GameClock::elapsed(TimePoint now) const {
    if (!running_ || now <= turn_start_) return Ms{0};
    return std::chrono::duration_cast<Ms>(now - turn_start_);
}

Ms GameClock::move_deadline(Color side) const {
    switch (config_.kind) {
    case ClockKind::None: return Ms::max();
    case ClockKind::Fischer: return state_.main[side];
    case ClockKind::Asian: {
        if (state_.in_countdown[side]) return config_.countdown;
        // Main time may run out during this move; the countdown then continues it.
        Ms deadline = state_.main[side] + config_.countdown;
        if (config_.move_limit.count() > 0) deadline = std::min(deadline, config_.move_limit);
        return deadline;
    }
    }
    return Ms::max();
}

void GameClock::charge(Ms spent, bool add_increment) {
    Color s = turn_;
    switch (config_.kind) {
    case ClockKind::None: return;
    case ClockKind::Fischer:
        state_.main[s] = std::max(Ms{0}, state_.main[s] - spent);
        if (add_increment) state_.main[s] += config_.increment;
        state_.main[s] = std::min(state_.main[s], MAX_CLOCK_PERIOD);
        return;
    case ClockKind::Asian:
        if (state_.in_countdown[s]) return;  // the countdown resets for every move
        if (spent >= state_.main[s]) {
            state_.main[s] = Ms{0};
            state_.in_countdown[s] = true;
        } else {
            state_.main[s] -= spent;
        }
        return;
    }
}

bool GameClock::on_move(TimePoint now) {
    if (!running_) return true;
    if (flag_fallen(now)) return false;
    charge(elapsed(now), true);
    turn_ = ~turn_;
    turn_start_ = now;
    return true;
}

void GameClock::add_time(Color side, Ms extra) {
    if (!enabled() || extra <= Ms{0}) return;
    state_.main[side] = std::min(state_.main[side] + extra, MAX_CLOCK_PERIOD);
    if (config_.kind == ClockKind::Asian) state_.in_countdown[side] = false;
}

void GameClock::set_turn(Color side, TimePoint now) {
    if (!running_) return;
    charge(elapsed(now), false);
    turn_ = side;
    turn_start_ = now;
}

std::optional<Color> GameClock::flag_fallen(TimePoint now) const {
    if (!running_) return std::nullopt;
    if (elapsed(now) >= move_deadline(turn_)) return turn_;
    return std::nullopt;
}

std::optional<Ms> GameClock::until_flag(TimePoint now) const {
    if (!running_) return std::nullopt;
    Ms e = elapsed(now);
    Ms d = move_deadline(turn_);
    return e >= d ? Ms{0} : d - e;
}

SideTime GameClock::side_time(Color side, TimePoint now) const {
    SideTime t;
    if (!enabled()) return t;
    Ms spent = running_ && side == turn_ ? elapsed(now) : Ms{0};
    Ms deadline = move_deadline(side);
    t.move_left = spent >= deadline ? Ms{0} : deadline - spent;
    t.in_countdown = state_.in_countdown[side];
    t.main = state_.main[side];
    if (config_.kind == ClockKind::Asian && !t.in_countdown && spent >= t.main) {
        t.main = Ms{0};
        t.in_countdown = config_.countdown.count() > 0;
    } else if (!t.in_countdown) {
        t.main = std::max(Ms{0}, t.main - spent);
    }
    if (config_.kind == ClockKind::Fischer) t.move_left = t.main;
    return t;
}

ClockState GameClock::state(TimePoint now) const {
    ClockState s = state_;
    if (running_) {
        SideTime t = side_time(turn_, now);
        s.main[turn_] = t.main;
        s.in_countdown[turn_] = t.in_countdown;
    }
    return s;
}

void GameClock::restore(const ClockState& state) {
    state_ = state;
    for (int c = 0; c < COLOR_NB; ++c) state_.main[c] = std::clamp(state_.main[c], Ms{0}, MAX_CLOCK_PERIOD);
}

}  // namespace xq::server
