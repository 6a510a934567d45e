// A table's game clock as the server core sees it (TableClock): GameClock arithmetic on the
// server's steady clock plus one timer that ends the game when the running side's flag falls.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>

#include "server/config/server_config.h"
#include "server/table/game_clock.h"
#include "server/table/table_clock.h"

namespace xq::server {

class TableGameClock final : public TableClock {
public:
    // `on_flag(side)` runs on the I/O thread when `side` runs out of time.
    using FlagFn = std::function<void(Color)>;

    TableGameClock(boost::asio::io_context& io, const ClockConfig& config, FlagFn on_flag);
    ~TableGameClock() override;

    void game_started(Color to_move) override;
    proto::Clocks move_made(Color mover) override;
    void position_reset(Color to_move) override;
    void game_over() override;
    proto::Clocks state() const override;
    void pause() override;
    void unpause() override;
    void add_time(Color side, std::int64_t ms) override;
    void hold_turn() override;
    void release_turn() override;
    bool held() const { return held_; }
    bool paused() const { return paused_; }
    engine::ClockView ai_view(Color side) const override;

    const ClockConfig& config() const { return clock_.config(); }
    ClockState persisted_state() const { return clock_.state(Clock::now()); }
    // After a restart: the stored times, running for `to_move` from now.
    void resume(const ClockState& state, Color to_move);
    bool flag_pending() const { return flag_pending_; }
    // The server is stopping: the timer goes (so the I/O loop can end), the times stay.
    void suspend() { timer_.cancel(); }

private:
    void arm();

    GameClock clock_;
    Timer timer_;
    FlagFn on_flag_;
    bool paused_ = false;        // an arbiter stopped the clock; unpause() starts it again
    bool flag_pending_ = false;  // a late move was accepted after the flag fell; the timer ends the game
    bool held_ = false;          // hold_turn(): the side to move's time waits for release_turn()
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace xq::server
