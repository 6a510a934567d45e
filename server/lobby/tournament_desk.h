// The tournament desk: club tournaments over the wire. It takes entries, pairs each round
// (server/tournament/), opens the round's tables with the tournament's settings, seats the
// entrants (AI entrants at their level), decides no-shows by forfeit, records every result
// from the tables, and keeps the standings; every change goes out as one `tournament` line.
// Requests in tournament_desk.cpp, rounds in tournament_desk_rounds.cpp, the restart in
// tournament_desk_restore.cpp; one tournament's state is a TournamentEvent.
#pragma once

#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "server/lobby/tournament_store.h"
#include "server/table/table.h"
#include "server/tournament/pairing.h"

namespace xq::server {

class Lobby;
struct TournamentEvent;

class TournamentDesk final : public TableObserver {
public:
    explicit TournamentDesk(Lobby& lobby);
    ~TournamentDesk() override;
    TournamentDesk(const TournamentDesk&) = delete;
    TournamentDesk& operator=(const TournamentDesk&) = delete;

    // The requests, from the user named `who`; a Rejection is that user's error.
    Verdict create(const std::string& who, const proto::CreateTournament& m);
    // `registered`: the entrant plays under an account (a rated tournament admits no guests).
    Verdict join(const std::string& who, bool registered, std::uint32_t id);
    Verdict leave(const std::string& who, std::uint32_t id);
    Verdict start(const std::string& who, std::uint32_t id);
    proto::Tournaments list() const;
    const proto::Tournament* find(std::uint32_t id) const;

    // `name` is free to play (logged in, back in the lobby): seats them on a board of theirs
    // that still waits for them.
    void user_free(const std::string& name);
    // `name` directs the tournament that table `table` is an undecided board of.
    bool directs(proto::TableId table, const std::string& name) const;
    // The entrant or director `name` takes part in a tournament that is not finished.
    bool involved(const std::string& name) const;
    void shutdown();

    // Every change of a tournament is saved there (null: kept in memory only).
    void set_store(TournamentStore* store) { store_ = store; }
    // After the tables' games came back (GameRecorder::restore): brings back the saved
    // tournaments; a running round's boards whose game came back are boards again, the others
    // are opened afresh, and absent players get the whole forfeit time from now. Returns how
    // many came back.
    int restore();

    // TableObserver: the results of the boards.
    void game_over(const Table& t, const proto::GameOver& go) override;

private:
    TournamentEvent* event(std::uint32_t id) const;
    void start_round(TournamentEvent& e);
    void open_board(TournamentEvent& e, std::size_t index);
    void seat_entrants(TournamentEvent& e, std::size_t index);
    void forfeits(std::uint32_t id, int round);
    // Records the result of board `index` of the current round; next round when all are in.
    void decide(TournamentEvent& e, std::size_t index, proto::BoardResult result, std::string reason);
    void round_check(TournamentEvent& e);
    void refresh(TournamentEvent& e);  // standings, then the `tournament` line to everyone concerned
    void publish(const TournamentEvent& e);
    void arm_forfeits(TournamentEvent& e);
    void resume_round(TournamentEvent& e);  // after a restart

    Lobby& lobby_;
    std::map<std::uint32_t, std::unique_ptr<TournamentEvent>> events_;
    std::map<proto::TableId, std::uint32_t> boards_;  // open tournament boards -> event
    std::uint32_t next_id_ = 1;
    bool stopping_ = false;
    TournamentStore* store_ = nullptr;
};

}  // namespace xq::server
