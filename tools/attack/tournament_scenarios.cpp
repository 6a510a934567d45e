// Issue #18's tournament and arbiter requests probed as a hostile client would: forged
// pairings and results, a second entry, the director's requests from others, oversized
// names, and a spectator under a broadcast delay reaching for the live moves. Each probe
// expects the error PROTOCOL.md documents, and the tournament stays as it was.
#include "scenario.h"

#include <string>
#include <vector>

#include "protocol/utf8.h"

namespace xq::attack {

namespace {

std::string code_of(const std::optional<Line>& l) {
    return l ? std::string(proto::error_code_name(std::get<proto::Error>(*l->msg).code)) : std::string("none");
}

// The next `tournament` line of tournament `id` (nullopt on timeout).
std::optional<proto::Tournament> next_tournament(Hub& hub, Client& c, std::uint32_t id, int ms) {
    auto l = hub.expect(c, "tournament", ms, [&](const Line& x) { return std::get<proto::Tournament>(*x.msg).id == id; });
    if (!l) return std::nullopt;
    return std::get<proto::Tournament>(*l->msg);
}

// Asks for the tournament's line and returns it (nullopt on an error or a timeout).
std::optional<proto::Tournament> fetch(Hub& hub, Client& c, std::uint32_t id) {
    c.inbox().clear();
    c.send(proto::GetTournament{id});
    return next_tournament(hub, c, id, 3000);
}

}  // namespace

void tournaments(Env& env) {
    const std::string name = "tournaments";
    Session s(env, name);
    if (!s.ok) return;
    Hub hub;
    std::string why;
    Client* director = hub.join(s.target, "director", &why);
    Client* p1 = hub.join(s.target, "entrant1", &why);
    Client* p2 = hub.join(s.target, "entrant2", &why);
    Client* outsider = hub.join(s.target, "outsider", &why);
    if (!director || !p1 || !p2 || !outsider) return add(env, name, "join", why, "welcome", false);

    // Oversized names: a name of 60 four-byte characters is cut to 40; one that makes the line
    // longer than 16 KiB is line_too_long and creates nothing.
    proto::CreateTournament create;
    create.name = proto::utf8_run(60, U'\U00021000');
    director->send(create);
    std::optional<proto::Tournament> made;
    auto first = hub.expect(*director, "tournament", 3000);
    if (first) made = std::get<proto::Tournament>(*first->msg);
    const std::uint32_t id = made ? made->id : 0;
    const std::size_t cut = made ? proto::count_code_points(made->name) : 0;
    add(env, name, "name of 60 code points: cut", std::to_string(cut), "40",
        made && cut == proto::MAX_TOURNAMENT_NAME_CODE_POINTS && made->name == proto::utf8_run(40, U'\U00021000'));
    director->send_raw("{\"type\":\"create_tournament\",\"format\":\"swiss\",\"rounds\":3,\"name\":\"" +
                       proto::utf8_run(5000, U'\U00021000') + "\"}\n");
    const std::string long_code = code_of(hub.expect(*director, "error", 3000));
    director->send(proto::ListTournaments{});
    auto listed = hub.expect(*director, "tournaments", 3000);
    const std::size_t count = listed ? std::get<proto::Tournaments>(*listed->msg).tournaments.size() : 0;
    add(env, name, "create_tournament line of 20 KB", long_code + ", " + std::to_string(count) + " listed",
        "line_too_long, 1 listed", long_code == "line_too_long" && count == 1);

    // Joining twice: already_entered, one entry.
    p1->send(proto::JoinTournament{id});
    next_tournament(hub, *p1, id, 3000);
    p1->send(proto::JoinTournament{id});
    const std::string twice = code_of(hub.expect(*p1, "error", 3000));
    p2->send(proto::JoinTournament{id});
    next_tournament(hub, *p2, id, 3000);
    auto entered = fetch(hub, *director, id);
    const std::size_t entries = entered ? entered->entrants.size() : 0;
    add(env, name, "join_tournament twice", twice + ", " + std::to_string(entries) + " entrants",
        "already_entered, 2 entrants", twice == "already_entered" && entries == 2);

    // The director's start from anyone else: not_allowed, the tournament still open.
    int refused_start = 0;
    for (Client* c : {p1, outsider}) {
        c->send(proto::StartTournament{id});
        refused_start += code_of(hub.expect(*c, "error", 3000)) == "not_allowed";
    }
    auto still = fetch(hub, *outsider, id);
    add(env, name, "start_tournament by non-directors", std::to_string(refused_start) + "/2",
        "not_allowed 2/2, still open",
        refused_start == 2 && still && still->state == proto::TournamentState::Open);

    // Started by its director: round 1 pairs the two entrants on one board.
    director->send(proto::StartTournament{id});
    std::optional<proto::Tournament> running;
    for (int i = 0; i < 5 && !(running && running->round == 1); ++i) running = next_tournament(hub, *director, id, 3000);
    const bool paired = running && running->round == 1 && running->boards.size() == 1 && running->boards[0].table != 0;
    add(env, name, "started by its director", paired ? "round 1, 1 board" : "not paired", "round 1, 1 board", paired);
    if (!paired) return;
    const proto::TournamentBoard board = running->boards[0];
    const proto::TableId table = board.table;
    hub.expect(*p1, "table_snapshot", 3000);
    hub.expect(*p2, "table_snapshot", 3000);

    // Forged pairings and results: the server's own lines sent by a client are unknown
    // types; a booked seat, an AI for a seat and a new game at the board are not_allowed;
    // and a late entry is entries_closed. The board stays as paired, its result pending.
    int forged = 0;
    outsider->send_raw("{\"type\":\"tournament\",\"id\":" + std::to_string(id) +
                       ",\"boards\":[{\"board\":1,\"red\":0,\"black\":1,\"result\":\"1-0\"}]}\n");
    forged += code_of(hub.expect(*outsider, "error", 3000)) == "unknown_type";
    p1->send_raw("{\"type\":\"game_over\",\"table\":" + std::to_string(table) +
                 ",\"result\":\"1-0\",\"reason\":\"resignation\"}\n");
    forged += code_of(hub.expect(*p1, "error", 3000)) == "unknown_type";
    outsider->send(proto::Join{table, proto::Role::Red});
    forged += code_of(hub.expect(*outsider, "error", 3000)) == "not_allowed";
    p1->send(proto::RequestAi{table, BLACK, 1});
    forged += code_of(hub.expect(*p1, "error", 3000)) == "not_allowed";
    p2->send(proto::NewGame{table});
    forged += code_of(hub.expect(*p2, "error", 3000)) == "not_allowed";
    outsider->send(proto::JoinTournament{id});
    forged += code_of(hub.expect(*outsider, "error", 3000)) == "entries_closed";
    hub.drain(200);
    auto after = fetch(hub, *outsider, id);
    const bool unchanged = after && after->boards.size() == 1 && after->boards[0].red == board.red &&
                           after->boards[0].black == board.black && after->boards[0].table == table &&
                           after->boards[0].result == proto::BoardResult::Pending && after->games.empty();
    add(env, name, "forged results and seats, late entry", std::to_string(forged) + "/6",
        "6/6 refused, board unchanged", forged == 6 && unchanged);

    // A spectator under a broadcast delay of 2 plies: its snapshot stops 2 plies short, and
    // the archive does not give it the running game (get_game: not_allowed); the players get it.
    Client* red3 = hub.join(s.target, "delayed1", &why);
    Client* black3 = hub.join(s.target, "delayed2", &why);
    Client* spy = hub.join(s.target, "spy", &why);
    if (!red3 || !black3 || !spy) return add(env, name, "join", why, "welcome", false);
    proto::CreateTournament delayed;
    delayed.name = "delayed";
    delayed.spectator_delay = 2;
    director->inbox().clear();
    director->send(delayed);
    auto d = hub.expect(*director, "tournament", 3000, [](const Line& l) {
        return std::get<proto::Tournament>(*l.msg).name == "delayed";
    });
    const std::uint32_t did = d ? std::get<proto::Tournament>(*d->msg).id : 0;
    red3->send(proto::JoinTournament{did});
    black3->send(proto::JoinTournament{did});
    hub.drain(300);
    director->send(proto::StartTournament{did});
    std::optional<proto::Tournament> dt;
    for (int i = 0; i < 5 && !(dt && dt->round == 1); ++i) dt = next_tournament(hub, *director, did, 3000);
    if (!dt || dt->boards.size() != 1) return add(env, name, "delayed tournament", "not paired", "paired", false);
    const proto::TableId dtable = dt->boards[0].table;
    Client* r = dt->entrants[std::size_t(dt->boards[0].red)].name == "delayed1" ? red3 : black3;
    Client* b = r == red3 ? black3 : red3;
    hub.expect(*r, "table_snapshot", 3000);
    hub.expect(*b, "table_snapshot", 3000);
    const std::vector<std::string> moves = {"h2e2", "h9g7", "h0g2"};
    int played = 0;
    for (std::size_t p = 0; p < moves.size(); ++p) {
        Client* mover = p % 2 == 0 ? r : b;
        mover->send(proto::MoveRequest{dtable, int(p), moves[p]});
        played += hub.expect(*r, "move_made", 3000).has_value();
    }
    spy->send(proto::Join{dtable, proto::Role::Spectator});
    auto snap = hub.expect(*spy, "table_snapshot", 3000);
    const int spy_ply = snap ? std::get<proto::TableSnapshot>(*snap->msg).ply : -1;
    spy->send(proto::ListGames{});
    auto games = hub.expect(*spy, "games", 3000);
    std::int64_t game_id = 0;
    if (games)
        for (const auto& g : std::get<proto::Games>(*games->msg).games)
            if (g.red == "delayed1" || g.black == "delayed1") game_id = g.id;
    spy->send(proto::GetGame{game_id});
    const std::string spy_code = code_of(hub.expect(*spy, "error", 3000));
    outsider->send(proto::GetGame{game_id});
    const std::string outsider_code = code_of(hub.expect(*outsider, "error", 3000));
    r->send(proto::GetGame{game_id});
    auto own = hub.expect(*r, "game_record", 3000);
    const std::size_t own_moves = own ? std::get<proto::GameRecord>(*own->msg).moves.size() : 0;
    add(env, name, "delay 2: spectator's ply, get_game (spy, lobby)",
        std::to_string(spy_ply) + ", " + spy_code + ", " + outsider_code,
        "1, not_allowed, not_allowed",
        played == 3 && spy_ply == 1 && game_id != 0 && spy_code == "not_allowed" && outsider_code == "not_allowed");
    add(env, name, "the board's player gets its game", std::to_string(own_moves) + " moves", "3 moves",
        own_moves == 3);
    add(env, name, "server alive", s.server.running() ? "yes" : "no", "yes", s.server.running());
}

}  // namespace xq::attack
