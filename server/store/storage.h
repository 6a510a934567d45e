// Persistence of tables, games, moves, seats and resume tokens in one SQLite database (WAL)
// inside the server's data directory. Every call commits before it returns (inside a
// transaction already open, such as the StoreWriter's group commit, it becomes part of it),
// so a move the server broadcasts after its commit survives kill -9 of the server.
// Defined by concept: storage.cpp (open, tables, tokens), storage_schema.cpp, storage_games.cpp,
// storage_tournaments.cpp, storage_learning.cpp (analyses, the book's learning).
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/sqlite/sqlite_database.h"
#include "server/store/wal_checkpointer.h"
#include "server/table/game_clock.h"
#include "xiangqi/types.h"

namespace xq::server {

constexpr std::string_view DATABASE_FILE = "xiangqi.sqlite3";
// 2: tables.hold_level and tables.takebacks; 3: tables.rated; 4: games.red_rating and
// games.black_rating; 5: game_events.paused and the clocks after the event; 6: tables.hints
// and game_events.kind; 7: tables.creator (older databases are upgraded on open).
constexpr int STORAGE_SCHEMA_VERSION = 7;
// Longest list list_games() returns in one page.
constexpr int MAX_GAME_LIST = 200;
// How often the WAL is checkpointed (off the I/O thread, see WalCheckpointer).
constexpr std::chrono::milliseconds WAL_CHECKPOINT_PERIOD{500};
// Longest text stored for a name, FEN, move or reason (longer input is refused).
constexpr std::size_t MAX_STORED_TEXT = 512;

// Milliseconds since the Unix epoch (wall time, for records only; clocks use steady time).
std::int64_t unix_ms_now();
// The default data directory: "xiangqi-data" beside the running executable.
std::filesystem::path default_data_dir();

enum class SeatKind { Human, Ai, Engine };
std::string_view seat_kind_name(SeatKind k);  // "human", "ai", "engine"

struct SeatRecord {
    Color color = RED;
    SeatKind kind = SeatKind::Human;
    std::string name;   // nick, "AI level 5", or the external engine's name
    std::string token;  // resume token of the human holding the seat (empty otherwise)
    int ai_level = 0;
};

struct MoveRecord {
    int ply = 0;        // 0 for the first move
    std::string move;   // ICCS, e.g. "h2e2"
    std::int64_t at_ms = 0;
    ClockState clock;   // both sides' time after the move
};

struct TableRecord {
    std::int64_t id = 0;
    std::string name;
    std::string clock = "none";  // clock_spec() text
    std::int64_t grace_ms = 60'000;
    bool ai_holds_seat = false;  // abandon policy "ai" (false: "claim")
    int hold_level = 5;          // AI level holding an abandoned seat
    bool takebacks = true;       // request_takeback allowed
    bool rated = false;          // settings.rated: its games move Glicko-2 ratings
    bool hints = false;          // settings.hints: request_hint allowed
    std::string creator;         // who created it (empty in a file from before schema 7)
};

// Something that happened to a game besides its moves, in words: an arbiter's action, or a
// hint shown to the player to move (kind "hint").
struct GameEvent {
    int ply = 0;  // plies played when it happened
    std::int64_t at_ms = 0;
    std::string text;
    // The game was left paused by it, and both clocks right after it (none: no clock), so a
    // restart brings back a pause and added time given after the last move.
    bool paused = false;
    std::optional<ClockState> clock;
    std::string kind;  // "": an arbiter's action; "hint"
};

struct GameRecord {
    std::int64_t id = 0;
    std::int64_t table_id = 0;
    std::string start_fen;
    std::string clock = "none";
    std::string red;    // names when the game started (seats may change later)
    std::string black;
    bool finished = false;
    std::string result = "*";   // "1-0", "0-1", "1/2-1/2", "*"
    std::string reason;         // end_reason_name(), e.g. "checkmate"
    std::string result_text;    // the ruling in words
    std::int64_t started_at_ms = 0;
    std::int64_t ended_at_ms = 0;
    // A rated table's game: each registered player's rating when it started.
    std::optional<int> red_rating, black_rating;
    std::vector<SeatRecord> seats;
    std::vector<MoveRecord> moves;
    std::vector<GameEvent> events;  // oldest first
};

struct GameSummary {
    std::int64_t id = 0;
    std::int64_t table_id = 0;
    std::string red, black, result, reason;
    bool finished = false;
    int plies = 0;
    std::int64_t started_at_ms = 0;
    std::int64_t ended_at_ms = 0;
    std::optional<int> red_rating, black_rating;
};

// What the AI learned from its games for one (position key, move) of the opening book:
// counts for the side that played the move (see common/book/opening_book.h).
struct LearnedBookMove {
    std::uint64_t key = 0;
    std::uint16_t move = 0;  // xq::Move::raw()
    std::uint32_t plays = 0, wins = 0, draws = 0, losses = 0;
};

// A whole-game analysis (analyse_game): per position the evaluation (cp, Red's side) and
// the best move in ICCS ("" when none); per move its loss (empty in analyses stored before
// losses were kept; stored after a '|' in the evals column).
struct StoredAnalysis {
    std::int64_t game_id = 0;
    std::int64_t nodes = 0;
    std::vector<int> evals;
    std::vector<std::string> best;
    std::vector<int> losses;
};

// A tournament as the tournament desk saves it (its `tournament` line, see PROTOCOL.md).
struct StoredTournament {
    std::int64_t id = 0;
    std::string state;                     // its `tournament` line
    std::vector<std::int64_t> game_tables;  // per entry of its `games`: the table (0: none)
};
// Longest tournament state stored (a `tournament` line is at most 16 KiB).
constexpr std::size_t MAX_TOURNAMENT_STATE = 64 * 1024;

struct GameFilter {
    std::string player;          // games where Red or Black had this name (empty: all)
    bool finished_only = false;
    std::int64_t before_id = 0;  // paging: only ids below this (0: from the newest)
    int limit = 50;              // clamped to 1..MAX_GAME_LIST
};

class Storage {
public:
    // synchronous=NORMAL survives a killed server process (kill -9) with WAL; FULL also
    // survives a power cut at the cost of one fsync per move.
    enum class Sync { Normal, Full };

    // Creates the directory and database when missing. nullptr and a message on failure.
    // `checkpoints`: this connection's WalCheckpointer checkpoints the file (one per file is
    // enough: the store writer's second connection opens with false).
    static std::unique_ptr<Storage> open(const std::filesystem::path& data_dir, std::string* error,
                                         Sync sync = Sync::Normal, bool checkpoints = true);
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    const std::filesystem::path& path() const { return path_; }
    // What the last failing call met (SQLite's message or a refused value).
    const std::string& last_error() const { return db_->error(); }
    // The connection itself (the store writer wraps many calls in one transaction).
    SqliteDatabase& database() { return *db_; }

    bool save_table(const TableRecord& table);  // insert or update by id
    bool close_table(std::int64_t table_id);
    std::vector<TableRecord> open_tables();
    // The largest table id ever stored, so a restarted server never reuses one.
    std::int64_t max_table_id();

    // Stores a new game with its seats; returns its id.
    std::optional<std::int64_t> create_game(const GameRecord& game);
    // Appends the move at `ply` (which must be the next ply) and commits it.
    bool append_move(std::int64_t game_id, const MoveRecord& move);
    // Records an event of the game (an arbiter's action) and commits it.
    bool add_event(std::int64_t game_id, const GameEvent& event);
    // Deletes the moves from `from_ply` on (a takeback) and commits.
    bool truncate_moves(std::int64_t game_id, int from_ply);
    bool set_seat(std::int64_t game_id, const SeatRecord& seat);
    bool finish_game(std::int64_t game_id, std::string_view result, std::string_view reason,
                     std::string_view text, std::int64_t ended_at_ms);

    std::optional<GameRecord> get_game(std::int64_t game_id);
    std::vector<GameRecord> unfinished_games();
    std::vector<GameSummary> list_games(const GameFilter& filter);

    bool save_token(std::string_view token, std::string_view nick, std::int64_t now_ms);
    std::optional<std::string> token_nick(std::string_view token);
    // Forgets tokens last used before `cutoff_ms` that no unfinished game's seat holds.
    int prune_tokens(std::int64_t cutoff_ms);

    // One analysis per game (a new one replaces the old).
    bool save_analysis(const StoredAnalysis& analysis);
    std::optional<StoredAnalysis> analysis(std::int64_t game_id);

    // Tournaments, kept across a restart: insert or replace by id, forget, all (by id).
    bool save_tournament(const StoredTournament& tournament);
    bool forget_tournament(std::int64_t id);
    std::vector<StoredTournament> tournaments();
    // The newest game with a result played at `table_id` (a tournament board plays one).
    std::optional<std::int64_t> finished_game_at(std::int64_t table_id);

    // The opening book's learning: adds the counts to the stored ones, in one transaction.
    bool learn_book(const std::vector<LearnedBookMove>& moves);
    std::vector<LearnedBookMove> learned_book();
    // Forgets everything learned; returns the rows removed (-1 on failure).
    int forget_learned_book();

private:
    Storage() = default;
    bool check_text(std::string_view text, const char* what);
    bool load_details(GameRecord& game);

    std::unique_ptr<SqliteDatabase> db_;
    std::filesystem::path path_;
    std::unique_ptr<WalCheckpointer> checkpointer_;  // after db_: stopped before it closes
};

}  // namespace xq::server
