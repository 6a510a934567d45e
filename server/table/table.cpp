// The table itself: construction, what it shows (info, status, roles, snapshot), broadcast
// to its seats and spectators, and table chat.
#include "server/table/table.h"

#include <algorithm>
#include <span>

#include "protocol/limits.h"
#include "protocol/utf8.h"
#include "server/ai/level_ratings.h"
#include "server/table/table_helpers.h"
#include "xiangqi/notation.h"

namespace xq::server {

Buffer make_buffer(const proto::ServerMessage& m) {
    return std::make_shared<const std::string>(proto::encode_line(m));
}

proto::TableSettings TableRules::settings() const {
    proto::TableSettings s;
    s.clock = clock;
    s.grace = static_cast<int>(grace.count() / 1000);
    s.abandon = abandon;
    s.hold_level = hold_level;
    s.takebacks = takebacks;
    if (rated) s.rated = true;
    if (hints) s.hints = true;
    return s;
}

void Table::set_seat_account(SessionId s, std::int64_t account_id, std::optional<int> rating) {
    if (const auto c = seat_of(s)) {
        seats_[*c].account_id = account_id;
        seats_[*c].rating = rating;
    }
}

bool Table::is_creator(const std::vector<std::string>& who) const {
    for (const auto& w : who)
        if (!w.empty() && std::find(creator_ids_.begin(), creator_ids_.end(), w) != creator_ids_.end()) return true;
    return false;
}

Table::Table(TableContext ctx, proto::TableId id, std::string name, std::string creator, const Position& start,
             TableRules rules)
    : ctx_(ctx), id_(id), name_(std::move(name)), creator_(std::move(creator)), rules_(std::move(rules)),
      start_(start), game_(start), ai_timer_(ctx.io) {
    if (rules_.spectator_delay > 0) rules_.takebacks = false;  // a takeback would unsend moves
}

Table::~Table() { close(); }

void Table::close() {
    cancel_ai();
    drop_hints();
    for (Seat& s : seats_)
        if (s.grace) s.grace->cancel();
}

proto::TableStatus Table::status() const {
    if (game_.over()) return proto::TableStatus::Over;
    return started_ ? proto::TableStatus::Playing : proto::TableStatus::Waiting;
}

std::string default_table_name(std::string_view creator) {
    return proto::cut_code_points(std::string(creator) + "'s table", proto::MAX_TABLE_NAME_CODE_POINTS);
}

proto::TableInfo Table::info() const {
    proto::TableInfo t;
    t.id = id_;
    t.name = name_;
    t.default_name = has_default_name();
    t.creator = creator_;
    for (Color c : {RED, BLACK}) {
        const Seat& s = seats_[c];
        if (s.empty()) continue;
        auto& out = c == RED ? t.red : t.black;
        out = proto::SeatInfo{s.name, s.ai_level, s.connected};
        out->engine = s.engine;
        // The built-in AI shows its level's fixed rating; an external engine has none.
        out->rating = s.ai() && s.engine.empty() ? ai_level_rating(s.ai_level) : s.rating;
        if (s.waiting_for_return()) {
            if (s.abandoned) {
                out->abandoned = true;
                out->hold_level = s.hold_level;
            } else if (s.grace) {
                // The countdown as it stands now, so late arrivals see it too.
                const auto left = std::chrono::duration_cast<Millis>(s.grace_until - Clock::now());
                out->grace_ms = std::max<std::int64_t>(0, left.count());
            }
        }
    }
    t.spectators = static_cast<int>(spectators_.size());
    t.status = status();
    t.ply = game_.ply();
    t.settings = rules_.settings();
    return t;
}

std::optional<Color> Table::seat_of(SessionId s) const {
    for (Color c : {RED, BLACK})
        if (seats_[c].human() && seats_[c].session == s) return c;
    return std::nullopt;
}

std::optional<proto::Role> Table::role_of(SessionId s) const {
    if (auto c = seat_of(s)) return proto::role_of(*c);
    for (const auto& sp : spectators_)
        if (sp.session == s) return proto::Role::Spectator;
    return std::nullopt;
}

bool Table::wanted() const {
    if (kept_ || !spectators_.empty()) return true;
    for (const Seat& s : seats_)
        if (s.human()) return true;  // connected, or disconnected within its grace
    return false;
}

proto::Role Table::open_role() const {
    if (seats_[RED].empty()) return proto::Role::Red;
    if (seats_[BLACK].empty()) return proto::Role::Black;
    return proto::Role::Spectator;
}

void Table::send_to(SessionId s, const proto::ServerMessage& m) const { send_buffer(s, make_buffer(m)); }

void Table::send_buffer(SessionId s, const Buffer& b) const { ctx_.host.send(id_, s, b); }

void Table::broadcast(const Buffer& b) const {
    send_players(b);
    send_spectators(b);
}

void Table::send_players(const Buffer& b) const {
    for (const Seat& s : seats_)
        if (s.human() && s.connected) ctx_.host.send(id_, s.session, b);
}

void Table::send_spectators(const Buffer& b) const {
    for (const auto& sp : spectators_) ctx_.host.send(id_, sp.session, b);
}

void Table::release_to_spectators() {
    const std::size_t due = game_.over() ? made_.size()
                                         : made_.size() - std::min(made_.size(), std::size_t(rules_.spectator_delay));
    for (; shown_plies_ < due; ++shown_plies_) send_spectators(make_buffer(made_[shown_plies_]));
}

void Table::send_snapshot(SessionId s) {
    proto::TableSnapshot snap;
    snap.table = info();
    snap.you = role_of(s).value_or(proto::Role::Spectator);
    snap.start_fen = start_.fen();
    snap.fen = game_.position().fen();
    snap.ply = game_.ply();
    const auto& all_moves = game_.moves();
    // A spectator of a delayed game sees it as far as its move_made lines have gone (the
    // last of them holds the board and clocks of then).
    const bool delayed =
        rules_.spectator_delay > 0 && snap.you == proto::Role::Spectator && shown_plies_ < all_moves.size();
    const std::span<const Move> moves(all_moves.data(), delayed ? shown_plies_ : all_moves.size());
    if (delayed) {
        snap.fen = shown_plies_ > 0 ? made_[shown_plies_ - 1].fen : start_.fen();
        snap.ply = shown_plies_ > 0 ? made_[shown_plies_ - 1].ply : 0;
        snap.table.ply = snap.ply;
    }
    const std::size_t first_chunk = std::min(moves.size(), proto::SNAPSHOT_MOVES_PER_LINE);
    snap.moves.reserve(first_chunk);
    for (std::size_t i = 0; i < first_chunk; ++i) snap.moves.push_back(move_to_iccs(moves[i]));
    if (game_.over()) {
        const GameResult& r = game_.result();
        snap.result = proto::ResultInfo{r.outcome, std::string(end_reason_name(r.reason)), r.text};
    }
    // Recent chat, newest first until a budget is spent, then put back in order.
    std::size_t bytes = 0;
    for (auto it = chat_.rbegin(); it != chat_.rend() && snap.chat.size() < proto::SNAPSHOT_CHAT_LINES; ++it) {
        bytes += it->from.size() + it->text.size();
        if (bytes > proto::SNAPSHOT_CHAT_BYTES) break;
        snap.chat.push_back(*it);
    }
    std::reverse(snap.chat.begin(), snap.chat.end());
    if (clock_) snap.clocks = delayed && shown_plies_ > 0 ? made_[shown_plies_ - 1].clocks : clock_->state();
    snap.draw_offer = draw_offer_;
    snap.takeback_offer = takeback_offer_;
    snap.new_game_offer = new_game_offer_;
    snap.paused = paused_;
    send_to(s, snap);
    for (std::size_t from = first_chunk; from < moves.size(); from += proto::SNAPSHOT_MOVES_PER_LINE) {
        proto::SnapshotMoves more;
        more.table = id_;
        more.from = static_cast<int>(from);
        const std::size_t end = std::min(moves.size(), from + proto::SNAPSHOT_MOVES_PER_LINE);
        for (std::size_t i = from; i < end; ++i) more.moves.push_back(move_to_iccs(moves[i]));
        send_to(s, more);
    }
}

void Table::chat(const std::string& from, const std::string& text) {
    proto::ChatLine line{proto::ChatScope::Table, id_, from, text};
    chat_.push_back(line);
    while (chat_.size() > CHAT_HISTORY_LINES) chat_.pop_front();
    broadcast(line);
}

}  // namespace xq::server
