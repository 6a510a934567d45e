// The broadcast delay's guard on the archive: a game running at a table with a spectator
// delay is served (get_game, analyse_game) to its two players only until it ends, so nobody
// reads around the delay the moves its spectators see late.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "server/lobby/game_archive.h"
#include "server/table/table.h"

namespace xq::server {

// The table where game `game_id` runs under a spectator delay when session `asker` does not
// play it there; 0 when the game may be served.
inline proto::TableId delayed_table(const std::map<proto::TableId, std::shared_ptr<Table>>& tables,
                                    const GameArchive& archive, SessionId asker, std::int64_t game_id) {
    for (const auto& [id, t] : tables) {
        if (t->rules().spectator_delay <= 0 || t->game().over() || archive.game_id_at(id) != game_id) continue;
        return t->seat(RED).session == asker || t->seat(BLACK).session == asker ? 0 : id;
    }
    return 0;
}

inline std::string delayed_message(proto::TableId table) {
    return "the game at table " + std::to_string(table) +
           " is under a broadcast delay until it ends: watch it there (its spectators see it late)";
}

}  // namespace xq::server
