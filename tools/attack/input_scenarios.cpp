// Scenarios of bad input: oversized lines, garbage and malformed JSON, and chat cut at its
// limit; the server answers each with an error, honest clients play on (issue #15's identity
// probes and protocol promises are in identity_scenarios.cpp and promise_scenarios.cpp).
#include "scenario.h"

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "protocol/utf8.h"

namespace xq::attack {

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
    // Measured once the server's memory holds still: its startup work on other threads
    // (seen adding up to 10 MiB under load) is not the line's.
    const long rss0 = settled_rss_kb(s.server.pid());
    t0 = Clock::now();
    for (int i = 0; i < 512; ++i)
        if (!a->send_raw(chunk)) break;
    a->send_raw("\n");
    auto err2 = hub.expect(*a, "error", 10000);
    const long rss1 = rss_kb(s.server.pid());
    const std::string code2 =
        err2 ? std::string(proto::error_code_name(std::get<proto::Error>(*err2->msg).code)) : "none";
    add(env, name, "32 MiB unterminated line: reply", code2, "line_too_long", code2 == "line_too_long");
    // Under ASan freed chunks sit in its quarantine, so the bound is looser there, but still
    // well below the line's own 32 MiB (a server that buffered the line would fail either).
    const long bound_mib = env.sanitized ? 20 : 8;
    add(env, name, "32 MiB unterminated line: server RSS growth",
        std::to_string((rss1 - rss0) / 1024) + " MiB", "< " + std::to_string(bound_mib) + " MiB",
        rss1 - rss0 < bound_mib * 1024);
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
    hub.drain(200);
    const bool none = !b->take("chat").has_value();
    const std::string code =
        err ? std::string(proto::error_code_name(std::get<proto::Error>(*err->msg).code)) : "none";
    add(env, name, "truncated UTF-8 from sender", code + (none ? ", not relayed" : ", RELAYED"), "bad_utf8",
        code == "bad_utf8" && none);
}

}  // namespace xq::attack
