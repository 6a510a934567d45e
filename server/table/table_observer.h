// What a table tells the parts that follow its games (the game recorder in store/): table
// created, game started, every accepted move (before it is broadcast), takebacks, results.
#pragma once

#include "protocol/messages.h"

namespace xq::server {

class Table;

// Called on the I/O thread. move_accepted runs before the move is broadcast, so a
// persisting observer can make the move durable before any client sees it (GameRecorder
// queues it to the StoreWriter, and the server holds every later line until it is committed).
class TableObserver {
public:
    virtual ~TableObserver() = default;
    virtual void table_created(const Table&) {}
    virtual void game_started(const Table&) {}
    virtual void move_accepted(const Table&, const proto::MoveMade&) {}
    virtual void takeback(const Table&, int /*plies*/) {}
    virtual void game_over(const Table&, const proto::GameOver&) {}
    // An arbiter acted (before the table hears of it; an adjudication's game_over follows).
    virtual void arbiter_action(const Table&, const proto::ArbiterAction&) {}
    // `side`'s player was shown a hint (`move`, ICCS) after `ply` plies (before hint_used).
    virtual void hint_shown(const Table&, Color /*side*/, int /*ply*/, const std::string& /*move*/) {}
    virtual void seats_changed(const Table&) {}
    virtual void table_closed(const Table&) {}
};

}  // namespace xq::server
