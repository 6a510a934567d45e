// The kill9 scenario: repeated kill -9 of a loaded server; every acknowledged move must be
// there after each restart, in the snapshot, for a fresh spectator and in the archive.
#include "scenario.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "kill9_run.h"
#include "xiangqi/game.h"

namespace xq::attack {

// Repeated kill -9 of a loaded server. Bot pairs and one human-versus-AI table play
// pipelined, each watched by a spectator, so moves are in flight at the random moment of the
// kill. Every move_made any client received (players or spectator, including lines still
// read from the sockets after the kill) is an acknowledged move. After each restart every
// player reclaims its seat with its resume token; its snapshot must start with all
// acknowledged moves of its game (after them at most the move that was in flight and one AI
// reply), a fresh spectator and the archive (`get_game`) must show the same moves, and the
// game must go on (the AI must move again). A game that ended at the kill must be in the
// archive instead. At the end every game of every pair is compared with the archive.
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
        // Appended, not "k" + ...: g++ 12 at -O3 warns a false -Wrestrict on that operator+ here.
        g->prefix = "k";
        g->prefix += std::to_string(i) + "_";
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
                // What a later look must show: the restored moves, and on the AI's table
                // possibly one AI move more (the AI plays on while the others come back).
                auto same_game = [&](const auto& seen) {
                    if (seen.size() == mv.size()) return std::equal(mv.begin(), mv.end(), seen.begin());
                    return g.ai_black && seen.size() == mv.size() + 1 &&
                           std::equal(mv.begin(), mv.end(), seen.begin());
                };
                g.spec->send(proto::Join{g.table, proto::Role::Spectator});
                auto ss = hub.expect(*g.spec, "table_snapshot", 5000);
                if (!ss || !same_game(std::get<proto::TableSnapshot>(*ss->msg).moves)) {
                    fail(g, "a new spectator sees another game");
                    continue;
                }
                auto rec = run.archive(g.red->name(), true, &why);
                if (!rec || rec->empty() || !same_game(rec->back().moves)) {
                    fail(g, rec ? "the archive's record differs from the restored table" : why);
                    continue;
                }
                ++archive_checked;
                if (!KillRun::reset_game(g, mv, &why, true)) {
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

}  // namespace xq::attack
