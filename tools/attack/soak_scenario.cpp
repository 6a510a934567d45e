// The soak scenario: bots, spectators, AI tables, chat and abrupt disconnects for a while;
// afterwards memory and descriptors are back at their baseline.
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

namespace {

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
        // Built by appending: GCC 12 warns falsely (-Wrestrict) on "s" + std::to_string(...).
        std::string prefix = std::to_string(seed);
        prefix.insert(prefix.begin(), 's');
        prefix += '_';
        prefix += std::to_string(serial++);
        prefix += '_';
        auto g = std::make_unique<ControlGame>(hub, target, prefix, std::uint32_t(rng()));
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

}  // namespace

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
    const int seconds = env.soak_seconds > 0 ? env.soak_seconds : env.full ? 600 : 60;
    SoakCounters warm;
    soak_round(env, s.target, std::min(5, seconds), env.seed, warm);
    settle();
    const long rss0 = rss_kb(pid);
    const int fds0 = open_fds(pid);

    // Two halves with a pause between: memory that keeps growing from one half to the next
    // is a leak; a cache filling up grows in the first half only.
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
    // A sanitizer build shows its latency and memory; LeakSanitizer judges leaks at exit.
    const std::string judged = env.sanitized ? "info (sanitized)" : "";
    add(env, name, "bot move p50/p99", lat(k.latency), env.sanitized ? judged : "p99 < 50 ms",
        env.sanitized || k.latency.pct(99) < 50000);
    add(env, name, "unexpected failures",
        std::to_string(k.failures) + (k.failures ? " (" + k.last_failure + ")" : ""), "0", k.failures == 0);
    add(env, name, "server fds baseline / half-time / after",
        std::to_string(fds0) + " / " + std::to_string(fds_mid) + " / " + std::to_string(fds1), "equal",
        fds0 == fds1 && fds0 == fds_mid);
    add(env, name, "server RSS KiB baseline / half-time / after",
        std::to_string(rss0) + " / " + std::to_string(rss_mid) + " / " + std::to_string(rss1),
        env.sanitized ? judged : "after <= base+10%+2MiB", env.sanitized || rss1 <= rss0 + rss0 / 10 + 2048);
    add(env, name, "server RSS peak while loaded", std::to_string(rss_peak / 1024) + " MiB", "info", true);
    add(env, name, "server RSS growth, first / second half",
        std::to_string(rss_mid - rss0) + " / " + std::to_string(rss1 - rss_mid) + " KiB", "info", true);
    add(env, name, "server alive", s.server.running() ? "yes" : "no", "yes", s.server.running());
    const int bad = log_errors(s.log);
    add(env, name, "server log errors", std::to_string(bad), "0", bad == 0);
}

}  // namespace xq::attack
