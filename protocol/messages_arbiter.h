// The arbiter's tools on a table's game (a tournament board's director, a club table's
// creator, the server's console): pause, resume, add time, adjudicate, cancel. Part of
// messages.h; documented in protocol/PROTOCOL.md (Arbiter).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/limits.h"
#include "protocol/messages_table.h"
#include "protocol/messages_table_info.h"
#include "xiangqi/game.h"
#include "xiangqi/types.h"

namespace xq::proto {

// What an arbiter does to a game: "pause", "resume", "add_time", "adjudicate", "cancel".
enum class ArbiterKind { Pause, Resume, AddTime, Adjudicate, Cancel };

// The arbiter's tools (a tournament board's director; see PROTOCOL.md, Arbiter).
struct ArbiterRequest {
    static constexpr std::string_view TYPE = "arbiter";
    TableId table = 0;
    ArbiterKind action = ArbiterKind::Pause;
    std::optional<Color> side;     // add_time: whose clock
    std::optional<int> seconds;    // add_time: 1..MAX_ARBITER_ADD_SECONDS
    std::optional<Outcome> result; // adjudicate: "1-0", "0-1", "1/2-1/2"
    std::string reason;            // adjudicate (required), cancel (optional); cut by the server
    template <class F> void fields(F& f) {
        f("table", table);
        f("action", action);
        f.opt("side", side);
        f.opt("seconds", seconds, 1, MAX_ARBITER_ADD_SECONDS);
        f.opt("result", result);
        f.opt("reason", reason);
    }
};

// An arbiter acted on the table's game; sent to its players and spectators (and to the
// arbiter). `clocks` after the action; game_over follows an adjudication or a cancel.
struct ArbiterAction {
    static constexpr std::string_view TYPE = "arbiter_action";
    TableId table = 0;
    std::string by;  // the arbiter's name ("operator" for the server's console)
    ArbiterKind action = ArbiterKind::Pause;
    std::optional<Color> side;
    std::optional<int> seconds;
    std::optional<Outcome> result;
    std::string reason;
    int ply = 0;  // plies played when it happened
    bool paused = false;
    std::optional<Clocks> clocks;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("action", action);
        f.opt("side", side);
        f.opt("seconds", seconds, 1, MAX_ARBITER_ADD_SECONDS);
        f.opt("result", result);
        f.opt("reason", reason);
        f("ply", ply, 0, 1 << 30);
        f.opt("paused", paused);
        f.opt("clocks", clocks);
    }
};

}  // namespace xq::proto
