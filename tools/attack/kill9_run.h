// The players of the kill9 scenario (kill9_scenario.cpp): bot pairs and one
// human-versus-AI table playing pipelined, each watched by a spectator. Every move_made any
// client received is an acknowledged move; KillRun drives the games, reconnects players with
// their resume tokens and reads the archive, so that the scenario can compare what was
// acknowledged with what the server holds after each kill -9.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "harness.h"
#include "xiangqi/game.h"

namespace xq::attack {

// One pair of players at one table plus a spectator; black may be an AI.
struct KillGame {
    std::string prefix;
    bool ai_black = false;
    bool broken = false;                     // a failure was counted; the game is left alone
    Client* red = nullptr;
    Client* black = nullptr;                 // nullptr when black is an AI
    Client* spec = nullptr;
    proto::TableId table = 0;
    Game game;                               // acknowledged moves of the current game
    std::vector<std::string> moves;          // the same in ICCS
    std::string pending;                     // sent, no move_made seen yet
    Clock::time_point pending_since{}, next_send{};
    std::map<int, std::string> seen;         // ply -> move, from any move_made of this table
    bool over = false;                       // game_over seen for this table
    int conflicts = 0;                       // two clients saw different moves for one ply
    std::string error;                       // an error line a client of this game received
    bool await_ai = false;                   // restarted: the AI has not moved again yet
    std::vector<std::vector<std::string>> finished;  // earlier games of this pair, as acknowledged
    std::mt19937 rng;
};

// The move of ICCS text `m` (from and to squares only), or Move() when it is not ICCS.
Move iccs_move(const std::string& m);

// Records a line one of g's clients read: moves by ply (counting conflicts), game_over, errors.
void watch_kill_game(KillGame& g, const Line& l);

class KillRun {
public:
    KillRun(Hub& hub, Target target) : hub_(hub), target_(std::move(target)) {}

    static constexpr std::size_t MAX_PLIES = 160;  // then the pair starts a new game
    static constexpr int SEND_GAP_MS = 25;         // per pair: each player stays near 20 lines/s
    Stats latency;
    int acked_moves = 0, ai_moves = 0, games_started = 0;

    void observe(KillGame& g, Client* c);

    Client* join(KillGame& g, const std::string& name, std::string* why);

    // A new table for the pair: red creates, black (or the AI) sits, the spectator watches.
    bool new_table(KillGame& g, std::string* why);

    // The pair's current game becomes `moves` (from a snapshot or the archive). With
    // `keep_later` (a restored game), what this table's clients read after that snapshot
    // stays: the AI plays on at once after a restart, so its move_made (and a game_over) may
    // arrive while the other checks of the round run, and is never sent again.
    static bool reset_game(KillGame& g, const std::vector<std::string>& moves, std::string* why,
                           bool keep_later = false);

    // Applies every move_made seen, in order; false on a contradiction.
    bool confirm(KillGame& g, std::string* why);

    // One pass of play for a pair: confirm what arrived, send the next move if none is in
    // flight (`now`: without the pause between moves); a finished game makes way for a new one.
    bool drive(KillGame& g, std::string* why, bool now = false);

    // Reconnects `old` with its resume token; `snap` gets the snapshot when the seat came back.
    Client* resume(KillGame& g, Client* old, bool* resumed, std::optional<proto::TableSnapshot>* snap,
                   std::string* why);

    // The games of the pair (red's name) in the archive, oldest first; only the newest when
    // newest_only.
    std::optional<std::vector<proto::GameRecord>> archive(const std::string& red_name, bool newest_only,
                                                          std::string* why);

private:
    Hub& hub_;
    Target target_;
    int auditors_ = 0;
};

// Moves beyond the acknowledged ones that the server may legitimately hold after a kill:
// the request that was in flight, and an AI reply to it. Returns how many (or -1).
int unacked_tail(const KillGame& g, const std::vector<std::string>& server_moves);

// Acknowledged moves missing from (or changed in) `server_moves`.
int missing(const std::vector<std::string>& acked, const std::vector<std::string>& server_moves);

}  // namespace xq::attack
