// At a table: the snapshot, players arriving, leaving, returning and abandoning seats,
// moves, the end of a game, resigning, AI seats and their progress. Part of messages.h;
// documented in protocol/PROTOCOL.md (Table snapshot, Table events, Referee, AI seats).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages_chat.h"
#include "protocol/messages_table_info.h"
#include "xiangqi/game.h"
#include "xiangqi/types.h"

namespace xq::proto {

// Why someone left a table: "left" (asked to), "disconnected" (connection lost),
// "dropped" (the server cut a connection that stopped reading or flooded),
// "replaced" (an AI seat was taken over or a new game moved seats).
enum class LeaveReason { Left, Disconnected, Dropped, Replaced };

// Remaining time per side in milliseconds; `running` names the side whose clock runs.
struct Clocks {
    std::int64_t red_ms = 0;
    std::int64_t black_ms = 0;
    std::optional<Color> running;
    bool paused = false;  // an arbiter paused the game (no side's time runs)
    template <class F> void fields(F& f) {
        f("red_ms", red_ms);
        f("black_ms", black_ms);
        f.opt("running", running);
        f.opt("paused", paused);
    }
};

// The result of a finished game.
struct ResultInfo {
    Outcome outcome = Outcome::Ongoing;  // "1-0", "0-1", "1/2-1/2"
    std::string reason;                  // end_reason_name(), e.g. "checkmate"
    std::string text;                    // in words, e.g. "Black is checkmated"
    template <class F> void fields(F& f) {
        f("result", outcome);
        f("reason", reason);
        f("text", text);
    }
};

// Asks for a fresh table_snapshot (a client whose FEN differs from the server's resyncs).
struct Sync {
    static constexpr std::string_view TYPE = "sync";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct TableSnapshot {
    static constexpr std::string_view TYPE = "table_snapshot";
    TableInfo table;
    Role you = Role::Spectator;
    std::string start_fen;
    std::vector<std::string> moves;  // ICCS; the first SNAPSHOT_MOVES_PER_LINE only
    std::string fen;                 // the position now
    int ply = 0;                     // plies played; moves.size() < ply means snapshot_moves follow
    std::optional<ResultInfo> result;
    std::vector<ChatLine> chat;      // recent table chat, oldest first
    std::optional<Clocks> clocks;
    std::optional<Color> draw_offer;      // the side with an open draw offer
    std::optional<Color> takeback_offer;  // the side with an open takeback request
    std::optional<Color> new_game_offer;  // the side that asked for a rematch
    bool paused = false;                  // an arbiter paused the game
    template <class F> void fields(F& f) {
        f("table", table);
        f("you", you);
        f("start_fen", start_fen);
        f("moves", moves);
        f("fen", fen);
        f("ply", ply, 0, 1 << 30);
        f.opt("result", result);
        f("chat", chat);
        f.opt("clocks", clocks);
        f.opt("draw_offer", draw_offer);
        f.opt("takeback_offer", takeback_offer);
        f.opt("new_game_offer", new_game_offer);
        f.opt("paused", paused);
    }
};

struct SnapshotMoves {
    static constexpr std::string_view TYPE = "snapshot_moves";
    TableId table = 0;
    int from = 0;  // index of the first move in this line
    std::vector<std::string> moves;
    template <class F> void fields(F& f) {
        f("table", table);
        f("from", from, 0, 1 << 30);
        f("moves", moves);
    }
};

struct PlayerJoined {
    static constexpr std::string_view TYPE = "player_joined";
    TableId table = 0;
    std::string name;
    Role role = Role::Spectator;
    int ai_level = 0;
    std::string engine;  // an external engine's name for AI seats ("" = built-in)
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f("role", role);
        f.opt("ai_level", ai_level);
        f.opt("engine", engine);
    }
};

struct PlayerLeft {
    static constexpr std::string_view TYPE = "player_left";
    TableId table = 0;
    std::string name;
    Role role = Role::Spectator;
    LeaveReason reason = LeaveReason::Left;
    // reason "disconnected" of a seated player: how long the seat is kept (absent: not kept)
    std::optional<std::int64_t> grace_ms;
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f("role", role);
        f("reason", reason);
        f.opt("grace_ms", grace_ms, 0, std::int64_t(1) << 40);
    }
};

struct PlayerReturned {
    static constexpr std::string_view TYPE = "player_returned";
    TableId table = 0;
    std::string name;
    Role role = Role::Spectator;
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f("role", role);
    }
};

// A disconnected player's grace ran out during a game. With the table's abandon policy
// "claim" the opponent may send claim_win or keep waiting; with "ai" the built-in AI plays
// the seat at hold_level until the player returns (player_returned).
struct SeatAbandoned {
    static constexpr std::string_view TYPE = "seat_abandoned";
    TableId table = 0;
    Color seat = RED;
    std::string name;
    bool claimable = false;  // the opponent may claim the win
    int hold_level = 0;      // > 0: the AI now plays the seat at this level
    template <class F> void fields(F& f) {
        f("table", table);
        f("seat", seat);
        f("name", name);
        f("claimable", claimable);
        f.opt("hold_level", hold_level, 0, AI_LEVEL_MAX);
    }
};

// The seated opponent of an abandoned seat (see seat_abandoned) takes the win.
struct ClaimWin {
    static constexpr std::string_view TYPE = "claim_win";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct MoveRequest {
    static constexpr std::string_view TYPE = "move";
    TableId table = 0;
    int ply = 0;        // plies played before this move (the ply of the last move_made seen)
    std::string move;   // ICCS coordinates, e.g. "h2e2"
    template <class F> void fields(F& f) {
        f("table", table);
        f("ply", ply, 0, 1 << 30);
        f("move", move);
    }
};

struct MoveMade {
    static constexpr std::string_view TYPE = "move_made";
    TableId table = 0;
    int ply = 0;          // plies played after this move (1 for the first move)
    std::string move;     // ICCS, "h2e2"
    std::string wxf;      // "C2.5"
    std::string chinese;  // "炮二平五"
    std::string fen;      // the position after the move
    Color by = RED;
    bool check = false;   // the move gives check
    bool capture = false;
    std::optional<Clocks> clocks;
    template <class F> void fields(F& f) {
        f("table", table);
        f("ply", ply, 1, 1 << 30);
        f("move", move);
        f("wxf", wxf);
        f("chinese", chinese);
        f("fen", fen);
        f("by", by);
        f("check", check);
        f("capture", capture);
        f.opt("clocks", clocks);
    }
};

struct GameOver {
    static constexpr std::string_view TYPE = "game_over";
    TableId table = 0;
    ResultInfo result;
    int ply = 0;
    std::optional<Clocks> clocks;  // the final times, when the table has clocks
    template <class F> void fields(F& f) {
        f("table", table);
        f("result", result.outcome);
        f("reason", result.reason);
        f("text", result.text);
        f("ply", ply, 0, 1 << 30);
        f.opt("clocks", clocks);
    }
};

struct Resign {
    static constexpr std::string_view TYPE = "resign";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct RequestAi {
    static constexpr std::string_view TYPE = "request_ai";
    TableId table = 0;
    Color seat = RED;
    int level = 1;
    std::string engine;  // optional: one of welcome.engines; "" = the built-in AI
    template <class F> void fields(F& f) {
        f("table", table);
        f("seat", seat);
        f("level", level, AI_LEVEL_MIN, AI_LEVEL_MAX);
        f.opt("engine", engine);
    }
};

struct AiProgress {
    static constexpr std::string_view TYPE = "ai_progress";
    TableId table = 0;
    Color seat = RED;
    int level = 1;
    int depth = 0;
    int score = 0;      // centipawns from the AI's point of view
    int percent = 0;    // root moves searched at this depth, 0..100
    std::uint64_t nodes = 0;
    // The principal variation from the position on the board, ICCS ("h2e2"), each move legal
    // where it is played; at most AI_PV_MAX moves; left out when the AI has none yet.
    std::vector<std::string> pv;
    template <class F> void fields(F& f) {
        f("table", table);
        f("seat", seat);
        f("level", level, 0, AI_LEVEL_MAX);
        f("depth", depth, 0, 1000);
        f("score", score, -1000000, 1000000);
        f("percent", percent, 0, 100);
        f("nodes", nodes);
        f.opt("pv", pv);
    }
};

}  // namespace xq::proto
