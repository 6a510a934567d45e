// Hints (提示): the best move for the player to move, from a short search on the AI pool,
// where the table allows them (settings.hints) or against the AI, never in rated or
// tournament games. The player gets `hint`, everyone at the table `hint_used`, and the game
// record an event (PROTOCOL.md, Hints).
#include <boost/asio/post.hpp>

#include <algorithm>

#include "server/ai/ai_pool.h"
#include "server/table/table.h"
#include "server/table/table_helpers.h"
#include "xiangqi/notation.h"

namespace xq::server {

namespace {

// A hint's search: at most this long and this many nodes, whichever comes first. Its expected
// time also gives it its place in the AI pool's queue (beside a quick AI reply, never ahead
// of the searches already waiting) and keeps it in the quick lane.
constexpr int HINT_MS = 400;
constexpr std::uint64_t HINT_NODES = 300'000;

}  // namespace

Verdict Table::request_hint(SessionId s) {
    using proto::ErrorCode;
    const auto c = seat_of(s);
    if (!c) return reject(ErrorCode::NotSeated, "only the seated players get hints");
    if (rules_.rated) return reject(ErrorCode::NotAllowed, "no hints in a rated game");
    if (tournament_board()) return reject(ErrorCode::NotAllowed, "no hints in a tournament game");
    if (!rules_.hints && !seats_[~*c].ai())
        return reject(ErrorCode::NotAllowed, "hints are off at this table (its creator may allow them; "
                                             "games against the AI always have them)");
    if (!ctx_.ai) return reject(ErrorCode::NotAllowed, "this server has no AI to give hints");
    if (status() != proto::TableStatus::Playing)
        return reject(ErrorCode::GameNotInProgress,
                      game_.over() ? "the game is over" : "the game has not started (a seat is empty)");
    if (paused_) return reject(ErrorCode::GameNotInProgress, "the game is paused by the arbiter");
    if (game_.side_to_move() != *c)
        return reject(ErrorCode::NotYourTurn, "it is " + side_name(game_.side_to_move()) + "'s turn");
    if (hint_busy_[*c]) return reject(ErrorCode::NotAllowed, "your hint is still being searched (one at a time)");

    hint_busy_[*c] = true;
    if (!hint_stop_) hint_stop_ = std::make_shared<std::atomic<bool>>(false);
    AiJob job;
    job.start = start_;
    job.moves = game_.moves();
    job.limits.movetime_ms = HINT_MS;
    job.limits.nodes = HINT_NODES;
    job.stop = hint_stop_;
    const std::uint64_t epoch = hint_epoch_;
    const Color side = *c;
    const int ply = game_.ply();
    std::weak_ptr<Table> weak = weak_from_this();
    boost::asio::io_context& io = ctx_.io;
    job.on_done = [weak, &io, epoch, side, s, ply](const engine::Result& r) {
        boost::asio::post(io, [weak, epoch, side, s, ply, r] {
            if (auto self = weak.lock()) self->hint_done(epoch, side, s, ply, r);
        });
    };
    ctx_.ai->submit(std::move(job));
    return std::nullopt;
}

void Table::drop_hints() {
    // A stopped job reports nothing, so its side is free to ask again at once.
    if (hint_stop_) hint_stop_->store(true);
    hint_stop_.reset();
    hint_busy_[RED] = hint_busy_[BLACK] = false;
    ++hint_epoch_;
}

void Table::hint_done(std::uint64_t epoch, Color side, SessionId s, int ply, const engine::Result& r) {
    // The position changed meanwhile (drop_hints): the answer is stale and dropped.
    if (epoch != hint_epoch_) return;
    hint_busy_[side] = false;
    if (ply != game_.ply() || status() != proto::TableStatus::Playing || !r.best) return;
    // The player left the seat meanwhile: nobody to tell, nothing to record.
    const Seat& seat = seats_[side];
    if (!seat.human() || seat.session != s || !seat.connected) return;
    const std::string move = move_to_iccs(r.best);
    notify([&](TableObserver& o) { o.hint_shown(*this, side, ply, move); });
    send_to(s, proto::Hint{id_, ply, move, std::clamp(r.score_cp, -1000000, 1000000), std::clamp(r.depth, 0, 1000)});
    broadcast(proto::HintUsed{id_, ply, side, seat.name});
}

}  // namespace xq::server
