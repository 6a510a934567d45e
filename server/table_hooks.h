// Extension points of a table for the parts layered on the core (persistence, clocks):
// observers hear about accepted moves and results; a clock may fill the clocks slot.
#pragma once

#include "protocol/messages.h"
#include "xiangqi/types.h"

namespace xq::server {

class Table;

// Called on the I/O thread. move_accepted runs before the move is broadcast, so a
// persisting observer has the move written before any client sees it.
class TableObserver {
public:
    virtual ~TableObserver() = default;
    virtual void table_created(const Table&) {}
    virtual void game_started(const Table&) {}
    virtual void move_accepted(const Table&, const proto::MoveMade&) {}
    virtual void takeback(const Table&, int /*plies*/) {}
    virtual void game_over(const Table&, const proto::GameOver&) {}
    virtual void seats_changed(const Table&) {}
    virtual void table_closed(const Table&) {}
};

// A game clock plugged into a table (the table works without one). A clock that runs out
// ends the game through Table::finish_external(..., EndReason::Timeout, ...).
class TableClock {
public:
    virtual ~TableClock() = default;
    virtual void game_started(Color to_move) = 0;
    virtual proto::Clocks move_made(Color mover) = 0;  // stop mover, start the other side
    virtual void position_reset(Color to_move) = 0;    // takeback or new game
    virtual void game_over() = 0;
    virtual proto::Clocks state() const = 0;
};

// The game archive behind list_games / get_game (the durability layer's database).
class GameArchive {
public:
    virtual ~GameArchive() = default;
    virtual proto::Games list_games(const proto::ListGames& query) = 0;
    virtual std::optional<proto::GameRecord> get_game(std::int64_t id) = 0;
};

}  // namespace xq::server
