#include "core/client_state.h"

#include "core/bmp_text.h"

#include <algorithm>
#include <ctime>

namespace xq::client {

std::int64_t TableState::clock_now(Color c, std::chrono::steady_clock::time_point now) const {
    const std::int64_t base = clock_ms[c];
    if (base < 0) return -1;
    if (clock_running != c) return base;
    const auto elapsed =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - clock_stamp).count();
    return std::max<std::int64_t>(0, base - elapsed);
}

std::int64_t SeatInfo::grace_left_ms(SteadyTime now) const {
    if (connected || abandoned || !grace_until) return -1;
    return std::max<std::int64_t>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(*grace_until - now).count());
}

std::string countdown_text(std::int64_t ms) {
    const std::int64_t s = (std::max<std::int64_t>(0, ms) + 999) / 1000;
    const int sec = int(s % 60);
    return std::to_string(s / 60) + (sec < 10 ? ":0" : ":") + std::to_string(sec);
}

std::string seat_label(Lang lang, const SeatInfo& seat, const std::string& my_name) {
    if (seat.name.empty()) return tr(lang, Str::EmptySeat);
    if (seat.ai) {
        const std::string level = std::to_string(seat.ai_level);
        return seat.engine.empty() ? user_label(lang, tr(lang, Str::AiName, {level}), seat.rating)
                                   : tr(lang, Str::EngineName, {seat.engine, level});
    }
    const std::string name = user_label(lang, seat.name, seat.rating);
    if (seat.name == my_name) return name + " (" + tr(lang, Str::You) + ")";
    return name;
}

std::string user_label(Lang lang, const std::string& name, std::optional<int> rating) {
    return rating ? tr(lang, Str::NameRating, {name, std::to_string(*rating)}) : name;
}

std::string ai_rating_text(Lang lang, const std::vector<int>& ai_ratings, int level) {
    if (level < 1 || level > int(ai_ratings.size())) return "";
    return tr(lang, Str::AiRating, {std::to_string(ai_ratings[std::size_t(level - 1)])});
}

std::string player_name(Lang lang, const std::string& name) {
    constexpr std::string_view prefix = "AI level ";
    if (!name.starts_with(prefix)) return name;
    const std::string_view level = std::string_view(name).substr(prefix.size());
    if (level.empty() || level.size() > 2 || !std::all_of(level.begin(), level.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return name;
    return tr(lang, Str::AiName, {level});
}

std::string table_title(Lang lang, const std::string& name, const std::string& default_of) {
    return default_of.empty() ? name : tr(lang, Str::DefaultTableName, {default_of});
}

std::string seat_notice(Lang lang, const SeatInfo& seat, SteadyTime now) {
    if (seat.name.empty() || seat.connected) return {};
    if (seat.abandoned) {
        if (seat.hold_level > 0) return tr(lang, Str::AiHolds, {std::to_string(seat.hold_level), seat.name});
        return tr(lang, Str::SeatAbandoned, {seat.name});
    }
    const std::int64_t left = seat.grace_left_ms(now);
    if (left < 0) return tr(lang, Str::OpponentLeft, {seat.name});
    return tr(lang, Str::SeatKept, {seat.name, countdown_text(left)});
}

void push_chat(std::deque<ChatLine>& chat, ChatLine line) {
    line.shown_from = bmp_text(line.from);
    line.shown_text = bmp_text(line.text);
    chat.push_back(std::move(line));
    while (chat.size() > MAX_CHAT_LINES) chat.pop_front();
}

}  // namespace xq::client

namespace xq::client {

std::string archive_date_text(std::int64_t unix_ms) {
    if (unix_ms <= 0) return {};
    const std::time_t secs = std::time_t(unix_ms / 1000);
    std::tm tm{};
    if (!localtime_r(&secs, &tm)) return {};
    char buf[32];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
    return std::string(buf, n);
}

std::vector<Piece> captured_by(const Position& start, const Position& now, Color capturer) {
    std::vector<Piece> out;
    const Color victim = ~capturer;
    for (PieceType t : {ROOK, CANNON, HORSE, ELEPHANT, ADVISOR, PAWN})
        for (int n = start.count(victim, t) - now.count(victim, t); n > 0; --n) out.push_back(make_piece(victim, t));
    return out;
}

std::string result_words(Lang lang, Outcome outcome, std::string_view reason) {
    const Str head = outcome == Outcome::RedWins     ? Str::RedWins
                     : outcome == Outcome::BlackWins ? Str::BlackWins
                     : outcome == Outcome::Draw      ? Str::DrawResult
                                                     : Str::ArchiveUnfinished;
    std::string out = tr(lang, head);
    const Str r = end_reason_string(reason);
    if (r != Str::Ok) out.append(" · ").append(tr(lang, r));
    return out;
}

std::string archive_result_text(Lang lang, const ArchiveEntry& e) {
    Str id = Str::ArchiveUnfinished;
    if (e.result == Outcome::RedWins) id = Str::RedWins;
    if (e.result == Outcome::BlackWins) id = Str::BlackWins;
    if (e.result == Outcome::Draw) id = Str::DrawResult;
    std::string out = tr(lang, id);
    if (e.result == Outcome::Ongoing || e.reason.empty()) return out;
    const Str reason = end_reason_string(e.reason);
    return out + " · " + (reason == Str::Ok ? e.reason : std::string(tr(lang, reason)));
}

}  // namespace xq::client
