// Seats and spectators of a table: joining, leaving, dropped connections and their grace,
// abandoned seats, returning players, and the seats of a game restored after a restart.
#include "server/table/table.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/ai/engine_pool.h"
#include "server/table/restored_seat.h"
#include "server/table/table_helpers.h"

namespace xq::server {

Verdict Table::can_join(proto::Role as, std::string_view name) const {
    if (as == proto::Role::Spectator) {
        if (spectators_.size() >= ctx_.config.max_spectators)
            return reject(proto::ErrorCode::TableFull, "this table has its maximum of " +
                                                           std::to_string(ctx_.config.max_spectators) + " spectators");
        return std::nullopt;
    }
    const Color c = as == proto::Role::Red ? RED : BLACK;
    if (retired_) return reject(proto::ErrorCode::NotAllowed, "this tournament board is decided");
    if (tournament_board() && booked_[c] != name)
        return reject(proto::ErrorCode::NotAllowed, "the " + std::string(proto::color_wire_name(c)) +
                                                        " seat of this tournament board belongs to " + booked_[c]);
    if (!seats_[c].empty())
        return reject(proto::ErrorCode::SeatTaken, "the " + std::string(proto::color_wire_name(c)) +
                                                       " seat is taken by " + seats_[c].name);
    return std::nullopt;
}

void Table::join(SessionId s, const std::string& name, const std::string& token, proto::Role as,
                 std::int64_t account_id, std::optional<int> rating) {
    if (as == proto::Role::Spectator) {
        spectators_.push_back(Spectator{s, name});
    } else {
        Seat& seat = seats_[as == proto::Role::Red ? RED : BLACK];
        seat = Seat{};
        seat.kind = Seat::Kind::Human;
        seat.session = s;
        seat.name = name;
        seat.resume_token = token;
        seat.account_id = account_id;
        seat.rating = rating;
    }
    // The joiner gets its snapshot first, then hears of itself like everyone else.
    send_snapshot(s);
    broadcast(proto::PlayerJoined{id_, name, as, 0});
    if (as != proto::Role::Spectator && !maybe_start_game()) seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::leave(SessionId s) {
    const auto role = role_of(s);
    if (!role) return;
    if (*role == proto::Role::Spectator) {
        const auto it = std::find_if(spectators_.begin(), spectators_.end(),
                                     [&](const Spectator& sp) { return sp.session == s; });
        const std::string name = it->name;
        spectators_.erase(it);
        broadcast(proto::PlayerLeft{id_, name, *role, proto::LeaveReason::Left});
        ctx_.host.table_changed(*this);
        return;
    }
    const Color c = *seat_of(s);
    const std::string name = seats_[c].name;
    if (status() == proto::TableStatus::Playing)
        finish(win_for(~c), EndReason::Resignation, side_name(c) + " left the table and resigns");
    // The leaver still gets its player_left (it is sent before the seat is emptied).
    broadcast(proto::PlayerLeft{id_, name, *role, proto::LeaveReason::Left});
    free_seat(c);
    seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::disconnect(SessionId s, proto::LeaveReason reason) {
    const auto role = role_of(s);
    if (!role) return;
    if (*role == proto::Role::Spectator) {
        const auto it = std::find_if(spectators_.begin(), spectators_.end(),
                                     [&](const Spectator& sp) { return sp.session == s; });
        const std::string name = it->name;
        spectators_.erase(it);
        broadcast(proto::PlayerLeft{id_, name, *role, reason});
        ctx_.host.table_changed(*this);
        return;
    }
    const Color c = *seat_of(s);
    Seat& seat = seats_[c];
    seat.connected = false;
    const bool keep = status() == proto::TableStatus::Playing;
    proto::PlayerLeft left{id_, seat.name, *role, reason};
    if (keep) left.grace_ms = rules_.grace.count();
    broadcast(left);
    if (keep) start_grace(c, rules_.grace);
    else free_seat(c);  // nothing runs that the player could return to
    seats_changed();
    ctx_.host.table_changed(*this);
}

void Table::start_grace(Color c, Millis grace) {
    Seat& seat = seats_[c];
    seat.abandoned = false;
    seat.hold_level = 0;
    if (seat.grace) seat.grace->cancel();
    seat.grace_until = Clock::now() + grace;
    seat.grace = std::make_unique<Timer>(ctx_.io, grace);
    std::weak_ptr<Table> weak = weak_from_this();
    const std::string token = seat.resume_token;
    seat.grace->async_wait([weak, c, token](const boost::system::error_code& ec) {
        if (ec) return;
        auto self = weak.lock();
        if (!self) return;
        const Seat& st = self->seats_[c];
        // The player came back, or the seat changed hands, in the meantime.
        if (!st.waiting_for_return() || st.abandoned || st.resume_token != token) return;
        if (self->status() != proto::TableStatus::Playing) {
            self->free_seat(c);
            self->seats_changed();
            self->ctx_.host.table_changed(*self);
            return;
        }
        self->abandon_seat(c);
    });
}

void Table::abandon_seat(Color c) {
    Seat& seat = seats_[c];
    seat.abandoned = true;
    const Seat& opp = seats_[~c];
    // "ai" needs the server's AI; without it the seat is claimable instead.
    const bool ai_holds = rules_.abandon == proto::AbandonPolicy::Ai && ctx_.ai;
    seat.hold_level = ai_holds ? rules_.hold_level : 0;
    broadcast(proto::SeatAbandoned{id_, c, seat.name, !ai_holds, seat.hold_level});
    if (opp.ai()) {
        // Nobody is left to play against the AI: it takes the win at once.
        finish(win_for(~c), EndReason::Abandonment,
               side_name(c) + " left and did not return: " + side_name(~c) + " wins");
    } else if (opp.waiting_for_return() && opp.abandoned) {
        // Both players are gone past their grace: nobody can claim, nobody would play on.
        finish(Outcome::Draw, EndReason::Abandonment, "Both players left and did not return: draw");
    } else {
        seats_changed();
        maybe_start_ai();
    }
    ctx_.host.table_changed(*this);
}

std::optional<proto::Role> Table::reattach(const std::string& token, SessionId s) {
    if (token.empty()) return std::nullopt;
    for (Color c : {RED, BLACK}) {
        Seat& seat = seats_[c];
        if (!seat.human() || seat.connected || seat.resume_token != token) continue;
        // The AI holding the seat stops; a search under way is dropped with its result.
        if (seat.held_by_ai() && ai_busy_ && game_.side_to_move() == c) cancel_ai();
        seat.connected = true;
        seat.session = s;
        seat.abandoned = false;
        seat.hold_level = 0;
        if (seat.grace) seat.grace->cancel();
        seat.grace.reset();
        broadcast(proto::PlayerReturned{id_, seat.name, proto::role_of(c)});
        seats_changed();
        send_snapshot(s);
        ctx_.host.table_changed(*this);
        return proto::role_of(c);
    }
    return std::nullopt;
}

void Table::book(std::string red, std::string black) {
    booked_[RED] = std::move(red);
    booked_[BLACK] = std::move(black);
    rules_.takebacks = false;
}

void Table::free_seat(Color c) {
    Seat& seat = seats_[c];
    if (seat.grace) seat.grace->cancel();
    seat = Seat{};
    if (new_game_offer_ == c) new_game_offer_.reset();
    if (ai_busy_ && game_.side_to_move() == c) cancel_ai();
}

void Table::seats_changed() {
    broadcast(proto::TableUpdate{info()});
    notify([&](TableObserver& o) { o.seats_changed(*this); });
}

bool Table::restore_game(const std::vector<Move>& moves, const RestoredSeat* restored) {
    for (Move m : moves)
        if (!game_.play(m)) return false;
    if (game_.over()) return false;
    // The move_made lines a delay holds back are not kept over a restart: the game goes on live.
    rules_.spectator_delay = 0;
    for (Color c : {RED, BLACK}) {
        const RestoredSeat& r = restored[c];
        Seat& seat = seats_[c];
        seat = Seat{};
        if (r.kind == RestoredSeat::Kind::Empty) continue;
        seat.name = r.name;
        if (r.kind == RestoredSeat::Kind::Ai) {
            seat.kind = Seat::Kind::Ai;
            seat.ai_level = r.ai_level;
            if (!r.engine.empty()) {
                if (ctx_.engines && ctx_.engines->has(r.engine)) {
                    seat.engine = r.engine;
                } else {
                    // The engine is not on this server any more: the built-in AI takes over.
                    spdlog::warn("table {}: engine '{}' is gone; the built-in AI plays its seat", id_, r.engine);
                    seat.name = "AI level " + std::to_string(r.ai_level);
                }
            }
            continue;
        }
        seat.kind = Seat::Kind::Human;
        seat.resume_token = r.token;
        seat.connected = false;
        seat.account_id = r.account_id;
        seat.rating = r.rating;
    }
    started_ = true;
    // Every human seat gets the table's whole grace from the restart, at least
    // RESTART_GRACE_MIN (a seat abandoned before the restart too: its player may not have
    // known the server was down, and a table with grace 0 would otherwise end at once).
    for (Color c : {RED, BLACK})
        if (seats_[c].human()) start_grace(c, std::max(rules_.grace, RESTART_GRACE_MIN));
    position_since_ = Clock::now();
    maybe_start_ai();
    return true;
}

}  // namespace xq::server
