// TournamentDesk after a restart: the saved tournaments read back and checked, and a running
// round taken up again (boards whose game came back go on, the others are opened afresh).
#include "server/lobby/tournament_desk.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/codec.h"
#include "server/lobby/lobby.h"
#include "server/lobby/tournament_event.h"

namespace xq::server {

namespace tn = tournament;
using proto::BoardResult;

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
        auto e = std::make_unique<TournamentEvent>();
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
        TournamentEvent& ref = *e;
        events_.emplace(v->id, std::move(e));
        ++restored;
        if (ref.view.state == proto::TournamentState::Running) resume_round(ref);
        spdlog::info("tournament {} '{}' restored (round {} of {})", ref.view.id, ref.view.name, ref.view.round,
                     ref.view.rounds);
    }
    return restored;
}

void TournamentDesk::resume_round(TournamentEvent& e) {
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
