// A table's rules as the client shows and edits them: the clock (none, Fischer, Asian) read
// from and written to the protocol's clock text, the seat rules, and the create-table form
// with its presets. Plain data and text; no SFML, no protocol types.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/strings.h"

namespace xq::client {

// The protocol accepts whole seconds up to this for every clock period (PROTOCOL.md).
constexpr int MAX_CLOCK_SECONDS = 36000;
// Seconds a dropped player's seat is kept, 0..MAX_GRACE_SECONDS (protocol limit).
constexpr int MAX_GRACE_SECONDS = 3600;
constexpr int DEFAULT_GRACE_SECONDS = 60;
constexpr int DEFAULT_HOLD_LEVEL = 5;
// TableRules::grace_s for a create_table that leaves the grace to the server (its --seat-grace).
constexpr int SERVER_DEFAULT_GRACE = -1;

struct ClockSpec {
    enum class Kind { None, Fischer, Asian };
    Kind kind = Kind::None;
    int base_s = 0;        // main time
    int increment_s = 0;   // Fischer: added after each move
    int move_limit_s = 0;  // Asian: the most one move may take while main time lasts
    int countdown_s = 0;   // Asian: the time per move once main time is spent
    bool operator==(const ClockSpec&) const = default;
};

// Reads the protocol's clock text ("none", "fischer:300+5", "asian:600/60/30"); nullopt when
// it is malformed or out of range. The empty text reads as "none".
std::optional<ClockSpec> parse_clock(std::string_view text);
// The protocol's clock text for a spec.
std::string clock_wire(const ClockSpec& c);
// The clock in words for lists and headers: "Fischer 5+3", "Asian 10 min/60 s/30 s",
// "no clock" (in the chosen language). Unreadable text is shown as it is.
std::string clock_words(Lang lang, const ClockSpec& c);
std::string clock_words(Lang lang, std::string_view wire);
// Why a clock cannot be used (a string id), or nullopt when it is fine.
std::optional<Str> clock_problem(const ClockSpec& c);

// What happens to a seat whose player does not come back within the grace.
enum class AbandonRule { Claim, Ai };

// A table's rules with every field filled as the server reports them, or as the form sends
// them: there an empty clock and a grace of SERVER_DEFAULT_GRACE leave those to the server
// (its --clock and --seat-grace), and the other fields are sent only when they differ from
// the protocol's defaults (settings_from).
struct TableRules {
    std::string clock = "none";  // the protocol's clock text; empty: the server's default
    int grace_s = DEFAULT_GRACE_SECONDS;  // SERVER_DEFAULT_GRACE: the server's default
    AbandonRule abandon = AbandonRule::Claim;
    int hold_level = DEFAULT_HOLD_LEVEL;
    bool takebacks = true;
    bool hints = false;  // request_hint allowed (games against the AI have hints anyway)
    bool operator==(const TableRules&) const = default;
};

// A preset offered by the create-table dialog.
struct ClockPreset {
    const char* label;  // shown as is: "5+3", "10 min/60 s/30 s"
    ClockSpec spec;
};
std::span<const ClockPreset> fischer_presets();
std::span<const ClockPreset> asian_presets();

// Where the creator sits.
enum class CreateSeat { Red, Black, Spectator };

// The create-table dialog's state. The view edits the fields; rules() turns them into the
// settings to send, problem() says why they cannot be sent.
struct CreateTableForm {
    std::string name;
    // The server's default clock and grace (first in the dialog, chosen at the start): sent as
    // absent fields, so the server's --clock and --seat-grace apply.
    bool server_clock = true;
    bool server_grace = true;
    ClockSpec::Kind clock_kind = ClockSpec::Kind::None;
    int preset = 0;  // index into the kind's presets; == presets().size() means custom
    // Custom entries, in the units the dialog shows (minutes for main time, else seconds).
    int custom_base_min = 10;
    int custom_increment_s = 5;
    int custom_move_limit_s = 60;
    int custom_countdown_s = 30;
    int grace_s = DEFAULT_GRACE_SECONDS;
    AbandonRule abandon = AbandonRule::Claim;
    int hold_level = DEFAULT_HOLD_LEVEL;
    bool takebacks = true;
    bool hints = false;
    CreateSeat seat = CreateSeat::Red;
    int handicap = 0;  // index into handicaps() (core/handicap.h); 0 is the standard start

    std::span<const ClockPreset> presets() const;
    bool custom() const { return preset >= int(presets().size()); }
    ClockSpec clock() const;
    TableRules rules() const;
    // The FEN the table starts from: empty for the standard start, else the handicap's.
    std::string start_fen() const;
    std::optional<Str> problem() const;
    // Fills the form from "key=value" words (clock=fischer:300+5|default grace=30|default abandon=ai
    // hold=4 takebacks=0 as=black handicap=left_horse name=...), for scripts. False (with the word) when one
    // is not understood.
    bool apply(std::string_view key_values, std::string& bad_word);
};

}  // namespace xq::client
