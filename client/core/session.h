// The client side of the protocol: turns server lines into ClientState changes plus cues
// for the screens (sounds, animations, notices), and user intents into protocol lines.
// No sockets and no SFML: the network thread and the window live elsewhere.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/client_state.h"
#include "core/strings.h"
#include "protocol/codec.h"

namespace xq::client {

struct Cue {
    enum class Kind {
        Welcome,      // handshake done
        TableJoined,  // a snapshot put us at a table (or refreshed it)
        TableLeft,
        MovePlayed,   // move, piece, captured, check
        TakenBack,
        GameOver,     // text
        Offer,        // an offer from the opponent waits for an answer
        Invitation,
        Notice,       // text: a one-line message for the player
        Error,        // code, text, request: the server refused a request; without a
                      // code, `str` with `text` says what went wrong locally
        Resync,       // the local board differed; a sync was requested
        ArchiveGame,  // a get_game answer passed the checks: state().archive.opened
    };
    Kind kind = Kind::Notice;
    Move move;
    Piece piece = NO_PIECE;
    Piece captured = NO_PIECE;
    bool check = false;
    Str str = Str::Ok;  // Notice: the text to show, with `text` as its argument
    std::string text;
    std::string request;
    std::string arg2;  // Notice: a second argument for `str`
    std::string code;  // Error from the server: the protocol's error code ("seat_taken")
    std::string detail;  // Error: the server's detail code (bad_settings, bad_fen), or ""
};

class Session {
public:
    explicit Session(ClientState& state) : state_(state) {}

    // Outgoing lines (each ends with a newline), queued by the calls below.
    std::vector<std::string> take_outbox();

    void hello(const std::string& name, const std::string& resume = {}, const std::string& password = {});
    void list_tables();
    void list_users();
    // The next page of the lobby's tables / users (state().lobby.tables_next < tables_total):
    // added to the lists, each table or user once.
    void more_tables();
    void more_users();
    // Without rules the server's defaults apply; with them every setting is sent.
    // `fen`: a start position other than the standard one (an endgame challenge).
    void create_table(const std::string& name, proto::Role as, const TableRules* rules = nullptr,
                      const std::string& fen = {});
    void join(int table, proto::Role as);
    void leave();
    void move(Move m);
    void chat_lobby(const std::string& text);
    void chat_table(const std::string& text);
    // engine: one of welcome.engines, or "" for the built-in AI.
    void request_ai(Color seat, int level, const std::string& engine = {});
    // The opponent's seat is abandoned: take the win, or close the question and wait.
    void claim_win();
    void keep_waiting();
    void resign();
    void offer_draw();
    void answer_draw(bool accept);
    void request_takeback();
    void request_hint();  // TableState::hint_pending until hint (or an error) comes
    void answer_takeback(bool accept);
    // `as`: the colour to play next (against the AI or an empty seat only).
    void new_game(std::optional<Color> as = std::nullopt);
    // Takes back our open offer (state().table.outgoing_offer).
    void withdraw_offer();
    void invite(const std::string& name);
    // Answers the newest invitation (state().lobby.invitations.back()).
    void answer_invite(bool accept);
    void sync();
    // Asks for a snapshot and, when it comes, measures how far the clocks we show are from
    // the server's figures in it (clock_drift: the larger of both sides, in ms).
    void probe_clocks();
    struct ClockDrift {
        std::int64_t shown[2]{-1, -1}, server[2]{-1, -1};
        std::int64_t worst = 0;
        // From the sync sent to its snapshot's arrival: the server's figures are older than
        // their arrival by up to this (a measurement under load can be disturbed by it).
        std::int64_t round_trip_ms = 0;
    };
    const std::optional<ClockDrift>& clock_drift() const { return clock_drift_; }
    // The server's game archive: the newest games (of `player`, or everyone's), then older
    // pages while state().archive.more; get_game fetches one for review.
    void list_games(const std::string& player = {});
    void list_older_games();
    void get_game(std::int64_t id);
    // Whole-game analysis of an archived game on the server (state().analysis).
    void analyse_game(std::int64_t id);
    // The same for a game the server does not keep (a PGN file, a table's game).
    void analyse_moves(const Position& start, const std::vector<Move>& moves);
    void cancel_analysis();
    // The opening explorer at `pos` (state().explorer): asked once per position; an answer
    // seen before comes from the session's cache without a request.
    void explore(const Position& pos);
    // Tournaments (state().tournaments): the list, one whole, an entry and its withdrawal, a
    // new one (you direct it), the director's start.
    void list_tournaments();
    void get_tournament(std::uint32_t id);
    void join_tournament(std::uint32_t id);
    void leave_tournament(std::uint32_t id);
    // `forfeit_seconds`: a player absent this long after the pairing loses (1-3600);
    // `spectator_delay`: plies the spectators see the boards late (0: live).
    void create_tournament(const std::string& name, proto::TournamentFormat format, int rounds,
                           const std::vector<int>& ai_levels, int forfeit_seconds = proto::DEFAULT_FORFEIT_SECONDS,
                           int spectator_delay = 0);
    void start_tournament(std::uint32_t id);
    // Fetches the tournament's whole PGN page by page (state().tournaments.pgn).
    void get_tournament_pgn(std::uint32_t id, proto::PgnNotation notation);
    // The arbiter's pause or resume of a table's game (a director's at a tournament board).
    void arbiter(int table, proto::ArbiterKind action);
    // Any arbiter action as filled in (add_time's side and seconds, adjudicate's result...).
    void arbiter(const proto::ArbiterRequest& r);

    // Handles one line from the server, which arrived at `arrived` (the clocks it carries
    // run from then). Malformed lines become an Error cue, never a throw.
    void handle_line(std::string_view line, std::chrono::steady_clock::time_point arrived = std::chrono::steady_clock::now());
    void handle(const proto::ServerMessage& msg, std::chrono::steady_clock::time_point arrived = std::chrono::steady_clock::now());
    std::vector<Cue> take_cues();

    // How many messages of each type arrived (scripts wait on these).
    int received(std::string_view type) const;
    const std::map<std::string, int, std::less<>>& received_counts() const { return received_; }
    const ClientState& state() const { return state_; }

private:
    // Our offer now waits for the opponent's answer.
    void set_outgoing(Offer::Kind k);
    template <class M>
    void send(const M& m);
    void on(const proto::Welcome& m);
    void on(const proto::Pong&) {}
    void on(const proto::Error& m);
    void on(const proto::Tables& m);
    void on(const proto::Users& m);
    void on(const proto::UserJoined& m);
    void on(const proto::UserLeft& m);
    void on(const proto::TableUpdate& m);
    void on(const proto::TableRemoved& m);
    void on(const proto::TableSnapshot& m);
    void on(const proto::SnapshotMoves& m);
    void on(const proto::PlayerJoined& m);
    void on(const proto::PlayerLeft& m);
    void on(const proto::PlayerReturned& m);
    void on(const proto::MoveMade& m);
    void on(const proto::GameOver& m);
    void on(const proto::ChatLine& m);
    void on(const proto::AiProgress& m);
    void on(const proto::DrawOffered& m);
    void on(const proto::DrawAnswered& m);
    void on(const proto::TakebackRequested& m);
    void on(const proto::TakebackAnswered& m);
    void on(const proto::TakebackDone& m);
    void on(const proto::NewGameOffered& m);
    // Invitations (session_invites.cpp): ours refused, theirs retired by what the lobby's
    // messages tell of their table (seen: an info of it just received; whole: a list of
    // every table / user just received) or their inviter.
    void on(const proto::InviteReceived& m);
    void on(const proto::InviteAnswered& m);
    void invite_refused(const proto::Error& m);
    void invitations_seen_table(const TableSummary& t);
    void invitations_table_gone(int table);
    void invitations_user_gone(const std::string& name);
    void invitations_whole_tables();
    void invitations_whole_users();
    void on(const proto::LeftTable& m);
    // Archive answers (list_games / get_game).
    void on(const proto::Games& m);
    void on(const proto::GameRecord& m);
    // The server checks an idle connection is alive: answer at once.
    void on(const proto::Ping& m);
    void on(const proto::SeatAbandoned& m);
    void on(const proto::Notice& m);
    void on(const proto::Registered&) {}
    void on(const proto::PasswordChanged&) {}
    void on(const proto::AnalysisProgress& m);
    void on(const proto::Analysis& m);
    // Tournaments (state().tournaments).
    void on(const proto::Tournament& m);
    void on(const proto::Tournaments& m);
    void on(const proto::TournamentPgn& m);
    void on(const proto::Explorer& m);
    void explorer_refused(const proto::Error& m);
    void on(const proto::OfferWithdrawn& m);
    void on(const proto::ArbiterAction& m);
    void on(const proto::Hint& m);      // session_seats.cpp
    void on(const proto::HintUsed& m);

    void apply_table_info(const proto::TableInfo& info);
    // Opens the claim question when the opponent's seat is abandoned under the claim rule.
    void update_claim();
    void apply_clocks(const proto::Clocks& c);
    void finish_snapshot();
    void rebuild_move_texts();
    void notice(Str id, std::string arg, std::string arg2 = {});
    void cue(Cue::Kind k) {
        Cue c;
        c.kind = k;
        cues_.push_back(std::move(c));
    }
    bool for_my_table(proto::TableId id) const { return state_.table.joined() && int(id) == state_.table.id; }
    std::optional<Color> my_color() const { return state_.table.board.seat(); }

    ClientState& state_;
    std::vector<std::string> outbox_;
    std::vector<Cue> cues_;
    std::map<std::string, int, std::less<>> received_;
    bool tables_more_ = false;
    bool users_more_ = false;
    int tables_from_ = 0, users_from_ = 0;  // where the page being received began
    std::string last_invited_;              // the player of our last invite
    bool archive_paging_ = false;  // the awaited `games` appends to the list
    // A snapshot whose moves arrive over several lines.
    bool snapshot_pending_ = false;
    bool clock_probe_ = false;
    std::chrono::steady_clock::time_point probe_sent_{};
    std::optional<ClockDrift> clock_drift_;
    std::chrono::steady_clock::time_point arrived_{};  // when the message being handled arrived
    std::string snapshot_start_fen_;
    std::string snapshot_fen_;
    int snapshot_ply_ = 0;
    std::vector<std::string> snapshot_moves_;
    // Explorer answers by position (session_explorer.cpp), at most EXPLORER_CACHE of them.
    std::map<std::string, ExplorerState> explorer_cache_;
};

// The protocol's table settings as the client keeps them (absent fields: the defaults).
TableRules rules_from(const proto::TableSettings& s);
proto::TableSettings settings_from(const TableRules& r);

// Checks an archived game (FEN, every move legal in turn) and makes it ready for review.
// On failure returns nullopt and says why in `error` (English detail).
std::optional<ArchivedGame> archived_game_from(const proto::GameRecord& r, std::string& error);

// A short, human-readable text for a role or colour, in English wire terms.
std::string_view color_word(Color c);

// The seat a role sits in (none for a spectator).
std::optional<Color> color_of_role(proto::Role r);

}  // namespace xq::client
