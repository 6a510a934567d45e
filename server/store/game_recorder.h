// The game recorder: a TableObserver that persists and times every game. Each table gets its
// clock, every accepted move is queued to the StoreWriter (committed there, in a group, before
// any line of its table sent after it leaves: see store_writer.h), results are archived (and served as the
// lobby's GameArchive), and on start the unfinished games come back with their seats held.
#pragma once

#include <boost/asio/io_context.hpp>
#include <atomic>
#include <chrono>
#include <functional>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>

#include "server/lobby/game_archive.h"
#include "server/lobby/lobby.h"
#include "server/lobby/tournament_store.h"
#include "server/store/storage.h"
#include "server/store/store_writer.h"
#include "server/table/game_clock.h"
#include "server/table/table_observer.h"

namespace xq::server {

class GameRecorder final : public TableObserver, public GameArchive, public TournamentStore {
public:
    // `storage` may be null (no persistence); clocks still work. `storage` is read on the I/O
    // thread; writes go to `writer` (its own connection and thread), or, without one, to
    // `storage` here and now.
    GameRecorder(boost::asio::io_context& io, Lobby& lobby, Storage* storage, const ClockConfig& default_clock,
                 std::chrono::milliseconds seat_grace, StoreWriter* writer = nullptr);

    // Durable before said: `hold(table, ticket)` runs right after a write is queued with the
    // writer's ticket and the table it concerns (EVERY_LINE: none in particular); the server
    // holds the lines that depend on it until it is committed (net/ Server::hold_table).
    static constexpr proto::TableId EVERY_LINE = 0;
    void set_hold(std::function<void(proto::TableId, std::uint64_t)> hold) { hold_ = std::move(hold); }

    // Brings back every unfinished game; returns how many tables were restored.
    int restore();
    // Moves whose commit failed (the database refused them); a healthy server keeps 0.
    std::uint64_t failed_writes() const { return failed_writes_ + (writer_ ? writer_->failed() : 0); }
    // Moves written (with a writer: in a transaction that may still be open).
    std::uint64_t committed_moves() const { return committed_moves_->load(); }

    void table_created(const Table& t) override;
    void game_started(const Table& t) override;
    void move_accepted(const Table& t, const proto::MoveMade& mm) override;
    void takeback(const Table& t, int plies) override;
    void game_over(const Table& t, const proto::GameOver& go) override;
    // Recorded as a game event in words (the PGN export shows it as a comment).
    void arbiter_action(const Table& t, const proto::ArbiterAction& a) override;
    // Recorded as a game event of kind "hint" (a PGN comment on the move that followed).
    void hint_shown(const Table& t, Color side, int ply, const std::string& move) override;
    void seats_changed(const Table& t) override;
    void table_closed(const Table& t) override;

    // GameArchive: list_games / get_game from the database.
    proto::Games list_games(const proto::ListGames& query) override;
    std::optional<proto::GameRecord> get_game(std::int64_t id) override;
    std::int64_t game_id_at(proto::TableId table) const override;
    std::optional<proto::Analysis> analysis(std::int64_t id) override;
    void save_analysis(const proto::Analysis& analysis) override;
    // Made from the database on the first request, then kept until the tournament changes
    // (or an analysis is stored): the pages of one text are cut from one copy.
    std::shared_ptr<const TournamentPgnText> tournament_pgn(std::uint32_t id, proto::PgnNotation notation,
                                                            std::string* error) override;

    // TournamentStore: the tournaments in the database.
    void save_tournament(std::uint32_t id, const SavedTournament& t) override;
    void forget_tournament(std::uint32_t id) override;
    std::vector<SavedTournament> saved_tournaments() override;

private:
    // A stored game's id; 0 until the writer has stored it (or when that failed). Written on
    // the writer thread, read on both.
    struct GameRef {
        explicit GameRef(std::int64_t v = 0) : id(v) {}
        std::atomic<std::int64_t> id;
    };
    using GameRefPtr = std::shared_ptr<GameRef>;

    void attach_clock(Table& t, const ClockConfig& config);
    ClockState clock_state(const Table& t) const;
    void write_failed(const char* what);
    // Runs `job` on the writer (queued, then held for: `about` is the table whose lines
    // wait for it), or on `storage_` now when there is none.
    void write(proto::TableId about, const char* what, StoreWriter::Job job);
    // Waits for the writer's queue, so a read sees every write made so far.
    void sync() const;
    GameRefPtr game_of(proto::TableId table) const;

    boost::asio::io_context& io_;
    Lobby& lobby_;
    Storage* storage_;
    ClockConfig default_clock_;
    std::chrono::milliseconds seat_grace_;
    StoreWriter* writer_;
    std::function<void(proto::TableId, std::uint64_t)> hold_;
    std::unordered_map<proto::TableId, GameRefPtr> games_;          // table -> its running game
    std::unordered_map<proto::TableId, ClockConfig> table_clocks_;  // table -> its clock setting
    std::uint64_t failed_writes_ = 0;
    // Counted by the writer's jobs (shared: a job never points into the recorder).
    std::shared_ptr<std::atomic<std::uint64_t>> committed_moves_ = std::make_shared<std::atomic<std::uint64_t>>(0);
    // Tournament PGN texts made for the wire, by (tournament, notation); a few at most.
    std::map<std::pair<std::uint32_t, proto::PgnNotation>, std::shared_ptr<const TournamentPgnText>> pgn_texts_;
};

}  // namespace xq::server
