// The promises scenario: PROTOCOL.md's limits and refusals probed as a hostile client would
// (issue #15 points 5 and 6).
#include "protocol/utf8.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace xq::attack {

// Issue #15 point 6: PROTOCOL.md's promises kept, each probed as a hostile client would: a
// flooder's cut heard as `dropped`, list_games limits outside 1..50 refused, a first line
// over 16 KiB closed, duplicate keys and a byte order mark refused; and point 5: a worst-case
// lobby's welcome lines each within 16 KiB.
void promises(Env& env) {
    const std::string name = "promises";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    auto code_of = [](const std::optional<Line>& l) {
        return l ? std::string(proto::error_code_name(std::get<proto::Error>(*l->msg).code)) : std::string("none");
    };

    // A seated player floods (far past 200 refused lines in a row): the opponent hears
    // player_left with the reason dropped, not disconnected.
    Client* red = hub.join(s.target, "flooder", &why);
    Client* black = hub.join(s.target, "patient", &why);
    if (!red || !black) return add(env, name, "join", why, "welcome", false);
    red->send(proto::CreateTable{"flood table", proto::Role::Red});
    auto snap = hub.expect(*red, "table_snapshot", 3000);
    const proto::TableId table = snap ? std::get<proto::TableSnapshot>(*snap->msg).table.id : 0;
    black->send(proto::Join{table, proto::Role::Black});
    hub.expect(*black, "table_snapshot", 3000);
    std::string burst;
    for (int i = 0; i < 1000; ++i) burst += proto::encode(proto::ClientMessage{proto::Ping{i}}) + "\n";
    red->send_raw(burst);
    std::optional<proto::LeaveReason> reason;
    auto left = hub.expect(*black, "player_left", 10000, [](const Line& l) {
        return std::get<proto::PlayerLeft>(*l.msg).name == "flooder";
    });
    if (left) reason = std::get<proto::PlayerLeft>(*left->msg).reason;
    const std::string heard = !reason                                   ? "nothing"
                              : *reason == proto::LeaveReason::Dropped ? "dropped"
                              : *reason == proto::LeaveReason::Disconnected ? "disconnected"
                                                                            : "other";
    add(env, name, "flooder cut: its table hears", heard, "dropped", heard == "dropped");

    // list_games with a limit outside 1..50: bad_field, not clamped.
    Client* asker = hub.join(s.target, "archivist", &why);
    if (!asker) return add(env, name, "join", why, "welcome", false);
    int refused = 0;
    for (const char* limit : {"1000", "-5", "51"}) {
        asker->send_raw(std::string("{\"type\":\"list_games\",\"limit\":") + limit + "}\n");
        refused += code_of(hub.expect(*asker, "error", 3000)) == "bad_field";
    }
    asker->send_raw("{\"type\":\"list_games\",\"limit\":50}\n");
    const bool answered = hub.expect(*asker, "games", 3000).has_value();
    add(env, name, "list_games limit 1000, -5, 51: bad_field", std::to_string(refused) + "/3",
        "3/3, and 50 answered", refused == 3 && answered);

    // Duplicate keys (the type too) and a byte order mark: bad_json, nothing done.
    const int pongs = asker->count("pong"), lists = asker->count("tables");
    int dup = 0;
    for (const std::string& line : {std::string("{\"type\":\"ping\",\"type\":\"list_tables\"}"),
                                   std::string("{\"type\":\"ping\",\"id\":1,\"id\":2}"),
                                   std::string("\xEF\xBB\xBF{\"type\":\"ping\",\"id\":3}")}) {
        asker->send_raw(line + "\n");
        dup += code_of(hub.expect(*asker, "error", 3000)) == "bad_json";
    }
    hub.drain(100);
    const bool quiet = asker->count("pong") == pongs && asker->count("tables") == lists;
    add(env, name, "duplicate keys (type, id) and a BOM: bad_json", std::to_string(dup) + "/3",
        "3/3, none acted on", dup == 3 && quiet);

    // Issue #18: a director's actions are refused to everyone else (the board's players, a
    // spectator of it, a lobby user), whatever the action; the director's own pause works.
    {
        Client* director = hub.join(s.target, "director", &why);
        Client* p1 = hub.join(s.target, "entrant1", &why);
        Client* p2 = hub.join(s.target, "entrant2", &why);
        Client* watcher = hub.join(s.target, "watcher", &why);
        if (!director || !p1 || !p2 || !watcher) return add(env, name, "join", why, "welcome", false);
        director->send(proto::CreateTournament{});
        auto made = hub.expect(*director, "tournament", 3000);
        const std::uint32_t id = made ? std::get<proto::Tournament>(*made->msg).id : 0;
        p1->send(proto::JoinTournament{id});
        p2->send(proto::JoinTournament{id});
        hub.drain(300);
        director->send(proto::StartTournament{id});
        auto board = hub.expect(*p1, "table_snapshot", 3000);
        const proto::TableId table = board ? std::get<proto::TableSnapshot>(*board->msg).table.id : 0;
        hub.expect(*p2, "table_snapshot", 3000);
        watcher->send(proto::Join{table, proto::Role::Spectator});
        hub.expect(*watcher, "table_snapshot", 3000);
        hub.drain(100);
        const int seen_before = p1->count("arbiter_action") + p2->count("arbiter_action");
        int refused_arbiter = 0, probes = 0;
        for (Client* c : {p1, p2, watcher, asker}) {
            for (const char* action : {"pause", "cancel", "adjudicate"}) {
                ++probes;
                c->send_raw("{\"type\":\"arbiter\",\"table\":" + std::to_string(table) + ",\"action\":\"" + action +
                            "\",\"result\":\"1-0\",\"reason\":\"forged\"}\n");
                refused_arbiter += code_of(hub.expect(*c, "error", 3000)) == "not_allowed";
            }
        }
        hub.drain(200);
        const bool untouched = p1->count("arbiter_action") + p2->count("arbiter_action") == seen_before &&
                               p1->count("game_over") == 0;
        add(env, name, "arbiter actions by non-directors: not_allowed",
            std::to_string(refused_arbiter) + "/" + std::to_string(probes), "all, the game untouched",
            table != 0 && refused_arbiter == probes && untouched);
        director->send_raw("{\"type\":\"arbiter\",\"table\":" + std::to_string(table) + ",\"action\":\"pause\"}\n");
        const bool paused = hub.expect(*p1, "arbiter_action", 3000).has_value();
        add(env, name, "the director's pause reaches the board", paused ? "yes" : "no", "yes", paused);
    }

    // A first line over 16 KiB: line_too_long, then the connection is closed.
    Client& big = hub.add("big first line");
    std::string code = "no connect";
    if (big.connect(s.target)) {
        big.send_raw("{\"type\":\"hello\",\"name\":\"" + std::string(20000, 'x') + "\",\"version\":1}\n");
        code = code_of(hub.expect(big, "error", 3000));
        hub.wait(3000, [&] { return !big.open(); });
        if (big.open()) code += " (left open)";
    }
    add(env, name, "first line of 20 KB", code, "line_too_long, closed", code == "line_too_long");
    hub.remove_closed();

    // Point 5: past both break points the issue found (32 tables whose names are 40 four-byte
    // characters; 170 users of 20), a newcomer's welcome lists arrive whole, every line
    // within MAX_LINE_BYTES (paged: more than one tables and users line).
    constexpr int LOBBY_USERS = 180, LOBBY_TABLES = 40;
    int joined = 0, opened = 0;
    for (int i = 0; i < LOBBY_USERS; ++i) {
        Client* u = hub.join(s.target, proto::utf8_run(proto::MAX_NAME_CODE_POINTS, U'\U00020000' + char32_t(i) * 32), &why);
        if (!u) break;
        ++joined;
        if (i >= LOBBY_TABLES) continue;
        u->send(proto::CreateTable{proto::utf8_run(proto::MAX_TABLE_NAME_CODE_POINTS, U'\U00024000' + char32_t(i) * 64),
                                   proto::Role::Red});
        opened += hub.expect(*u, "table_snapshot", 3000).has_value();
    }
    std::size_t longest = 0;
    int tables_seen = 0, users_seen = 0, table_lines = 0, user_lines = 0;
    Client& newcomer = hub.add("newcomer");
    newcomer.observer = [&](const Line& l) {
        longest = std::max(longest, l.text.size());
        if (l.type == "tables") {
            tables_seen += int(std::get<proto::Tables>(*l.msg).tables.size());
            ++table_lines;
        } else if (l.type == "users") {
            users_seen += int(std::get<proto::Users>(*l.msg).users.size());
            ++user_lines;
        }
    };
    if (newcomer.connect(s.target)) {
        newcomer.send(proto::Hello{"newcomer", proto::PROTOCOL_VERSION, ""});
        hub.wait(5000, [&] { return users_seen >= joined + 1 && tables_seen >= opened; });
    }
    const bool whole = joined == LOBBY_USERS && opened == LOBBY_TABLES && tables_seen >= opened &&
                       users_seen >= joined + 1 && table_lines > 1 && user_lines > 1;
    add(env, name, "worst-case lobby: longest welcome line",
        std::to_string(longest) + " bytes, " + std::to_string(tables_seen) + "/" + std::to_string(opened) +
            " tables in " + std::to_string(table_lines) + " lines, " + std::to_string(users_seen) + " users in " +
            std::to_string(user_lines),
        "<= 16384, all listed, paged", whole && longest <= proto::MAX_LINE_BYTES && newcomer.undecodable() == 0);
    add(env, name, "server alive", s.server.running() ? "yes" : "no", "yes", s.server.running());
}

}  // namespace xq::attack
