// What the client knows about the server, the lobby and the table it sits at, as plain data
// the screens read. Filled by the session from protocol messages; no SFML types.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis_state.h"
#include "core/board_model.h"
#include "core/explorer_state.h"
#include "core/table_rules.h"
#include "core/tournament_view.h"

namespace xq::client {

// How many chat lines each chat view keeps.
constexpr std::size_t MAX_CHAT_LINES = 200;

enum class MoveNotation { Chinese, Wxf, Iccs };

struct ChatLine {
    std::string from;
    std::string text;
    bool notice = false;  // from the server itself (proto::Notice), not from a user
    // from and text as the UI font can draw them (bmp_text), made once by push_chat rather
    // than in every frame that shows the line.
    std::string shown_from;
    std::string shown_text;
};

using SteadyTime = std::chrono::steady_clock::time_point;

struct SeatInfo {
    std::string name;       // empty when the seat is free
    bool ai = false;
    int ai_level = 0;
    bool connected = true;  // false while a dropped player may still return
    std::string engine;     // an AI seat's external engine ("" = the built-in AI)
    // A dropped player's seat is kept until then (the server's grace, counted on our clock).
    std::optional<SteadyTime> grace_until;
    bool abandoned = false;  // the grace ran out; the seat stays the player's
    int hold_level = 0;      // > 0 while the built-in AI plays the abandoned seat
    std::optional<int> rating;  // a registered player's rating (the server's, rounded)

    // Milliseconds of grace left now, or -1 when no countdown runs.
    std::int64_t grace_left_ms(SteadyTime now) const;
};

struct TableSummary {
    int id = 0;
    std::string name;
    std::string default_of;    // the server named it "<creator>'s table": that creator, else ""
    std::array<SeatInfo, 2> seats;
    int spectators = 0;
    TableRules rules;          // as the server reports them
    std::string status;        // waiting / playing / finished
};

struct MoveEntry {
    Move move;
    std::string iccs, wxf, chinese;
    const std::string& text(MoveNotation n) const {
        const std::string& t = n == MoveNotation::Chinese ? chinese : n == MoveNotation::Wxf ? wxf : iccs;
        return t.empty() ? iccs : t;
    }
};

struct AiProgress {
    bool active = false;
    Color side = RED;
    int depth = 0;
    int score_cp = 0;
    int percent = 0;  // root moves searched at the current depth
    std::vector<Move> pv;  // the line it expects, legal from the board's position (may be empty)
};

struct Offer {
    enum class Kind { None, Draw, Takeback, NewGame };
    Kind kind = Kind::None;
    std::string from;
};

struct Invitation {
    std::string from;
    int table = 0;
    std::string table_name;
    bool default_name = false;  // table_name is the server's "<from>'s table"
    std::optional<Color> seat;  // the seat offered (none: to watch)
    bool from_seated = false;   // the inviter held a seat there when we last heard of the table
};

struct UserEntry {
    std::string name;
    int table = 0;  // 0 in the lobby
    std::optional<int> rating;  // registered players only
};

struct TableState {
    int id = -1;
    std::string name;
    std::string default_of;  // as TableSummary::default_of
    std::array<SeatInfo, 2> seats;
    int spectators = 0;
    std::string status;
    BoardModel board;
    std::vector<MoveEntry> moves;
    // Remaining time per colour in ms (-1: no clock), and when it was last reported.
    std::array<std::int64_t, 2> clock_ms{-1, -1};
    std::chrono::steady_clock::time_point clock_stamp{};
    std::optional<Color> clock_running;  // whose clock runs
    bool paused = false;                 // an arbiter paused the game (moves wait)
    AiProgress ai;
    std::deque<ChatLine> chat;
    Offer incoming_offer;        // shown as a dialog until answered
    Offer outgoing_offer;        // ours, waiting for the opponent's answer (`from`: who answers)
    bool result_shown = false;   // the game-over banner
    std::string result_text;     // "Red wins: checkmate" as the server words it
    std::string result_reason;   // the stable reason name, e.g. "checkmate"
    Outcome outcome = Outcome::Ongoing;
    TableRules rules;
    // The opponent's seat was abandoned with the claim rule and we sit opposite: the
    // "Claim the win / Keep waiting" question is open (claim_dismissed: "keep waiting").
    bool claim_possible = false;  // we may send claim_win now
    bool claim_open = false;
    bool claim_dismissed = false;
    // Our hint (request_hint): asked and not answered yet, and the answer for the position
    // after `hint_ply` plies (an ICCS move, drawn as an arrow until the position changes).
    bool hint_pending = false;
    std::string hint_move;
    int hint_ply = -1;
    int hint_score = 0;

    bool joined() const { return id >= 0; }
    // Remaining time for a colour now (counting down for the side to move).
    std::int64_t clock_now(Color c, std::chrono::steady_clock::time_point now) const;
};

enum class Connection { Disconnected, Connecting, Handshake, Ready };

struct LobbyState {
    std::vector<TableSummary> tables;
    std::vector<UserEntry> users;
    // The server sends its lists a page at a time (PROTOCOL.md, Lobby lists): the place
    // after the last page received and the list's length then; more while next < total.
    int tables_next = 0, tables_total = 0;
    int users_next = 0, users_total = 0;
    std::deque<ChatLine> chat;
    // Invitations to us not answered yet, oldest first (the dialog shows the newest), kept while
    // they can be taken up (Session, session_invites.cpp).
    std::vector<Invitation> invitations;
};

// One game of the server's archive as a `games` list shows it.
struct ArchiveEntry {
    std::int64_t id = 0;
    std::string red, black;
    Outcome result = Outcome::Ongoing;  // Ongoing: running, or ended without a result
    std::string reason;                 // stable end reason name ("checkmate"), "" if none
    int plies = 0;
    std::int64_t started_ms = 0;        // Unix time in ms
    // A rated game's players' ratings when it started (absent for an unrated game).
    std::optional<int> red_rating, black_rating;
};

// An archived game fetched with get_game, checked move by move and ready for review.
struct ArchivedGame {
    ArchiveEntry entry;
    Game game;                    // start position only; the moves are in `moves`
    std::vector<MoveEntry> moves;
    std::string text;             // the result in words, as the server gave it
};

// The lobby's "Game archive" list: newest first, paged back with `before`.
struct ArchiveState {
    std::vector<ArchiveEntry> games;
    bool more = false;           // older games exist: list_older_games() fetches them
    bool loading = false;        // a list_games or get_game is unanswered
    std::string player;          // the filter the list was asked with ("" = everyone)
    std::optional<ArchivedGame> opened;  // the last game_record that passed the checks
    // Cursor for the next page: the oldest id shown (0 = none).
    std::int64_t before() const { return games.empty() ? 0 : games.back().id; }
};

struct ClientState {
    Connection connection = Connection::Disconnected;
    std::string my_name;
    std::string server_name;
    std::string resume_token;
    bool resumed = false;  // the last welcome gave us back a seat
    std::string last_error;
    std::string last_error_code;  // the protocol's code of the last error ("bad_password")
    std::vector<std::string> engines;  // external engines the server offers (welcome.engines)
    std::vector<int> ai_ratings;       // the built-in AI levels' fixed ratings (welcome.ai_ratings)
    LobbyState lobby;
    TableState table;
    ArchiveState archive;
    AnalysisState analysis;  // the last analyse_game asked (the review screen shows it)
    ExplorerState explorer;  // the opening explorer's last answer (review, spectators)
    TournamentsState tournaments;
};

// "0:58" (minutes:seconds, rounded up) for a countdown in milliseconds.
std::string countdown_text(std::int64_t ms);
// How a seat is named on plates and in lists: the player (with "you"), the AI with its
// level, or an external engine with its level; "(empty)" for a free seat.
// A registered player's rating follows the name: "alice (1612)".
std::string seat_label(Lang lang, const SeatInfo& seat, const std::string& my_name);
// A player's name with its rating when the server sent one (lobby list, seats).
std::string user_label(Lang lang, const std::string& name, std::optional<int> rating);

// The built-in AI level's fixed rating as the server announced it ("" when it did not).
std::string ai_rating_text(Lang lang, const std::vector<int>& ai_ratings, int level);
// A player's name as shown: the built-in AI's reserved seat name "AI level N" (also in
// archive records and notices) in `lang`; every other name as it is.
std::string player_name(Lang lang, const std::string& name);
// A table's name as shown: the server's default "<creator>'s table" in `lang` when
// `default_of` names the creator, else `name` as its creator typed it.
std::string table_title(Lang lang, const std::string& name, const std::string& default_of);
// The line about a dropped player, or "" while the seat's player is connected:
// "Bob lost connection — seat kept 0:58", "AI (level 5) plays for Bob until they return".
std::string seat_notice(Lang lang, const SeatInfo& seat, SteadyTime now);

// "2026-11-29 16:05" in local time for a Unix time in ms; "" for 0.
std::string archive_date_text(std::int64_t unix_ms);
// "Red wins · checkmate" in `lang`, from the outcome and the stable reason name only (the
// server's English text never shows); an unknown reason leaves just the outcome.
std::string result_words(Lang lang, Outcome outcome, std::string_view reason);
// The pieces `capturer` has taken between `start` and `now` (the opponent's pieces missing),
// most valuable first: rooks, cannons, horses, elephants, advisors, pawns.
std::vector<Piece> captured_by(const Position& start, const Position& now, Color capturer);
// "Red wins · checkmate" (localized) for an archive entry; "*" style games say "unfinished".
std::string archive_result_text(Lang lang, const ArchiveEntry& e);

// Appends a chat line, keeping at most MAX_CHAT_LINES.
void push_chat(std::deque<ChatLine>& chat, ChatLine line);

}  // namespace xq::client
