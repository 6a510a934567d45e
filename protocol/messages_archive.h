// The server's game archive (list_games / games, get_game / game_record) and whole-game
// analysis on its AI pool (analyse_game ... analysis). Part of messages.h; documented in
// protocol/PROTOCOL.md (Durability: Archive, Analysis).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/limits.h"
#include "xiangqi/game.h"

namespace xq::proto {

// Archive requests (answered from the server's game database).
struct ListGames {
    static constexpr std::string_view TYPE = "list_games";
    std::string player;       // optional: only games in which this name played
    std::int64_t before = 0;  // optional paging: only games with a smaller id
    int limit = 0;            // optional: 1..GAMES_PER_LINE (0 or absent: GAMES_PER_LINE); else bad_field
    template <class F> void fields(F& f) {
        f.opt("player", player);
        f.opt("before", before);
        f.opt("limit", limit, 0, int(GAMES_PER_LINE));
    }
};

struct GetGame {
    static constexpr std::string_view TYPE = "get_game";
    std::int64_t id = 0;
    template <class F> void fields(F& f) { f("id", id, 1, std::int64_t(1) << 53); }
};

// One archived (or still running) game in a `games` list.
struct GameSummary {
    std::int64_t id = 0;
    std::string red;
    std::string black;
    Outcome result = Outcome::Ongoing;  // "*" while running or when it ended without one
    std::string reason;                 // end reason name, "" while running
    int plies = 0;
    std::int64_t started = 0;           // Unix time in ms
    std::int64_t ended = 0;             // Unix time in ms, 0 while running
    // A rated table's game: each registered player's rating when the game started.
    std::optional<int> red_rating;
    std::optional<int> black_rating;
    template <class F> void fields(F& f) {
        f("id", id);
        f("red", red);
        f("black", black);
        f("result", result);
        f.opt("reason", reason);
        f("plies", plies, 0, 1 << 30);
        f("started", started);
        f.opt("ended", ended);
        f.opt("red_rating", red_rating, 0, MAX_RATING);
        f.opt("black_rating", black_rating, 0, MAX_RATING);
    }
};

struct Games {
    static constexpr std::string_view TYPE = "games";
    std::vector<GameSummary> games;  // newest first
    bool more = false;               // older games exist: ask again with before = the last id
    template <class F> void fields(F& f) {
        f("games", games);
        f.opt("more", more);
    }
};

// Something that happened to an archived game besides its moves: an arbiter's action, or
// (kind "hint") a hint shown to the player to move.
struct GameEventInfo {
    int ply = 0;            // plies played when it happened
    std::int64_t at = 0;    // Unix time in ms
    std::string text;       // in words, e.g. "carl paused the game (Red 4:31, Black 5:00)"
    std::string kind;       // "" (absent): an arbiter's action; "hint"
    bool operator==(const GameEventInfo&) const = default;
    template <class F> void fields(F& f) {
        f("ply", ply, 0, 1 << 30);
        f("at", at);
        f("text", text);
        f.opt("kind", kind);
    }
};

struct GameRecord {
    static constexpr std::string_view TYPE = "game_record";
    GameSummary game;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS; at most SNAPSHOT_MOVES_PER_LINE
    std::string text;                // the result in words
    // Oldest first; at most GAME_EVENTS_PER_LINE and GAME_EVENTS_BYTES of text.
    std::vector<GameEventInfo> events;
    bool more_events = false;  // the game has more events than the line holds
    int red_hints = 0;         // hints shown to each side in the game (request_hint)
    int black_hints = 0;
    template <class F> void fields(F& f) {
        f("game", game);
        f("start_fen", start_fen);
        f("moves", moves);
        f.opt("text", text);
        f.opt("events", events);
        f.opt("more_events", more_events);
        f.opt("red_hints", red_hints, 0, 1 << 30);
        f.opt("black_hints", black_hints, 0, 1 << 30);
    }
};

// Whole-game analysis on the server's AI pool (see Analysis): of an archived game (id), or
// with id 0 of the game given by start_fen (empty: the usual start) and moves (ICCS), one
// that is not in the archive (a PGN file opened in a client, a table's game).
struct AnalyseGame {
    static constexpr std::string_view TYPE = "analyse_game";
    std::int64_t id = 0;
    std::string start_fen;
    std::vector<std::string> moves;
    template <class F> void fields(F& f) {
        f("id", id, 0, std::int64_t(1) << 53);
        f.opt("start_fen", start_fen);
        f.opt("moves", moves);
    }
};

struct CancelAnalysis {
    static constexpr std::string_view TYPE = "cancel_analysis";
    std::int64_t id = 0;
    template <class F> void fields(F& f) { f("id", id, 0, std::int64_t(1) << 53); }
};

// Positions analysed so far (about one line per position); cancelled: the analysis stopped.
struct AnalysisProgress {
    static constexpr std::string_view TYPE = "analysis_progress";
    std::int64_t id = 0;
    int done = 0;
    int total = 0;
    bool cancelled = false;
    template <class F> void fields(F& f) {
        f("id", id, 0, std::int64_t(1) << 53);
        f("done", done, 0, 1 << 20);
        f("total", total, 0, 1 << 20);
        f.opt("cancelled", cancelled);
    }
};

// Most positions of a game analysed (the rest is not): keeps an analysis line under 16 KiB.
inline constexpr int MAX_ANALYSIS_POSITIONS = 601;

// The result: per position (ply 0 = the start) the evaluation in centipawns from Red's
// side (mates as +-(30000 - plies)) and the best move in ICCS ("" when there is none); per
// move the centipawns it lost for its player (absent in analyses stored before).
struct Analysis {
    static constexpr std::string_view TYPE = "analysis";
    std::int64_t id = 0;
    std::int64_t nodes = 0;  // the search budget of each position
    std::vector<int> evals;
    std::vector<std::string> best;
    std::vector<int> losses;
    template <class F> void fields(F& f) {
        f("id", id, 0, std::int64_t(1) << 53);
        f("nodes", nodes, 0, std::int64_t(1) << 40);
        f("evals", evals, -30000, 30000);
        f("best", best);
        f.opt("losses", losses, 0, 30000);
    }
};

}  // namespace xq::proto
