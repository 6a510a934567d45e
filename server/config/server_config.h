// The server's limits and settings in one place (command line fills it; tests shrink it).
// Protocol-wide limits (line size, name length, chat length) live in protocol/limits.h.
#pragma once

#include <boost/asio/basic_waitable_timer.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace xq::server {

using Millis = std::chrono::milliseconds;

#ifdef XQ_STEPPED_CLOCK
// Fuzz builds only (tests/fuzz, -DXQ_FUZZ=ON): the steady clock plus an offset the fuzz
// target steps forward, so flags fall, seat grace runs out and AI pauses end without
// waiting. A std::chrono clock's now() is static, hence the one static offset; no other
// build has it. Its time_point is the steady clock's, so every instant stays comparable.
struct SteppedClock {
    using duration = std::chrono::steady_clock::duration;
    using rep = duration::rep;
    using period = duration::period;
    using time_point = std::chrono::steady_clock::time_point;
    static constexpr bool is_steady = true;
    static time_point now() { return std::chrono::steady_clock::now() + duration(offset_.load()); }
    static void advance(duration d) { offset_ += d.count(); }

private:
    inline static std::atomic<rep> offset_{0};
};
using Clock = SteppedClock;
#else
using Clock = std::chrono::steady_clock;  // the server's one time source (flood control, AI, grace, clocks)
#endif
// Every timer of the game core (seat grace, game clocks, AI pauses) runs on that clock.
using Timer = boost::asio::basic_waitable_timer<Clock>;

// Registered accounts (--accounts): off (names only, as before accounts), optional (guests
// and accounts; a registered name needs its password), required (accounts only).
enum class AccountsMode { Off, Optional, Required };

struct ServerConfig {
    std::string name = "Xiangqi LAN";
    std::string bind = "0.0.0.0";
    std::uint16_t port = 5050;  // 0 picks an ephemeral port (tests)

    // Where persistent state goes (games, seat tokens): the game recorder's database.
    std::string data_dir;

    std::size_t max_clients = 2000;
    std::size_t max_tables = 1000;
    std::size_t max_spectators = 100;  // per table

    // A connection whose unsent output exceeds this is dropped (it stopped reading).
    std::size_t max_queue_bytes = 1 << 20;
    // SO_SNDBUF for accepted sockets; 0 keeps the OS default (tests shrink it).
    int socket_send_buffer = 0;

    Millis hello_timeout{10'000};
    // A connection silent for idle_ping gets a ping; silent for idle_timeout it is closed
    // (error idle_timeout). 0 turns either off.
    Millis idle_ping{30'000};
    Millis idle_timeout{90'000};

    // Server password ("" = none): hello must carry it. Wrong guesses are limited per
    // address: password_max_failures within password_window lock the address out for
    // password_lockout.
    std::string password;
    int password_max_failures = 5;
    Millis password_window{60'000};
    Millis password_lockout{300'000};

    // Accounts: the mode, and how many wrong account passwords from one address (within
    // password_window) lock it out of logging in for password_lockout.
    AccountsMode accounts = AccountsMode::Optional;
    int login_max_failures = 5;

    // External engine searches run on this many threads (each drives one child process).
    int engine_workers = 2;
    Millis seat_grace{60'000};  // a disconnected seated player may return within this

    // Chat flood limit: at most chat_burst messages per chat_window.
    int chat_burst = 4;
    Millis chat_window{10'000};
    // General message flood limit (token bucket), and how many refused lines in a row
    // (rate-limited or erroneous) close a connection.
    double msg_rate_per_s = 50.0;
    double msg_burst = 100.0;
    int max_refused_in_row = 200;

    // AI seats: worker threads (0 = max(1, cores - 1)); an AI never moves faster than
    // ai_min_move_ms after the position arose (so AI-vs-AI games stay watchable).
    int ai_workers = 0;
    // Threads of one full-strength (level 10) AI search (Lazy SMP); lower levels always use one.
    // One by default: on a shared host every AI seat's search then takes one core.
    int ai_search_threads = 1;
    Millis ai_min_move{250};
    // Search time per level 1..10 (index 0 unused); the engine also scales strength by level.
    std::array<int, 11> ai_movetime_ms = {0, 100, 150, 250, 400, 600, 900, 1300, 1800, 2500, 3500};
    // An AI accepts a draw offer when its last search scored its side at this or worse.
    int ai_accept_draw_cp = -300;
    std::size_t ai_hash_mb = 16;

    // Who may create tournaments: anyone (false), or only the operator (true; the wire's
    // create_tournament is then refused).
    bool tournaments_by_operator = false;
};

// Named constants that are not settings.
inline constexpr std::size_t CHAT_HISTORY_LINES = 50;       // kept per table
// Kept back from every AI move's deadline on a clock: the move's way to the referee, and the
// AI's worker thread (lower priority than the I/O thread) waiting for a core on a busy host.
inline constexpr int AI_MOVE_OVERHEAD_MS = 100;
inline constexpr Millis AI_PROGRESS_INTERVAL{125};           // at most ~8 ai_progress lines/s
inline constexpr std::size_t READ_CHUNK_BYTES = 8 * 1024;   // one socket read
inline constexpr std::size_t MAX_WRITE_BATCH = 64;          // buffers gathered per write
inline constexpr Millis ACCEPT_BACKOFF{100};                // pause after a failed accept (EMFILE)
inline constexpr Millis IDLE_CLOSE_GRACE{2'000};             // an idle connection not taking its error is cut
inline constexpr std::size_t MAX_PASSWORD_ADDRESSES = 10'000; // addresses tracked for wrong passwords
inline constexpr int DEFAULT_HOLD_LEVEL = 5;
inline constexpr std::size_t MAX_QUEUED_LOGIN_LINES = 32;    // lines held while a login's password is checked                 // AI level holding an abandoned seat
inline constexpr Millis RESTART_GRACE_MIN{30'000};           // least grace of a seat after a restart

}  // namespace xq::server
