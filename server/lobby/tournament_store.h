// Where the tournament desk keeps its tournaments so they survive a restart: the game
// recorder (store/) keeps them in the database. Each is its `tournament` line (PROTOCOL.md)
// and the tables its decided games were played at (for the tournament's PGN export).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/messages.h"

namespace xq::server {

struct SavedTournament {
    std::string state;                    // the `tournament` line
    std::vector<proto::TableId> tables;   // per entry of its `games`: the table, 0 if none
};

class TournamentStore {
public:
    virtual ~TournamentStore() = default;
    virtual void save_tournament(std::uint32_t id, const SavedTournament& t) = 0;
    virtual void forget_tournament(std::uint32_t id) = 0;
    // Every kept tournament, oldest id first.
    virtual std::vector<SavedTournament> saved_tournaments() = 0;
};

}  // namespace xq::server
