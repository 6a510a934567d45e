// A table as the lobby lists it and its players see it: TableId, seats (SeatInfo), the
// table's rules (TableSettings) and TableInfo; shared by the lobby, table and tournament
// messages. Part of messages.h; documented in protocol/PROTOCOL.md (Lobby and tables).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/limits.h"
#include "xiangqi/types.h"

namespace xq::proto {

using TableId = std::uint32_t;  // 0 means "no table"

enum class Role { Red, Black, Spectator };  // "red", "black", "spectator"
enum class TableStatus { Waiting, Playing, Over };  // "waiting", "playing", "over"
// What happens to a seat whose player stays away past the grace: "claim" (the opponent may
// claim the win or keep waiting) or "ai" (the built-in AI plays the seat until they return).
enum class AbandonPolicy { Claim, Ai };

inline Role role_of(Color c) { return c == RED ? Role::Red : Role::Black; }

struct SeatInfo {
    std::string name;
    int ai_level = 0;        // 0 for a human, 1..10 for an AI seat
    bool connected = true;   // false while a human's connection is lost
    std::string engine;      // AI seats: the external engine's name ("" = the built-in AI)
    // A human whose connection is lost: the grace left in milliseconds while it runs...
    std::optional<std::int64_t> grace_ms;
    // ...and once it ran out: the seat is abandoned (kept for the player; see AbandonPolicy).
    bool abandoned = false;
    int hold_level = 0;      // > 0 while the built-in AI plays an abandoned seat at that level
    std::optional<int> rating;  // a registered player's Glicko-2 rating (rounded), or the built-in AI level's fixed one
    template <class F> void fields(F& f) {
        f("name", name);
        f("ai_level", ai_level, 0, AI_LEVEL_MAX);
        f("connected", connected);
        f.opt("engine", engine);
        f.opt("grace_ms", grace_ms, 0, std::int64_t(1) << 40);
        f.opt("abandoned", abandoned);
        f.opt("hold_level", hold_level, 0, AI_LEVEL_MAX);
        f.opt("rating", rating, 0, MAX_RATING);
    }
    bool operator==(const SeatInfo&) const = default;
};

// A table's rules. In create_table every field is optional (absent: the server's default);
// in TableInfo the server fills them all.
struct TableSettings {
    // "none", "fischer:<base s>+<increment s>" or "asian:<base s>/<per-move limit s>/<countdown s>"
    std::string clock;
    std::optional<int> grace;             // seconds a dropped player's seat is kept, 0..MAX_GRACE_S
    std::optional<AbandonPolicy> abandon; // after the grace; default "claim"
    std::optional<int> hold_level;        // AI level for abandon "ai", 1..10 (default 5)
    std::optional<bool> takebacks;        // takeback requests allowed (default true)
    std::optional<bool> rated;            // a rated table: two registered players and a clock
    std::optional<bool> hints;            // request_hint allowed to the players (default false)
    template <class F> void fields(F& f) {
        f.opt("clock", clock);
        f.opt("grace", grace, 0, MAX_GRACE_S);
        f.opt("abandon", abandon);
        f.opt("hold_level", hold_level, AI_LEVEL_MIN, AI_LEVEL_MAX);
        f.opt("takebacks", takebacks);
        f.opt("rated", rated);
        f.opt("hints", hints);
    }
    bool operator==(const TableSettings&) const = default;
};

struct TableInfo {
    TableId id = 0;
    std::string name;
    std::string creator;
    std::optional<SeatInfo> red;  // absent when the seat is empty
    std::optional<SeatInfo> black;
    int spectators = 0;
    TableStatus status = TableStatus::Waiting;
    int ply = 0;
    TableSettings settings;
    // The server chose the name ("<creator>'s table"): a client may show its own wording of
    // "<creator>'s table" in its language instead of `name`.
    bool default_name = false;
    template <class F> void fields(F& f) {
        f("id", id);
        f("name", name);
        f("creator", creator);
        f.opt("red", red);
        f.opt("black", black);
        f("spectators", spectators, 0, 1 << 30);
        f("status", status);
        f("ply", ply, 0, 1 << 30);
        f.opt("settings", settings);
        f.opt("default_name", default_name);
    }
    bool operator==(const TableInfo&) const = default;
};

}  // namespace xq::proto
