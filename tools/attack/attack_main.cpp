// xiangqi-attack: attack and load tests against a real xiangqi-server on loopback. Each
// scenario starts its own server (so limits can be set per scenario), attacks it, checks
// that honest clients were unharmed, and reports numbers; the run ends with one table.
// Every connection goes to 127.0.0.1 (sources 127.0.0.x); counts and durations are bounded.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
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

#include "harness.h"
#include "protocol/utf8.h"
#include "xiangqi/game.h"

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
    int kill_rounds = 30;  // kill9 rounds (about 0.8 s each)
};

std::string fmt(double v, int decimals = 2) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string source_addr(int i) {
    return "127.0.0." + std::to_string(2 + i % 250);
}

void add(Env& env, const std::string& scenario, const std::string& metric, const std::string& value,
         const std::string& goal, bool ok) {
    env.rows.push_back({scenario, metric, value, goal, ok});
    std::printf("  %-12s %-44s %-16s %-20s %s\n", scenario.c_str(), metric.c_str(), value.c_str(),
                goal.c_str(), ok ? "ok" : "FAIL");
    std::fflush(stdout);
}

// Every server listens on loopback only, with LAN discovery off (no UDP socket at all) and
// no operator console.
std::vector<std::string> base_args(const Target& t) {
    return {"--bind", "127.0.0.1", "--port", t.port, "--log-level", "warn", "--discovery-port", "0", "--no-console"};
}

// Lines a server logged at level error or critical (database failures among them).
int log_errors(const std::string& path) {
    std::ifstream f(path);
    int n = 0;
    for (std::string line; std::getline(f, line);)
        n += line.find("[error]") != std::string::npos || line.find("[critical]") != std::string::npos;
    return n;
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
        std::vector<std::string> args = base_args(target);
        args.insert(args.end(), extra.begin(), extra.end());
        // Each scenario gets a fresh database (the server keeps games across restarts).
        if (std::find(extra.begin(), extra.end(), "--data-dir") == extra.end()) {
            const std::string data = env.work_dir + "/" + name + "-data";
            std::filesystem::remove_all(data);
            args.insert(args.end(), {"--data-dir", data});
        }
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

std::string lat(const Stats& s) {
    return fmt(s.pct(50) / 1000.0) + "/" + fmt(s.pct(99) / 1000.0) + " ms";
}

// ---- scenarios ---------------------------------------------------------------------------

void oversized(Env& env) {
    const std::string name = "oversized";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    Client* a = hub.join(s.target, "big", &why);
    if (!a) return add(env, name, "join", why, "welcome", false);
    // A 1 MiB line: answered with line_too_long, connection still usable.
    const std::string chunk(64 * 1024, 'x');
    auto t0 = Clock::now();
    for (int i = 0; i < 16; ++i) a->send_raw(chunk);
    a->send_raw("\n");
    auto err = hub.expect(*a, "error", 5000);
    const std::string code =
        err ? std::string(proto::error_code_name(std::get<proto::Error>(*err->msg).code)) : "none";
    add(env, name, "1 MiB line: reply", code + " in " + fmt(ms_since(t0), 1) + " ms", "line_too_long",
        code == "line_too_long");
    a->send(proto::Ping{7});
    const bool pong1 = hub.expect(*a, "pong", 3000).has_value();
    add(env, name, "same connection answers ping after", pong1 ? "yes" : "no", "yes", pong1 && a->open());

    // 32 MiB without a newline: the server must not buffer it (allocator noise aside, its
    // memory must not grow by anything near the line's size).
    const long rss0 = rss_kb(s.server.pid());
    t0 = Clock::now();
    for (int i = 0; i < 512; ++i)
        if (!a->send_raw(chunk)) break;
    a->send_raw("\n");
    auto err2 = hub.expect(*a, "error", 10000);
    const long rss1 = rss_kb(s.server.pid());
    const std::string code2 =
        err2 ? std::string(proto::error_code_name(std::get<proto::Error>(*err2->msg).code)) : "none";
    add(env, name, "32 MiB unterminated line: reply", code2, "line_too_long", code2 == "line_too_long");
    add(env, name, "32 MiB unterminated line: server RSS growth",
        std::to_string((rss1 - rss0) / 1024) + " MiB", "< 8 MiB", rss1 - rss0 < 8 * 1024);
    a->send(proto::Ping{8});
    const bool pong2 = hub.expect(*a, "pong", 3000).has_value();
    add(env, name, "ping answered after 32 MiB", pong2 ? "yes" : "no", "yes", pong2 && a->open());
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
    add(env, name, "garbage connections still answering",
        std::to_string(usable) + "/" + std::to_string(attackers.size()), "all",
        usable == int(attackers.size()));
    add(env, name, "undecodable server lines", std::to_string(undecodable), "0", undecodable == 0);
    const bool played = play(hub, g, 20, st, &why);
    add(env, name, "control game moves, p50/p99", std::to_string(st.n()) + ", " + lat(st), "all accepted",
        played);

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
    add(env, name, "250 code points (3- and 4-byte) received as",
        std::to_string(cps) + " cp, " + (valid ? "valid" : "INVALID") + " UTF-8", "200 cp, valid",
        valid && cps == proto::MAX_CHAT_CODE_POINTS &&
            recv == proto::cut_code_points(text, proto::MAX_CHAT_CODE_POINTS));

    // 199 ASCII then a 4-byte character that straddles the cut's byte boundary.
    c.text = std::string(199, 'a') + "\xF0\x9F\x98\x80" + "tail";
    a->send(c);
    got = hub.expect(*b, "chat", 3000);
    recv = got ? std::get<proto::ChatLine>(*got->msg).text : "";
    add(env, name, "cut across a 4-byte character ends with it whole", std::to_string(recv.size()) + " bytes",
        "203 bytes", recv == std::string(199, 'a') + "\xF0\x9F\x98\x80");

    // A character cut mid-way by the sender: refused, nobody receives it.
    a->send_raw("{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"ab\xE4\xBD\"}\n");
    auto err = hub.expect(*a, "error", 3000);
    hub.pump(200);
    const bool none = !b->take("chat").has_value();
    const std::string code =
        err ? std::string(proto::error_code_name(std::get<proto::Error>(*err->msg).code)) : "none";
    add(env, name, "truncated UTF-8 from sender", code + (none ? ", not relayed" : ", RELAYED"), "bad_utf8",
        code == "bad_utf8" && none);
}

// Issue #15's identity probes, each kept as a regression: spoofing names and look-alikes
// refused at hello, the operator's voice not a chat line, echoed input cut.
void identity(Env& env) {
    const std::string name = "identity";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    Client* mallory = hub.join(s.target, "Mallory", &why);
    if (!mallory) return add(env, name, "join", why, "welcome", false);
    auto refusal = [&](const std::string& nick) {
        Client& c = hub.add("probe");
        if (!c.connect(s.target)) return std::string("no connect");
        c.send(proto::Hello{nick, proto::PROTOCOL_VERSION, ""});
        auto got = hub.expect(c, "error", 3000);
        hub.wait(2000, [&] { return !c.open(); });
        const std::string code =
            got ? std::string(proto::error_code_name(std::get<proto::Error>(*got->msg).code)) : "welcomed";
        return c.open() ? code + " (left open)" : code;
    };
    int bad = 0, total = 0;
    for (const std::string nick : {"[server]", "\u202emallory", "\u2066x", "x\u200f", "a\u200bb", "a\u200db",
                                   "\ufeffab", "\u200b", "\u3000", "\u00a0", "\u3164", "\u0301\u0302"}) {
        ++total;
        const std::string code = refusal(nick);
        if (code != "bad_name") ++bad;
    }
    add(env, name, "spoofing names refused (12 probes)", std::to_string(total - bad) + "/" + std::to_string(total),
        "all bad_name, closed", bad == 0);
    bad = 0;
    for (const std::string nick : {"mallory", "MALLORY", "rnallory", "mal\u200blory", "mallory\u200d", "\u202emallory"}) {
        const std::string code = refusal(nick);
        if (code != "name_taken" && code != "bad_name") ++bad;
    }
    add(env, name, "look-alikes of a present name refused (6)", std::to_string(6 - bad) + "/6",
        "name_taken/bad_name", bad == 0);

    mallory->send(proto::CreateTable{"probe table", proto::Role::Red});
    auto snap = hub.expect(*mallory, "table_snapshot", 3000);
    proto::Invite inv;
    inv.table = snap ? std::get<proto::TableSnapshot>(*snap->msg).table.id : 0;
    inv.name = std::string(16000, 'x');
    mallory->send(inv);
    auto err = hub.expect(*mallory, "error", 3000);
    const std::size_t bytes = err ? err->text.size() : 0;
    add(env, name, "error reply to a 16 KB invite.name", std::to_string(bytes) + " bytes", "< 2 KB",
        err && bytes < 2048);
    hub.remove_closed();
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
    hub.pump(300);
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
    for (const auto& t : changes) {
        int n = 0;
        for (Client* c : all) n += c->count(t);
        changed_lines += n - state_lines0[t];
    }
    add(env, name, "forged requests sent / refused",
        std::to_string(sent) + " / " + std::to_string(refused_now()), "10000 / 10000",
        sent == 10000 && refused_now() == sent);
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
    add(env, name, "tables unchanged (FEN, ply, no result)", std::to_string(same) + "/" + std::to_string(K),
        "all", same == K);
    // And they still play.
    Stats st;
    int playing = 0;
    for (T& t : ts) playing += play(hub, *t.game, 2, st);
    add(env, name, "tables still playing after", std::to_string(playing) + "/" + std::to_string(K), "all",
        playing == K);
}

// Bots, spectators, AI-versus-AI tables, chat and random abrupt disconnects for a while;
// afterwards, with every client gone, the server's memory and descriptors are back at the
// baseline measured after a warm-up round of the same mix.
struct SoakCounters {
    int moves = 0, disconnects = 0, ai_moves = 0, games_started = 0, ai_games = 0, spectator_visits = 0,
        spectator_moves = 0, failures = 0;
    std::string last_failure;
    Stats latency;
};

void soak_round(Env& env, const Target& target, int seconds, std::uint32_t seed, SoakCounters& k) {
    Hub hub;
    std::mt19937 rng(seed);
    const int n_games = env.full ? 30 : 12, n_spectators = env.full ? 30 : 12, n_ai_tables = 2;
    std::vector<std::unique_ptr<ControlGame>> games;
    int serial = 0;
    auto new_game = [&]() {
        auto g = std::make_unique<ControlGame>(
            hub, target, "s" + std::to_string(seed) + "_" + std::to_string(serial++) + "_",
            std::uint32_t(rng()));
        g->min_interval_ms = 150;
        std::string why;
        if (!g->start(&why)) {
            ++k.failures;
            k.last_failure = "bot game start: " + why;
            return std::unique_ptr<ControlGame>();
        }
        ++k.games_started;
        return g;
    };
    for (int i = 0; i < n_games; ++i)
        if (auto g = new_game()) games.push_back(std::move(g));

    // AI-versus-AI tables, created by a spectator who asks for both seats.
    std::vector<Client*> ai_hosts;
    auto start_ai_table = [&](Client* host) {
        proto::CreateTable ct;
        ct.name = "ai soak";
        ct.as = proto::Role::Spectator;
        host->send(ct);
        auto snap = hub.expect(*host, "table_snapshot", 3000);
        if (!snap) return;
        const auto id = std::get<proto::TableSnapshot>(*snap->msg).table.id;
        host->send(proto::RequestAi{id, RED, 1});
        host->send(proto::RequestAi{id, BLACK, 1});
        ++k.ai_games;
    };
    for (int i = 0; i < n_ai_tables; ++i) {
        std::string why;
        Client* h = hub.join(target, "aihost" + std::to_string(seed) + "_" + std::to_string(i), &why);
        if (!h) continue;
        h->observer = [&k](const Line& l) {
            if (l.type == "move_made") ++k.ai_moves;
        };
        start_ai_table(h);
        ai_hosts.push_back(h);
    }
    std::vector<Client*> specs;
    for (int i = 0; i < n_spectators; ++i) {
        std::string why;
        if (Client* c = hub.join(target, "spec" + std::to_string(seed) + "_" + std::to_string(i), &why))
            specs.push_back(c);
    }
    // Spectators must actually be served the games they watch.
    auto count_moves = [&k](const Line& l) {
        if (l.type == "move_made") ++k.spectator_moves;
    };
    for (Client* c : specs) c->observer = count_moves;
    std::map<Client*, proto::TableId> watching;

    const auto end = Clock::now() + std::chrono::seconds(seconds);
    auto next_event = Clock::now();
    std::size_t turn = 0;
    while (Clock::now() < end) {
        // One bot move per pass, round robin.
        if (!games.empty()) {
            ControlGame& g = *games[turn++ % games.size()];
            const int before = g.moves_played();
            if (!g.step(k.latency, 5000)) {
                ++k.failures;
                k.last_failure = g.why();
            }
            k.moves += g.moves_played() - before;
        }
        hub.pump(0);
        if (Clock::now() < next_event) continue;
        next_event = Clock::now() + std::chrono::milliseconds(250);
        const unsigned roll = rng() % 100;
        if (roll < 15 && !games.empty()) {
            // A random abrupt disconnect: both players of a bot game vanish; a new game starts.
            const std::size_t i = rng() % games.size();
            games[i]->red()->close();
            games[i]->black()->close();
            ++k.disconnects;
            games.erase(games.begin() + std::ptrdiff_t(i));
            hub.remove_closed();
            if (auto g = new_game()) games.push_back(std::move(g));
        } else if (roll < 60 && !specs.empty() && !games.empty()) {
            // A spectator moves to another table (leaves, or sometimes drops its connection).
            const std::size_t i = rng() % specs.size();
            Client* c = specs[i];
            if (watching.count(c)) {
                if (rng() % 4 == 0) {
                    c->close();
                    ++k.disconnects;
                    watching.erase(c);
                    hub.remove_closed();
                    std::string why;
                    specs[i] = hub.join(
                        target, "spec" + std::to_string(seed) + "_r" + std::to_string(serial++), &why);
                    if (!specs[i]) specs.erase(specs.begin() + std::ptrdiff_t(i));
                    else specs[i]->observer = count_moves;
                    continue;
                }
                c->send(proto::Leave{watching[c]});
                watching.erase(c);
            } else {
                const proto::TableId t = games[rng() % games.size()]->table();
                c->send(proto::Join{t, proto::Role::Spectator});
                watching[c] = t;
                ++k.spectator_visits;
            }
        } else if (roll < 70 && !games.empty()) {
            ControlGame& g = *games[rng() % games.size()];
            proto::ChatSend c;
            c.scope = proto::ChatScope::Table;
            c.table = g.table();
            c.text = "好棋 good move";
            g.red()->send(c);
        }
        // Restart AI tables whose game ended.
        for (Client* h : ai_hosts) {
            if (auto over = h->take("game_over")) {
                const auto id = std::get<proto::GameOver>(*over->msg).table;
                h->send(proto::Leave{id});
                hub.expect(*h, "left", 3000);
                start_ai_table(h);
            }
            while (h->inbox().size() > 1000) h->inbox().pop_front();
        }
        for (Client* c : specs)
            while (c->inbox().size() > 1000) c->inbox().pop_front();
    }
    for (auto& c : hub.clients()) c->close();
}

void soak(Env& env) {
    const std::string name = "soak";
    Session s(env, name,
              {"--seat-grace", "1", "--ai-workers", "1", "--ai-min-move-ms", "50", "--max-clients", "1000"});
    if (!s.ok) return;
    const int pid = s.server.pid();
    auto settle = [&] {
        // Seats of vanished players are held for the grace period; tables go when empty.
        std::this_thread::sleep_for(std::chrono::seconds(4));
    };
    SoakCounters warm;
    soak_round(env, s.target, 5, env.seed, warm);
    settle();
    const long rss0 = rss_kb(pid);
    const int fds0 = open_fds(pid);

    // Two halves with a pause between: memory that keeps growing from one half to the next
    // is a leak; a cache filling up grows in the first half only.
    const int seconds = env.full ? 600 : 60;
    SoakCounters k;
    soak_round(env, s.target, seconds / 2, env.seed + 1, k);
    long rss_peak = rss_kb(pid);
    settle();
    const long rss_mid = rss_kb(pid);
    const int fds_mid = open_fds(pid);
    soak_round(env, s.target, seconds - seconds / 2, env.seed + 2, k);
    rss_peak = std::max(rss_peak, rss_kb(pid));
    settle();
    const long rss1 = rss_kb(pid);
    const int fds1 = open_fds(pid);
    add(env, name, "duration", std::to_string(seconds) + " s", "", true);
    add(env, name, "bot moves / AI moves seen", std::to_string(k.moves) + " / " + std::to_string(k.ai_moves),
        "> 0", k.moves > 0 && k.ai_moves > 0);
    add(env, name, "bot games / AI games / abrupt disconnects",
        std::to_string(k.games_started) + " / " + std::to_string(k.ai_games) + " / " + std::to_string(k.disconnects),
        "> 0", k.games_started > 0 && k.ai_games > 0 && k.disconnects > 0);
    add(env, name, "spectator visits / moves they were sent",
        std::to_string(k.spectator_visits) + " / " + std::to_string(k.spectator_moves), "> 0",
        k.spectator_visits > 0 && k.spectator_moves > 0);
    add(env, name, "bot move p50/p99", lat(k.latency), "p99 < 50 ms", k.latency.pct(99) < 50000);
    add(env, name, "unexpected failures",
        std::to_string(k.failures) + (k.failures ? " (" + k.last_failure + ")" : ""), "0", k.failures == 0);
    add(env, name, "server fds baseline / half-time / after",
        std::to_string(fds0) + " / " + std::to_string(fds_mid) + " / " + std::to_string(fds1), "equal",
        fds0 == fds1 && fds0 == fds_mid);
    add(env, name, "server RSS KiB baseline / half-time / after",
        std::to_string(rss0) + " / " + std::to_string(rss_mid) + " / " + std::to_string(rss1),
        "after <= base+10%+2MiB", rss1 <= rss0 + rss0 / 10 + 2048);
    add(env, name, "server RSS peak while loaded", std::to_string(rss_peak / 1024) + " MiB", "info", true);
    add(env, name, "server RSS growth, first / second half",
        std::to_string(rss_mid - rss0) + " / " + std::to_string(rss1 - rss_mid) + " KiB", "info", true);
    add(env, name, "server alive", s.server.running() ? "yes" : "no", "yes", s.server.running());
    const int bad = log_errors(s.log);
    add(env, name, "server log errors", std::to_string(bad), "0", bad == 0);
}

// ---- kill9 -------------------------------------------------------------------------------
// Repeated kill -9 of a loaded server. Bot pairs and one human-versus-AI table play
// pipelined, each watched by a spectator, so moves are in flight at the random moment of the
// kill. Every move_made any client received (players or spectator, including lines still
// read from the sockets after the kill) is an acknowledged move. After each restart every
// player reclaims its seat with its resume token; its snapshot must start with all
// acknowledged moves of its game (after them at most the move that was in flight and one AI
// reply), a fresh spectator and the archive (`get_game`) must show the same moves, and the
// game must go on (the AI must move again). A game that ended at the kill must be in the
// archive instead. At the end every game of every pair is compared with the archive.

// One pair of players at one table plus a spectator; black may be an AI.
struct KillGame {
    std::string prefix;
    bool ai_black = false;
    bool broken = false;                     // a failure was counted; the game is left alone
    Client* red = nullptr;
    Client* black = nullptr;                 // nullptr when black is an AI
    Client* spec = nullptr;
    proto::TableId table = 0;
    Game game;                               // acknowledged moves of the current game
    std::vector<std::string> moves;          // the same in ICCS
    std::string pending;                     // sent, no move_made seen yet
    Clock::time_point pending_since{}, next_send{};
    std::map<int, std::string> seen;         // ply -> move, from any move_made of this table
    bool over = false;                       // game_over seen for this table
    int conflicts = 0;                       // two clients saw different moves for one ply
    std::string error;                       // an error line a client of this game received
    bool await_ai = false;                   // restarted: the AI has not moved again yet
    std::vector<std::vector<std::string>> finished;  // earlier games of this pair, as acknowledged
    std::mt19937 rng;
};

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

class KillRun {
public:
    KillRun(Hub& hub, Target target) : hub_(hub), target_(std::move(target)) {}

    static constexpr std::size_t MAX_PLIES = 160;  // then the pair starts a new game
    static constexpr int SEND_GAP_MS = 25;         // per pair: each player stays near 20 lines/s
    Stats latency;
    int acked_moves = 0, ai_moves = 0, games_started = 0;

    void observe(KillGame& g, Client* c) {
        if (c) c->observer = [&g](const Line& l) { watch_kill_game(g, l); };
    }

    Client* join(KillGame& g, const std::string& name, std::string* why) {
        Client* c = hub_.join(target_, name, why);
        observe(g, c);
        return c;
    }

    // A new table for the pair: red creates, black (or the AI) sits, the spectator watches.
    bool new_table(KillGame& g, std::string* why) {
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

    // The pair's current game becomes `moves` (from a snapshot or the archive).
    static bool reset_game(KillGame& g, const std::vector<std::string>& moves, std::string* why) {
        g.game = Game();
        g.moves.clear();
        g.seen.clear();
        g.pending.clear();
        g.over = false;
        for (const auto& m : moves) {
            if (!g.game.play(iccs_move(m))) return *why = "the server's game holds " + m + ", not legal", false;
            g.moves.push_back(m);
            g.seen[int(g.moves.size())] = m;
        }
        return true;
    }

    // Applies every move_made seen, in order; false on a contradiction.
    bool confirm(KillGame& g, std::string* why) {
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

    // One pass of play for a pair: confirm what arrived, send the next move if none is in
    // flight (`now`: without the pause between moves); a finished game makes way for a new one.
    bool drive(KillGame& g, std::string* why, bool now = false) {
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

    // Reconnects `old` with its resume token; `snap` gets the snapshot when the seat came back.
    Client* resume(KillGame& g, Client* old, bool* resumed, std::optional<proto::TableSnapshot>* snap,
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

    // The games of the pair (red's name) in the archive, oldest first; only the newest when
    // newest_only.
    std::optional<std::vector<proto::GameRecord>> archive(const std::string& red_name, bool newest_only,
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

private:
    Hub& hub_;
    Target target_;
    int auditors_ = 0;
};

// Moves beyond the acknowledged ones that the server may legitimately hold after a kill:
// the request that was in flight, and an AI reply to it. Returns how many (or -1).
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

// Acknowledged moves missing from (or changed in) `server_moves`.
int missing(const std::vector<std::string>& acked, const std::vector<std::string>& server_moves) {
    int lost = 0;
    for (std::size_t i = 0; i < acked.size(); ++i) lost += i >= server_moves.size() || server_moves[i] != acked[i];
    return lost;
}

void kill9(Env& env) {
    const std::string name = "kill9";
    const std::string data = env.work_dir + "/kill9-data";
    std::filesystem::remove_all(data);
    const std::vector<std::string> extra = {"--data-dir",   data, "--seat-grace",      "120",
                                            "--ai-workers", "1",  "--ai-min-move-ms", "20"};
    Session s(env, name, extra);
    if (!s.ok) return;
    std::vector<std::string> args = base_args(s.target);
    args.insert(args.end(), extra.begin(), extra.end());
    const int rounds = std::max(1, env.kill_rounds);
    const int n_pairs = 6;  // bot pairs, plus one human-versus-AI table
    Hub hub;
    KillRun run(hub, s.target);
    std::vector<std::unique_ptr<KillGame>> games;
    std::string why;
    for (int i = 0; i <= n_pairs; ++i) {
        auto g = std::make_unique<KillGame>();
        g->prefix = "k" + std::to_string(i) + "_";
        g->ai_black = i == n_pairs;
        g->rng.seed(env.seed + std::uint32_t(i));
        g->red = run.join(*g, g->prefix + "r", &why);
        g->black = g->ai_black ? nullptr : run.join(*g, g->prefix + "b", &why);
        g->spec = run.join(*g, g->prefix + "s", &why);
        if (!g->red || (!g->ai_black && !g->black) || !g->spec || !run.new_table(*g, &why))
            return add(env, name, "setup", why, "ok", false);
        games.push_back(std::move(g));
    }
    int failures = 0;
    std::string last_failure;
    auto fail = [&](KillGame& g, const std::string& w) {
        ++failures;
        last_failure = g.prefix + ": " + w;
        g.broken = true;
        if (env.verbose) std::printf("    kill9 failure: %s\n", last_failure.c_str());
    };
    // Plays for ms (and, after a restart, until the AI has moved again, at most 10 s more).
    auto play_for = [&](int ms) {
        const auto until = Clock::now() + std::chrono::milliseconds(ms);
        const auto hard = until + std::chrono::seconds(10);
        while (true) {
            const auto now = Clock::now();
            bool waiting_ai = false;
            for (auto& g : games) waiting_ai |= !g->broken && g->await_ai;
            if (now >= hard) {
                for (auto& g : games)
                    if (!g->broken && g->await_ai) fail(*g, "the AI did not move within 10 s of a restart");
                break;
            }
            if (now >= until && !waiting_ai) break;
            for (auto& g : games)
                if (!g->broken && !run.drive(*g, &why)) fail(*g, why);
            hub.pump(1);
            for (auto& c : hub.clients()) c->inbox().clear();  // the observers have seen every line
        }
    };

    std::mt19937 rng(env.seed);
    int rounds_done = 0, in_flight = 0, acked_after_kill = 0, committed_unacked = 0, lost = 0, restored = 0,
        ended_at_kill = 0, archive_checked = 0, checks = 0;
    Stats restart;
    const auto t_begin = Clock::now();
    const double budget_ms = env.full ? 900000.0 : 240000.0;
    for (int r = 0; r < rounds && ms_since(t_begin) < budget_ms; ++r) {
        play_for(200 + int(rng() % 1000));
        // Every pair that can sends a move at once, and the kill lands a random 0-1 ms later,
        // while the server is reading, committing and answering them.
        for (auto& g : games)
            if (!g->broken && !run.drive(*g, &why, true)) fail(*g, why);
        std::this_thread::sleep_for(std::chrono::microseconds(rng() % 1000));
        std::map<KillGame*, std::size_t> before;
        for (auto& g : games) {
            in_flight += !g->broken && !g->pending.empty();
            before[g.get()] = g->moves.size();
        }
        s.server.kill9();
        // What the server wrote before it died is still in our sockets: read it to the end.
        hub.wait(3000, [&] {
            return std::none_of(hub.clients().begin(), hub.clients().end(), [](auto& c) { return c->open(); });
        });
        for (auto& g : games) {
            if (g->broken) continue;
            if (!run.confirm(*g, &why)) fail(*g, why);
            acked_after_kill += int(g->moves.size() - before[g.get()]);
        }
        const auto t0 = Clock::now();
        if (!s.server.start(env.server_bin, args, s.log, s.target, 0, &why))
            return add(env, name, "restart " + std::to_string(r + 1), why, "restarts", false);
        restart.add(ms_since(t0) * 1000.0);
        ++rounds_done;

        for (auto& gp : games) {
            KillGame& g = *gp;
            if (g.broken) continue;
            ++checks;
            bool rr = false, rb = true;
            std::optional<proto::TableSnapshot> sr, sb;
            if (!(g.red = run.resume(g, g.red, &rr, &sr, &why))) {
                fail(g, why);
                continue;
            }
            if (!g.ai_black && !(g.black = run.resume(g, g.black, &rb, &sb, &why))) {
                fail(g, why);
                continue;
            }
            const std::string spec_name = g.spec->name();
            g.spec->close();
            if (!(g.spec = run.join(g, spec_name, &why))) {
                fail(g, why);
                continue;
            }
            const bool back = rr && sr && (g.ai_black || (rb && sb));
            if (back) {
                ++restored;
                const auto& mv = sr->moves;
                const int l = missing(g.moves, mv);
                lost += l;
                const int tail = unacked_tail(g, mv);
                if (l > 0) fail(g, std::to_string(l) + " acknowledged moves missing after the restart");
                else if (tail < 0) fail(g, "the restored game holds moves nobody sent");
                else if (sb && sb->moves != mv) fail(g, "red's and black's snapshots differ");
                else if (sr->table.id != g.table) fail(g, "the game came back at another table");
                if (g.broken) continue;
                committed_unacked += tail > 0 && !g.pending.empty() && mv[g.moves.size()] == g.pending;
                g.spec->send(proto::Join{g.table, proto::Role::Spectator});
                auto ss = hub.expect(*g.spec, "table_snapshot", 5000);
                if (!ss || std::get<proto::TableSnapshot>(*ss->msg).moves != mv) {
                    fail(g, "a new spectator sees another game");
                    continue;
                }
                auto rec = run.archive(g.red->name(), true, &why);
                if (!rec || rec->empty() || rec->back().moves != mv) {
                    fail(g, rec ? "the archive's record differs from the restored table" : why);
                    continue;
                }
                ++archive_checked;
                if (!KillRun::reset_game(g, mv, &why)) {
                    fail(g, why);
                    continue;
                }
                g.await_ai = g.ai_black && !g.game.over();
            } else {
                // Not restored: only right if the game had ended (with the acknowledged moves,
                // or with the move in flight); the archive must hold it.
                auto rec = run.archive(g.red->name(), true, &why);
                if (!rec || rec->empty()) {
                    fail(g, rec ? "the game is neither restored nor in the archive" : why);
                    lost += int(g.moves.size());
                    continue;
                }
                const auto& mv = rec->back().moves;
                const int l = missing(g.moves, mv);
                lost += l;
                const int tail = unacked_tail(g, mv);
                Game replay;
                for (const auto& m : mv) replay.play(iccs_move(m));
                if (l > 0) fail(g, std::to_string(l) + " acknowledged moves missing from the archive");
                else if (tail < 0) fail(g, "the archived game holds moves nobody sent");
                else if (!replay.over() && rec->back().game.result == Outcome::Ongoing && !g.over)
                    fail(g, "an unfinished game was not restored (resumed=" + std::string(rr ? "true" : "false") + ")");
                if (g.broken) continue;
                ++ended_at_kill;
                ++archive_checked;
                committed_unacked += tail > 0 && !g.pending.empty() && mv[g.moves.size()] == g.pending;
                // Start over at a new table (the finished game is remembered for the final check).
                g.moves = mv;
                g.table = 0;
                if (!run.new_table(g, &why)) fail(g, why);
            }
        }
        hub.remove_closed();
    }
    play_for(500);  // every restart is followed by play (and the AI's reply is awaited)

    // Finally, every game each pair played against the archive.
    int archived_games = 0, archive_mismatch = 0;
    for (auto& g : games) {
        if (g->broken) continue;
        std::vector<std::vector<std::string>> expect = g->finished;
        expect.push_back(g->moves);
        auto recs = run.archive(g->red->name(), false, &why);
        if (!recs) {
            fail(*g, why);
            continue;
        }
        if (recs->size() != expect.size()) {
            fail(*g, "archive holds " + std::to_string(recs->size()) + " games, played " +
                         std::to_string(expect.size()));
            continue;
        }
        for (std::size_t i = 0; i < expect.size(); ++i) {
            ++archived_games;
            const auto& mv = (*recs)[i].moves;
            const bool last = i + 1 == expect.size();
            // The current game may hold the move still in flight.
            if (missing(expect[i], mv) > 0 || (!last && mv.size() != expect[i].size()) ||
                (last && mv.size() > expect[i].size() + 2)) {
                ++archive_mismatch;
                fail(*g, "archived game " + std::to_string(i + 1) + " differs from what was played");
            }
        }
    }
    add(env, name, "kill -9 rounds under load", std::to_string(rounds_done), std::to_string(rounds),
        rounds_done == rounds);
    add(env, name, "moves acknowledged (bots + AI)",
        std::to_string(run.acked_moves) + " (" + std::to_string(run.ai_moves) + " AI)", "> 0",
        run.acked_moves > 0 && run.ai_moves > 0);
    add(env, name, "move requests in flight at the kills", std::to_string(in_flight), "> 0", in_flight > 0);
    add(env, name, "move_made read after the kills (bots + AI)", std::to_string(acked_after_kill), "info", true);
    add(env, name, "games restored / ended at the kill (of checks)",
        std::to_string(restored) + " / " + std::to_string(ended_at_kill) + " (" + std::to_string(checks) + ")",
        "sum = checks", restored + ended_at_kill == checks && restored > 0);
    add(env, name, "acknowledged moves lost", std::to_string(lost), "0", lost == 0);
    add(env, name, "in-flight moves committed, never acknowledged", std::to_string(committed_unacked),
        "allowed", true);
    add(env, name, "restored games equal to the archive", std::to_string(archive_checked), "= checks",
        archive_checked == checks);
    add(env, name, "games played / archive mismatches",
        std::to_string(archived_games) + " / " + std::to_string(archive_mismatch), "all archived, 0",
        archived_games >= int(games.size()) && archive_mismatch == 0);
    add(env, name, "restart to listening, p50/max",
        fmt(restart.pct(50) / 1000.0, 0) + "/" + fmt(restart.pct(100) / 1000.0, 0) + " ms", "", true);
    add(env, name, "move round trip p50/p99", lat(run.latency), "info", true);
    add(env, name, "failures", std::to_string(failures) + (failures ? " (" + last_failure + ")" : ""), "0",
        failures == 0);
    const int bad = log_errors(s.log);
    add(env, name, "server log errors (all " + std::to_string(rounds_done + 1) + " runs)", std::to_string(bad), "0",
        bad == 0);
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
    cli.add_option("--kill-rounds", env.kill_rounds, "kill -9 rounds of the kill9 scenario")->capture_default_str();
    cli.add_flag("-v,--verbose", env.verbose, "print failures as they happen");
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
        {"soak", soak},           {"kill9", kill9},       {"identity", identity},
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
