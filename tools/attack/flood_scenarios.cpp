// Scenarios of floods: message and chat floods from many sources, and 10,000 forged requests
// (other seats, other tables, wrong plies); none may change a game.
#include "scenario.h"

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "protocol/utf8.h"
#include "xiangqi/game.h"

namespace xq::attack {

void floods(Env& env) {
    const std::string name = "floods";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);
    Client* watcher = hub.join(s.target, "watcher", &why);
    if (!watcher) return add(env, name, "watcher", why, "joins", false);
    watcher->send(proto::Join{g.table(), proto::Role::Spectator});
    hub.expect(*watcher, "table_snapshot", 3000);

    // Chat flood: 40 table chats at once.
    proto::ChatSend c;
    c.scope = proto::ChatScope::Table;
    c.table = g.table();
    for (int i = 0; i < 40; ++i) {
        c.text = "flood " + std::to_string(i);
        g.red()->send(c);
    }
    hub.wait(2000, [&] { return g.red()->error_count("rate_limited") >= 36; });
    hub.drain(300);
    int delivered = 0;
    while (watcher->take("chat")) ++delivered;
    add(env, name, "40 chats at once: delivered / rate_limited",
        std::to_string(delivered) + " / " + std::to_string(g.red()->error_count("rate_limited")), "4 / 36",
        delivered == 4 && g.red()->error_count("rate_limited") == 36);

    // Move flood: the side to move sends the same legal move 300 times.
    MoveList legal;
    g.position().generate_legal(legal);
    proto::MoveRequest m;
    m.table = g.table();
    m.ply = g.ply();
    m.move = move_to_iccs(legal[0]);
    Client* mover = g.position().side_to_move() == RED ? g.red() : g.black();
    const int before_err = mover->count("error");
    const int before_made = watcher->count("move_made");
    for (int i = 0; i < 300; ++i) mover->send(m);
    hub.wait(3000, [&] { return mover->count("error") - before_err >= 299 || !mover->open(); });
    hub.drain(300);
    const int made = watcher->count("move_made") - before_made;
    const int refused = mover->count("error") - before_err;
    // The server may close a connection that keeps sending refused lines; either way only
    // the first copy may be applied.
    add(env, name, "same move sent 300 times: applied / refused / closed",
        std::to_string(made) + " / " + std::to_string(refused) + " / " + (mover->open() ? "no" : "yes"),
        "1 / rest", made == 1 && (refused == 299 || (!mover->open() && refused > 0)));

    // Message flood: 2000 pings as fast as possible.
    Client* pinger = hub.join(s.target, "pinger", &why);
    for (int i = 0; i < 2000; ++i)
        if (!pinger->send(proto::Ping{i})) break;
    hub.wait(5000, [&] { return !pinger->open(); });
    add(env, name, "2000 pings at once: pong / rate_limited / closed",
        std::to_string(pinger->count("pong")) + " / " + std::to_string(pinger->error_count("rate_limited")) +
            " / " + (pinger->open() ? "no" : "yes"),
        "bounded, closed", pinger->count("pong") <= 200 && !pinger->open());
    Stats st;
    ControlGame g2(hub, s.target, "ctl2", env.seed + 1);
    const bool ok2 = g2.start(&why) && play(hub, g2, 20, st, &why);
    add(env, name, "a fresh game plays after the floods", ok2 ? lat(st) : why, "plays", ok2);
}

// 10,000 forged requests, each refused with state unchanged.
void forged(Env& env) {
    const std::string name = "forged";
    Session s(env, name, {"--max-clients", "500"});
    if (!s.ok) return;
    Hub hub;
    const int K = 25, per_conn = 100;
    struct T {
        ControlGame* game;
        Client* spec;
        Client* lobby;
        std::string fen;
        int ply;
    };
    std::vector<std::unique_ptr<ControlGame>> games;
    std::vector<T> ts;
    std::string why;
    Stats warm;
    for (int i = 0; i < K; ++i) {
        games.push_back(
            std::make_unique<ControlGame>(hub, s.target, "f" + std::to_string(i) + "_", env.seed + i));
        ControlGame& g = *games.back();
        if (!g.start(&why) || !play(hub, g, 2, warm, &why)) return add(env, name, "setup", why, "ok", false);
        Client* sp = hub.join(s.target, "f" + std::to_string(i) + "_s", &why);
        Client* lb = hub.join(s.target, "f" + std::to_string(i) + "_l", &why);
        if (!sp || !lb) return add(env, name, "setup", why, "ok", false);
        sp->send(proto::Join{g.table(), proto::Role::Spectator});
        hub.expect(*sp, "table_snapshot", 3000);
        ts.push_back({&g, sp, lb, g.position().fen(), g.ply()});
    }
    hub.drain(300);
    std::vector<Client*> all;
    std::map<Client*, int> err0;
    std::map<std::string, int> state_lines0;
    const std::vector<std::string> changes = {"move_made",     "game_over",        "takeback",
                                              "offer_draw",    "request_takeback", "new_game",
                                              "player_joined", "table_snapshot"};
    for (auto& c : hub.clients()) {
        all.push_back(c.get());
        err0[c.get()] = c->count("error");
        for (const auto& t : changes) state_lines0[t] += c->count(t);
    }

    // Build each connection's 100 forged lines.
    std::map<Client*, std::vector<proto::ClientMessage>> plan;
    for (int i = 0; i < K; ++i) {
        T& t = ts[std::size_t(i)];
        ControlGame& g = *t.game;
        const proto::TableId id = g.table(), other = ts[std::size_t((i + 1) % K)].game->table();
        const Position& pos = g.position();
        MoveList legal;
        pos.generate_legal(legal);
        const std::string mine = move_to_iccs(legal[0]);
        Position flipped = pos;
        UndoInfo nu;
        flipped.do_null_move(nu);
        MoveList theirs;
        flipped.generate_legal(theirs);
        const std::string their = theirs.empty() ? "a9a8" : move_to_iccs(theirs[0]);
        std::string illegal;
        for (int a = 0; a < SQ_NB && illegal.empty(); ++a)
            for (int b = 0; b < SQ_NB && illegal.empty(); ++b)
                if (pos.piece_on(Square(a)) != NO_PIECE &&
                    color_of(pos.piece_on(Square(a))) == pos.side_to_move() && a != b &&
                    !legal.contains(Move(Square(a), Square(b))))
                    illegal = move_to_iccs(Move(Square(a), Square(b)));
        Client* to_move = pos.side_to_move() == RED ? g.red() : g.black();
        Client* waiting = to_move == g.red() ? g.black() : g.red();
        const Color waiting_color = ~pos.side_to_move();
        const int ply = t.ply;
        auto mv = [](proto::TableId tb, int p, const std::string& m) {
            proto::MoveRequest r;
            r.table = tb;
            r.ply = p;
            r.move = m;
            return proto::ClientMessage{r};
        };
        proto::ChatSend chat;
        chat.scope = proto::ChatScope::Table;
        chat.table = id;
        chat.text = "forged";
        proto::RequestAi ai;
        ai.table = id;
        ai.seat = ~waiting_color;
        ai.level = 3;
        for (int k = 0; k < per_conn; ++k) {
            switch (k % 5) {
            case 0:
                plan[to_move].push_back(mv(id, ply - 1, mine));  // stale ply
                plan[waiting].push_back(mv(id, ply, their));     // out of turn
                plan[t.spec].push_back(mv(id, ply, mine));       // spectator moves
                plan[t.lobby].push_back(mv(id, ply, mine));      // not at the table
                break;
            case 1:
                plan[to_move].push_back(mv(id, ply, illegal));  // illegal move
                plan[waiting].push_back(mv(id, ply, mine));     // the opponent's piece
                plan[t.spec].push_back(proto::Resign{id});
                plan[t.lobby].push_back(proto::Resign{id});
                break;
            case 2:
                plan[to_move].push_back(mv(other, ply, mine));             // wrong table
                plan[waiting].push_back(proto::AnswerTakeback{id, true});  // nothing to answer
                plan[t.spec].push_back(proto::OfferDraw{id});
                plan[t.lobby].push_back(chat);
                break;
            case 3:
                plan[to_move].push_back(mv(id, ply, "zz99"));  // not ICCS
                plan[waiting].push_back(ai);                   // AI into the opponent's seat
                plan[t.spec].push_back(proto::RequestTakeback{id});
                plan[t.lobby].push_back(proto::Join{4000000000u, proto::Role::Red});
                break;
            default:
                plan[to_move].push_back(mv(id, ply + 5, mine));  // future ply
                plan[waiting].push_back(proto::Resign{other});   // someone else's table
                plan[t.spec].push_back(proto::AnswerDraw{id, true});
                plan[t.lobby].push_back(proto::NewGame{id});
                break;
            }
        }
    }
    int sent = 0;
    const auto t0 = Clock::now();
    for (int k = 0; k < per_conn; ++k) {
        for (auto& [c, msgs] : plan) {
            c->send(msgs[std::size_t(k)]);
            ++sent;
        }
        if (k % 20 == 19) hub.wait(600, [] { return false; });  // stay under 50 requests/s each
        hub.pump(0);
    }
    auto refused_now = [&] {
        int n = 0;
        for (Client* c : all) n += c->count("error") - err0[c];
        return n;
    };
    hub.wait(15000, [&] { return refused_now() >= sent; });
    const double secs = ms_since(t0) / 1000.0;
    std::map<std::string, int> codes;
    for (Client* c : all)
        for (const auto& [code, n] : c->error_codes()) codes[code] += n;
    int changed_lines = 0;
    std::string changed_by;  // which kinds of line, and who got them
    for (const auto& t : changes) {
        int n = 0;
        for (Client* c : all) {
            n += c->count(t);
        }
        if (n != state_lines0[t]) changed_by += " " + t + "=" + std::to_string(n - state_lines0[t]);
        changed_lines += n - state_lines0[t];
    }
    add(env, name, "forged requests sent / refused",
        std::to_string(sent) + " / " + std::to_string(refused_now()), "10000 / 10000",
        sent == 10000 && refused_now() == sent);
    std::string by;
    for (const auto& [code, n] : codes) by += code + "=" + std::to_string(n) + " ";
    std::printf("    refusals by code: %s\n", by.c_str());
    add(env, name, "state-changing broadcasts during the attack",
        std::to_string(changed_lines) + (changed_by.empty() ? "" : " (" + changed_by.substr(1) + ")"), "0",
        changed_lines == 0);
    add(env, name, "refused requests per second", fmt(sent / secs, 0), "info", true);

    // Each table's board is exactly as before.
    int same = 0;
    for (T& t : ts) {
        t.game->red()->send(proto::Sync{t.game->table()});
        auto snap = hub.expect(*t.game->red(), "table_snapshot", 3000);
        if (!snap) continue;
        const auto& sn = std::get<proto::TableSnapshot>(*snap->msg);
        same += sn.fen == t.fen && sn.ply == t.ply && !sn.result.has_value();
    }
    add(env, name, "tables unchanged (FEN, ply, no result)", std::to_string(same) + "/" + std::to_string(K),
        "all", same == K);
    // And they still play.
    Stats st;
    int playing = 0;
    for (T& t : ts) playing += play(hub, *t.game, 2, st);
    add(env, name, "tables still playing after", std::to_string(playing) + "/" + std::to_string(K), "all",
        playing == K);
}

}  // namespace xq::attack
