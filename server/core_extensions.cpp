// Members of the core's Lobby and Table that the durability layer needs (rebuilding an
// unfinished game after a restart, the operator console's view of sessions); kept here,
// beside the rest of the layer, so the core's own files change by a few declarations only.
#include "restore.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/engine_pool.h"
#include "server/lobby.h"
#include "server/table.h"

namespace xq::server {

Table* Lobby::restore_table(proto::TableId id, const std::string& name, const std::string& creator,
                            const Position& start, const std::vector<Move>& moves, const RestoredSeat* seats,
                            const TableRules& rules) {
    if (id == 0 || tables_.count(id)) return nullptr;
    auto t = std::make_shared<Table>(TableContext{io_, config_, *this, ai_, &observers_, engines_}, id, name, creator,
                                     start, rules);
    if (!t->restore_game(moves, seats)) return nullptr;
    tables_.emplace(id, t);
    if (next_table_id_ <= id) next_table_id_ = id + 1;
    for (Color c : {RED, BLACK})
        if (seats[c].kind == RestoredSeat::Kind::Human && !seats[c].token.empty()) held_seats_[seats[c].token] = id;
    return t.get();
}

bool Table::restore_game(const std::vector<Move>& moves, const RestoredSeat* restored) {
    for (Move m : moves)
        if (!game_.play(m)) return false;
    if (game_.over()) return false;
    for (Color c : {RED, BLACK}) {
        const RestoredSeat& r = restored[c];
        Seat& seat = seats_[c];
        seat = Seat{};
        if (r.kind == RestoredSeat::Kind::Empty) continue;
        seat.name = r.name;
        if (r.kind == RestoredSeat::Kind::Ai) {
            seat.kind = Seat::Kind::Ai;
            seat.ai_level = r.ai_level;
            if (!r.engine.empty()) {
                if (ctx_.engines && ctx_.engines->has(r.engine)) {
                    seat.engine = r.engine;
                } else {
                    // The engine is not on this server any more: the built-in AI takes over.
                    spdlog::warn("table {}: engine '{}' is gone; the built-in AI plays its seat", id_, r.engine);
                    seat.name = "AI level " + std::to_string(r.ai_level);
                }
            }
            continue;
        }
        seat.kind = Seat::Kind::Human;
        seat.resume_token = r.token;
        seat.connected = false;
    }
    started_ = true;
    // Every human seat gets the table's whole grace from the restart, at least
    // RESTART_GRACE_MIN (a seat abandoned before the restart too: its player may not have
    // known the server was down, and a table with grace 0 would otherwise end at once).
    for (Color c : {RED, BLACK})
        if (seats_[c].human()) start_grace(c, std::max(rules_.grace, RESTART_GRACE_MIN));
    position_since_ = Clock::now();
    maybe_start_ai();
    return true;
}

std::vector<proto::UserInfo> Lobby::admin_users() const {
    std::vector<proto::UserInfo> out;
    for (const auto& [id, u] : users_)
        if (u->greeted) out.push_back(proto::UserInfo{u->name, u->table});
    return out;
}

bool Lobby::admin_kick(const std::string& name) {
    User* u = find_by_name(name);
    if (!u || u->closing) return false;
    send_msg(*u, proto::Error{proto::ErrorCode::NotAllowed, "the operator closed your connection", "", 0});
    u->closing = true;
    out_.close(u->id);
    return true;
}

void Lobby::admin_notice(const std::string& text) {
    // Shown to everyone as lobby chat from the server itself.
    const Buffer line = make_buffer(proto::ChatLine{proto::ChatScope::Lobby, 0, "[server]", text});
    for (const auto& [id, u] : users_)
        if (u->greeted && !u->closing) out_.send(id, line);
}

void Lobby::handle(User& u, const proto::ListGames& m) {
    if (!archive_) {
        refuse(u, proto::ErrorCode::NotAllowed, "this server keeps no game archive", m.TYPE);
        return;
    }
    send_msg(u, archive_->list_games(m));
}

void Lobby::handle(User& u, const proto::GetGame& m) {
    if (!archive_) {
        refuse(u, proto::ErrorCode::NotAllowed, "this server keeps no game archive", m.TYPE);
        return;
    }
    auto record = archive_->get_game(m.id);
    if (!record) {
        refuse(u, proto::ErrorCode::NoSuchGame, "no game " + std::to_string(m.id) + " in the archive", m.TYPE);
        return;
    }
    send_msg(u, *record);
}

}  // namespace xq::server
