// Stable error codes of the protocol: the `code` string of every `error` line.
// Codes are never renamed or reused; new ones are only appended.
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "xiangqi/position.h"

namespace xq::proto {

enum class ErrorCode {
    // Framing and decoding
    LineTooLong,       // line_too_long: a line over MAX_LINE_BYTES (the rest of it is skipped)
    BadUtf8,           // bad_utf8: the line is not valid UTF-8
    TooDeep,           // too_deep: objects/arrays nested deeper than MAX_JSON_DEPTH
    BadJson,           // bad_json: not parseable JSON, or not an object
    MissingType,       // missing_type: no "type" string
    UnknownType,       // unknown_type: a type this side does not accept
    BadField,          // bad_field: a field is missing, of the wrong JSON type or out of range
    // Session
    NotHello,          // not_hello: the first line must be hello
    AlreadyHello,      // already_hello: hello sent twice
    BadVersion,        // bad_version: hello.version is not PROTOCOL_VERSION
    BadName,           // bad_name: refused by the name rules (invisible characters, reserved...)
    NameTaken,         // name_taken: a connected user has that name or one that looks like it
    ServerFull,        // server_full: --max-clients reached
    RateLimited,       // rate_limited: chat flood (4 per 10 s) or message flood
    ShuttingDown,      // shutting_down: the server is stopping
    // Lobby and tables
    NoSuchTable,       // no_such_table
    NoSuchUser,        // no_such_user
    NotAtTable,        // not_at_table: the request names a table you are not at
    AlreadyAtTable,    // already_at_table: leave your current table first
    SeatTaken,         // seat_taken: that seat is occupied
    TableFull,         // table_full: spectator cap reached
    TooManyTables,     // too_many_tables: server table cap reached
    BadFen,            // bad_fen: create_table.fen was refused (message says why)
    NotAllowed,        // not_allowed: you may not do that here (e.g. request_ai as a spectator)
    // Referee
    GameNotInProgress, // game_not_in_progress: no game running (waiting for players, or over)
    NotSeated,         // not_seated: only seated players move (spectators cannot)
    NotYourTurn,       // not_your_turn
    WrongPly,          // wrong_ply: the move answers a different position (resend or resync)
    BadMoveText,       // bad_move_text: not ICCS coordinates such as h2e2
    IllegalMove,       // illegal_move: not among the legal moves of the position
    // Offers
    NoOffer,           // no_offer: nothing to answer
    OfferPending,      // offer_pending: you already have an offer outstanding
    NothingToTakeBack, // nothing_to_take_back: you have not moved yet
    GameInProgress,    // game_in_progress: new_game only after the game is over
    EmptyText,         // empty_text: chat text is empty after trimming
    NoSuchGame,        // no_such_game: get_game names no game of the archive
    BadSettings,       // bad_settings: create_table.settings was refused (message says why)
    BadPassword,       // bad_password: hello.password is missing or wrong (the connection closes)
    IdleTimeout,       // idle_timeout: nothing heard for --idle-timeout (the connection closes)
    NoSuchEngine,      // no_such_engine: request_ai.engine is not one of welcome.engines
    NoClaim,           // no_claim: claim_win while the opponent's seat is not abandoned
    // Identity (registered accounts, bans)
    AccountRequired,   // account_required: the name is registered (send its account_password), or
                       // the server admits registered accounts only (--accounts required)
    BadLogin,          // bad_login: wrong account password (the connection closes)
    WeakPassword,      // weak_password: a new account password is too short or too long
    Banned,            // banned: the name or the address is banned (the connection closes)
    // Tournaments
    NoSuchTournament,  // no_such_tournament: no tournament with that id
    AlreadyEntered,    // already_entered: join_tournament twice
    EntriesClosed,     // entries_closed: the tournament has started (or is full or finished)
    Internal,          // internal: a server bug; the request changed nothing
};

// The stable wire name, e.g. "wrong_ply".
std::string_view error_code_name(ErrorCode c);
std::optional<ErrorCode> error_code_from_name(std::string_view name);
// Every code in declaration order (for tests and documentation checks).
inline constexpr int ERROR_CODE_COUNT = static_cast<int>(ErrorCode::Internal) + 1;

// error.detail: why bad_settings or bad_fen was sent, as a stable code a client words in its
// own language (the English message says the same for people reading the wire).
namespace settings_detail {
inline constexpr std::string_view CLOCK_FORMAT = "clock_format";   // not fischer:<b>+<i> or asian:<b>/<l>/<c>
inline constexpr std::string_view CLOCK_RANGE = "clock_range";     // a time that is no whole seconds up to 36000
inline constexpr std::string_view CLOCK_ZERO = "clock_zero";       // no base time (Asian: nor a countdown)
inline constexpr std::string_view CLOCK_UNKNOWN = "clock_unknown"; // not none, fischer:... or asian:...
inline constexpr std::string_view NO_AI = "no_ai";                 // the server has no AI (abandon=ai, AI entrants)
inline constexpr std::string_view NO_SPECTATOR_DELAY = "no_spectator_delay";  // spectator_delay is not offered
inline constexpr std::string_view NO_RATED = "no_rated";                      // rated, but the server has no accounts
inline constexpr std::string_view RATED_NEEDS_CLOCK = "rated_needs_clock";    // rated without a clock
inline constexpr std::string_view NO_HINTS = "no_hints";                      // hints at a rated table or in a tournament
}  // namespace settings_detail
inline constexpr std::array<std::string_view, 9> SETTINGS_DETAILS = {
    settings_detail::CLOCK_FORMAT, settings_detail::CLOCK_RANGE,        settings_detail::CLOCK_ZERO,
    settings_detail::CLOCK_UNKNOWN, settings_detail::NO_AI,             settings_detail::NO_SPECTATOR_DELAY,
    settings_detail::NO_RATED,     settings_detail::RATED_NEEDS_CLOCK, settings_detail::NO_HINTS};
// The bad_fen detail of a FEN problem, e.g. "bad_king_square" (every FenError but None has one).
std::string_view fen_error_detail(FenError e);
// Every bad_fen detail the server can send, in FenError order.
std::array<std::string_view, 15> fen_error_details();

}  // namespace xq::proto
