// The lobby: every session (handshake, names, flood control), the table list, lobby chat,
// invitations, and the dispatch of each decoded request to its table. Owns all game state
// and runs on the one I/O thread; it sees no sockets, only lines in and buffers out, so
// tests drive it directly.
#pragma once

#include <boost/asio/io_context.hpp>

#include <functional>

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "protocol/codec.h"
#include "protocol/pages.h"
#include "server/admin/password_guard.h"
#include "server/config/server_config.h"
#include "server/identity/account_service.h"
#include "server/identity/name_policy.h"
#include "server/lobby/game_archive.h"
#include "server/lobby/rate_limit.h"
#include "server/lobby/tournament_desk.h"
#include "server/table/table.h"

namespace xq::book {
struct PositionEval;
}

namespace xq::server {

class BanList;
class AccountService;
class EnginePool;
struct RestoredSeat;

// Where the lobby's output goes: sockets in the server, recorders in tests.
class Outbox {
public:
    virtual ~Outbox() = default;
    virtual void send(SessionId to, const Buffer& line) = 0;
    // A line from table `table` (TableHost::send): the server holds it until the table's
    // writes queued before it are committed; without a database it is a plain send.
    virtual void send_about(proto::TableId table, SessionId to, const Buffer& line) {
        (void)table;
        send(to, line);
    }
    // Runs `then` once every line sent so far about `table` has left (at once without holds).
    virtual void after_sent_about(proto::TableId table, std::function<void()> then) {
        (void)table;
        then();
    }
    // Closes the connection once what was queued for it is written. The lobby later
    // receives on_disconnect for it (which may also come first, from the peer).
    virtual void close(SessionId to) = 0;
};

// Caps on AI-versus-AI tables (they search without end and share the AI workers with every
// other table): at once on the server, and per table creator.
struct AiTableCaps {
    int total = 8;
    int per_user = 2;
};

class Lobby final : public TableHost {
public:
    Lobby(boost::asio::io_context& io, const ServerConfig& config, Outbox& out, AiPool* ai = nullptr);
    ~Lobby() override;
    Lobby(const Lobby&) = delete;
    Lobby& operator=(const Lobby&) = delete;

    // A new connection from `address` (its IP text; "" if unknown). False (after an error
    // line and a close) when the server is full.
    bool on_connect(SessionId s, const std::string& address = {});
    void on_line(SessionId s, std::string_view line);
    void on_oversized(SessionId s);  // a line over the cap was skipped
    void on_disconnect(SessionId s, proto::LeaveReason reason);
    // The hello deadline passed: a session that has not said hello is closed.
    void hello_timeout(SessionId s);
    // Nothing heard from the connection for config.idle_timeout: error idle_timeout, close.
    void idle_timeout(SessionId s);
    // Tells everyone the server is stopping, closes every connection, stops AI searches.
    void shutdown();

    void add_observer(TableObserver* o) { observers_.push_back(o); }
    // Nicks refused at hello (the operator console's bans); null: none.
    void set_ban_list(const BanList* bans) { bans_ = bans; }
    // External engines for AI seats (request_ai.engine, welcome.engines); null: none.
    void set_engines(EnginePool* engines);
    void set_ai_table_caps(AiTableCaps caps) { ai_caps_ = caps; }
    // The built-in AI's opening book for tables created from now on (null: none).
    void set_book(const book::Book* book) { book_ = book; }
    // The archive's finished games as the opening explorer shows them (null: none; the
    // explorer then shows the book alone).
    void set_explorer_games(const book::Book* games) { explorer_games_ = games; }
    // Answers list_games / get_game; null: the server keeps no archive.
    void set_archive(GameArchive* archive) { archive_ = archive; }
    // Tournaments kept across a restart; restore_tournaments() after the games came back.
    void set_tournament_store(TournamentStore* store) { desk_.set_store(store); }
    int restore_tournaments() { return desk_.restore(); }
    // The clock of tables whose create_table.settings names none (the server's --clock,
    // clock_spec() text); "none" until the server runtime sets it.
    void set_default_clock(std::string spec) { default_clock_ = std::move(spec); }
    // create_table.settings with the server's defaults filled in, or why they are refused.
    std::variant<TableRules, Rejection> resolve_settings(const proto::TableSettings& s) const;
    // For the game recorder: rebuilds an unfinished game after a restart (seats held for
    // their tokens). For the operator console: its view of sessions, kick, notice.
    Table* restore_table(proto::TableId id, const std::string& name, const std::string& creator,
                         const Position& start, const std::vector<Move>& moves, const RestoredSeat* seats,
                         const TableRules& rules);
    // Registered accounts (ignored when config.accounts is Off): the directory of names is
    // loaded once here, passwords are checked on the service's worker thread.
    void set_accounts(std::shared_ptr<AccountService> accounts);
    bool accounts_on() const { return accounts_ != nullptr; }
    // The operator console's account commands; `done` gets the console's answer later, on
    // the I/O thread (hashing runs on the accounts worker).
    enum class AccountCommand { List, Add, Reset, Delete, Ban, Unban, History };
    void admin_account(AccountCommand c, const std::string& name, std::function<void(std::string)> done);
    std::vector<proto::UserInfo> admin_users() const;
    // Closes the named user's connection with not_allowed (a kick) or banned (a ban).
    bool admin_kick(const std::string& name, bool banned = false);
    void admin_notice(const std::string& text);
    // The operator console as the arbiter of any table (PROTOCOL.md, Arbiter): empty when
    // done, else why not.
    Verdict admin_arbiter(const proto::ArbiterRequest& m);

    std::size_t user_count() const { return users_.size(); }
    std::size_t table_count() const { return tables_.size(); }
    Table* table(proto::TableId id);
    std::vector<proto::TableId> table_ids() const;

    // TableHost
    void send(proto::TableId from, SessionId to, const Buffer& line) override { out_.send_about(from, to, line); }
    void after_sent(proto::TableId from, std::function<void()> then) override {
        out_.after_sent_about(from, std::move(then));
    }
    void table_changed(Table& t) override;

private:
    friend class TournamentDesk;  // opens boards, seats entrants, sends the tournament lines

    struct PendingInvite {
        proto::TableId table;
        std::string from;
        proto::Role as;
    };
    struct User {
        SessionId id = 0;
        bool greeted = false;  // hello accepted
        bool closing = false;  // close requested; further lines are ignored
        bool dropped = false;  // the server cut it (flood): its table hears `dropped`
        std::string name;
        NameKey key;          // confusable key of `name` (uniqueness, bans, invitations)
        std::string address;  // remote IP (wrong-password limit)
        std::string session;
        std::string token;
        proto::TableId table = 0;
        WindowLimiter chat;
        TokenBucket flood;
        int refused_in_row = 0;
        std::vector<PendingInvite> invites;
        // Accounts: the one this session logged in to (0: a guest), a hello waiting for its
        // password check (lines meanwhile are held in `queued`), the account whose password
        // that check accepted, and a register/change_password on the worker.
        std::int64_t account_id = 0;
        bool login_pending = false;
        std::vector<std::string> queued;
        std::int64_t verified_account = 0;
        bool account_job = false;
        // Who this is for rights that outlive a connection (a table's creator): the
        // session's resume token (a resume carries it on) and the account, if any.
        std::vector<std::string> identities() const {
            std::vector<std::string> ids{"session:" + token};
            if (account_id != 0) ids.push_back("account:" + std::to_string(account_id));
            return ids;
        }
        User(SessionId i, const ServerConfig& c)
            : id(i), chat(c.chat_burst, c.chat_window), flood(c.msg_rate_per_s, c.msg_burst) {}
    };

    // What the lobby knows of each registered account (the store on the worker is the truth;
    // this copy follows every change made through the lobby).
    struct AccountEntry {
        std::int64_t id = 0;
        std::string name;
        NameKey key;
        bool banned = false;
        double rating = 0, rd = 0, volatility = 0;
        int rated_games = 0;
    };
    // An account's rating as shown: rounded to a whole number within 0..MAX_RATING.
    static int rounded_rating(const AccountEntry& a);
    // The rating shown for a session (nullopt for a guest).
    std::optional<int> shown_rating(const User& u);
    // Glicko-2 after a rated game: both players' new ratings, kept and shown.
    void rate_game(const Table& t, const proto::GameOver& g);
    // Follows every table's results for rate_game.
    class RatingObserver final : public TableObserver {
    public:
        explicit RatingObserver(Lobby& l) : lobby_(l) {}
        void game_over(const Table& t, const proto::GameOver& g) override { lobby_.rate_game(t, g); }

    private:
        Lobby& lobby_;
    };
    AccountEntry* account_named(const NameKey& key);
    AccountEntry* account_by_id(std::int64_t id);
    void set_account_entry(const Account& a);
    // Runs `job` on the accounts worker; its result `f` then runs on the I/O thread if the
    // lobby is still there. False when the worker's queue is full.
    template <class Job, class Then>
    bool on_accounts(Job job, Then then);
    // A session's register or change_password: one at a time (refused while its last one
    // runs, or when the worker's queue is full), `job` on the worker, then `then(user,
    // result)` on the I/O thread, with a null user when the session left or is closing.
    template <class Job, class Then>
    void session_account_job(User& u, std::string_view request, Job job, Then then);
    // A hello for a registered name: the password goes to the worker, the hello waits.
    void start_login(User& u, const proto::Hello& m, const AccountEntry& a);
    void finish_login(SessionId s, const proto::Hello& m, std::int64_t account_id, int result);
    User* find(SessionId s);
    User* find_by_name(std::string_view name);
    // Every change of a user's table goes through here: it keeps in_lobby_ and user_places_
    // true (lobby_lists.cpp).
    void set_table(User& u, proto::TableId table);
    void send_msg(User& u, const proto::ServerMessage& m);
    // One message of a known type: encoded without building the variant (table.h's make_buffer).
    template <class M>
    void send_msg(User& u, const M& m) {
        send_buffer(u, make_buffer(m));
    }
    void send_buffer(User& u, const Buffer& b);
    void refuse(User& u, proto::ErrorCode code, std::string message, std::string_view request,
                proto::TableId table = 0, std::string detail = {});
    void refuse_and_close(User& u, proto::ErrorCode code, std::string message, std::string_view request);
    void broadcast_lobby(const proto::ServerMessage& m, SessionId except = 0);
    template <class M>
    void broadcast_lobby(const M& m, SessionId except = 0) {
        broadcast_lobby_buffer(make_buffer(m), except);
    }
    // Sends b to everyone in the lobby but `except`.
    void broadcast_lobby_buffer(const Buffer& b, SessionId except = 0);
    // One page of the lobby's lists (lobby_lists.cpp; PROTOCOL.md, Lobby and tables): the
    // tables waiting for a player first, then the others, each by id; the users in the lobby
    // first, then those at tables, each by name. The first page is what every login gets.
    void send_tables(User& u, int offset = 0, int limit = int(proto::TABLES_PER_PAGE));
    void send_users(User& u, int offset = 0, int limit = int(proto::USERS_PER_PAGE));
    // A greeted user's place in the users list: at a table or not, name, session.
    using UserPlace = std::tuple<bool, std::string, SessionId>;
    static UserPlace place_of(const User& u) { return {u.table != 0, u.name, u.id}; }
    std::string random_hex(int bytes);
    void schedule_check(proto::TableId id);
    // The disconnected seat a resume token still holds at a table, if any.
    const Seat* held_seat(const std::string& token, proto::TableId id);
    void remove_table_if_unwanted(proto::TableId id);
    // A new table in tables_ and table_index_ (remove_table_if_unwanted takes it out of both).
    void add_table(const std::shared_ptr<Table>& t);
    // The user's table when it is `id`; otherwise refuses the request and returns null.
    Table* at_table(User& u, proto::TableId id, std::string_view request);
    bool join_table(User& u, proto::TableId id, proto::Role as, std::string_view request);
    void report(User& u, const Verdict& v, std::string_view request, proto::TableId table);
    // For the tournament desk: a table nobody joins by creating it (a tournament board), a
    // user moved to a board's seat (from the lobby, or from a table where they play no
    // running game; false when they cannot come now), and a decided board's players sent
    // back to the lobby.
    Table* open_board_table(const std::string& name, const std::string& creator, const TableRules& rules);
    bool seat_user(User& u, Table& t, Color c);
    void clear_board(Table& t);
    // Leaves the user's table as `leave` does (left; the caller sends what follows).
    void leave_current(User& u);

    void handle(User& u, const proto::Hello& m);
    // False (after bad_password and a close) when the server has a password and hello lacks it.
    bool check_password(User& u, const proto::Hello& m);
    void handle(User& u, const proto::Ping& m);
    void handle(User& u, const proto::ListTables& m);
    void handle(User& u, const proto::ListUsers& m);
    void handle(User& u, const proto::CreateTable& m);
    void handle(User& u, const proto::Join& m);
    void handle(User& u, const proto::Leave& m);
    void handle(User& u, const proto::Sync& m);
    void handle(User& u, const proto::MoveRequest& m);
    void handle(User& u, const proto::ChatSend& m);
    void handle(User& u, const proto::RequestAi& m);
    void handle(User& u, const proto::Resign& m);
    void handle(User& u, const proto::OfferDraw& m);
    void handle(User& u, const proto::AnswerDraw& m);
    void handle(User& u, const proto::RequestTakeback& m);
    void handle(User& u, const proto::AnswerTakeback& m);
    void handle(User& u, const proto::NewGame& m);
    void handle(User& u, const proto::Invite& m);
    void handle(User& u, const proto::AnswerInvite& m);
    void handle(User& u, const proto::ListGames& m);
    void handle(User& u, const proto::GetGame& m);
    void handle(User& u, const proto::AnalyseGame& m);     // lobby_analysis.cpp
    void handle(User& u, const proto::CancelAnalysis& m);
    void handle(User& u, const proto::GetExplorer& m);     // lobby_explorer.cpp
    void handle(User& u, const proto::RequestHint& m);     // lobby_analysis.cpp
    void handle(User& u, const proto::Pong& m);
    void handle(User& u, const proto::ClaimWin& m);
    void handle(User& u, const proto::CreateTournament& m);
    void handle(User& u, const proto::JoinTournament& m);
    void handle(User& u, const proto::LeaveTournament& m);
    void handle(User& u, const proto::StartTournament& m);
    void handle(User& u, const proto::ListTournaments& m);
    void handle(User& u, const proto::GetTournament& m);
    void handle(User& u, const proto::GetTournamentPgn& m);
    void handle(User& u, const proto::WithdrawOffer& m);
    void handle(User& u, const proto::Register& m);
    void handle(User& u, const proto::ChangePassword& m);
    void handle(User& u, const proto::ArbiterRequest& m);

    boost::asio::io_context& io_;
    const ServerConfig& config_;
    Outbox& out_;
    AiPool* ai_;
    std::vector<TableObserver*> observers_;
    std::unordered_map<SessionId, std::unique_ptr<User>> users_;
    // Greeted users by their name's key forms (find_by_name without a walk over all users) and
    // the greeted users at no table (a lobby broadcast without one): each login used both.
    std::unordered_map<std::string, SessionId> by_folded_, by_shaped_;
    std::unordered_set<SessionId> in_lobby_;
    // Every greeted user in the users list's order (a page without sorting).
    std::set<UserPlace> user_places_;
    std::map<proto::TableId, std::shared_ptr<Table>> tables_;  // in id order: the lists walk it
    // The same tables by id for the look-up of every request (Lobby::table): a hash beside the
    // ordered map (docs/scale_commit.md: the map's look-up was 1.4% of a loaded server).
    std::unordered_map<proto::TableId, Table*> table_index_;
    // The encoded first pages of `tables` / `users` last sent (every login gets both).
    proto::TablePageLines table_lines_;
    proto::UserPageLines user_lines_;
    // Seats kept for disconnected players: resume token -> table.
    std::unordered_map<std::string, proto::TableId> held_seats_;
    proto::TableId next_table_id_ = 1;
    const BanList* bans_ = nullptr;
    PasswordGuard password_guard_;
    // Whole-game analyses (lobby_analysis.cpp): one per user, MAX_ANALYSES at once.
    struct AnalysisRun;
    void analysis_step(const std::shared_ptr<AnalysisRun>& run);
    void analysis_done(const std::shared_ptr<AnalysisRun>& run, const book::PositionEval& e);
    void cancel_analysis(SessionId s);
    std::unordered_map<SessionId, std::shared_ptr<AnalysisRun>> analyses_;
    std::shared_ptr<int> analyses_alive_ = std::make_shared<int>(0);  // its weak copies expire with the lobby
    GameArchive* archive_ = nullptr;
    EnginePool* engines_ = nullptr;
    AiTableCaps ai_caps_;
    const book::Book* book_ = nullptr;
    const book::Book* explorer_games_ = nullptr;
    std::string default_clock_ = "none";
    bool shutting_down_ = false;
    NamePolicy names_;
    std::shared_ptr<AccountService> accounts_;
    RatingObserver ratings_{*this};
    std::vector<AccountEntry> directory_;
    PasswordGuard login_guard_;
    // Answers from the accounts worker run only while this lives.
    std::shared_ptr<char> alive_ = std::make_shared<char>();
    // Last: it reaches into the members above (and goes first when the lobby does).
    TournamentDesk desk_{*this};
};

// Chat and table-name cleaning: control characters become spaces, the ends are trimmed,
// and the text is cut to `max` code points. Input must be valid UTF-8.
std::string clean_text(std::string_view text, std::size_t max_code_points);

}  // namespace xq::server
