// One tournament as the tournament desk keeps it: what the wire shows, its boards' table
// rules, the games played so far (for pairing and standings), the schedule and the current
// round's pairings, and the forfeit timer; plus the conversions between the wire's board
// results and the pairing library's outcomes.
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "server/table/table.h"
#include "server/tournament/pairing.h"

namespace xq::server {

struct TournamentEvent {
    proto::Tournament view;  // what the wire shows; standings and games are kept in step
    TableRules rules;        // every board's table rules
    std::vector<tournament::PlayedGame> history;
    std::vector<proto::TableId> history_tables;  // per game of history: its table (0: none)
    std::vector<std::vector<tournament::Pairing>> schedule;  // round-robin: the whole schedule
    std::vector<tournament::Pairing> pairings;               // the current round's
    std::unique_ptr<boost::asio::steady_timer> forfeit_timer;

    int index_of(const std::string& name) const;
    const std::string& name_of(int i) const { return view.entrants[static_cast<std::size_t>(i)].name; }
    bool ai(int i) const { return view.entrants[static_cast<std::size_t>(i)].ai_level > 0; }
    bool withdrawn(int i) const { return view.entrants[static_cast<std::size_t>(i)].withdrawn; }
};

tournament::Outcome to_outcome(proto::BoardResult r);
proto::BoardResult to_board_result(tournament::Outcome o);

}  // namespace xq::server
