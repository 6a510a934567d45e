// xiangqi-attack: attack and load tests against a real xiangqi-server on loopback. Each
// scenario starts its own server (so limits can be set per scenario), attacks it, checks
// that honest clients were unharmed, and reports numbers; the run ends with one table.
// Every connection goes to 127.0.0.1 (sources 127.0.0.x); counts and durations are bounded.
#include <CLI/CLI.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "harness.h"
#include "protocol/utf8.h"

namespace xq::attack {
namespace {

struct Row {
    std::string scenario;
    std::string metric;
    std::string value;
    std::string goal;
    bool ok = true;
};

struct Env {
    std::string server_bin;
    std::string work_dir;
    bool full = false;  // the documented long sizes instead of the CI ones
    std::uint32_t seed = 1;
    std::vector<Row> rows;
    bool verbose = false;
};

std::string fmt(double v, int decimals = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string source_addr(int i) { return "127.0.0." + std::to_string(2 + i % 250); }

void add(Env& env, const std::string& scenario, const std::string& metric, const std::string& value,
         const std::string& goal, bool ok) {
    env.rows.push_back({scenario, metric, value, goal, ok});
    std::printf("  %-12s %-44s %-16s %-20s %s\n", scenario.c_str(), metric.c_str(), value.c_str(), goal.c_str(),
                ok ? "ok" : "FAIL");
    std::fflush(stdout);
}

// Starts a server for one scenario on a fresh port.
struct Session {
    Env& env;
    Target target;
    ServerProc server;
    std::string log;
    bool ok = false;

    Session(Env& e, const std::string& name, std::vector<std::string> extra = {}, int nofile = 0) : env(e) {
        target.port = free_port();
        log = env.work_dir + "/" + name + ".server.log";
        std::vector<std::string> args = {"--bind", "127.0.0.1", "--port", target.port, "--log-level", "warn"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::string why;
        ok = server.start(env.server_bin, args, log, target, nofile, &why);
        if (!ok) add(env, name, "server start", why, "starts", false);
    }
};

// Plays `n` control moves and returns their round-trip stats.
bool play(Hub& hub, ControlGame& g, int n, Stats& st, std::string* why = nullptr) {
    for (int i = 0; i < n; ++i) {
        if (!g.step(st)) {
            if (why) *why = g.why();
            return false;
        }
        hub.pump(0);
    }
    return true;
}

std::string lat(const Stats& s) { return fmt(s.pct(50) / 1000.0) + "/" + fmt(s.pct(99) / 1000.0) + " ms"; }

// ---- scenarios ---------------------------------------------------------------------------

void oversized(Env& env) {
    const std::string name = "oversized";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    Client* a = hub.join(s.target, "big", &why);
    if (!a) return add(env, name, "join", why, "welcome", false);
    const long rss0 = rss_kb(s.server.pid());

    // A 1 MiB line: answered with line_too_long, connection still usable.
    const std::string chunk(64 * 1024, 'x');
    auto t0 = Clock::now();
    for (int i = 0; i < 16; ++i) a->send_raw(chunk);
    a->send_raw("\n");
    auto err = hub.expect(*a, "error", 5000);
    const std::string code = err ? std::string(proto::error_code_name(std::get<proto::Error>(*err->msg).code)) : "none";
    add(env, name, "1 MiB line: reply", code + " in " + fmt(ms_since(t0), 1) + " ms", "line_too_long",
        code == "line_too_long");
    a->send(proto::Ping{7});
    add(env, name, "same connection answers ping after", hub.expect(*a, "pong", 3000) ? "yes" : "no", "yes",
        a->open());

    // 32 MiB without a newline: the server must not buffer it.
    t0 = Clock::now();
    for (int i = 0; i < 512; ++i)
        if (!a->send_raw(chunk)) break;
    a->send_raw("\n");
    hub.expect(*a, "error", 10000);
    const long rss1 = rss_kb(s.server.pid());
    add(env, name, "32 MiB unterminated line: server RSS growth", std::to_string((rss1 - rss0) / 1024) + " MiB",
        "< 4 MiB", rss1 - rss0 < 4 * 1024);
    a->send(proto::Ping{8});
    add(env, name, "ping answered after 32 MiB", hub.expect(*a, "pong", 3000) ? "yes" : "no", "yes", a->open());
}

void garbage(Env& env) {
    const std::string name = "garbage";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);

    std::mt19937 rng(env.seed);
    std::vector<std::string> bad = {
        std::string(5000, '[') + std::string(5000, ']'),
        "{\"type\":\"ping\",\"a\":" + std::string(100, '{') + std::string(100, '}') + "}",
        "{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xc3\x28\"}",
        "{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xc0\xaf\"}",
        "{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xed\xa0\x80\"}",
        std::string("{\"type\":\"ping\",\0\"id\":1}", 22),
        "{\"type\":\"join\",\"table\":1e999,\"as\":\"red\"}",
        "{\"type\":\"join\",\"table\":-1,\"as\":\"red\"}",
        "{\"type\":\"join\",\"table\":1.5,\"as\":\"red\"}",
        "{\"type\":123}",
        "{\"type\":\"no_such_type\"}",
        "[]",
        "\"just a string\"",
        "{\"type\":\"move\",\"table\":1,\"ply\":0,\"move\":\"\\u0000\\u0000\"}",
        "{\"type\":\"hello\",\"name\":\"again\",\"version\":1}",
        "{\"type\":\"move\",\"table\":4294967296,\"ply\":0,\"move\":\"h2e2\"}",
        "{\"type\":",
        "{{{{",
        "null",
        "{\"type\":\"chat\",\"scope\":\"galaxy\",\"text\":\"hi\"}",
    };
    for (int i = 0; i < 40; ++i) {  // random bytes: no newline, no CR, never empty
        std::string r(1 + rng() % 400, ' ');
        for (char& c : r) {
            do c = char(rng() & 0xFF);
            while (c == '\n' || c == '\r');
        }
        bad.push_back(r);
    }
    // Five connections, each sending every bad line (under the flood limits).
    std::vector<Client*> attackers;
    for (int i = 0; i < 5; ++i)
        if (Client* c = hub.join(s.target, "junk" + std::to_string(i), &why)) attackers.push_back(c);
    Stats st;
    int sent = 0;
    for (std::size_t k = 0; k < bad.size(); ++k) {
        for (Client* c : attackers) {
            c->send_raw(bad[k] + "\n");
            ++sent;
        }
        if (k % 10 == 9) play(hub, g, 1, st);
        hub.pump(1);
    }
    hub.wait(5000, [&] {
        int n = 0;
        for (Client* c : attackers) n += c->count("error");
        return n >= sent;
    });
    int errors = 0, usable = 0, undecodable = 0;
    for (Client* c : attackers) {
        errors += c->count("error");
        undecodable += c->undecodable();
        c->send(proto::Ping{1});
        if (hub.expect(*c, "pong", 3000)) ++usable;
    }
    add(env, name, "bad lines sent / error replies", std::to_string(sent) + " / " + std::to_string(errors),
        "equal", errors == sent);
    add(env, name, "garbage connections still answering", std::to_string(usable) + "/" + std::to_string(attackers.size()),
        "all", usable == int(attackers.size()));
    add(env, name, "undecodable server lines", std::to_string(undecodable), "0", undecodable == 0);
    const bool played = play(hub, g, 20, st, &why);
    add(env, name, "control game moves, p50/p99", std::to_string(st.n()) + ", " + lat(st), "all accepted", played);

    // Garbage instead of hello: error and close.
    int closed = 0;
    const int pre = 50;
    std::vector<Client*> rude;
    std::vector<std::string> not_hello;
    for (const auto& b : bad)
        if (b.find("\"hello\"") == std::string::npos) not_hello.push_back(b);
    for (int i = 0; i < pre; ++i) {
        Client& c = hub.add("rude");
        if (!c.connect(s.target)) continue;
        c.send_raw(not_hello[std::size_t(i) % not_hello.size()] + "\n");
        rude.push_back(&c);
    }
    hub.wait(5000, [&] {
        closed = 0;
        for (Client* c : rude) closed += !c->open();
        return closed == int(rude.size());
    });
    add(env, name, "garbage before hello: closed", std::to_string(closed) + "/" + std::to_string(pre), "all",
        closed == pre);
    add(env, name, "server alive", s.server.running() ? "yes" : "no", "yes", s.server.running());
}

void chat_cut(Env& env) {
    const std::string name = "chat_cut";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    Client* a = hub.join(s.target, "talker", &why);
    Client* b = hub.join(s.target, "listener", &why);
    if (!a || !b) return add(env, name, "join", why, "welcome", false);

    std::string text;
    for (int i = 0; i < 150; ++i) text += "你";
    for (int i = 0; i < 100; ++i) text += "\xF0\x9F\x98\x80";  // U+1F600, 4 bytes
    proto::ChatSend c;
    c.scope = proto::ChatScope::Lobby;
    c.text = text;
    a->send(c);
    auto got = hub.expect(*b, "chat", 3000);
    std::string recv = got ? std::get<proto::ChatLine>(*got->msg).text : "";
    const bool valid = proto::valid_utf8(recv);
    const std::size_t cps = valid ? proto::count_code_points(recv) : 0;
    add(env, name, "250 code points (3- and 4-byte) received as", std::to_string(cps) + " cp, " +
        (valid ? "valid" : "INVALID") + " UTF-8", "200 cp, valid",
        valid && cps == proto::MAX_CHAT_CODE_POINTS && recv == proto::cut_code_points(text, proto::MAX_CHAT_CODE_POINTS));

    // 199 ASCII then a 4-byte character that straddles the cut's byte boundary.
    c.text = std::string(199, 'a') + "\xF0\x9F\x98\x80" + "tail";
    a->send(c);
    got = hub.expect(*b, "chat", 3000);
    recv = got ? std::get<proto::ChatLine>(*got->msg).text : "";
    add(env, name, "cut across a 4-byte character ends with it whole",
        std::to_string(recv.size()) + " bytes", "203 bytes", recv == std::string(199, 'a') + "\xF0\x9F\x98\x80");

    // A character cut mid-way by the sender: refused, nobody receives it.
    a->send_raw("{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"ab\xE4\xBD\"}\n");
    auto err = hub.expect(*a, "error", 3000);
    hub.pump(200);
    const bool none = !b->take("chat").has_value();
    const std::string code = err ? std::string(proto::error_code_name(std::get<proto::Error>(*err->msg).code)) : "none";
    add(env, name, "truncated UTF-8 from sender", code + (none ? ", not relayed" : ", RELAYED"), "bad_utf8",
        code == "bad_utf8" && none);
}

void slowloris(Env& env) {
    const std::string name = "slowloris";
    Session s(env, name, {"--max-clients", "3000"});
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);
    Stats base, under;
    play(hub, g, 100, base);

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
    add(env, name, "closed by the server", std::to_string(closed_at.size()) + "/" + std::to_string(n_drip + n_silent),
        "all", int(closed_at.size()) == n_drip + n_silent);
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
    hub.pump(200);
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
    add(env, name, "spectator that never reads dropped after", dropped ? fmt(ms_since(t0) / 1000.0, 1) + " s" : "never",
        "dropped", dropped);
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
            if (hub.join(s.target, "cap" + std::to_string(i), &why)) ++welcomed;
            else if (why.find("server_full") != std::string::npos) ++full;
            else ++other;
        }
        add(env, name, "80 clients at --max-clients 50: welcomed/full",
            std::to_string(welcomed) + "/" + std::to_string(full), "50/30", welcomed == cap && full == 80 - cap);
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
        add(env, name, "fd exhaustion: recovered, new client welcomed", back ? fmt(ms_since(t0), 0) + " ms" : "no",
            "yes", back);
    }
}

void floods(Env& env) {
    const std::string name = "floods";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    ControlGame g(hub, s.target, "ctl", env.seed);
    std::string why;
    if (!g.start(&why)) return add(env, name, "control game", why, "starts", false);
    Client* watcher = hub.join(s.target, "watcher", &why);
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
    hub.pump(300);
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
    hub.pump(300);
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
        std::to_string(pinger->count("pong")) + " / " + std::to_string(pinger->error_count("rate_limited")) + " / " +
            (pinger->open() ? "no" : "yes"),
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
        games.push_back(std::make_unique<ControlGame>(hub, s.target, "f" + std::to_string(i) + "_", env.seed + i));
        ControlGame& g = *games.back();
        if (!g.start(&why) || !play(hub, g, 2, warm, &why)) return add(env, name, "setup", why, "ok", false);
        Client* sp = hub.join(s.target, "f" + std::to_string(i) + "_s", &why);
        Client* lb = hub.join(s.target, "f" + std::to_string(i) + "_l", &why);
        if (!sp || !lb) return add(env, name, "setup", why, "ok", false);
        sp->send(proto::Join{g.table(), proto::Role::Spectator});
        hub.expect(*sp, "table_snapshot", 3000);
        ts.push_back({&g, sp, lb, g.position().fen(), g.ply()});
    }
    hub.pump(300);
    std::vector<Client*> all;
    std::map<Client*, int> err0;
    std::map<std::string, int> state_lines0;
    const std::vector<std::string> changes = {"move_made", "game_over", "takeback", "offer_draw", "request_takeback",
                                              "new_game", "player_joined", "table_snapshot"};
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
                if (pos.piece_on(Square(a)) != NO_PIECE && color_of(pos.piece_on(Square(a))) == pos.side_to_move() &&
                    a != b && !legal.contains(Move(Square(a), Square(b))))
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
                plan[waiting].push_back(mv(id, ply, their));      // out of turn
                plan[t.spec].push_back(mv(id, ply, mine));        // spectator moves
                plan[t.lobby].push_back(mv(id, ply, mine));       // not at the table
                break;
            case 1:
                plan[to_move].push_back(mv(id, ply, illegal));     // illegal move
                plan[waiting].push_back(mv(id, ply, mine));        // the opponent's piece
                plan[t.spec].push_back(proto::Resign{id});
                plan[t.lobby].push_back(proto::Resign{id});
                break;
            case 2:
                plan[to_move].push_back(mv(other, ply, mine));     // wrong table
                plan[waiting].push_back(proto::AnswerTakeback{id, true});  // nothing to answer
                plan[t.spec].push_back(proto::OfferDraw{id});
                plan[t.lobby].push_back(chat);
                break;
            case 3:
                plan[to_move].push_back(mv(id, ply, "zz99"));      // not ICCS
                plan[waiting].push_back(ai);                       // AI into the opponent's seat
                plan[t.spec].push_back(proto::RequestTakeback{id});
                plan[t.lobby].push_back(proto::Join{4000000000u, proto::Role::Red});
                break;
            default:
                plan[to_move].push_back(mv(id, ply + 5, mine));    // future ply
                plan[waiting].push_back(proto::Resign{other});     // someone else's table
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
    for (const auto& t : changes) {
        int n = 0;
        for (Client* c : all) n += c->count(t);
        changed_lines += n - state_lines0[t];
    }
    add(env, name, "forged requests sent / refused", std::to_string(sent) + " / " + std::to_string(refused_now()),
        "10000 / 10000", sent == 10000 && refused_now() == sent);
    std::string by;
    for (const auto& [code, n] : codes) by += code + "=" + std::to_string(n) + " ";
    std::printf("    refusals by code: %s\n", by.c_str());
    add(env, name, "state-changing broadcasts during the attack", std::to_string(changed_lines), "0",
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
    add(env, name, "tables unchanged (FEN, ply, no result)", std::to_string(same) + "/" + std::to_string(K), "all",
        same == K);
    // And they still play.
    Stats st;
    int playing = 0;
    for (T& t : ts) playing += play(hub, *t.game, 2, st);
    add(env, name, "tables still playing after", std::to_string(playing) + "/" + std::to_string(K), "all",
        playing == K);
}

}  // namespace
}  // namespace xq::attack

int main(int argc, char** argv) {
    using namespace xq::attack;
    CLI::App cli{"xiangqi-attack: attack and load tests against xiangqi-server on loopback"};
    Env env;
    std::vector<std::string> scenarios;
    std::string scale = "ci";
    cli.add_option("--server", env.server_bin, "path to xiangqi-server")->required();
    cli.add_option("--work-dir", env.work_dir, "logs and data go here")->required();
    cli.add_option("--scale", scale, "ci (short) or full (the documented long run)")
        ->check(CLI::IsMember({"ci", "full"}))
        ->capture_default_str();
    cli.add_option("--seed", env.seed, "random seed")->capture_default_str();
    cli.add_option("scenarios", scenarios, "which to run (default: all)");
    CLI11_PARSE(cli, argc, argv);
    env.full = scale == "full";
    std::filesystem::create_directories(env.work_dir);
    ::signal(SIGPIPE, SIG_IGN);
    // Hundreds of sockets: take the hard descriptor limit.
    rlimit rl{};
    if (::getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &rl);
    }

    const std::vector<std::pair<std::string, void (*)(Env&)>> all = {
        {"oversized", oversized}, {"garbage", garbage}, {"chat_cut", chat_cut}, {"slowloris", slowloris},
        {"nonreader", nonreader}, {"caps", caps},       {"floods", floods},     {"forged", forged},
    };
    std::set<std::string> want(scenarios.begin(), scenarios.end());
    for (const auto& w : want) {
        if (std::none_of(all.begin(), all.end(), [&](const auto& p) { return p.first == w; })) {
            std::fprintf(stderr, "unknown scenario %s\n", w.c_str());
            return 64;
        }
    }
    std::printf("  %-12s %-44s %-16s %-20s %s\n", "scenario", "metric", "value", "goal", "result");
    for (const auto& [n, fn] : all) {
        if (!want.empty() && !want.count(n)) continue;
        const auto t0 = Clock::now();
        fn(env);
        std::printf("  %-12s (%.1f s)\n", n.c_str(), ms_since(t0) / 1000.0);
    }
    int failed = 0;
    for (const auto& r : env.rows) failed += !r.ok;
    std::printf("\n%d checks, %d failed\n", int(env.rows.size()), failed);
    return failed == 0 ? 0 : 1;
}
