#include "server/table/table_game_clock.h"

namespace xq::server {

namespace {
TimePoint now() { return Clock::now(); }
}  // namespace

TableGameClock::TableGameClock(boost::asio::io_context& io, const ClockConfig& config, FlagFn on_flag)
    : clock_(config), timer_(io), on_flag_(std::move(on_flag)) {}

TableGameClock::~TableGameClock() {
    *alive_ = false;
    timer_.cancel();
}

void TableGameClock::arm() {
    timer_.cancel();
    auto left = clock_.until_flag(now());
    if (!left) return;
    timer_.expires_after(*left);
    timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
        if (ec || !*alive) return;
        if (auto side = clock_.flag_fallen(now())) {
            clock_.stop(now());
            flag_pending_ = false;
            on_flag_(*side);
        } else {
            arm();  // woke a little early
        }
    });
}

void TableGameClock::game_started(Color to_move) {
    clock_ = GameClock(clock_.config());
    paused_ = false;
    held_ = false;
    clock_.start(to_move, now());
    arm();
}

proto::Clocks TableGameClock::move_made(Color) {
    if (held_) {
        // A move before the line of the last one left (an AI seat sees the board at once):
        // the mover's time starts now, so the move costs it nothing.
        held_ = false;
        if (!paused_) clock_.start(clock_.turn(), now());
    }
    if (!clock_.on_move(now())) {
        // The flag fell a moment before the move was read (its timer had not run yet): the
        // move stands in the record, and the game ends on time right after it.
        flag_pending_ = true;
        timer_.cancel();
        timer_.expires_after(Ms(0));
        timer_.async_wait([this, alive = alive_](const boost::system::error_code& ec) {
            if (ec || !*alive || !flag_pending_) return;
            Color side = clock_.turn();
            clock_.stop(now());
            flag_pending_ = false;
            on_flag_(side);
        });
        return state();
    }
    arm();
    return state();
}

void TableGameClock::position_reset(Color to_move) {
    if (held_) {
        // A takeback while the turn is held: the turn changes hands, still held.
        clock_.start(to_move, now());
        clock_.stop(now());
        return;
    }
    if (clock_.running()) {
        clock_.set_turn(to_move, now());  // a takeback: the clock keeps running
        arm();
    } else {
        clock_ = GameClock(clock_.config());  // a new game: fresh times once it starts
        paused_ = false;
        timer_.cancel();
    }
}

void TableGameClock::game_over() {
    clock_.stop(now());
    paused_ = false;
    held_ = false;
    flag_pending_ = false;
    timer_.cancel();
}

engine::ClockView TableGameClock::ai_view(Color side) const {
    const ClockConfig& cfg = clock_.config();
    engine::ClockView v;
    if (cfg.kind == ClockKind::None) return v;
    const SideTime st = clock_.side_time(side, now());
    v.type = cfg.kind == ClockKind::Fischer ? engine::ClockType::Fischer : engine::ClockType::Asian;
    v.main_ms = static_cast<int>(st.main.count());
    v.increment_ms = static_cast<int>(cfg.increment.count());
    v.move_limit_ms = static_cast<int>(cfg.move_limit.count());
    v.countdown_ms = static_cast<int>(cfg.countdown.count());
    v.in_countdown = st.in_countdown;
    return v;
}

proto::Clocks TableGameClock::state() const {
    proto::Clocks c;
    auto t = now();
    for (Color side : {RED, BLACK}) {
        SideTime st = clock_.side_time(side, t);
        // In the Asian countdown the time that matters is this move's.
        std::int64_t ms = st.in_countdown ? st.move_left.count() : st.main.count();
        (side == RED ? c.red_ms : c.black_ms) = ms;
    }
    // A held turn is reported running: it is the side to move's, and starts as the line leaves.
    if (clock_.running() || held_) c.running = clock_.turn();
    c.paused = paused_;
    return c;
}

void TableGameClock::pause() {
    if (held_ && !paused_) {
        paused_ = true;  // nothing runs; unpause waits for the release, or starts it after it
        return;
    }
    // A flag that fell a moment before the pause still ends the game (its timer is armed).
    if (!clock_.running() || paused_ || flag_pending_) return;
    clock_.stop(now());
    paused_ = true;
    timer_.cancel();
}

void TableGameClock::unpause() {
    if (!paused_) return;
    paused_ = false;
    if (held_) return;  // release_turn() starts it
    // The side to move starts afresh: an Asian per-move period begins again.
    clock_.start(clock_.turn(), now());
    arm();
}

void TableGameClock::add_time(Color side, std::int64_t ms) {
    if (flag_pending_) return;
    clock_.add_time(side, Ms(ms));
    if (clock_.running()) arm();
}

void TableGameClock::hold_turn() {
    if (!clock_.running() || paused_ || flag_pending_) return;
    clock_.stop(now());  // charges the moment since the turn began (none: it began just now)
    timer_.cancel();
    held_ = true;
}

void TableGameClock::release_turn() {
    if (!held_) return;
    held_ = false;
    if (paused_) return;  // unpause() starts it
    clock_.start(clock_.turn(), now());
    arm();
}

void TableGameClock::resume(const ClockState& state, Color to_move) {
    clock_ = GameClock(clock_.config());
    paused_ = false;
    held_ = false;
    clock_.restore(state);
    clock_.start(to_move, now());
    arm();
}

}  // namespace xq::server
