// Every message of the wire protocol as a plain struct, one per `type`, for both directions.
// Each struct lists its fields once in fields(); the codec (codec.h) encodes and decodes
// through that list, so a message always round-trips. Documented in protocol/PROTOCOL.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/errors.h"
#include "protocol/limits.h"
#include "xiangqi/game.h"
#include "xiangqi/types.h"

namespace xq::proto {

using TableId = std::uint32_t;  // 0 means "no table"

enum class Role { Red, Black, Spectator };  // "red", "black", "spectator"
enum class ChatScope { Lobby, Table };      // "lobby", "table"
enum class TableStatus { Waiting, Playing, Over };  // "waiting", "playing", "over"
// Why someone left a table: "left" (asked to), "disconnected" (connection lost),
// "dropped" (the server cut a connection that stopped reading or flooded),
// "replaced" (an AI seat was taken over or a new game moved seats).
enum class LeaveReason { Left, Disconnected, Dropped, Replaced };
// What happens to a seat whose player stays away past the grace: "claim" (the opponent may
// claim the win or keep waiting) or "ai" (the built-in AI plays the seat until they return).
enum class OfferKind { Draw, Takeback, NewGame };  // "draw", "takeback", "new_game"
// What an arbiter does to a game: "pause", "resume", "add_time", "adjudicate", "cancel".
enum class ArbiterKind { Pause, Resume, AddTime, Adjudicate, Cancel };
enum class AbandonPolicy { Claim, Ai };
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

inline Role role_of(Color c) { return c == RED ? Role::Red : Role::Black; }

// ---- Building blocks (nested objects) --------------------------------------------------

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

struct UserInfo {
    std::string name;
    TableId table = 0;  // 0 while in the lobby
    std::optional<int> rating;  // registered players only: the Glicko-2 rating (rounded)
    template <class F> void fields(F& f) {
        f("name", name);
        f("table", table);
        f.opt("rating", rating, 0, MAX_RATING);
    }
    bool operator==(const UserInfo&) const = default;
};

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

// ---- Client to server ------------------------------------------------------------------

struct Hello {
    static constexpr std::string_view TYPE = "hello";
    std::string name;
    int version = PROTOCOL_VERSION;
    std::string resume;  // optional: a resume token from an earlier welcome
    std::string password;  // required when the server has one (--password)
    std::string account_password;  // logs in to the registered account of `name`
    template <class F> void fields(F& f) {
        f("name", name);
        f("version", version, 0, 1 << 30);
        f.opt("resume", resume);
        f.opt("password", password);
        f.opt("account_password", account_password);
    }
};

// Both directions: a client may ping the server, and the server pings a connection it has
// not heard from for a while; the other side answers with pong and the same id.
struct Ping {
    static constexpr std::string_view TYPE = "ping";
    std::int64_t id = 0;  // echoed in pong
    template <class F> void fields(F& f) { f.opt("id", id); }
};

// One page of the lobby's tables (waiting tables first, then the others; each by id) or users
// (the lobby's users first, then those at tables; each by name in code point order): from
// `offset` (0..MAX_LIST_OFFSET), at most `limit` items (1..TABLES_PER_PAGE / USERS_PER_PAGE;
// 0 or absent: the most). Anything else is bad_field.
struct ListTables {
    static constexpr std::string_view TYPE = "list_tables";
    int offset = 0;
    int limit = 0;
    template <class F> void fields(F& f) {
        f.opt("offset", offset, 0, MAX_LIST_OFFSET);
        f.opt("limit", limit, 0, int(TABLES_PER_PAGE));
    }
};

struct ListUsers {
    static constexpr std::string_view TYPE = "list_users";
    int offset = 0;
    int limit = 0;
    template <class F> void fields(F& f) {
        f.opt("offset", offset, 0, MAX_LIST_OFFSET);
        f.opt("limit", limit, 0, int(USERS_PER_PAGE));
    }
};

struct CreateTable {
    static constexpr std::string_view TYPE = "create_table";
    std::string name;            // optional; defaults to "<creator>'s table"
    Role as = Role::Red;         // where the creator sits (spectator for AI-vs-AI tables)
    std::string fen;             // optional start position; empty = the standard start
    TableSettings settings;      // optional; absent fields take the server's defaults
    template <class F> void fields(F& f) {
        f.opt("name", name);
        f.opt("as", as);
        f.opt("fen", fen);
        f.opt("settings", settings);
    }
};

struct Join {
    static constexpr std::string_view TYPE = "join";
    TableId table = 0;
    Role as = Role::Spectator;
    template <class F> void fields(F& f) {
        f("table", table);
        f("as", as);
    }
};

struct Leave {
    static constexpr std::string_view TYPE = "leave";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

// Asks for a fresh table_snapshot (a client whose FEN differs from the server's resyncs).
struct Sync {
    static constexpr std::string_view TYPE = "sync";
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

struct ChatSend {
    static constexpr std::string_view TYPE = "chat";
    ChatScope scope = ChatScope::Lobby;
    TableId table = 0;  // required for scope "table"
    std::string text;
    template <class F> void fields(F& f) {
        f("scope", scope);
        f.opt("table", table);
        f("text", text);
    }
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

// The seated opponent of an abandoned seat (see seat_abandoned) takes the win.
struct ClaimWin {
    static constexpr std::string_view TYPE = "claim_win";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct Resign {
    static constexpr std::string_view TYPE = "resign";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct OfferDraw {
    static constexpr std::string_view TYPE = "offer_draw";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct AnswerDraw {
    static constexpr std::string_view TYPE = "answer_draw";
    TableId table = 0;
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("accept", accept);
    }
};

struct RequestTakeback {
    static constexpr std::string_view TYPE = "request_takeback";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct AnswerTakeback {
    static constexpr std::string_view TYPE = "answer_takeback";
    TableId table = 0;
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("accept", accept);
    }
};

struct NewGame {
    static constexpr std::string_view TYPE = "new_game";
    TableId table = 0;
    // The colour the sender plays in the next game; only against the AI or an empty seat
    // (with a human opponent the colours swap, as without it).
    std::optional<Color> as;
    template <class F> void fields(F& f) {
        f("table", table);
        f.opt("as", as);
    }
};

// Takes back your own open offer (draw, takeback or new game) before it is answered.
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

struct WithdrawOffer {
    static constexpr std::string_view TYPE = "withdraw_offer";
    TableId table = 0;
    OfferKind offer = OfferKind::Draw;
    template <class F> void fields(F& f) {
        f("table", table);
        f("offer", offer);
    }
};

struct Invite {
    static constexpr std::string_view TYPE = "invite";
    TableId table = 0;
    std::string name;         // the invited user
    std::optional<Role> as;   // default: the empty seat, else spectator
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f.opt("as", as);
    }
};

struct AnswerInvite {
    static constexpr std::string_view TYPE = "answer_invite";
    TableId table = 0;
    std::string from;  // who invited
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("from", from);
        f("accept", accept);
    }
};

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

// Registers the connection's current name as an account with this password (see Accounts).
struct Register {
    static constexpr std::string_view TYPE = "register";
    std::string password;
    template <class F> void fields(F& f) { f("password", password); }
};

// Changes the password of the account this connection logged in to.
struct ChangePassword {
    static constexpr std::string_view TYPE = "change_password";
    std::string old_password;
    std::string new_password;
    template <class F> void fields(F& f) {
        f("old", old_password);
        f("new", new_password);
    }
};

// ---- Tournaments (client to server) ----

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

// ---- Server to client ------------------------------------------------------------------

struct Welcome {
    static constexpr std::string_view TYPE = "welcome";
    std::string session;       // this connection's session id
    std::string resume_token;  // 128 random bits as 32 hex digits; keep it to reclaim a seat
    std::string server;        // the server's name
    int version = PROTOCOL_VERSION;
    std::string name;          // the nickname as accepted
    bool resumed = false;      // true when hello.resume reattached an earlier session
    std::vector<std::string> engines;  // external engines request_ai may name (besides the built-in)
    bool account = false;      // true when `name` is a registered account this connection logged in to
    std::optional<int> rating;  // the account's Glicko-2 rating (rounded), when logged in
    std::optional<int> rating_rd;  // and its deviation
    std::vector<int> ai_ratings;   // the built-in AI levels' fixed ratings, level 1 first (empty: no AI)
    template <class F> void fields(F& f) {
        f("session", session);
        f("resume_token", resume_token);
        f("server", server);
        f("version", version, 0, 1 << 30);
        f("name", name);
        f.opt("resumed", resumed);
        f.opt("engines", engines);
        f.opt("account", account);
        f.opt("rating", rating, 0, MAX_RATING);
        f.opt("rating_rd", rating_rd, 0, MAX_RATING);
        f.opt("ai_ratings", ai_ratings, 0, MAX_RATING);
    }
};

struct Pong {
    static constexpr std::string_view TYPE = "pong";
    std::int64_t id = 0;
    template <class F> void fields(F& f) { f("id", id); }
};

struct Error {
    static constexpr std::string_view TYPE = "error";
    ErrorCode code = ErrorCode::Internal;
    std::string message;  // readable English
    std::string request;  // the type of the request this answers ("" if it had none)
    TableId table = 0;    // the table named by the request, if any
    std::string detail;   // bad_settings, bad_fen: why, as a code (errors.h); "" otherwise
    template <class F> void fields(F& f) {
        f("code", code);
        f("message", message);
        f("request", request);
        f.opt("table", table);
        f.opt("detail", detail);
    }
};

// One line of a page of the lobby's list (ListTables): `offset` is the place of its first
// item in the whole list, `total` the list's length when it was sent; the page holds the
// items from its first line's offset on (more lie past it while offset + items < total).
struct Tables {
    static constexpr std::string_view TYPE = "tables";
    std::vector<TableInfo> tables;
    bool more = false;  // true when another `tables` line of the same page follows
    int offset = 0;
    int total = 0;
    template <class F> void fields(F& f) {
        f("tables", tables);
        f.opt("more", more);
        f.opt("offset", offset, 0, 1 << 30);
        f.opt("total", total, 0, 1 << 30);
    }
    bool operator==(const Tables&) const = default;
};

struct Users {
    static constexpr std::string_view TYPE = "users";
    std::vector<UserInfo> users;
    bool more = false;  // true when another `users` line of the same page follows
    int offset = 0;
    int total = 0;
    template <class F> void fields(F& f) {
        f("users", users);
        f.opt("more", more);
        f.opt("offset", offset, 0, 1 << 30);
        f.opt("total", total, 0, 1 << 30);
    }
    bool operator==(const Users&) const = default;
};

struct UserJoined {
    static constexpr std::string_view TYPE = "user_joined";
    std::string name;
    std::optional<int> rating;  // registered players only: the Glicko-2 rating (rounded)
    template <class F> void fields(F& f) {
        f("name", name);
        f.opt("rating", rating, 0, MAX_RATING);
    }
};

struct UserLeft {
    static constexpr std::string_view TYPE = "user_left";
    std::string name;
    template <class F> void fields(F& f) { f("name", name); }
};

struct TableUpdate {
    static constexpr std::string_view TYPE = "table_update";
    TableInfo table;
    template <class F> void fields(F& f) { f("table", table); }
};

struct TableRemoved {
    static constexpr std::string_view TYPE = "table_removed";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
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

struct ChatLine {
    static constexpr std::string_view TYPE = "chat";
    ChatScope scope = ChatScope::Lobby;
    TableId table = 0;
    std::string from;
    std::string text;
    template <class F> void fields(F& f) {
        f("scope", scope);
        f.opt("table", table);
        f("from", from);
        f("text", text);
    }
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

// A notice from the server itself (the operator's broadcast, shutdown warnings): never a
// chat line, so no user can pose as the server whatever name they pick.
struct Notice {
    static constexpr std::string_view TYPE = "notice";
    std::string text;
    template <class F> void fields(F& f) { f("text", text); }
};

// The answer to `register`: the connection's name is now a registered account.
struct Registered {
    static constexpr std::string_view TYPE = "registered";
    std::string name;
    template <class F> void fields(F& f) { f("name", name); }
};

// The answer to `change_password`.
struct PasswordChanged {
    static constexpr std::string_view TYPE = "password_changed";
    template <class F> void fields(F&) {}
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

struct DrawOffered {
    static constexpr std::string_view TYPE = "offer_draw";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

struct DrawAnswered {
    static constexpr std::string_view TYPE = "answer_draw";
    TableId table = 0;
    Color by = RED;  // who answered
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("accept", accept);
    }
};

struct TakebackRequested {
    static constexpr std::string_view TYPE = "request_takeback";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

struct TakebackAnswered {
    static constexpr std::string_view TYPE = "answer_takeback";
    TableId table = 0;
    Color by = RED;  // who answered
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("accept", accept);
    }
};

// Plies were taken back; the board is now `fen` after `ply` plies.
struct TakebackDone {
    static constexpr std::string_view TYPE = "takeback";
    TableId table = 0;
    int plies = 0;  // how many plies were undone (1 or 2)
    int ply = 0;
    std::string fen;
    template <class F> void fields(F& f) {
        f("table", table);
        f("plies", plies, 1, 2);
        f("ply", ply, 0, 1 << 30);
        f("fen", fen);
    }
};

// An open offer was withdrawn by the side that made it.
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

struct OfferWithdrawn {
    static constexpr std::string_view TYPE = "offer_withdrawn";
    TableId table = 0;
    Color by = RED;
    OfferKind offer = OfferKind::Draw;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("offer", offer);
    }
};

struct NewGameOffered {
    static constexpr std::string_view TYPE = "new_game";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

struct InviteReceived {
    static constexpr std::string_view TYPE = "invite";
    TableId table = 0;
    std::string from;
    std::string table_name;
    Role as = Role::Spectator;
    bool default_name = false;  // as TableInfo.default_name: table_name is "<from>'s table"
    template <class F> void fields(F& f) {
        f("table", table);
        f("from", from);
        f("table_name", table_name);
        f("as", as);
        f.opt("default_name", default_name);
    }
};

struct InviteAnswered {
    static constexpr std::string_view TYPE = "answer_invite";
    TableId table = 0;
    std::string name;  // who was invited
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f("accept", accept);
    }
};

// Acknowledges `leave`; the client is back in the lobby.
struct LeftTable {
    static constexpr std::string_view TYPE = "left";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
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

// ---- Tournaments (server to client) ----

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

// The answer to list_tournaments.
struct Tournaments {
    static constexpr std::string_view TYPE = "tournaments";
    std::vector<TournamentSummary> tournaments;
    template <class F> void fields(F& f) { f("tournaments", tournaments); }
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

#include "protocol/messages_book.h"  // the opening explorer
