// The game archive as records: a stored game replayed through the rules library, written
// as Xiangqi PGN, and classic PGN records read into the archive for review. Malformed
// input (a bad stored move, a broken PGN file) is an error message, never a crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "server/store/storage.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"

namespace xq::server {

// Outcome from "1-0" / "0-1" / "1/2-1/2" / "*"; and EndReason from end_reason_name().
std::optional<Outcome> outcome_from_pgn(std::string_view text);
std::optional<EndReason> end_reason_from_name(std::string_view name);
// "iccs", "wxf", "chinese" (any case).
std::optional<Notation> notation_from_name(std::string_view name);

// Replays the stored moves from the stored start; a finished game gets its stored result.
// nullopt and why when a stored FEN or move does not replay (a damaged database).
std::optional<Game> replay(const GameRecord& record, std::string* error = nullptr);

// PGN for one stored game: Event, Site (`site`), Date (from started_at), Red, Black,
// Result, FEN for a set-up start, Opening / OpeningEnglish / ECCO when the moves reach a
// named line of the starter collection, and the moves in the chosen notation.
// With a stored analysis (analyse_game) each move gets its comment: "[%eval 0.35] best: h2e2
// (mistake)".
// A tournament's game has its Event (the tournament's name) and Round (`round`) given.
std::optional<std::string> record_pgn(const GameRecord& record, Notation notation, std::string_view site,
                                      std::string* error = nullptr, const StoredAnalysis* analysis = nullptr,
                                      std::string_view event = {}, std::string_view round = {});

// Every game played in tournament `tournament_id` (kept in the database by a server), in the
// order they were decided, as one PGN text: Event the tournament's name, Round its round.
// Byes and forfeits (no game) are left out. nullopt and why when there is no such tournament
// or it has no game with a result yet.
std::optional<std::string> tournament_pgn(Storage& storage, std::int64_t tournament_id, Notation notation,
                                          std::string_view site, std::string* error = nullptr);
// The same, but a tournament with no game yet is an empty text (the wire's get_tournament_pgn).
std::optional<std::string> tournament_games_pgn(Storage& storage, std::int64_t tournament_id, Notation notation,
                                                std::string_view site, std::string* error = nullptr);

struct ImportResult {
    int imported = 0;
    std::string error;  // the first refused game: "game 2, line 17: ..."; nothing is stored then
};

// Reads every game of a PGN file into the archive as finished games (table 0). All or
// nothing: a malformed game refuses the whole file with its message.
ImportResult import_pgn(Storage& storage, std::string_view text, std::int64_t now_ms);

}  // namespace xq::server
