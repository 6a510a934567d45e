// The players of the kill9 scenario: see kill9_run.h.
#include "kill9_run.h"

#include <algorithm>
#include <chrono>

#include "protocol/messages.h"

namespace xq::attack {

Move iccs_move(const std::string& m) {
    if (m.size() != 4 || !proto::is_iccs_syntax(m)) return Move();
    return Move(square_from_string(m.substr(0, 2)), square_from_string(m.substr(2, 2)));
}

void watch_kill_game(KillGame& g, const Line& l) {
    if (l.type == "move_made") {
        const auto& mm = std::get<proto::MoveMade>(*l.msg);
        if (mm.table != g.table) return;
        auto [it, fresh] = g.seen.emplace(mm.ply, mm.move);
        if (!fresh && it->second != mm.move) ++g.conflicts;
    } else if (l.type == "game_over") {
        if (std::get<proto::GameOver>(*l.msg).table == g.table) g.over = true;
    } else if (l.type == "error" || l.type == "?") {
        g.error = l.text;
    }
}

void KillRun::observe(KillGame& g, Client* c) {
    if (c) c->observer = [&g](const Line& l) { watch_kill_game(g, l); };
}

Client* KillRun::join(KillGame& g, const std::string& name, std::string* why) {
    Client* c = hub_.join(target_, name, why);
    observe(g, c);
    return c;
}

bool KillRun::new_table(KillGame& g, std::string* why) {
    if (g.table != 0) {
        for (Client* c : {g.red, g.black, g.spec}) {
            if (!c) continue;
            c->send(proto::Leave{g.table});
            hub_.expect(*c, "left", 5000);
        }
    }
    if (!g.moves.empty()) g.finished.push_back(g.moves);
    g.moves.clear();
    g.table = 0;
    proto::CreateTable ct;
    ct.name = g.prefix + "table";
    ct.as = proto::Role::Red;
    g.red->send(ct);
    auto snap = hub_.expect(*g.red, "table_snapshot", 5000);
    if (!snap) return *why = "no snapshot after create_table", false;
    g.table = std::get<proto::TableSnapshot>(*snap->msg).table.id;
    if (g.ai_black) {
        g.red->send(proto::RequestAi{g.table, BLACK, 1});
        if (!hub_.expect(*g.red, "player_joined", 5000)) return *why = "the AI did not sit", false;
    } else {
        g.black->send(proto::Join{g.table, proto::Role::Black});
        if (!hub_.expect(*g.black, "table_snapshot", 5000)) return *why = "no snapshot after join", false;
    }
    g.spec->send(proto::Join{g.table, proto::Role::Spectator});
    if (!hub_.expect(*g.spec, "table_snapshot", 5000)) return *why = "spectator got no snapshot", false;
    ++games_started;
    return reset_game(g, {}, why);
}

bool KillRun::reset_game(KillGame& g, const std::vector<std::string>& moves, std::string* why, bool keep_later) {
    std::map<int, std::string> later;
    if (keep_later)
        for (auto it = g.seen.upper_bound(int(moves.size())); it != g.seen.end(); ++it) later.insert(*it);
    const bool over = keep_later && g.over;
    g.game = Game();
    g.moves.clear();
    g.seen.clear();
    g.pending.clear();
    g.over = over;
    for (const auto& m : moves) {
        if (!g.game.play(iccs_move(m))) return *why = "the server's game holds " + m + ", not legal", false;
        g.moves.push_back(m);
        g.seen[int(g.moves.size())] = m;
    }
    g.seen.insert(later.begin(), later.end());
    return true;
}

bool KillRun::confirm(KillGame& g, std::string* why) {
    for (auto it = g.seen.find(int(g.moves.size()) + 1); it != g.seen.end();
         it = g.seen.find(int(g.moves.size()) + 1)) {
        const std::string m = it->second;
        const bool ai = g.ai_black && g.game.side_to_move() == BLACK;
        if (!ai && m != g.pending)
            return *why = "move_made " + m + " at ply " + std::to_string(it->first) + " but '" + g.pending +
                          "' was sent",
                   false;
        if (!g.game.play(iccs_move(m))) return *why = "the server applied " + m + ", not legal here", false;
        if (!ai) latency.add(ms_since(g.pending_since) * 1000.0);
        if (ai) ++ai_moves, g.await_ai = false;
        g.moves.push_back(m);
        g.pending.clear();
        ++acked_moves;
    }
    return true;
}

bool KillRun::drive(KillGame& g, std::string* why, bool now) {
    if (!confirm(g, why)) return false;
    if (g.conflicts) return *why = "two clients saw different moves for one ply", false;
    if (!g.error.empty()) return *why = "error: " + g.error, false;
    if (!g.pending.empty()) {
        if (ms_since(g.pending_since) > 5000) return *why = "no move_made for " + g.pending + " in 5 s", false;
        return true;
    }
    if (g.over || g.game.over() || g.moves.size() >= MAX_PLIES) return new_table(g, why);
    if (g.ai_black && g.game.side_to_move() == BLACK) return true;  // the AI's turn
    if (!now && Clock::now() < g.next_send) return true;
    const MoveList legal = g.game.legal_moves();
    proto::MoveRequest req;
    req.table = g.table;
    req.ply = int(g.moves.size());
    req.move = move_to_iccs(legal[int(g.rng() % unsigned(legal.size()))]);
    g.pending = req.move;
    g.pending_since = Clock::now();
    g.next_send = g.pending_since + std::chrono::milliseconds(SEND_GAP_MS);
    (g.game.side_to_move() == RED ? g.red : g.black)->send(req);
    return true;
}

Client* KillRun::resume(KillGame& g, Client* old, bool* resumed, std::optional<proto::TableSnapshot>* snap,
                        std::string* why) {
    const std::string name = old->name(), token = old->session_token;
    old->close();
    Client& c = hub_.add(name);
    observe(g, &c);
    if (!c.connect(target_)) return *why = "reconnect failed", nullptr;
    proto::Hello h;
    h.name = name;
    h.resume = token;
    c.send(h);
    auto w = hub_.expect(c, "welcome", 5000);
    if (!w) return *why = "no welcome on resume for " + name, nullptr;
    const auto& wm = std::get<proto::Welcome>(*w->msg);
    c.session_token = wm.resume_token;
    *resumed = wm.resumed;
    if (wm.resumed)
        if (auto sn = hub_.expect(c, "table_snapshot", 5000)) *snap = std::get<proto::TableSnapshot>(*sn->msg);
    return &c;
}

std::optional<std::vector<proto::GameRecord>> KillRun::archive(const std::string& red_name, bool newest_only,
                                                               std::string* why) {
    Client* a = hub_.join(target_, "audit" + std::to_string(++auditors_), why);
    if (!a) return std::nullopt;
    std::vector<std::int64_t> ids;
    std::int64_t before = 0;
    for (bool more = true; more;) {
        proto::ListGames q;
        q.player = red_name;
        q.before = before;
        q.limit = newest_only ? 1 : 50;
        a->send(q);
        auto l = hub_.expect(*a, "games", 5000);
        if (!l) return *why = "no answer to list_games", std::nullopt;
        const auto& gs = std::get<proto::Games>(*l->msg);
        for (const auto& s : gs.games) ids.push_back(s.id);
        more = gs.more && !newest_only && !gs.games.empty();
        if (!gs.games.empty()) before = gs.games.back().id;
    }
    std::reverse(ids.begin(), ids.end());
    std::vector<proto::GameRecord> out;
    for (const auto id : ids) {
        a->send(proto::GetGame{id});
        auto r = hub_.expect(*a, "game_record", 5000);
        if (!r) return *why = "no answer to get_game " + std::to_string(id), std::nullopt;
        out.push_back(std::get<proto::GameRecord>(*r->msg));
        if (out.size() % 40 == 0) hub_.wait(1000, [] { return false; });  // under the rate limit
    }
    a->close();
    return out;
}

int unacked_tail(const KillGame& g, const std::vector<std::string>& server_moves) {
    if (server_moves.size() < g.moves.size()) return 0;
    Game probe = g.game;
    int extra = 0;
    bool pending_used = false;
    for (std::size_t i = g.moves.size(); i < server_moves.size(); ++i, ++extra) {
        const bool ai = g.ai_black && probe.side_to_move() == BLACK;
        if (!ai && (pending_used || server_moves[i] != g.pending)) return -1;
        if (!ai) pending_used = true;
        if (!probe.play(iccs_move(server_moves[i]))) return -1;
    }
    return extra <= 2 ? extra : -1;
}

int missing(const std::vector<std::string>& acked, const std::vector<std::string>& server_moves) {
    int lost = 0;
    for (std::size_t i = 0; i < acked.size(); ++i) lost += i >= server_moves.size() || server_moves[i] != acked[i];
    return lost;
}

}  // namespace xq::attack
