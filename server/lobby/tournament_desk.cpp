// TournamentDesk, the requests: create, join, leave and start, the lists and views, who is
// involved or directs a board, and every change published as one `tournament` line.
// Rounds and results are in tournament_desk_rounds.cpp, the restart in tournament_desk_restore.cpp.
#include "server/lobby/tournament_desk.h"

#include <spdlog/spdlog.h>

#include "protocol/codec.h"
#include "protocol/utf8.h"
#include "server/lobby/lobby.h"
#include "server/lobby/tournament_event.h"
#include "server/tournament/standings.h"

namespace xq::server {

namespace tn = tournament;
using proto::BoardResult;
using proto::ErrorCode;

namespace {

Rejection refusal(ErrorCode c, std::string msg) { return Rejection{c, std::move(msg)}; }

}  // namespace

TournamentDesk::TournamentDesk(Lobby& lobby) : lobby_(lobby) {}

TournamentDesk::~TournamentDesk() = default;

TournamentEvent* TournamentDesk::event(std::uint32_t id) const {
    const auto it = events_.find(id);
    return it == events_.end() ? nullptr : it->second.get();
}

const proto::Tournament* TournamentDesk::find(std::uint32_t id) const {
    const TournamentEvent* e = event(id);
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
    auto e = std::make_unique<TournamentEvent>();
    e->rules = std::get<TableRules>(std::move(rules));
    e->rules.takebacks = false;
    if (e->rules.hints)
        return Rejection{ErrorCode::BadSettings, "no hints in a tournament",
                         std::string(proto::settings_detail::NO_HINTS)};
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
    TournamentEvent& ref = *e;
    events_.emplace(v.id, std::move(e));
    spdlog::info("tournament {} '{}' created by '{}'", ref.view.id, ref.view.name, who);
    refresh(ref);
    return std::nullopt;
}

Verdict TournamentDesk::join(const std::string& who, bool registered, std::uint32_t id) {
    TournamentEvent* e = event(id);
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
    TournamentEvent* e = event(id);
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
    TournamentEvent* e = event(id);
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

bool TournamentDesk::directs(proto::TableId table, const std::string& name) const {
    const auto it = boards_.find(table);
    const TournamentEvent* e = it == boards_.end() ? nullptr : event(it->second);
    return e && e->view.director == name;
}

void TournamentDesk::refresh(TournamentEvent& e) {
    proto::Tournament& v = e.view;
    v.games.clear();
    for (const tn::PlayedGame& g : e.history) {
        const BoardResult r = to_board_result(g.outcome);
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

void TournamentDesk::publish(const TournamentEvent& e) {
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

}  // namespace xq::server
