// Scenarios of hostile connections: slowloris trickles, a spectator that never reads, and the
// connection caps (global, per address, descriptors).
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

void slowloris(Env& env) {
    const std::string name = "slowloris";
    Session s(env, name, {"--max-clients", "3000"});
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);
    Stats base, under;
    if (!play(hub, g, 100, base, &why)) return add(env, name, "control game before the attack", why, "plays", false);

    const int n_drip = 500, n_silent = 500;
    std::vector<Client*> drip, silent;
    const auto t_open = Clock::now();
    for (int i = 0; i < n_silent; ++i) {
        Client& c = hub.add("silent");
        if (c.connect(s.target, source_addr(i))) silent.push_back(&c);
    }
    for (int i = 0; i < n_drip; ++i) {
        Client& c = hub.add("drip");
        if (c.connect(s.target, source_addr(i + n_silent))) drip.push_back(&c);
    }
    add(env, name, "connections opened (silent + drip)", std::to_string(silent.size() + drip.size()),
        std::to_string(n_drip + n_silent), int(silent.size() + drip.size()) == n_drip + n_silent);

    const std::string hello = "{\"type\":\"hello\",\"name\":\"dripper\",\"version\":1}";
    std::size_t byte = 0;
    auto next_drip = Clock::now();
    std::map<Client*, double> closed_at;
    const auto deadline = Clock::now() + std::chrono::seconds(40);
    bool control_ok = true;
    while (Clock::now() < deadline) {
        if (Clock::now() >= next_drip) {
            for (Client* c : drip)
                if (c->open()) c->send_raw(std::string_view(&hello[byte % hello.size()], 1));
            ++byte;
            next_drip += std::chrono::seconds(1);
        }
        if (control_ok && !g.step(under)) {
            control_ok = false;
            why = g.why();
        }
        hub.pump(5);
        for (auto* v : {&drip, &silent})
            for (Client* c : *v)
                if (!c->open() && !closed_at.count(c)) closed_at[c] = ms_since(t_open);
        if (int(closed_at.size()) == n_drip + n_silent) break;
    }
    double last = 0;
    int early = 0;
    for (auto& [c, t] : closed_at) {
        last = std::max(last, t);
        if (t < 5000) ++early;
    }
    add(env, name, "closed by the server",
        std::to_string(closed_at.size()) + "/" + std::to_string(n_drip + n_silent), "all",
        int(closed_at.size()) == n_drip + n_silent);
    add(env, name, "last closed after", fmt(last / 1000.0, 1) + " s", "hello timeout", true);
    add(env, name, "closed within 5 s (refused at once)", std::to_string(early), "info", true);
    add(env, name, "control p50/p99 before", lat(base), "", true);
    add(env, name, "control p50/p99 during (" + std::to_string(under.n()) + " moves)", lat(under),
        "p99 < 50 ms", control_ok && under.pct(99) < 50000);
    if (!control_ok) add(env, name, "control game failure", why, "none", false);
}

void nonreader(Env& env) {
    const std::string name = "nonreader";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);
    // Tables make list_tables replies big.
    for (int i = 0; i < 60; ++i) {
        Client* c = hub.join(s.target, "host" + std::to_string(i), &why);
        if (!c) break;
        proto::CreateTable ct;
        ct.name = "filler table number " + std::to_string(i) + " with a long name";
        c->send(ct);
    }
    hub.drain(200);
    // A reading spectator at the same table hears when the lazy one is dropped (the control
    // players may move on to a new table when their game ends).
    Client* witness = hub.join(s.target, "witness", &why);
    if (!witness) return add(env, name, "witness", why, "joins", false);
    witness->send(proto::Join{g.table(), proto::Role::Spectator});
    Client& lazy = hub.add("lazy");
    lazy.connect(s.target, {}, 4096);
    proto::Hello h;
    h.name = "lazy";
    lazy.send(h);
    lazy.send(proto::Join{g.table(), proto::Role::Spectator});
    lazy.reading = false;

    Stats st;
    const auto t0 = Clock::now();
    int requests = 0;
    bool dropped = false;
    witness->observer = [&](const Line& l) {
        if (l.type != "player_left") return;
        const auto& p = std::get<proto::PlayerLeft>(*l.msg);
        if (p.name == "lazy" && p.reason == proto::LeaveReason::Dropped) dropped = true;
    };
    auto next = Clock::now();
    bool control_ok = true;
    while (ms_since(t0) < 60000 && !dropped) {
        if (Clock::now() >= next) {
            lazy.send(proto::ListTables{});
            ++requests;
            next += std::chrono::milliseconds(25);  // 40 per second, under the flood limit
        }
        if (control_ok && !g.step(st)) control_ok = false, why = g.why();
        hub.pump(1);
    }
    witness->observer = nullptr;
    add(env, name, "spectator that never reads dropped after",
        dropped ? fmt(ms_since(t0) / 1000.0, 1) + " s" : "never", "dropped", dropped);
    add(env, name, "requests it sent before", std::to_string(requests), "info", true);
    add(env, name, "control p50/p99 meanwhile (" + std::to_string(st.n()) + " moves)", lat(st), "p99 < 50 ms",
        control_ok && st.pct(99) < 50000);
}

void caps(Env& env) {
    const std::string name = "caps";
    {
        const int cap = 50;
        Session s(env, name, {"--max-clients", std::to_string(cap)});
        if (!s.ok) return;
        Hub hub;
        int welcomed = 0, full = 0, other = 0;
        for (int i = 0; i < 80; ++i) {
            std::string why;
            if (hub.join(s.target, "cap" + std::to_string(i), &why))
                ++welcomed;
            else if (why.find("server_full") != std::string::npos)
                ++full;
            else
                ++other;
        }
        add(env, name, "80 clients at --max-clients 50: welcomed/full",
            std::to_string(welcomed) + "/" + std::to_string(full), "50/30",
            welcomed == cap && full == 80 - cap);
        for (auto& c : hub.clients()) c->close();
        hub.remove_closed();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        std::string why;
        const auto t0 = Clock::now();
        bool back = false;
        while (!back && ms_since(t0) < 5000) back = hub.join(s.target, "after", &why) != nullptr;
        add(env, name, "after closing all, a new client welcomed", back ? "yes" : "no", "yes", back);
    }
    {
        // File-descriptor exhaustion: the server may hold only 64 descriptors.
        Session s(env, "fd_limit", {"--max-clients", "1000"}, 64);
        if (!s.ok) return;
        Hub hub;
        int welcomed = 0, refused = 0;
        std::vector<Client*> cs;
        for (int i = 0; i < 150; ++i) {
            Client& c = hub.add("fd" + std::to_string(i));
            if (!c.connect(s.target, source_addr(i))) {
                ++refused;
                continue;
            }
            proto::Hello h;
            h.name = "fd" + std::to_string(i);
            c.send(h);
            cs.push_back(&c);
        }
        hub.wait(3000, [] { return false; });
        for (Client* c : cs) welcomed += c->count("welcome") > 0;
        add(env, name, "150 clients, server nofile=64: welcomed", std::to_string(welcomed), "< 64, no crash",
            welcomed > 0 && welcomed < 64);
        add(env, name, "server alive under fd exhaustion", s.server.running() ? "yes" : "no", "yes",
            s.server.running());
        for (auto& c : hub.clients()) c->close();
        hub.remove_closed();
        const auto t0 = Clock::now();
        bool back = false;
        std::string why;
        while (!back && ms_since(t0) < 10000) {
            back = hub.join(s.target, "recovered", &why) != nullptr;
            if (!back) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        add(env, name, "fd exhaustion: recovered, new client welcomed",
            back ? fmt(ms_since(t0), 0) + " ms" : "no", "yes", back);
    }
}

}  // namespace xq::attack
