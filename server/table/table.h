// One table: two seats, spectators, the authoritative Game, chat history, offers, AI seats.
// Referees every move (in the order PROTOCOL.md gives) and broadcasts what happened. Lives
// on the I/O thread; AI searches run elsewhere and come back through the same referee.
#pragma once

#include <boost/asio/io_context.hpp>

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/search.h"
#include "protocol/codec.h"
#include "server/config/server_config.h"
#include "server/table/table_clock.h"
#include "server/table/table_observer.h"
#include "xiangqi/game.h"

namespace xq::book {
class Book;
}

namespace xq::server {

class AiPool;
class EnginePool;
struct EngineReply;
struct RestoredSeat;
class Table;

using SessionId = std::uint64_t;
using Buffer = std::shared_ptr<const std::string>;

// Encodes a message once, as a line, ready to be shared by many connections.
Buffer make_buffer(const proto::ServerMessage& m);
// The same for one message of a known type, without building the variant here (codec.h,
// encode_line_of); every send path below has this overload next to its variant one.
template <class M>
Buffer make_buffer(const M& m) {
    return std::make_shared<const std::string>(proto::encode_line_of(m));
}

// Why a request was refused; nothing changed.
struct Rejection {
    proto::ErrorCode code;
    std::string message;
    std::string detail{};  // error.detail (bad_settings, bad_fen: a code of protocol/errors.h)
};
using Verdict = std::optional<Rejection>;  // empty: accepted

// What a table needs from its owner.
class TableHost {
public:
    virtual ~TableHost() = default;
    // A line from table `from` (its moves, results, snapshots, chat): it leaves after the
    // table's writes queued before it are committed (net/ Server::send_about).
    virtual void send(proto::TableId from, SessionId to, const Buffer& line) = 0;
    // Runs `then` once every line sent so far from table `from` has left (at once when none
    // is held for a commit); dropped if the server stops first.
    virtual void after_sent(proto::TableId from, std::function<void()> then) = 0;
    // Seats, status or spectator count changed (the lobby hears of it); the host also
    // removes the table later if nobody is left.
    virtual void table_changed(Table& t) = 0;
};

struct TableContext {
    boost::asio::io_context& io;
    const ServerConfig& config;
    TableHost& host;
    AiPool* ai = nullptr;  // null: no AI seats on this server
    const std::vector<TableObserver*>* observers = nullptr;
    EnginePool* engines = nullptr;  // null: no external engines on this server
    const book::Book* book = nullptr;  // the built-in AI's opening book (null: none)
};

// A table's rules: create_table.settings with the server's defaults filled in.
struct TableRules {
    std::string clock = "none";  // clock_spec() text; the game recorder attaches the clock
    Millis grace{60'000};        // a dropped player's seat is kept this long during a game
    proto::AbandonPolicy abandon = proto::AbandonPolicy::Claim;  // what follows the grace
    int hold_level = DEFAULT_HOLD_LEVEL;  // AI level holding an abandoned seat (policy ai)
    bool takebacks = true;                // request_takeback allowed
    bool rated = false;                   // a rated table (two registered players, a clock)
    bool hints = false;                   // request_hint allowed (always against the AI)
    // Spectators see the game this many plies late (tournament boards, set by the director;
    // 0: live), so none can relay the moves to a player. Takebacks are off with a delay.
    int spectator_delay = 0;

    proto::TableSettings settings() const;  // every field filled, for table info
};

struct Seat {
    enum class Kind { Empty, Human, Ai };
    Kind kind = Kind::Empty;
    SessionId session = 0;
    std::string name;
    std::string resume_token;  // reclaims the seat after a lost connection
    int ai_level = 0;
    std::string engine;  // AI seats: the external engine playing it ("" = the built-in AI)
    bool connected = true;
    int ai_last_score = 0;  // the AI's last search score, from its side
    std::unique_ptr<Timer> grace;  // runs while a human is disconnected
    Clock::time_point grace_until{};  // when that grace runs out
    // A disconnected human whose grace ran out while the game runs: the seat stays theirs
    // (hello.resume gives it back); hold_level > 0 while the built-in AI plays it.
    bool abandoned = false;
    int hold_level = 0;
    // A registered player's account (0: a guest) and rating, shown in the seat info; the
    // lobby sets them after the player sits down.
    std::int64_t account_id = 0;
    std::optional<int> rating;

    bool empty() const { return kind == Kind::Empty; }
    bool human() const { return kind == Kind::Human; }
    bool ai() const { return kind == Kind::Ai; }
    bool held_by_ai() const { return human() && !connected && hold_level > 0; }
    bool waiting_for_return() const { return human() && !connected; }
};

// The name of a table created without one. Clients localize it when TableInfo.default_name
// says the table still has it.
std::string default_table_name(std::string_view creator);

class Table : public std::enable_shared_from_this<Table> {
public:
    Table(TableContext ctx, proto::TableId id, std::string name, std::string creator, const Position& start,
          TableRules rules = {});
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    proto::TableId id() const { return id_; }
    const std::string& name() const { return name_; }
    const std::string& creator() const { return creator_; }  // the creator's name, for display
    // Who holds the creator's rights (request_ai as a spectator, new_game of an AI table):
    // identities such as "account:7" or "session:<resume token>", never the bare name, so a
    // guest who takes the creator's name after they left gets no rights.
    void add_creator_identity(std::string who) { creator_ids_.push_back(std::move(who)); }
    // The account (and rating) of the player seated with session `s` (see Seat::account_id).
    void set_seat_account(SessionId s, std::int64_t account_id, std::optional<int> rating);
    bool is_creator(const std::vector<std::string>& who) const;
    bool has_default_name() const { return name_ == default_table_name(creator_); }
    const Game& game() const { return game_; }
    const TableRules& rules() const { return rules_; }
    const Seat& seat(Color c) const { return seats_[c]; }
    std::size_t spectator_count() const { return spectators_.size(); }
    proto::TableStatus status() const;
    proto::TableInfo info() const;
    std::optional<proto::Role> role_of(SessionId s) const;
    // False once no connected human and no seat waiting for its player's return is left,
    // unless the table is kept (a tournament board until its game is decided).
    bool wanted() const;
    // The role an invitation offers by default: the empty seat (Red first), else spectator.
    proto::Role open_role() const;

    // ---- Membership (the lobby keeps each user's table in step) ----
    // `name` is the joiner's: a seat booked for someone else is refused.
    Verdict can_join(proto::Role as, std::string_view name = {}) const;
    // Sends the joiner a snapshot and tells the table. `token` reclaims a seat later.
    // `account_id` and `rating`: a registered player's (see Seat::account_id).
    void join(SessionId s, const std::string& name, const std::string& token, proto::Role as,
              std::int64_t account_id = 0, std::optional<int> rating = std::nullopt);
    // Leaving a seat while the game runs resigns it.
    void leave(SessionId s);
    // A lost connection: spectators go, a seated player in a running game keeps the seat
    // for the grace period (player_left at once, abandonment when it runs out).
    void disconnect(SessionId s, proto::LeaveReason reason);
    // A disconnected seat's owner is back (matched by resume token). Returns the role.
    std::optional<proto::Role> reattach(const std::string& token, SessionId s);
    void send_snapshot(SessionId s);

    // ---- Requests (each answers nothing itself: a Rejection becomes the sender's error) ----
    Verdict move(SessionId s, int ply, std::string_view text);
    // `engine` names one of the server's external engines ("" = the built-in AI).
    Verdict request_ai(SessionId s, const std::vector<std::string>& who, Color seat, int level,
                       const std::string& engine = {});
    Verdict resign(SessionId s);
    Verdict offer_draw(SessionId s);
    Verdict answer_draw(SessionId s, bool accept);
    Verdict request_takeback(SessionId s);
    Verdict answer_takeback(SessionId s, bool accept);
    // `who`: the sender's identities (session, account) checked against the creator's.
    // `as`: the colour the sender wants next (only against the AI or an empty seat).
    Verdict new_game(SessionId s, const std::vector<std::string>& who, std::optional<Color> as = std::nullopt);
    // The sender takes back its own open offer of that kind.
    Verdict withdraw_offer(SessionId s, proto::OfferKind offer);
    // The seated opponent of an abandoned seat (policy claim) takes the win.
    Verdict claim_win(SessionId s);
    // The best move for the sender, a seated player on their turn, searched on the AI pool
    // (table_hint.cpp): hint to them, hint_used to the table, when the position is unchanged.
    Verdict request_hint(SessionId s);
    // Text already cleaned and cut by the lobby.
    void chat(const std::string& from, const std::string& text);

    // ---- Arbiter (the lobby checks who may: a board's director, the operator) ----
    // Pauses, resumes, adds time, adjudicates or cancels the running game (PROTOCOL.md,
    // Arbiter). `by` is the arbiter's name shown to the table. An accepted action is told to
    // the observers (the game record), then sent to the table as arbiter_action, and to
    // `also_tell` (the arbiter, 0: nobody) when that session is not at the table.
    Verdict arbiter(const proto::ArbiterRequest& m, const std::string& by, SessionId also_tell = 0);
    bool paused() const { return paused_; }
    // After a restart: the restored game was paused by an arbiter; it stays so (clock stopped,
    // no AI turn) until an arbiter resumes it. Nothing is sent.
    void restore_pause();

    // ---- Tournament boards ----
    // Books the seats for the named entrants: nobody else may sit there, no AI may be asked
    // into them, takebacks and rematches are off; the board plays one game.
    void book(std::string red, std::string black);
    const std::string& booked(Color c) const { return booked_[c]; }
    bool tournament_board() const { return !booked_[RED].empty() || !booked_[BLACK].empty(); }
    // A kept table stays even with nobody at it (an AI-versus-AI board, a board waiting for
    // its players); the tournament releases it once the game is decided.
    void set_kept(bool kept) { kept_ = kept; }
    // The board's result is in (a game, or a forfeit without one): no longer kept, and its
    // seats take nobody any more.
    void retire_board() {
        kept_ = false;
        retired_ = true;
    }
    // Seats the built-in AI at `level` (a tournament's AI entrant), no permission asked.
    void seat_ai(Color c, int level);

    // ---- For layers on top (clock, admin) ----
    void set_clock(std::unique_ptr<TableClock> clock) { clock_ = std::move(clock); }
    TableClock* clock() const { return clock_.get(); }
    // Ends a running game for a reason the board does not decide (timeout, admin).
    void finish_external(Outcome outcome, EndReason reason, std::string text);
    // Cancels searches and timers; the table is being removed.
    void close();
    // A restarted server's unfinished game: replays `moves`, seats from `seats[RED/BLACK]`
    // (humans disconnected with a fresh grace period).
    bool restore_game(const std::vector<Move>& moves, const RestoredSeat* seats);

    bool ai_thinking() const { return ai_busy_; }

private:
    void broadcast(const Buffer& b) const;
    void broadcast(const proto::ServerMessage& m) const { broadcast(make_buffer(m)); }
    template <class M>
    void broadcast(const M& m) const {
        broadcast(make_buffer(m));
    }
    // The seated players only, and the spectators only (the broadcast delay sends them
    // different lines).
    void send_players(const Buffer& b) const;
    void send_spectators(const Buffer& b) const;
    // Delayed tables: sends the spectators the move_made lines they are now due (all of
    // them once the game is over).
    void release_to_spectators();
    void send_to(SessionId s, const proto::ServerMessage& m) const;
    template <class M>
    void send_to(SessionId s, const M& m) const {
        send_buffer(s, make_buffer(m));
    }
    void send_buffer(SessionId s, const Buffer& b) const;
    std::optional<Color> seat_of(SessionId s) const;
    Verdict referee(std::optional<Color> mover, int ply, std::string_view text);
    void apply_move(Color c, Move m);
    void finish(Outcome outcome, EndReason reason, std::string text);
    void game_ended();
    bool maybe_start_game();  // true when the game started (the table was told)
    // The seats swap colours unless `swap` is false.
    void start_new_game(bool swap = true);
    void do_takeback(Color requester);
    void position_changed();
    void free_seat(Color c);
    void seats_changed();
    void announce_ai(Color c);
    void place_ai(Color c, int level, const std::string& engine);
    // The time budget of `side`'s AI seat from the table's clock; none without a clock.
    std::optional<engine::TimeBudget> ai_budget(Color side) const;
    // The one seat countdown (disconnect and restore): a disconnected human's seat is kept
    // for `grace`; then the seat is abandoned (abandon_seat). Grace 0: abandoned at once
    // (on the next turn of the I/O loop, like any timer).
    void start_grace(Color c, Millis grace);
    void abandon_seat(Color c);

    void maybe_start_ai();
    void cancel_ai();
    // Hints searching are stopped; their answers would be stale (a move, a takeback, a new game).
    void drop_hints();
    void hint_done(std::uint64_t epoch, Color side, SessionId s, int ply, const engine::Result& r);
    // From a worker thread: broadcasts `msg` on the I/O thread while search `epoch` is current.
    static void post_progress(const std::weak_ptr<Table>& weak, boost::asio::io_context& io, std::uint64_t epoch,
                              const proto::AiProgress& msg);
    void ai_done(std::uint64_t epoch, Color side, int ply, const engine::Result& r);
    void ai_play(std::uint64_t epoch, Color side, int ply, Move m);
    void start_engine(std::uint64_t epoch, Color side);
    void engine_done(std::uint64_t epoch, Color side, int ply, const EngineReply& r, int score);
    // An external engine failed its seat: its side loses (game_over engine_failure).
    void engine_failed(Color side, const std::string& what);

    template <class F>
    void notify(F&& f) const {
        if (ctx_.observers)
            for (TableObserver* o : *ctx_.observers) f(*o);
    }

    TableContext ctx_;
    proto::TableId id_;
    std::string name_;
    std::string creator_;
    std::vector<std::string> creator_ids_;
    TableRules rules_;
    Position start_;
    Game game_;
    bool started_ = false;
    bool paused_ = false;  // an arbiter paused the game: no moves, no AI turn, no clock
    Seat seats_[COLOR_NB];
    std::string booked_[COLOR_NB];  // tournament boards: the entrant each seat belongs to
    bool kept_ = false;
    bool retired_ = false;
    struct Spectator {
        SessionId session;
        std::string name;
    };
    std::vector<Spectator> spectators_;
    std::deque<proto::ChatLine> chat_;
    std::optional<Color> draw_offer_;
    std::optional<Color> takeback_offer_;
    std::optional<Color> new_game_offer_;
    std::unique_ptr<TableClock> clock_;
    // The side to move's time starts once the line that tells the players it is their turn
    // has left (a move_made held for its commit): hold_turn_until_sent() holds the clock, and
    // the release of its latest hold (this serial) starts it.
    void hold_turn_until_sent();
    std::uint64_t turn_hold_ = 0;
    // With a spectator delay: every move_made of the game, and how many the spectators have.
    std::vector<proto::MoveMade> made_;
    std::size_t shown_plies_ = 0;

    // AI: one search at a time per table; the epoch invalidates stale results.
    bool ai_busy_ = false;
    std::uint64_t ai_epoch_ = 0;
    std::shared_ptr<std::atomic<bool>> ai_stop_;
    Clock::time_point position_since_ = Clock::now();
    Timer ai_timer_;

    // Hints: at most one searching per side; the epoch drops answers to an older position.
    bool hint_busy_[COLOR_NB] = {false, false};
    std::uint64_t hint_epoch_ = 0;
    std::shared_ptr<std::atomic<bool>> hint_stop_;
};

}  // namespace xq::server
