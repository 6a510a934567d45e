// AI seats of a table: the built-in AI (AiPool) and external engines (EnginePool) search off
// the I/O thread, report progress, and their move comes back through the referee.
#include "server/table/table.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <random>

#include "book/book_player.h"
#include "server/ai/ai_pool.h"
#include "server/ai/engine_pool.h"
#include "server/table/table_helpers.h"
#include "xiangqi/notation.h"

namespace xq::server {

namespace {

// A search's progress, reported from its worker thread: at most one ai_progress line per
// AI_PROGRESS_INTERVAL. It also keeps the last score seen (engine seats answer draw offers
// with it). Shared by the built-in AI and external engine seats.
struct ProgressThrottle {
    std::mutex m;
    Clock::time_point last{};
    int score = 0;

    bool due(int new_score) {
        std::lock_guard lock(m);
        score = new_score;
        const auto now = Clock::now();
        if (now - last < AI_PROGRESS_INTERVAL) return false;
        last = now;
        return true;
    }
    int last_score() {
        std::lock_guard lock(m);
        return score;
    }
};

// The principal variation as it goes on the wire: ICCS, at most AI_PV_MAX moves, cut at the
// first move that is not legal where it would be played (an engine's line is never trusted).
std::vector<std::string> pv_line(const Position& pos, const std::vector<Move>& pv) {
    std::vector<std::string> out;
    Position p = pos;
    for (Move m : pv) {
        if (out.size() >= proto::AI_PV_MAX || !m || !p.is_pseudo_legal(m) || !p.is_legal(m)) break;
        out.push_back(move_to_iccs(m));
        UndoInfo undo;
        p.do_move(m, undo);
    }
    return out;
}

proto::AiProgress progress_line(proto::TableId id, Color side, int level, int depth, int score, int percent,
                                std::uint64_t nodes, std::vector<std::string> pv) {
    proto::AiProgress msg;
    msg.pv = std::move(pv);
    msg.table = id;
    msg.seat = side;
    msg.level = level;
    msg.depth = std::clamp(depth, 0, 1000);
    msg.score = std::clamp(score, -1000000, 1000000);
    msg.percent = std::clamp(percent, 0, 100);
    msg.nodes = nodes;
    return msg;
}

}  // namespace

Verdict Table::request_ai(SessionId s, const std::vector<std::string>& who, Color c, int level, const std::string& engine) {
    if (!engine.empty() && !(ctx_.engines && ctx_.engines->has(engine))) {
        std::string known;
        if (ctx_.engines)
            for (const auto& n : ctx_.engines->names()) known += (known.empty() ? "" : ", ") + n;
        return reject(proto::ErrorCode::NoSuchEngine,
                      "no engine named '" + engine + "' on this server" +
                          (known.empty() ? std::string(" (it has none)") : " (engines: " + known + ")"));
    }
    if (engine.empty() && !ctx_.ai) return reject(proto::ErrorCode::NotAllowed, "this server has no AI seats");
    if (!seat_of(s) && !is_creator(who))
        return reject(proto::ErrorCode::NotAllowed, "only a seated player or the table's creator can ask for an AI");
    if (tournament_board())
        return reject(proto::ErrorCode::NotAllowed, "the seats of a tournament board belong to its entrants");
    if (seats_[c].human())
        return reject(proto::ErrorCode::SeatTaken, "the " + std::string(proto::color_wire_name(c)) +
                                                       " seat is taken by " + seats_[c].name);
    place_ai(c, level, engine);
    return std::nullopt;
}

void Table::seat_ai(Color c, int level) {
    if (seats_[c].human()) return;
    place_ai(c, level, {});
}

void Table::place_ai(Color c, int level, const std::string& engine) {
    Seat& seat = seats_[c];
    const bool was_ai = seat.ai();
    if (was_ai && ai_busy_ && game_.side_to_move() == c) cancel_ai();
    seat = Seat{};
    seat.kind = Seat::Kind::Ai;
    seat.name = engine.empty() ? ai_name(level) : engine;
    seat.ai_level = level;
    seat.engine = engine;
    announce_ai(c);
    if (!maybe_start_game()) seats_changed();
    maybe_start_ai();
    ctx_.host.table_changed(*this);
}

std::optional<engine::TimeBudget> Table::ai_budget(Color side) const {
    if (!clock_) return std::nullopt;
    const engine::ClockView view = clock_->ai_view(side);
    if (view.type == engine::ClockType::None) return std::nullopt;
    return engine::plan_move_time(view, AI_MOVE_OVERHEAD_MS);
}

void Table::announce_ai(Color c) {
    broadcast(proto::PlayerJoined{id_, seats_[c].name, proto::role_of(c), seats_[c].ai_level, seats_[c].engine});
}

void Table::cancel_ai() {
    if (ai_stop_) ai_stop_->store(true);
    ai_stop_.reset();
    ai_busy_ = false;
    ++ai_epoch_;
    ai_timer_.cancel();
}

void Table::maybe_start_ai() {
    if (ai_busy_ || paused_ || status() != proto::TableStatus::Playing) return;
    const Color side = game_.side_to_move();
    const Seat& seat = seats_[side];
    if (!seat.ai() && !seat.held_by_ai()) return;
    const bool external = seat.ai() && !seat.engine.empty();
    if (external ? !ctx_.engines : !ctx_.ai) return;
    ai_busy_ = true;
    const std::uint64_t epoch = ++ai_epoch_;
    ai_stop_ = std::make_shared<std::atomic<bool>>(false);
    if (external) {
        start_engine(epoch, side);
        return;
    }
    // The built-in AI: an AI seat at its level, or an abandoned seat it holds (policy ai).
    const int level = seat.ai() ? seat.ai_level : seat.hold_level;

    AiJob job;
    job.start = start_;
    job.moves = game_.moves();
    job.limits.level = level;
    const int pace_ms = ctx_.config.ai_movetime_ms[static_cast<std::size_t>(level)];
    if (const auto budget = ai_budget(side)) {
        // On a clock the clock decides (level 10 uses a slow clock's time); lower levels keep
        // their usual pace when the clock allows it.
        job.limits.hard_ms = level < engine::MAX_LEVEL ? std::min(budget->hard_ms, pace_ms) : budget->hard_ms;
        job.limits.soft_ms = std::min(budget->soft_ms, job.limits.hard_ms);
    } else {
        job.limits.movetime_ms = pace_ms;
    }
    job.limits.seed = std::random_device{}();
    job.stop = ai_stop_;
    // In a position the book knows, the worker plays a checked book move (book_player.h).
    if (ctx_.book)
        if (auto from_book = ctx_.book->candidates(game_.position()); !from_book.empty())
            job.think = [from_book = std::move(from_book)](engine::Engine& e, const AiJob& j) {
                return xq::book::play(e, j.start, j.moves, from_book, j.limits, j.on_progress, j.stop.get()).result;
            };
    const int ply = game_.ply();
    std::weak_ptr<Table> weak = weak_from_this();
    boost::asio::io_context& io = ctx_.io;
    const proto::TableId id = id_;

    auto throttle = std::make_shared<ProgressThrottle>();
    job.on_progress = [weak, &io, epoch, side, level, id, throttle, pos = game_.position()](const engine::Progress& p) {
        if (!throttle->due(p.score_cp)) return;
        const int percent = p.root_total > 0 ? p.root_done * 100 / p.root_total : 0;
        post_progress(weak, io, epoch,
                      progress_line(id, side, level, p.depth, p.score_cp, percent, p.nodes, pv_line(pos, p.pv)));
    };
    job.on_done = [weak, &io, epoch, side, ply](const engine::Result& r) {
        boost::asio::post(io, [weak, epoch, side, ply, r] {
            auto self = weak.lock();
            if (!self) return;
            self->ai_done(epoch, side, ply, r);
        });
    };
    ctx_.ai->submit(std::move(job));
}

void Table::post_progress(const std::weak_ptr<Table>& weak, boost::asio::io_context& io, std::uint64_t epoch,
                          const proto::AiProgress& msg) {
    boost::asio::post(io, [weak, epoch, msg] {
        auto self = weak.lock();
        if (!self || self->ai_epoch_ != epoch) return;
        // The AI's line of thought would show a delayed game's present to its spectators.
        if (self->rules_.spectator_delay > 0) self->send_players(make_buffer(msg));
        else self->broadcast(msg);
    });
}

void Table::ai_done(std::uint64_t epoch, Color side, int ply, const engine::Result& r) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    seats_[side].ai_last_score = r.score_cp;
    const auto since = Clock::now() - position_since_;
    // The pause that keeps AI-vs-AI games watchable is never taken from a running clock.
    if (since < ctx_.config.ai_min_move && !ai_budget(side)) {
        ai_timer_.expires_after(ctx_.config.ai_min_move - since);
        std::weak_ptr<Table> weak = weak_from_this();
        const Move m = r.best;
        ai_timer_.async_wait([weak, epoch, side, ply, m](const boost::system::error_code& ec) {
            if (ec) return;
            if (auto self = weak.lock()) self->ai_play(epoch, side, ply, m);
        });
        return;
    }
    ai_play(epoch, side, ply, r.best);
}

void Table::ai_play(std::uint64_t epoch, Color side, int ply, Move m) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    ai_busy_ = false;
    ai_stop_.reset();
    // The engine's move is judged exactly like a human's: a bad one cannot corrupt the game.
    const std::string text = m ? move_to_iccs(m) : std::string("none");
    const Verdict v = referee(side, ply, text);
    if (v && !seats_[side].engine.empty()) {
        engine_failed(side, "answered a move the referee refused (" + v->message + ")");
    } else if (v) {
        spdlog::error("table {}: AI ({}) produced a refused move {}: {}", id_, side_name(side), move_to_iccs(m),
                      v->message);
        finish(win_for(~side), EndReason::Resignation, side_name(side) + " (AI) could not move and resigns");
        ctx_.host.table_changed(*this);
    }
}

void Table::start_engine(std::uint64_t epoch, Color side) {
    const Seat& seat = seats_[side];
    EngineJob job;
    job.engine = seat.engine;
    job.start = start_;
    job.moves = game_.moves();
    job.level = std::clamp(seat.ai_level, 1, 10);
    job.movetime = EngineMs(ctx_.config.ai_movetime_ms[static_cast<std::size_t>(job.level)]);
    // On a clock an engine gets a fixed time per move from the budget: its soft share, so
    // that a slow answer still has the margin up to the hard limit before the flag.
    if (const auto budget = ai_budget(side)) job.movetime = EngineMs(budget->soft_ms);
    job.stop = ai_stop_;
    const int ply = game_.ply();
    const int level = job.level;
    const auto movetime = job.movetime;
    std::weak_ptr<Table> weak = weak_from_this();
    boost::asio::io_context& io = ctx_.io;
    const proto::TableId id = id_;

    auto state = std::make_shared<ProgressThrottle>();
    job.on_info = [weak, &io, epoch, side, level, id, movetime, state, pos = game_.position()](const EngineInfo& info) {
        if (!state->due(info.score_cp)) return;
        // An engine does not say how far through its move list it is: time spent stands in.
        const int percent = movetime.count() > 0 ? static_cast<int>(std::clamp<long long>(
                                                        info.elapsed.count() * 100 / movetime.count(), 0, 100))
                                                  : 0;
        post_progress(weak, io, epoch,
                      progress_line(id, side, level, info.depth, info.score_cp, percent, info.nodes,
                                    pv_line(pos, info.pv)));
    };
    job.on_done = [weak, &io, epoch, side, ply, state](const EngineReply& r) {
        const int score = state->last_score();
        boost::asio::post(io, [weak, epoch, side, ply, r, score] {
            if (auto self = weak.lock()) self->engine_done(epoch, side, ply, r, score);
        });
    };
    ctx_.engines->submit(std::move(job));
}

void Table::engine_done(std::uint64_t epoch, Color side, int ply, const EngineReply& r, int score) {
    if (epoch != ai_epoch_ || !ai_busy_) return;
    if (r.failure != EngineFailure::None) {
        ai_busy_ = false;
        ai_stop_.reset();
        std::string what;
        switch (r.failure) {
        case EngineFailure::Crashed: what = "crashed"; break;
        case EngineFailure::Hung: what = "did not answer within its time"; break;
        case EngineFailure::BadMove: what = "answered an illegal move"; break;
        case EngineFailure::NoMove: what = "claimed to have no move"; break;
        default: what = "failed"; break;
        }
        if (!r.detail.empty()) what += " (" + r.detail.substr(0, 160) + ")";
        engine_failed(side, what);
        return;
    }
    engine::Result res;
    res.best = r.move;
    res.score_cp = score;
    ai_done(epoch, side, ply, res);
}

void Table::engine_failed(Color side, const std::string& what) {
    const std::string engine = seats_[side].engine;
    spdlog::warn("table {}: engine '{}' ({}) {}", id_, engine, side_name(side), what);
    finish(win_for(~side), EndReason::EngineFailure,
           side_name(side) + "'s engine " + engine + " " + what + ": " + side_name(side) + " loses");
    ctx_.host.table_changed(*this);
}

}  // namespace xq::server
