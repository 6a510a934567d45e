// Club tournaments: creating, entering, leaving and starting one, the list, one tournament's
// whole state (entrants, boards, games, standings) and its games as PGN pages. Part of
// messages.h; documented in protocol/PROTOCOL.md (Tournaments).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages_table_info.h"

namespace xq::proto {

// Tournaments: "round_robin" (Berger tables) or "swiss" (score groups).
enum class TournamentFormat { RoundRobin, Swiss };
// "open" (taking entries), "running", "finished".
enum class TournamentState { Open, Running, Finished };
// A tournament board's result: "*" (not decided yet), "1-0", "1/2-1/2", "0-1",
// "red_forfeit" / "black_forfeit" (that side did not show: the other scores the win),
// "double_forfeit" (neither showed), "bye" (red had the bye; no game).
enum class BoardResult { Pending, RedWin, Draw, BlackWin, RedForfeit, BlackForfeit, DoubleForfeit, Bye };
// The move notation of a PGN text: "iccs" (h2e2), "wxf" (C2.5), "chinese" (炮二平五).
enum class PgnNotation { Iccs, Wxf, Chinese };

// An AI entrant of a new tournament: the built-in AI at `level`.
struct AiEntrant {
    int level = AI_LEVEL_MIN;
    template <class F> void fields(F& f) { f("level", level, AI_LEVEL_MIN, AI_LEVEL_MAX); }
    bool operator==(const AiEntrant&) const = default;
};

struct CreateTournament {
    static constexpr std::string_view TYPE = "create_tournament";
    std::string name;  // cut to MAX_TOURNAMENT_NAME_CODE_POINTS; default "<director>'s tournament"
    TournamentFormat format = TournamentFormat::RoundRobin;
    int rounds = 0;                   // swiss: 1..MAX_TOURNAMENT_ROUNDS (required); round_robin: 0 (from the field)
    TableSettings settings;           // every board's table settings (clock, grace...)
    std::vector<AiEntrant> ai;        // AI entrants, at most MAX_TOURNAMENT_ENTRANTS
    int forfeit_seconds = 0;          // a player absent this long after the round starts loses; 0: default
    int spectator_delay = 0;          // spectators see the boards this many plies late (0: live)
    template <class F> void fields(F& f) {
        f.opt("name", name);
        f("format", format);
        f.opt("rounds", rounds, 0, MAX_TOURNAMENT_ROUNDS);
        f.opt("settings", settings);
        f.opt("ai", ai);
        f.opt("forfeit_seconds", forfeit_seconds, 0, MAX_FORFEIT_SECONDS);
        f.opt("spectator_delay", spectator_delay, 0, MAX_SPECTATOR_DELAY);
    }
};

struct JoinTournament {
    static constexpr std::string_view TYPE = "join_tournament";
    std::uint32_t tournament = 0;
    template <class F> void fields(F& f) { f("tournament", tournament); }
};

// Before the start: takes the entry back. Once running: withdraws (no further pairings).
struct LeaveTournament {
    static constexpr std::string_view TYPE = "leave_tournament";
    std::uint32_t tournament = 0;
    template <class F> void fields(F& f) { f("tournament", tournament); }
};

struct StartTournament {
    static constexpr std::string_view TYPE = "start_tournament";
    std::uint32_t tournament = 0;
    template <class F> void fields(F& f) { f("tournament", tournament); }
};

struct ListTournaments {
    static constexpr std::string_view TYPE = "list_tournaments";
    template <class F> void fields(F&) {}
};

struct GetTournament {
    static constexpr std::string_view TYPE = "get_tournament";
    std::uint32_t tournament = 0;
    template <class F> void fields(F& f) { f("tournament", tournament); }
};

// One page of the tournament's games as one PGN text (the export's text): `offset` bytes
// in, at most `limit` bytes (0: TOURNAMENT_PGN_PAGE_BYTES).
struct GetTournamentPgn {
    static constexpr std::string_view TYPE = "get_tournament_pgn";
    std::uint32_t tournament = 0;
    PgnNotation notation = PgnNotation::Iccs;
    std::int64_t offset = 0;
    int limit = 0;
    template <class F> void fields(F& f) {
        f("tournament", tournament);
        f.opt("notation", notation);
        f.opt("offset", offset, 0, std::int64_t(MAX_TOURNAMENT_PGN_BYTES));
        f.opt("limit", limit, 0, int(TOURNAMENT_PGN_PAGE_BYTES));
    }
};

struct TournamentEntrant {
    std::string name;
    int ai_level = 0;        // > 0: the built-in AI at this level
    bool withdrawn = false;  // left the running tournament: no further pairings
    template <class F> void fields(F& f) {
        f("name", name);
        f.opt("ai_level", ai_level, 0, AI_LEVEL_MAX);
        f.opt("withdrawn", withdrawn);
    }
};

// One board of the current round; entrants by index into `entrants`, black -1 for a bye.
struct TournamentBoard {
    int board = 1;        // 1-based
    TableId table = 0;    // the table it is played at (0: no game, a bye or a forfeit decided at pairing)
    int red = 0;
    int black = -1;
    BoardResult result = BoardResult::Pending;
    std::string reason;   // how it ended (a game_over reason, "forfeit", "bye", "adjudication")
    template <class F> void fields(F& f) {
        f("board", board, 1, MAX_TOURNAMENT_ENTRANTS);
        f.opt("table", table);
        f("red", red, 0, MAX_TOURNAMENT_ENTRANTS - 1);
        f("black", black, -1, MAX_TOURNAMENT_ENTRANTS - 1);
        f("result", result);
        f.opt("reason", reason);
    }
};

// A decided game of an earlier board (the crosstable is built from these).
struct TournamentGame {
    int round = 1;
    int red = 0;
    int black = -1;
    BoardResult result = BoardResult::Pending;
    template <class F> void fields(F& f) {
        f("round", round, 1, MAX_TOURNAMENT_ROUNDS);
        f("red", red, 0, MAX_TOURNAMENT_ENTRANTS - 1);
        f("black", black, -1, MAX_TOURNAMENT_ENTRANTS - 1);
        f("result", result);
    }
};

struct TournamentStanding {
    int entrant = 0;   // index into `entrants`
    int rank = 1;      // shared by entrants equal on every tie-break
    int points = 0;    // 2 a win (byes and forfeit wins included), 1 a draw
    int wins = 0;
    int games = 0;     // played over the board
    int buchholz = 0;
    int sb2 = 0;       // Sonneborn-Berger, doubled (show it halved)
    template <class F> void fields(F& f) {
        f("entrant", entrant, 0, MAX_TOURNAMENT_ENTRANTS - 1);
        f("rank", rank, 1, MAX_TOURNAMENT_ENTRANTS);
        f("points", points, 0, 1 << 20);
        f("wins", wins, 0, 1 << 20);
        f("games", games, 0, 1 << 20);
        f("buchholz", buchholz, 0, 1 << 20);
        f("sb2", sb2, 0, 1 << 20);
    }
};

// A tournament's whole state, sent on every change.
struct Tournament {
    static constexpr std::string_view TYPE = "tournament";
    std::uint32_t id = 0;
    std::string name;
    std::string director;
    TournamentFormat format = TournamentFormat::RoundRobin;
    TournamentState state = TournamentState::Open;
    int round = 0;    // the current (or last) round, 0 before the start
    int rounds = 0;   // rounds planned
    TableSettings settings;
    int forfeit_seconds = 0;
    int spectator_delay = 0;
    std::vector<TournamentEntrant> entrants;  // in seeding (entry) order
    std::vector<TournamentBoard> boards;      // the current round
    std::vector<TournamentGame> games;        // every decided board, all rounds
    std::vector<TournamentStanding> standings;  // best first
    template <class F> void fields(F& f) {
        f("id", id);
        f("name", name);
        f("director", director);
        f("format", format);
        f("state", state);
        f("round", round, 0, MAX_TOURNAMENT_ROUNDS);
        f("rounds", rounds, 0, MAX_TOURNAMENT_ROUNDS);
        f("settings", settings);
        f("forfeit_seconds", forfeit_seconds, 0, MAX_FORFEIT_SECONDS);
        f.opt("spectator_delay", spectator_delay, 0, MAX_SPECTATOR_DELAY);
        f("entrants", entrants);
        f("boards", boards);
        f("games", games);
        f("standings", standings);
    }
};

struct TournamentSummary {
    std::uint32_t id = 0;
    std::string name;
    std::string director;
    TournamentFormat format = TournamentFormat::RoundRobin;
    TournamentState state = TournamentState::Open;
    int round = 0;
    int rounds = 0;
    int entrants = 0;
    template <class F> void fields(F& f) {
        f("id", id);
        f("name", name);
        f("director", director);
        f("format", format);
        f("state", state);
        f("round", round, 0, MAX_TOURNAMENT_ROUNDS);
        f("rounds", rounds, 0, MAX_TOURNAMENT_ROUNDS);
        f("entrants", entrants, 0, MAX_TOURNAMENT_ENTRANTS);
    }
};

// The answer to list_tournaments.
struct Tournaments {
    static constexpr std::string_view TYPE = "tournaments";
    std::vector<TournamentSummary> tournaments;
    template <class F> void fields(F& f) { f("tournaments", tournaments); }
};

// A page of a tournament's PGN: text[offset, offset + text.size()) of the whole text of
// `total` bytes, cut at a character boundary; `digest` (of the whole text) changes when the
// text does, so pages of different texts are never joined; `more` when text follows.
struct TournamentPgn {
    static constexpr std::string_view TYPE = "tournament_pgn";
    std::uint32_t tournament = 0;
    PgnNotation notation = PgnNotation::Iccs;
    std::int64_t offset = 0;
    std::int64_t total = 0;
    std::string digest;
    std::string text;
    bool more = false;
    template <class F> void fields(F& f) {
        f("tournament", tournament);
        f("notation", notation);
        f("offset", offset, 0, std::int64_t(MAX_TOURNAMENT_PGN_BYTES));
        f("total", total, 0, std::int64_t(MAX_TOURNAMENT_PGN_BYTES));
        f("digest", digest);
        f("text", text);
        f.opt("more", more);
    }
};

}  // namespace xq::proto
