// The opening explorer's knowledge of the server's own games: for each position of the first
// plies of every finished game in the archive, the moves played and how they scored. Loaded
// from the archive at start (the newest games first, up to a cap) and told of every game that
// ends afterwards; a running game is never in it, so the explorer cannot show a game's moves
// before its spectators see them.
#pragma once

#include <cstdint>
#include <unordered_set>

#include "book/opening_book.h"
#include "server/table/table_observer.h"

namespace xq::server {

class Storage;

// Plies of each game the explorer knows, and the most archived games read at start.
inline constexpr int EXPLORER_PLIES = 40;
inline constexpr int EXPLORER_START_GAMES = 20000;

class ExplorerIndex final : public TableObserver {
public:
    // Adds the newest `max_games` finished games of the archive; returns how many.
    int load(Storage& storage, int max_games = EXPLORER_START_GAMES);

    void game_started(const Table& t) override;
    void game_over(const Table& t, const proto::GameOver& go) override;

    const book::Book& games() const { return games_; }
    std::uint64_t games_added() const { return added_; }

private:
    book::Book games_;
    std::unordered_set<std::uint32_t> done_;  // tables whose current game was added (a takeback may reopen it)
    std::uint64_t added_ = 0;
};

}  // namespace xq::server
