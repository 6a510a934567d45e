// The game clock of one table: pure time arithmetic on steady-clock instants that the caller
// passes in (the server passes steady_clock::now(), tests pass made-up instants), so flag
// falls are exact and tests never sleep. The server alone keeps time; clients only display.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "xiangqi/types.h"

namespace xq::server {

using Ms = std::chrono::milliseconds;
using TimePoint = std::chrono::steady_clock::time_point;

enum class ClockKind { None, Fischer, Asian };

// Longest main time or per-move period a table may ask for (a club evening, not a week).
constexpr Ms MAX_CLOCK_PERIOD = std::chrono::hours(10);

struct ClockConfig {
    ClockKind kind = ClockKind::None;
    Ms base{0};        // Fischer and Asian: main time of each side
    Ms increment{0};   // Fischer: added to the mover's time after each of its moves
    Ms move_limit{0};  // Asian: longest single move while main time lasts (0: no limit)
    Ms countdown{0};   // Asian: time for each move once main time is spent (0: none)

    bool operator==(const ClockConfig&) const = default;
};

// Text form used on the command line, in the protocol and in the database:
//   "none" | "fischer:<base s>+<increment s>" | "asian:<base s>/<move limit s>/<countdown s>"
// e.g. "fischer:300+5", "asian:1200/120/60". Returns nullopt and a message when malformed,
// and in *detail its bad_settings detail code (proto::settings_detail).
std::optional<ClockConfig> parse_clock_spec(std::string_view text, std::string* error = nullptr,
                                            std::string_view* detail = nullptr);
std::string clock_spec(const ClockConfig& config);

// What a client displays for one side.
struct SideTime {
    Ms main{0};              // main time left (never negative)
    bool in_countdown = false;  // Asian: main time spent, each move gets `countdown`
    Ms move_left{0};         // time left for the current (or, if waiting, the next) move
                             // under the per-move limit or countdown; equals main otherwise
};

// The part of a clock that is persisted after every move (the side to move starts afresh
// when the server restarts: time while the server was down is not charged).
struct ClockState {
    Ms main[COLOR_NB] = {Ms{0}, Ms{0}};
    bool in_countdown[COLOR_NB] = {false, false};
};

class GameClock {
public:
    GameClock() = default;
    explicit GameClock(const ClockConfig& config);

    const ClockConfig& config() const { return config_; }
    bool enabled() const { return config_.kind != ClockKind::None; }
    bool running() const { return running_; }
    Color turn() const { return turn_; }

    // Starts (or restarts) timing `side`, the side to move, at `now`.
    void start(Color side, TimePoint now);
    // Charges the running side up to `now` and stops (game over, or the table pauses).
    void stop(TimePoint now);
    // The running side moved at `now`: charge it, add the increment or reset its countdown,
    // and start the other side. Returns false and changes nothing when the mover's flag had
    // already fallen by `now` (the caller ends the game on time instead).
    bool on_move(TimePoint now);
    // An arbiter gives `side` more main time (capped at MAX_CLOCK_PERIOD); an Asian clock in
    // its countdown goes back to main time.
    void add_time(Color side, Ms extra);
    // Hands the turn to `side` without an increment (a takeback): the running side is charged.
    void set_turn(Color side, TimePoint now);

    // The side whose flag has fallen by `now`; only the running side can flag.
    std::optional<Color> flag_fallen(TimePoint now) const;
    // Time until the running side's flag falls, for the caller's timer; nullopt when idle.
    std::optional<Ms> until_flag(TimePoint now) const;
    SideTime side_time(Color side, TimePoint now) const;

    ClockState state(TimePoint now) const;
    void restore(const ClockState& state);

private:
    // The longest the current move of `side` may take, measured from the start of the move.
    Ms move_deadline(Color side) const;
    Ms elapsed(TimePoint now) const;
    void charge(Ms spent, bool add_increment);

    ClockConfig config_;
    ClockState state_;
    Color turn_ = RED;
    bool running_ = false;
    TimePoint turn_start_{};
};

}  // namespace xq::server
