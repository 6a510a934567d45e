#include "server/lobby/tournament_desk.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/codec.h"
#include "protocol/utf8.h"
#include "server/lobby/lobby.h"
#include "server/tournament/standings.h"

namespace xq::server {

namespace tn = tournament;
using proto::BoardResult;
using proto::ErrorCode;

namespace {

Rejection refusal(ErrorCode c, std::string msg) { return Rejection{c, std::move(msg)}; }

tn::Outcome to_outcome(BoardResult r) {
    switch (r) {
    case BoardResult::RedWin: return tn::Outcome::RedWin;
    case BoardResult::BlackWin: return tn::Outcome::BlackWin;
    case BoardResult::RedForfeit: return tn::Outcome::RedForfeit;
    case BoardResult::BlackForfeit: return tn::Outcome::BlackForfeit;
    case BoardResult::DoubleForfeit: return tn::Outcome::DoubleForfeit;
    case BoardResult::Bye: return tn::Outcome::Bye;
    default: return tn::Outcome::Draw;
    }
}

}  // namespace

struct TournamentDesk::Event {
    proto::Tournament view;  // what the wire shows; standings and games are kept in step
    TableRules rules;        // every board's table rules
    std::vector<tn::PlayedGame> history;
    std::vector<proto::TableId> history_tables;  // per game of history: its table (0: none)
    std::vector<std::vector<tn::Pairing>> schedule;  // round-robin: the whole schedule
    std::vector<tn::Pairing> pairings;               // the current round's
    std::unique_ptr<boost::asio::steady_timer> forfeit_timer;

    int index_of(const std::string& name) const {
        for (std::size_t i = 0; i < view.entrants.size(); ++i)
            if (view.entrants[i].name == name) return static_cast<int>(i);
        return -1;
    }
    const std::string& name_of(int i) const { return view.entrants[static_cast<std::size_t>(i)].name; }
    bool ai(int i) const { return view.entrants[static_cast<std::size_t>(i)].ai_level > 0; }
    bool withdrawn(int i) const { return view.entrants[static_cast<std::size_t>(i)].withdrawn; }
};

TournamentDesk::TournamentDesk(Lobby& lobby) : lobby_(lobby) {}

TournamentDesk::~TournamentDesk() = default;

TournamentDesk::Event* TournamentDesk::event(std::uint32_t id) const {
    const auto it = events_.find(id);
    return it == events_.end() ? nullptr : it->second.get();
}

const proto::Tournament* TournamentDesk::find(std::uint32_t id) const {
    const Event* e = event(id);
    return e ? &e->view : nullptr;
}

proto::Tournaments TournamentDesk::list() const {
    proto::Tournaments out;
    for (const auto& [id, e] : events_) {
        const proto::Tournament& v = e->view;
        out.tournaments.push_back(proto::TournamentSummary{v.id, v.name, v.director, v.format, v.state, v.round,
                                                           v.rounds, static_cast<int>(v.entrants.size())});
    }
    return out;
}

bool TournamentDesk::involved(const std::string& name) const {
    for (const auto& [id, e] : events_) {
        if (e->view.state == proto::TournamentState::Finished) continue;
        if (e->view.director == name || e->index_of(name) >= 0) return true;
    }
    return false;
}

Verdict TournamentDesk::create(const std::string& who, const proto::CreateTournament& m) {
    if (lobby_.config_.tournaments_by_operator)
        return refusal(ErrorCode::NotAllowed, "on this server only the operator creates tournaments");
    std::size_t running = 0;
    for (const auto& [id, e] : events_) running += e->view.state != proto::TournamentState::Finished;
    if (running >= proto::MAX_TOURNAMENTS)
        return refusal(ErrorCode::NotAllowed, "the server already runs " + std::to_string(running) + " tournaments");
    if (m.format == proto::TournamentFormat::Swiss && m.rounds < 1)
        return refusal(ErrorCode::BadField, "a Swiss tournament needs 'rounds' (1-" +
                                                std::to_string(proto::MAX_TOURNAMENT_ROUNDS) + ")");
    if (m.format == proto::TournamentFormat::RoundRobin && m.rounds != 0)
        return refusal(ErrorCode::BadField, "a round-robin's rounds follow from its entrants: leave 'rounds' out");
    if (m.ai.size() > static_cast<std::size_t>(proto::MAX_TOURNAMENT_ENTRANTS))
        return refusal(ErrorCode::BadField, "at most " + std::to_string(proto::MAX_TOURNAMENT_ENTRANTS) + " entrants");
    if (!m.ai.empty() && !lobby_.ai_)
        return Rejection{ErrorCode::BadSettings, "this server has no AI to enter", std::string(proto::settings_detail::NO_AI)};
    auto rules = lobby_.resolve_settings(m.settings);
    if (const auto* no = std::get_if<Rejection>(&rules)) return *no;

    // Its games are rated like any rated table's, so its boards seat registered players only.
    if (std::get<TableRules>(rules).rated && !m.ai.empty())
        return refusal(ErrorCode::BadSettings, "a rated tournament has no AI entrants (AI games are never rated)");
    auto e = std::make_unique<Event>();
    e->rules = std::get<TableRules>(std::move(rules));
    e->rules.takebacks = false;
    e->rules.spectator_delay = m.spectator_delay;
    proto::Tournament& v = e->view;
    v.id = next_id_++;
    v.name = clean_text(m.name, proto::MAX_TOURNAMENT_NAME_CODE_POINTS);
    if (v.name.empty()) v.name = proto::cut_code_points(who + "'s tournament", proto::MAX_TOURNAMENT_NAME_CODE_POINTS);
    v.director = who;
    v.format = m.format;
    v.state = proto::TournamentState::Open;
    v.rounds = m.rounds;
    v.settings = e->rules.settings();
    v.forfeit_seconds = m.forfeit_seconds > 0 ? m.forfeit_seconds : proto::DEFAULT_FORFEIT_SECONDS;
    v.spectator_delay = m.spectator_delay;
    for (const proto::AiEntrant& a : m.ai) {
        // "AI level N" is a reserved nickname, so no human can pose as an AI entrant.
        std::string name = "AI level " + std::to_string(a.level);
        for (int k = 2; e->index_of(name) >= 0; ++k) name = "AI level " + std::to_string(a.level) + " #" + std::to_string(k);
        v.entrants.push_back(proto::TournamentEntrant{name, a.level, false});
    }
    // Finished tournaments are kept for their tables of results, the oldest going first.
    std::size_t finished = events_.size() - running;
    for (auto it = events_.begin(); finished >= proto::MAX_TOURNAMENTS && it != events_.end();) {
        if (it->second->view.state == proto::TournamentState::Finished) {
            if (store_) store_->forget_tournament(it->first);
            it = events_.erase(it);
            --finished;
        } else {
            ++it;
        }
    }
    Event& ref = *e;
    events_.emplace(v.id, std::move(e));
    spdlog::info("tournament {} '{}' created by '{}'", ref.view.id, ref.view.name, who);
    refresh(ref);
    return std::nullopt;
}

Verdict TournamentDesk::join(const std::string& who, bool registered, std::uint32_t id) {
    Event* e = event(id);
    if (!e) return refusal(ErrorCode::NoSuchTournament, "no tournament " + std::to_string(id));
    if (e->rules.rated && !registered)
        return refusal(ErrorCode::NotAllowed, "only registered players enter a rated tournament (register first)");
    if (e->index_of(who) >= 0) return refusal(ErrorCode::AlreadyEntered, "you are already entered");
    if (e->view.state != proto::TournamentState::Open)
        return refusal(ErrorCode::EntriesClosed, "the tournament has started: entries are closed");
    if (e->view.entrants.size() >= static_cast<std::size_t>(proto::MAX_TOURNAMENT_ENTRANTS))
        return refusal(ErrorCode::EntriesClosed,
                       "the tournament is full (" + std::to_string(proto::MAX_TOURNAMENT_ENTRANTS) + " entrants)");
    e->view.entrants.push_back(proto::TournamentEntrant{who, 0, false});
    refresh(*e);
    return std::nullopt;
}

Verdict TournamentDesk::leave(const std::string& who, std::uint32_t id) {
    Event* e = event(id);
    if (!e) return refusal(ErrorCode::NoSuchTournament, "no tournament " + std::to_string(id));
    const int i = e->index_of(who);
    if (i < 0 || e->ai(i)) return refusal(ErrorCode::NotAllowed, "you are not an entrant");
    switch (e->view.state) {
    case proto::TournamentState::Open:
        e->view.entrants.erase(e->view.entrants.begin() + i);
        break;
    case proto::TournamentState::Running:
        if (e->withdrawn(i)) return refusal(ErrorCode::NotAllowed, "you have already withdrawn");
        // The game under way (if any) is played out or resigned at its table; later rounds
        // pair without the entrant (a round-robin scores its games as forfeits).
        e->view.entrants[static_cast<std::size_t>(i)].withdrawn = true;
        break;
    case proto::TournamentState::Finished:
        return refusal(ErrorCode::NotAllowed, "the tournament is over");
    }
    refresh(*e);
    return std::nullopt;
}

Verdict TournamentDesk::start(const std::string& who, std::uint32_t id) {
    Event* e = event(id);
    if (!e) return refusal(ErrorCode::NoSuchTournament, "no tournament " + std::to_string(id));
    if (e->view.director != who) return refusal(ErrorCode::NotAllowed, "only the director starts the tournament");
    if (e->view.state != proto::TournamentState::Open)
        return refusal(ErrorCode::EntriesClosed, "the tournament has already started");
    const int n = static_cast<int>(e->view.entrants.size());
    if (n < 2) return refusal(ErrorCode::NotAllowed, "a tournament needs at least 2 entrants");
    if (e->view.format == proto::TournamentFormat::RoundRobin) {
        e->schedule = tn::round_robin_schedule(n);
        e->view.rounds = static_cast<int>(e->schedule.size());
    }
    e->view.state = proto::TournamentState::Running;
    spdlog::info("tournament {} started: {} entrants, {} rounds", id, n, e->view.rounds);
    start_round(*e);
    return std::nullopt;
}

void TournamentDesk::start_round(Event& e) {
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

void TournamentDesk::arm_forfeits(Event& e) {
    e.forfeit_timer = std::make_unique<boost::asio::steady_timer>(lobby_.io_, std::chrono::seconds(e.view.forfeit_seconds));
    const std::uint32_t id = e.view.id;
    const int round = e.view.round;
    e.forfeit_timer->async_wait([this, id, round](const boost::system::error_code& ec) {
        if (!ec) forfeits(id, round);
    });
}

void TournamentDesk::open_board(Event& e, std::size_t k) {
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

void TournamentDesk::seat_entrants(Event& e, std::size_t k) {
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
    Event* e = event(id);
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

bool TournamentDesk::directs(proto::TableId table, const std::string& name) const {
    const auto it = boards_.find(table);
    const Event* e = it == boards_.end() ? nullptr : event(it->second);
    return e && e->view.director == name;
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
        Event* e = event(id);
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

void TournamentDesk::decide(Event& e, std::size_t k, BoardResult result, std::string reason) {
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

void TournamentDesk::round_check(Event& e) {
    if (e.view.state != proto::TournamentState::Running) return;
    for (const auto& b : e.view.boards)
        if (b.result == BoardResult::Pending) {
            refresh(e);
            return;
        }
    if (e.forfeit_timer) e.forfeit_timer->cancel();
    start_round(e);
}

void TournamentDesk::refresh(Event& e) {
    proto::Tournament& v = e.view;
    v.games.clear();
    for (const tn::PlayedGame& g : e.history) {
        const proto::BoardResult r = [&] {
            switch (g.outcome) {
            case tn::Outcome::RedWin: return BoardResult::RedWin;
            case tn::Outcome::BlackWin: return BoardResult::BlackWin;
            case tn::Outcome::RedForfeit: return BoardResult::RedForfeit;
            case tn::Outcome::BlackForfeit: return BoardResult::BlackForfeit;
            case tn::Outcome::DoubleForfeit: return BoardResult::DoubleForfeit;
            case tn::Outcome::Bye: return BoardResult::Bye;
            case tn::Outcome::Draw: return BoardResult::Draw;
            }
            return BoardResult::Draw;  // not reached: every outcome is listed above
        }();
        v.games.push_back(proto::TournamentGame{g.round, g.red, g.black, r});
    }
    v.standings.clear();
    for (const tn::Standing& s : tn::standings(static_cast<int>(v.entrants.size()), e.history))
        v.standings.push_back(
            proto::TournamentStanding{s.id, s.rank, s.points, s.wins, s.games, s.buchholz, s.sonneborn_berger2});
    // Saved before anyone hears of the change, as moves are.
    if (store_ && !stopping_) store_->save_tournament(v.id, SavedTournament{proto::encode(proto::ServerMessage{v}), e.history_tables});
    publish(e);
}

void TournamentDesk::publish(const Event& e) {
    if (stopping_) return;
    // Everyone in the lobby, and the entrants and the director wherever they are.
    Buffer line;
    for (auto& [sid, u] : lobby_.users_) {
        if (!u->greeted || u->closing) continue;
        if (u->table != 0 && u->name != e.view.director && e.index_of(u->name) < 0) continue;
        if (!line) line = make_buffer(e.view);
        lobby_.out_.send(sid, line);
    }
}

void TournamentDesk::shutdown() {
    stopping_ = true;
    for (auto& [id, e] : events_)
        if (e->forfeit_timer) e->forfeit_timer->cancel();
}

namespace {

// A saved tournament that this server can take up again: its indices in range.
bool consistent(const proto::Tournament& v) {
    const int n = static_cast<int>(v.entrants.size());
    if (v.id == 0 || n > proto::MAX_TOURNAMENT_ENTRANTS || v.round < 0 || v.rounds < 0 || v.round > v.rounds + 1)
        return false;
    if (v.format == proto::TournamentFormat::RoundRobin && v.state != proto::TournamentState::Open &&
        v.rounds != static_cast<int>(tn::round_robin_schedule(n).size()))
        return false;
    auto entrant = [n](int i, bool bye_ok) { return (i >= 0 && i < n) || (bye_ok && i == tn::BYE); };
    for (const auto& b : v.boards)
        if (!entrant(b.red, false) || !entrant(b.black, true)) return false;
    for (const auto& g : v.games)
        if (!entrant(g.red, false) || !entrant(g.black, true) || g.round < 1 || g.round > v.round) return false;
    return true;
}

}  // namespace

int TournamentDesk::restore() {
    if (!store_) return 0;
    int restored = 0;
    for (const SavedTournament& saved : store_->saved_tournaments()) {
        auto decoded = proto::decode_server(saved.state);
        const auto* v = decoded.ok() ? std::get_if<proto::Tournament>(&decoded.value()) : nullptr;
        if (!v || !consistent(*v) || events_.count(v->id)) {
            spdlog::warn("a saved tournament cannot be read back; left out");
            continue;
        }
        auto rules = lobby_.resolve_settings(v->settings);
        if (std::holds_alternative<Rejection>(rules)) {
            spdlog::warn("tournament {}: its table settings are refused by this server; left out", v->id);
            continue;
        }
        auto e = std::make_unique<Event>();
        e->rules = std::get<TableRules>(std::move(rules));
        e->rules.takebacks = false;
        e->rules.spectator_delay = v->spectator_delay;
        e->view = *v;
        for (const proto::TournamentGame& g : v->games)
            e->history.push_back(tn::PlayedGame{g.round, g.red, g.black, to_outcome(g.result)});
        e->history_tables = saved.tables;
        e->history_tables.resize(e->history.size(), 0);
        if (v->format == proto::TournamentFormat::RoundRobin && v->state != proto::TournamentState::Open)
            e->schedule = tn::round_robin_schedule(static_cast<int>(v->entrants.size()));
        for (const proto::TournamentBoard& b : v->boards) e->pairings.push_back(tn::Pairing{b.red, b.black});
        next_id_ = std::max(next_id_, v->id + 1);
        Event& ref = *e;
        events_.emplace(v->id, std::move(e));
        ++restored;
        if (ref.view.state == proto::TournamentState::Running) resume_round(ref);
        spdlog::info("tournament {} '{}' restored (round {} of {})", ref.view.id, ref.view.name, ref.view.round,
                     ref.view.rounds);
    }
    return restored;
}

void TournamentDesk::resume_round(Event& e) {
    bool waiting = false;
    for (std::size_t k = 0; k < e.view.boards.size(); ++k) {
        proto::TournamentBoard& b = e.view.boards[k];
        if (b.result != BoardResult::Pending) continue;
        const bool humans = !e.ai(b.red) || (b.black >= 0 && !e.ai(b.black));
        Table* t = b.table != 0 ? lobby_.table(b.table) : nullptr;
        if (t && t->status() == proto::TableStatus::Playing && t->seat(RED).name == e.name_of(b.red) &&
            b.black >= 0 && t->seat(BLACK).name == e.name_of(b.black)) {
            // Its game came back with the table: the board goes on there.
            boards_[t->id()] = e.view.id;
            t->book(e.name_of(b.red), e.name_of(b.black));
            t->set_kept(true);
            continue;
        }
        // Not started, or an AI-versus-AI game (not kept over a restart): played afresh.
        b.table = 0;
        open_board(e, k);
        waiting = waiting || humans;
    }
    if (waiting) arm_forfeits(e);
    round_check(e);
}

}  // namespace xq::server
