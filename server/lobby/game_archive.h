// The game archive behind the lobby's list_games / get_game requests; the game recorder
// (store/) implements it on the database. A lobby without one refuses those requests.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "protocol/messages.h"

namespace xq::server {

// A tournament's games as one PGN text, with a digest of it (16 hex digits) that changes
// when the text does.
struct TournamentPgnText {
    std::string text;
    std::string digest;
};

// The game archive behind list_games / get_game.
class GameArchive {
public:
    virtual ~GameArchive() = default;
    virtual proto::Games list_games(const proto::ListGames& query) = 0;
    virtual std::optional<proto::GameRecord> get_game(std::int64_t id) = 0;
    // The archive's id of the game running (or just ended) at `table`; 0 when it has none.
    virtual std::int64_t game_id_at(proto::TableId table) const = 0;
    // A stored analysis of the game (analyse_game), and storing one. An archive that keeps
    // none answers nullopt and forgets what it is given.
    virtual std::optional<proto::Analysis> analysis(std::int64_t /*id*/) { return std::nullopt; }
    virtual void save_analysis(const proto::Analysis& /*analysis*/) {}
    // Every decided game of tournament `id` as one PGN text, as `xiangqi-server export
    // --tournament` writes it (empty when none has a result yet); null and why when it cannot
    // be made. An archive that keeps no tournaments answers null.
    virtual std::shared_ptr<const TournamentPgnText> tournament_pgn(std::uint32_t /*id*/, proto::PgnNotation /*notation*/,
                                                                    std::string* error) {
        if (error) *error = "this server keeps no tournaments";
        return nullptr;
    }
};

}  // namespace xq::server
