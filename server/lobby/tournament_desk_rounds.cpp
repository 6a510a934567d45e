// TournamentDesk, the rounds: each round paired (Berger schedule or Swiss), its boards opened
// with booked seats and the entrants seated, no-shows forfeited on a timer, results taken from
// the tables (TableObserver::game_over), and the next round once every board is decided.
#include "server/lobby/tournament_desk.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "protocol/utf8.h"
#include "server/lobby/lobby.h"
#include "server/lobby/tournament_event.h"

namespace xq::server {

namespace tn = tournament;
using proto::BoardResult;

void TournamentDesk::start_round(TournamentEvent& e) {
    proto::Tournament& v = e.view;
    if (v.round >= v.rounds) {
        v.state = proto::TournamentState::Finished;
        v.boards.clear();
        spdlog::info("tournament {} finished", v.id);
        refresh(e);
        return;
    }
    if (v.format == proto::TournamentFormat::RoundRobin) {
        e.pairings = e.schedule[static_cast<std::size_t>(v.round)];
    } else {
        std::vector<tn::EntrantId> active;
        for (int i = 0; i < static_cast<int>(v.entrants.size()); ++i)
            if (!e.withdrawn(i)) active.push_back(i);
        auto next = active.size() >= 2 ? tn::swiss_round(active, e.history) : std::nullopt;
        if (!next) {
            // Nobody left to pair without a repeat: the tournament ends here.
            v.rounds = v.round;
            v.state = proto::TournamentState::Finished;
            v.boards.clear();
            refresh(e);
            return;
        }
        e.pairings = *next;
    }
    // A withdrawn entrant's bye in a round-robin is no point for them: that board goes.
    std::erase_if(e.pairings, [&](const tn::Pairing& p) { return p.black == tn::BYE && e.withdrawn(p.red); });
    ++v.round;
    v.boards.clear();
    for (std::size_t k = 0; k < e.pairings.size(); ++k) {
        const tn::Pairing& p = e.pairings[k];
        v.boards.push_back(proto::TournamentBoard{static_cast<int>(k) + 1, 0, p.red, p.black, BoardResult::Pending, ""});
    }
    bool waiting = false;
    for (std::size_t k = 0; k < e.pairings.size(); ++k) {
        const tn::Pairing& p = e.pairings[k];
        if (p.black == tn::BYE) {
            decide(e, k, BoardResult::Bye, "bye");
        } else if (e.withdrawn(p.red) || e.withdrawn(p.black)) {
            const BoardResult r = e.withdrawn(p.red) && e.withdrawn(p.black) ? BoardResult::DoubleForfeit
                                  : e.withdrawn(p.red)                      ? BoardResult::RedForfeit
                                                                            : BoardResult::BlackForfeit;
            decide(e, k, r, "withdrawn");
        } else {
            open_board(e, k);
            waiting = waiting || !e.ai(p.red) || !e.ai(p.black);
        }
    }
    if (waiting) arm_forfeits(e);
    round_check(e);  // publishes the round, or goes on when every board is already decided
}

void TournamentDesk::arm_forfeits(TournamentEvent& e) {
    e.forfeit_timer = std::make_unique<boost::asio::steady_timer>(lobby_.io_, std::chrono::seconds(e.view.forfeit_seconds));
    const std::uint32_t id = e.view.id;
    const int round = e.view.round;
    e.forfeit_timer->async_wait([this, id, round](const boost::system::error_code& ec) {
        if (!ec) forfeits(id, round);
    });
}

void TournamentDesk::open_board(TournamentEvent& e, std::size_t k) {
    const tn::Pairing& p = e.pairings[k];
    proto::TournamentBoard& b = e.view.boards[k];
    const std::string name = proto::cut_code_points(e.view.name, 28) + " R" + std::to_string(e.view.round) + " B" +
                             std::to_string(k + 1);
    Table* t = lobby_.open_board_table(name, e.view.director, e.rules);
    if (!t) {
        // The server's table cap: nobody can play this board; it is not counted.
        decide(e, k, BoardResult::DoubleForfeit, "no table free");
        return;
    }
    b.table = t->id();
    boards_[t->id()] = e.view.id;
    t->book(e.name_of(p.red), e.name_of(p.black));
    t->set_kept(true);
    for (Color c : {RED, BLACK}) {
        const int who = c == RED ? p.red : p.black;
        if (e.ai(who)) t->seat_ai(c, e.view.entrants[static_cast<std::size_t>(who)].ai_level);
    }
    seat_entrants(e, k);
}

void TournamentDesk::seat_entrants(TournamentEvent& e, std::size_t k) {
    const proto::TournamentBoard& b = e.view.boards[k];
    Table* t = lobby_.table(b.table);
    if (!t || b.result != BoardResult::Pending) return;
    for (Color c : {RED, BLACK}) {
        const int who = c == RED ? b.red : b.black;
        if (e.ai(who) || !t->seat(c).empty()) continue;
        if (Lobby::User* u = lobby_.find_by_name(e.name_of(who)); u && u->name == e.name_of(who))
            lobby_.seat_user(*u, *t, c);
    }
}

void TournamentDesk::user_free(const std::string& name) {
    for (auto& [id, e] : events_) {
        if (e->view.state != proto::TournamentState::Running) continue;
        for (std::size_t k = 0; k < e->view.boards.size(); ++k) {
            const auto& b = e->view.boards[k];
            if (b.table != 0 && b.result == BoardResult::Pending &&
                (e->name_of(b.red) == name || (b.black >= 0 && e->name_of(b.black) == name)))
                seat_entrants(*e, k);
        }
    }
}

void TournamentDesk::forfeits(std::uint32_t id, int round) {
    TournamentEvent* e = event(id);
    if (!e || e->view.state != proto::TournamentState::Running || e->view.round != round) return;
    for (std::size_t k = 0; k < e->view.boards.size(); ++k) {
        const proto::TournamentBoard& b = e->view.boards[k];
        if (b.result != BoardResult::Pending || b.table == 0) continue;
        Table* t = lobby_.table(b.table);
        if (t && t->status() != proto::TableStatus::Waiting) continue;  // the game is under way
        const bool red_here = t && !t->seat(RED).empty();
        const bool black_here = t && !t->seat(BLACK).empty();
        const BoardResult r = !red_here && !black_here ? BoardResult::DoubleForfeit
                              : !red_here              ? BoardResult::RedForfeit
                                                       : BoardResult::BlackForfeit;
        spdlog::info("tournament {} round {} board {}: {}", id, round, k + 1, proto::board_result_name(r));
        decide(*e, k, r, "forfeit");
    }
    round_check(*e);
}

void TournamentDesk::game_over(const Table& t, const proto::GameOver& go) {
    const auto it = boards_.find(t.id());
    if (it == boards_.end()) return;
    const std::uint32_t id = it->second;
    const proto::TableId table = t.id();
    // A game the arbiter cancelled ends without a result: nobody scores (double_forfeit,
    // reason "cancelled").
    const BoardResult r = go.result.outcome == Outcome::RedWins    ? BoardResult::RedWin
                          : go.result.outcome == Outcome::BlackWins ? BoardResult::BlackWin
                          : go.result.outcome == Outcome::Draw      ? BoardResult::Draw
                                                                    : BoardResult::DoubleForfeit;
    const std::string reason = go.result.reason;
    // After the table has sent its game_over: players see the result, then the standings.
    boost::asio::post(lobby_.io_, [this, id, table, r, reason] {
        TournamentEvent* e = event(id);
        if (!e || stopping_) return;
        for (std::size_t k = 0; k < e->view.boards.size(); ++k) {
            if (e->view.boards[k].table == table && e->view.boards[k].result == BoardResult::Pending) {
                decide(*e, k, r, reason);
                round_check(*e);
                return;
            }
        }
    });
}

void TournamentDesk::decide(TournamentEvent& e, std::size_t k, BoardResult result, std::string reason) {
    proto::TournamentBoard& b = e.view.boards[k];
    if (b.result != BoardResult::Pending) return;
    b.result = result;
    b.reason = std::move(reason);
    e.history.push_back(tn::PlayedGame{e.view.round, b.red, b.black, to_outcome(result)});
    e.history_tables.push_back(b.table);
    if (b.table != 0) {
        boards_.erase(b.table);
        if (Table* t = lobby_.table(b.table)) {
            t->retire_board();
            // A board decided without a game: whoever sits there goes back to the lobby.
            if (t->status() == proto::TableStatus::Waiting) lobby_.clear_board(*t);
            lobby_.schedule_check(b.table);
        }
    }
}

void TournamentDesk::round_check(TournamentEvent& e) {
    if (e.view.state != proto::TournamentState::Running) return;
    for (const auto& b : e.view.boards)
        if (b.result == BoardResult::Pending) {
            refresh(e);
            return;
        }
    if (e.forfeit_timer) e.forfeit_timer->cancel();
    start_round(e);
}

}  // namespace xq::server
