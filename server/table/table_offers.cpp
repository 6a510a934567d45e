// What the seated players ask of each other: resign, draw offers, takebacks, a new game,
// and claiming the win over an abandoned seat.
#include "server/table/table.h"

#include <algorithm>

#include "server/table/table_helpers.h"

namespace xq::server {

Verdict Table::resign(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can resign");
    if (status() != proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameNotInProgress, "no game is running");
    finish(win_for(~*c), EndReason::Resignation, side_name(*c) + " resigns");
    ctx_.host.table_changed(*this);
    return std::nullopt;
}

Verdict Table::offer_draw(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can offer a draw");
    if (status() != proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameNotInProgress, "no game is running");
    if (draw_offer_ == *c) return reject(proto::ErrorCode::OfferPending, "your draw offer is still open");
    if (draw_offer_ == ~*c) return answer_draw(s, true);
    broadcast(proto::DrawOffered{id_, *c});
    const Seat& opp = seats_[~*c];
    if (opp.ai()) {
        const bool accept = opp.ai_last_score <= ctx_.config.ai_accept_draw_cp;
        broadcast(proto::DrawAnswered{id_, ~*c, accept});
        if (accept) {
            finish(Outcome::Draw, EndReason::Agreement, "Draw by agreement");
            ctx_.host.table_changed(*this);
        }
        return std::nullopt;
    }
    draw_offer_ = *c;
    return std::nullopt;
}

Verdict Table::answer_draw(SessionId s, bool accept) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can answer a draw offer");
    if (draw_offer_ != ~*c) return reject(proto::ErrorCode::NoOffer, "there is no draw offer to answer");
    draw_offer_.reset();
    broadcast(proto::DrawAnswered{id_, *c, accept});
    if (accept) {
        finish(Outcome::Draw, EndReason::Agreement, "Draw by agreement");
        ctx_.host.table_changed(*this);
    }
    return std::nullopt;
}

Verdict Table::request_takeback(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can ask for a takeback");
    if (!rules_.takebacks) return reject(proto::ErrorCode::NotAllowed, "takebacks are off at this table");
    if (paused_) return reject(proto::ErrorCode::GameNotInProgress, "the game is paused by the arbiter");
    const auto st = status();
    if (!(st == proto::TableStatus::Playing ||
          (st == proto::TableStatus::Over && started_ && board_decided(game_.result().reason))))
        return reject(proto::ErrorCode::GameNotInProgress, "no game to take a move back in");
    const bool moved = start_.side_to_move() == *c ? game_.ply() >= 1 : game_.ply() >= 2;
    if (!moved) return reject(proto::ErrorCode::NothingToTakeBack, "you have not moved yet");
    if (takeback_offer_)
        return reject(proto::ErrorCode::OfferPending,
                      takeback_offer_ == *c ? "your takeback request is still open"
                                            : "answer your opponent's takeback request first");
    broadcast(proto::TakebackRequested{id_, *c});
    if (seats_[~*c].ai()) {
        broadcast(proto::TakebackAnswered{id_, ~*c, true});
        do_takeback(*c);
        return std::nullopt;
    }
    takeback_offer_ = *c;
    return std::nullopt;
}

Verdict Table::answer_takeback(SessionId s, bool accept) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can answer a takeback request");
    if (takeback_offer_ != ~*c) return reject(proto::ErrorCode::NoOffer, "there is no takeback request to answer");
    if (paused_ && accept) return reject(proto::ErrorCode::GameNotInProgress, "the game is paused by the arbiter");
    takeback_offer_.reset();
    broadcast(proto::TakebackAnswered{id_, *c, accept});
    if (accept) do_takeback(~*c);
    return std::nullopt;
}

void Table::do_takeback(Color requester) {
    const bool was_over = game_.over();
    const int plies = game_.side_to_move() == requester ? 2 : 1;
    cancel_ai();
    for (int i = 0; i < plies; ++i) game_.undo();
    position_changed();
    if (clock_) clock_->position_reset(game_.side_to_move());
    notify([&](TableObserver& o) { o.takeback(*this, plies); });
    broadcast(proto::TakebackDone{id_, plies, game_.ply(), game_.position().fen()});
    if (was_over) {
        seats_changed();
        ctx_.host.table_changed(*this);
    }
    maybe_start_ai();
}

Verdict Table::new_game(SessionId s, const std::vector<std::string>& who, std::optional<Color> as) {
    if (tournament_board())
        return reject(proto::ErrorCode::NotAllowed, "a tournament board plays one game; the next round has its own");
    if (status() == proto::TableStatus::Playing)
        return reject(proto::ErrorCode::GameInProgress, "finish or resign the current game first");
    const auto c = seat_of(s);
    if (!c) {
        const bool no_humans = !seats_[RED].human() && !seats_[BLACK].human();
        if (is_creator(who) && no_humans) {
            start_new_game();
            return std::nullopt;
        }
        return reject(proto::ErrorCode::NotAllowed, "only the seated players (or the creator of an AI table) start a new game");
    }
    const Seat& opp = seats_[~*c];
    if (as && !opp.empty() && !opp.ai())
        return reject(proto::ErrorCode::NotAllowed, "the colour is chosen only against the AI or an empty seat");
    if (opp.empty() || opp.ai() || new_game_offer_ == ~*c) {
        // Without a choice the colours swap; a player who asks for the colour it has keeps it.
        start_new_game(!as || *as != *c);
        return std::nullopt;
    }
    if (new_game_offer_ == *c) return reject(proto::ErrorCode::OfferPending, "your new game request is still open");
    new_game_offer_ = *c;
    broadcast(proto::NewGameOffered{id_, *c});
    return std::nullopt;
}

Verdict Table::withdraw_offer(SessionId s, proto::OfferKind offer) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NotSeated, "only a seated player can withdraw an offer");
    std::optional<Color>& open = offer == proto::OfferKind::Draw       ? draw_offer_
                                 : offer == proto::OfferKind::Takeback ? takeback_offer_
                                                                       : new_game_offer_;
    if (open != *c) return reject(proto::ErrorCode::NoOffer, "you have no open offer of that kind to withdraw");
    open.reset();
    broadcast(proto::OfferWithdrawn{id_, *c, offer});
    return std::nullopt;
}

Verdict Table::claim_win(SessionId s) {
    const auto c = seat_of(s);
    if (!c) return reject(proto::ErrorCode::NoClaim, "only a seated player can claim a win");
    if (status() != proto::TableStatus::Playing) return reject(proto::ErrorCode::NoClaim, "no game is running");
    const Seat& opp = seats_[~*c];
    if (!opp.waiting_for_return())
        return reject(proto::ErrorCode::NoClaim, side_name(~*c) + "'s seat is not abandoned");
    if (!opp.abandoned) {
        const auto left = std::chrono::duration_cast<std::chrono::seconds>(opp.grace_until - Clock::now());
        return reject(proto::ErrorCode::NoClaim, side_name(~*c) + " may still return (" +
                                                     std::to_string(std::max<std::int64_t>(0, left.count())) +
                                                     " s of grace left)");
    }
    if (opp.hold_level > 0)
        return reject(proto::ErrorCode::NoClaim,
                      "the AI holds " + side_name(~*c) + "'s seat until the player returns (this table's rule)");
    finish(win_for(*c), EndReason::Abandonment,
           side_name(~*c) + " left and did not return: " + side_name(*c) + " wins");
    ctx_.host.table_changed(*this);
    return std::nullopt;
}

}  // namespace xq::server
