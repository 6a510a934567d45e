// The arbiter's tools at a table: pause and resume the game, add time to a clock, adjudicate
// a result with a reason, cancel the game. Who may use them is the lobby's business.
#include "server/table/table.h"

#include "server/table/table_helpers.h"

namespace xq::server {

Verdict Table::arbiter(const proto::ArbiterRequest& m, const std::string& by, SessionId also_tell) {
    using proto::ArbiterKind;
    using proto::ErrorCode;
    if (status() != proto::TableStatus::Playing)
        return reject(ErrorCode::GameNotInProgress, game_.over() ? "the game is over" : "no game is running here");
    proto::ArbiterAction a;
    a.table = id_;
    a.by = by;
    a.action = m.action;
    switch (m.action) {
    case ArbiterKind::Pause:
        if (paused_) return reject(ErrorCode::NotAllowed, "the game is already paused");
        break;
    case ArbiterKind::Resume:
        if (!paused_) return reject(ErrorCode::NotAllowed, "the game is not paused");
        break;
    case ArbiterKind::AddTime:
        if (!m.side || !m.seconds)
            return reject(ErrorCode::BadField, "add_time needs side and seconds (1-" +
                                                   std::to_string(proto::MAX_ARBITER_ADD_SECONDS) + ")");
        if (!clock_)
            return reject(ErrorCode::NotAllowed, "this table has no clock");
        a.side = m.side;
        a.seconds = m.seconds;
        break;
    case ArbiterKind::Adjudicate:
        if (!m.result || *m.result == Outcome::Ongoing)
            return reject(ErrorCode::BadField, "adjudicate needs result 1-0, 0-1 or 1/2-1/2");
        if (m.reason.empty()) return reject(ErrorCode::BadField, "adjudicate needs a reason");
        a.result = m.result;
        break;
    case ArbiterKind::Cancel: break;
    }
    a.reason = m.reason;

    // The action itself.
    switch (m.action) {
    case ArbiterKind::Pause:
        paused_ = true;
        cancel_ai();  // the AI to move thinks again from the start on resume
        if (clock_) clock_->pause();
        break;
    case ArbiterKind::Resume:
        paused_ = false;
        position_since_ = Clock::now();
        if (clock_) clock_->unpause();
        break;
    case ArbiterKind::AddTime: clock_->add_time(*m.side, std::int64_t(*m.seconds) * 1000); break;
    case ArbiterKind::Adjudicate:
    case ArbiterKind::Cancel: break;
    }
    a.ply = game_.ply();
    a.paused = paused_;
    if (clock_) a.clocks = clock_->state();
    notify([&](TableObserver& o) { o.arbiter_action(*this, a); });
    const Buffer line = make_buffer(a);
    if (rules_.spectator_delay > 0 && shown_plies_ < game_.moves().size()) {
        // Delayed spectators: neither the ply nor the clocks of now (they would tell the
        // side to move); game_over brings them the rest.
        send_players(line);
        proto::ArbiterAction late = a;
        late.ply = static_cast<int>(shown_plies_);
        late.clocks.reset();
        send_spectators(make_buffer(late));
    } else {
        broadcast(line);
    }
    if (also_tell != 0 && !role_of(also_tell)) ctx_.host.send(id_, also_tell, line);

    switch (m.action) {
    case ArbiterKind::Resume: maybe_start_ai(); break;
    case ArbiterKind::Adjudicate:
        finish_external(*m.result, EndReason::Adjudication, "Adjudicated by " + by + ": " + m.reason);
        break;
    case ArbiterKind::Cancel:
        finish_external(Outcome::Ongoing, EndReason::Cancelled,
                        "Cancelled by " + by + (m.reason.empty() ? "" : ": " + m.reason));
        break;
    default: break;
    }
    return std::nullopt;
}

void Table::restore_pause() {
    if (status() != proto::TableStatus::Playing) return;
    paused_ = true;
    cancel_ai();
    if (clock_) clock_->pause();
}

}  // namespace xq::server
