// The wire's named limits, shared by the server, the clients and the tests.
// Every size or rate the protocol promises lives here and nowhere else.
#pragma once

#include <cstddef>

namespace xq::proto {

// Protocol version spoken by this build; `hello.version` must equal it.
inline constexpr int PROTOCOL_VERSION = 1;

// One line (one JSON object, without its newline) is at most this many bytes.
inline constexpr std::size_t MAX_LINE_BYTES = 16 * 1024;
// Objects and arrays nest at most this deep (the top-level object is depth 1).
inline constexpr int MAX_JSON_DEPTH = 8;

// Nicknames: 1..MAX_NAME_CODE_POINTS code points, no control characters.
inline constexpr std::size_t MAX_NAME_CODE_POINTS = 20;
// Passwords of registered accounts, in bytes of UTF-8.
inline constexpr std::size_t MIN_ACCOUNT_PASSWORD_BYTES = 8;
inline constexpr std::size_t MAX_ACCOUNT_PASSWORD_BYTES = 256;
// Table names are cut to this many code points.
inline constexpr std::size_t MAX_TABLE_NAME_CODE_POINTS = 40;
// Chat text is cut (by code point, never mid-character) to this many code points.
inline constexpr std::size_t MAX_CHAT_CODE_POINTS = 200;
// An arbiter's reason (adjudicate, cancel) is cut to this many code points; add_time gives
// at most this many seconds at once.
inline constexpr std::size_t MAX_ARBITER_REASON_CODE_POINTS = 100;
inline constexpr int MAX_ARBITER_ADD_SECONDS = 3600;

// An error's message (which may quote the request) is cut to this many code points.
inline constexpr std::size_t MAX_ERROR_MESSAGE_CODE_POINTS = 300;
// A server notice's text is cut to this many code points.
inline constexpr std::size_t MAX_NOTICE_CODE_POINTS = 1000;

// AI strength levels accepted by `request_ai`.
inline constexpr int AI_LEVEL_MIN = 1;
inline constexpr int AI_LEVEL_MAX = 10;
// Longest principal variation an ai_progress line carries (moves).
inline constexpr std::size_t AI_PV_MAX = 8;
// Longest reconnect grace a table may set, in seconds.
inline constexpr int MAX_GRACE_S = 3600;
// Ratings on the wire are whole Glicko-2 points in 0..MAX_RATING.
inline constexpr int MAX_RATING = 10000;

// A `table_snapshot` carries at most this many moves; the rest follow in `snapshot_moves`
// lines of the same size, so every server line stays under MAX_LINE_BYTES.
inline constexpr std::size_t SNAPSHOT_MOVES_PER_LINE = 600;
// Recent chat in a snapshot: at most this many lines and this many bytes of sender names
// plus text (chat text holds no control characters, so escaping at most doubles it).
inline constexpr std::size_t SNAPSHOT_CHAT_LINES = 20;
inline constexpr std::size_t SNAPSHOT_CHAT_BYTES = 4 * 1024;
// A `tables` reply lists at most this many tables per line (more follow with `more`).
inline constexpr std::size_t TABLES_PER_LINE = 40;
// One page of the lobby's lists: a `list_tables` / `list_users` reply (and the one after
// `welcome`) holds at most this many tables / users, from `offset` on; the lines of a page
// stay within TABLES_PER_LINE / USERS_PER_LINE and MAX_LINE_BYTES. A login costs the same
// whatever the size of the lobby (docs/scale.md, "Logins at scale").
inline constexpr std::size_t TABLES_PER_PAGE = 100;
inline constexpr std::size_t USERS_PER_PAGE = 200;
// The highest `offset` a list request may name (past the end of the list gives an empty page).
inline constexpr int MAX_LIST_OFFSET = 1'000'000;
// A `game_record` carries at most this many events of the game (arbiter's actions) and this
// many bytes of their text (the PGN export has them all).
inline constexpr std::size_t GAME_EVENTS_PER_LINE = 20;
inline constexpr std::size_t GAME_EVENTS_BYTES = 3 * 1024;
// A `games` reply lists at most this many games.
inline constexpr std::size_t GAMES_PER_LINE = 50;
// A `users` reply lists at most this many users per line (more follow with `more`).
inline constexpr std::size_t USERS_PER_LINE = 200;

// Tournaments: entrants (humans and AIs), Swiss rounds, the forfeit time, the spectators'
// delay in plies, names, and how many the server keeps (open, running and recent finished).
// At these caps the whole `tournament` line stays under MAX_LINE_BYTES (a codec test checks).
inline constexpr int MAX_TOURNAMENT_ENTRANTS = 16;
inline constexpr int MAX_TOURNAMENT_ROUNDS = 15;
inline constexpr int MAX_FORFEIT_SECONDS = 3600;
inline constexpr int DEFAULT_FORFEIT_SECONDS = 120;
inline constexpr int MAX_SPECTATOR_DELAY = 20;
inline constexpr std::size_t MAX_TOURNAMENT_NAME_CODE_POINTS = 40;
inline constexpr std::size_t MAX_TOURNAMENTS = 20;
// A tournament's PGN goes over the wire in pages of at most this many bytes of text (JSON
// escaping at most doubles PGN text, which has no control character but the newline, so a
// page stays under MAX_LINE_BYTES); a text over MAX_TOURNAMENT_PGN_BYTES is not sent (the
// operator's `xiangqi-server export` writes it).
inline constexpr std::size_t TOURNAMENT_PGN_PAGE_BYTES = 7 * 1024;
inline constexpr std::size_t MIN_TOURNAMENT_PGN_PAGE_BYTES = 256;
inline constexpr std::size_t MAX_TOURNAMENT_PGN_BYTES = 4 * 1024 * 1024;

// The opening explorer: a get_explorer gives at most MAX_EXPLORER_PLIES moves; an explorer
// answer lists at most MAX_EXPLORER_MOVES moves (a codec test checks the fullest one fits).
inline constexpr std::size_t MAX_EXPLORER_PLIES = 600;
inline constexpr std::size_t MAX_EXPLORER_MOVES = 40;

}  // namespace xq::proto
