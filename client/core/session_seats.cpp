// Session: the people at the table and what they propose: players arriving, leaving,
// dropping, abandoning and returning; draw, takeback and new-game offers, their answers and
// withdrawal; the arbiter's actions.
#include "core/session.h"

#include <algorithm>
#include <chrono>

namespace xq::client {

void Session::on(const proto::PlayerJoined& m) {
    if (!for_my_table(m.table)) return;
    const auto c = color_of_role(m.role);
    if (c) {
        SeatInfo& s = state_.table.seats[*c];
        s.name = m.name;
        s = SeatInfo{};
        s.name = m.name;
        s.ai = m.ai_level > 0;
        s.ai_level = m.ai_level;
        s.engine = m.engine;
        if (m.name == state_.my_name && state_.table.board.seat() != c) state_.table.board.set_seat(c);
    } else if (m.name != state_.my_name) {
        // Our own arrival is counted in the snapshot already.
        ++state_.table.spectators;
    }
}

void Session::on(const proto::PlayerLeft& m) {
    if (!for_my_table(m.table)) return;
    const auto c = color_of_role(m.role);
    if (!c) {
        state_.table.spectators = std::max(0, state_.table.spectators - 1);
        return;
    }
    SeatInfo& s = state_.table.seats[*c];
    if (m.reason == proto::LeaveReason::Disconnected) {
        s.connected = false;
        s.abandoned = false;
        s.grace_until.reset();
        if (m.grace_ms) s.grace_until = arrived_ + std::chrono::milliseconds(*m.grace_ms);
    } else {
        s = SeatInfo{};
    }
    update_claim();
    if (m.name == state_.my_name) return;
    // A dropped player whose seat is kept has not left: say how long the seat waits.
    if (m.reason == proto::LeaveReason::Disconnected && m.grace_ms) notice(Str::SeatKept, m.name, countdown_text(*m.grace_ms));
    else notice(Str::OpponentLeft, m.name);
}

void Session::on(const proto::SeatAbandoned& m) {
    if (!for_my_table(m.table)) return;
    SeatInfo& s = state_.table.seats[m.seat];
    s.connected = false;
    s.abandoned = true;
    s.grace_until.reset();
    s.hold_level = m.hold_level;
    state_.table.claim_dismissed = false;
    update_claim();
    if (m.hold_level > 0) notice(Str::AiHolds, std::to_string(m.hold_level), m.name);
    else notice(Str::SeatAbandoned, m.name);
}

void Session::on(const proto::PlayerReturned& m) {
    if (!for_my_table(m.table)) return;
    if (const auto c = color_of_role(m.role)) {
        SeatInfo& s = state_.table.seats[*c];
        s.connected = true;
        s.abandoned = false;
        s.hold_level = 0;
        s.grace_until.reset();
    }
    update_claim();
    if (m.name != state_.my_name) notice(Str::OpponentReturned, m.name);
}

void Session::on(const proto::DrawOffered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::Draw, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::DrawAnswered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.outgoing_offer = {};
    notice(m.accept ? Str::DrawAccepted : Str::DrawDeclined, state_.table.seats[m.by].name);
}

void Session::on(const proto::TakebackRequested& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::Takeback, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::TakebackAnswered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.outgoing_offer = {};
    notice(m.accept ? Str::TakebackAccepted : Str::TakebackDeclined, state_.table.seats[m.by].name);
}

void Session::on(const proto::TakebackDone& m) {
    if (!for_my_table(m.table)) return;
    TableState& t = state_.table;
    t.hint_move.clear();
    if (!t.board.rewind_to(m.ply) || (!m.fen.empty() && !same_placement(t.board.position().fen(), m.fen))) {
        sync();
        cue(Cue::Kind::Resync);
        return;
    }
    t.moves.resize(std::size_t(t.board.ply()));
    t.incoming_offer = {};
    t.outgoing_offer = {};
    t.ai.active = false;
    // The server hands the running clock to the side to move now (the message carries no
    // clocks): stop ours at its figure and run theirs, until the next move_made corrects both.
    if (t.clock_running && !t.paused && *t.clock_running != t.board.position().side_to_move()) {
        t.clock_ms[*t.clock_running] = t.clock_now(*t.clock_running, arrived_);
        t.clock_running = t.board.position().side_to_move();
        t.clock_stamp = arrived_;
    }
    cue(Cue::Kind::TakenBack);
}

void Session::on(const proto::NewGameOffered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::NewGame, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::OfferWithdrawn& m) {
    if (!for_my_table(m.table)) return;
    const Offer::Kind k = m.offer == proto::OfferKind::Draw       ? Offer::Kind::Draw
                          : m.offer == proto::OfferKind::Takeback ? Offer::Kind::Takeback
                                                                  : Offer::Kind::NewGame;
    TableState& t = state_.table;
    if (m.by == my_color()) {
        if (t.outgoing_offer.kind == k) t.outgoing_offer = {};
        return;
    }
    if (t.incoming_offer.kind == k) t.incoming_offer = {};
    notice(k == Offer::Kind::Draw       ? Str::DrawWithdrawn
           : k == Offer::Kind::Takeback ? Str::TakebackWithdrawn
                                        : Str::NewGameWithdrawn,
           t.seats[m.by].name);
}

void Session::on(const proto::ArbiterAction& m) {
    state_.tournaments.paused[m.table] = m.paused;
    // The arbiter hears of their own action wherever they are (a director in the lobby).
    const bool here = for_my_table(m.table);
    if (!here && m.by != state_.my_name) return;
    if (here) {
        state_.table.paused = m.paused;
        if (m.clocks) apply_clocks(*m.clocks);
    }
    switch (m.action) {
    case proto::ArbiterKind::Pause: notice(Str::ArbiterPaused, m.by); break;
    case proto::ArbiterKind::Resume: notice(Str::ArbiterResumed, m.by); break;
    case proto::ArbiterKind::AddTime:
        notice(m.side == BLACK ? Str::ArbiterAddTimeBlack : Str::ArbiterAddTimeRed, m.by,
               std::to_string(m.seconds.value_or(0)));
        break;
    case proto::ArbiterKind::Adjudicate: notice(Str::ArbiterAdjudicated, m.by, m.reason); break;
    case proto::ArbiterKind::Cancel: notice(Str::ArbiterCancelled, m.by, m.reason); break;
    }
}

void Session::on(const proto::Hint& m) {
    if (!for_my_table(m.table)) return;
    state_.table.hint_pending = false;
    // An answer to a position already left behind shows nothing.
    if (m.ply != state_.table.board.ply()) return;
    state_.table.hint_move = m.move;
    state_.table.hint_ply = m.ply;
    state_.table.hint_score = m.score;
}

void Session::on(const proto::HintUsed& m) {
    if (!for_my_table(m.table)) return;
    notice(m.side == BLACK ? Str::HintUsedBlack : Str::HintUsedRed, m.name);
}

}  // namespace xq::client
