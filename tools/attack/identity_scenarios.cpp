// Issue #15's identity probes, each kept as a regression: spoofing names and look-alikes
// refused at hello, echoed input cut, creator rights of the session, and through the
// operator console: the operator's voice a notice (never a chat line), a nickname ban that
// look-alikes cannot evade, an address ban and a kick with the codes PROTOCOL.md gives.
#include "scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace xq::attack {

void identity(Env& env) {
    const std::string name = "identity";
    Session s(env, name, {}, 0, true);
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
    // The other fields the issue found echoed uncut.
    std::size_t longest = 0;
    int replies = 0;
    mallory->send(proto::AnswerInvite{inv.table, std::string(16000, 'y'), true});
    mallory->send(proto::RequestAi{inv.table, BLACK, 1, std::string(16000, 'z')});
    for (int i = 0; i < 2; ++i)
        if (auto e = hub.expect(*mallory, "error", 3000)) {
            longest = std::max(longest, e->text.size());
            ++replies;
        }
    add(env, name, "error replies, 16 KB answer_invite.from, engine",
        std::to_string(replies) + " replies, longest " + std::to_string(longest) + " bytes", "2 replies, < 2 KB",
        replies == 2 && longest < 2048);
    hub.remove_closed();

    // Point 4: creator rights follow the session, not the name. The creator watches its
    // table (a second spectator keeps it open), asks for an AI seat (allowed), then leaves
    // the server; a new connection under the same name asks for the other seat.
    auto code_of = [](const std::optional<Line>& l) {
        return l ? std::string(proto::error_code_name(std::get<proto::Error>(*l->msg).code)) : std::string("none");
    };
    Client* creator = hub.join(s.target, "carla", &why);
    Client* keeper = hub.join(s.target, "keeper", &why);
    if (!creator || !keeper) return add(env, name, "join", why, "welcome", false);
    creator->send(proto::CreateTable{"carla's own", proto::Role::Spectator});
    auto own = hub.expect(*creator, "table_snapshot", 3000);
    const proto::TableId owned = own ? std::get<proto::TableSnapshot>(*own->msg).table.id : 0;
    keeper->send(proto::Join{owned, proto::Role::Spectator});
    const bool kept = hub.expect(*keeper, "table_snapshot", 3000).has_value();
    creator->send(proto::RequestAi{owned, RED, 1, ""});
    auto granted = hub.expect(*creator, "player_joined", 3000, [](const Line& l) {
        return std::get<proto::PlayerJoined>(*l.msg).role == proto::Role::Red;
    });
    add(env, name, "creator's own request_ai (control)", granted ? "seated" : "refused", "seated",
        owned != 0 && kept && granted.has_value());
    creator->close();
    hub.remove_closed();
    hub.wait(2000, [&] { return keeper->take("user_left").has_value() || keeper->take("player_left").has_value(); });
    Client* impostor = hub.join(s.target, "carla", &why);
    if (!impostor) return add(env, name, "creator's name again", why, "welcome", false);
    impostor->send(proto::Join{owned, proto::Role::Spectator});
    const bool watching = hub.expect(*impostor, "table_snapshot", 3000).has_value();
    impostor->send(proto::RequestAi{owned, BLACK, 1, ""});
    const std::string refused = code_of(hub.expect(*impostor, "error", 3000));
    add(env, name, "creator's name, new session: request_ai", watching ? refused : "could not watch",
        "not_allowed", watching && refused == "not_allowed");

    // Through the operator console. Its lines run in order, so a `say` after a command is a
    // barrier: once its notice arrives, the command before it has been done.
    int barriers = 0;
    auto operator_says = [&](const std::string& command) {
        const std::string mark = "barrier " + std::to_string(++barriers);
        if (!s.server.console(command) || !s.server.console("say " + mark)) return false;
        return hub.expect(*keeper, "notice", 3000, [&](const Line& l) {
                      return std::get<proto::Notice>(*l.msg).text == mark;
                  }).has_value();
    };
    // Point 1: the operator's broadcast is a notice, never a chat line a user could imitate.
    const int chats = keeper->count("chat");
    const bool said = s.server.console("say the server restarts at 22:00");
    auto notice = hub.expect(*keeper, "notice", 3000);
    const bool as_notice = said && notice && std::get<proto::Notice>(*notice->msg).text == "the server restarts at 22:00";
    hub.drain(100);
    add(env, name, "operator's broadcast arrives as", as_notice ? "notice" : "no notice", "notice, no chat line",
        as_notice && keeper->count("chat") == chats);

    // Point 3: `ban mallory` cuts Mallory with `banned`; the name's look-alikes cannot get in
    // (banned by the confusable key, or refused as spoofing names), another name can.
    const bool banned_ok = s.server.console("ban mallory");
    const std::string cut = code_of(hub.expect(*mallory, "error", 3000));
    hub.wait(2000, [&] { return !mallory->open(); });
    add(env, name, "ban mallory: the connected Mallory gets", cut + (mallory->open() ? " (left open)" : ""),
        "banned, closed", banned_ok && cut == "banned" && !mallory->open());
    bad = 0;
    std::string missed;
    for (const std::string nick : {"mallory", "Mallory", "MALLORY", "rnallory", "\uff4d\uff41\uff4c\uff4c\uff4f\uff52\uff59"}) {
        const std::string code = refusal(nick);
        if (code != "banned") ++bad, missed += " " + code;
    }
    for (const std::string nick : {"mal\u200blory", "mallory\u200d", "\u202emallory"}) {
        const std::string code = refusal(nick);
        if (code != "bad_name") ++bad, missed += " " + code;
    }
    Client* other = hub.join(s.target, "molly", &why);
    add(env, name, "banned name's look-alikes refused (8)", std::to_string(8 - bad) + "/8" + missed,
        "banned/bad_name, closed; molly in", bad == 0 && other != nullptr);

    // Point 6: an address ban refuses a connection before any line with `banned` (not
    // server_full), and cuts the address's connected users with `banned`; unbanned, it gets in.
    Client* there = hub.join(s.target, "from-nine", &why, "127.0.0.9");
    const bool addr_banned = there && operator_says("ban 127.0.0.9");
    const std::string there_cut = there ? code_of(hub.expect(*there, "error", 3000)) : "not joined";
    Client& late = hub.add("late from nine");
    std::string at_accept = "no connect";
    if (late.connect(s.target, "127.0.0.9")) {
        at_accept = code_of(hub.expect(late, "error", 3000));
        hub.wait(2000, [&] { return !late.open(); });
        if (late.open()) at_accept += " (left open)";
    }
    const bool unbanned = operator_says("unban 127.0.0.9");
    Client* back = unbanned ? hub.join(s.target, "nine again", &why, "127.0.0.9") : nullptr;
    add(env, name, "ban 127.0.0.9: connected, new, after unban", there_cut + ", " + at_accept + ", " +
        (back ? "welcome" : "refused"), "banned, banned, welcome",
        addr_banned && there_cut == "banned" && at_accept == "banned" && back != nullptr);

    // The operator's kick closes a connection with not_allowed (a kick is no ban: the name
    // gets in again).
    Client* kicked = hub.join(s.target, "kicked-one", &why);
    const bool kick_ok = kicked && s.server.console("kick kicked-one");
    const std::string kick_code = kicked ? code_of(hub.expect(*kicked, "error", 3000)) : "not joined";
    if (kicked) hub.wait(2000, [&] { return !kicked->open(); });
    const bool kick_closed = kicked && !kicked->open();
    hub.remove_closed();
    Client* returns = hub.join(s.target, "kicked-one", &why);
    add(env, name, "kick: code, then the name again", kick_code + (kick_closed ? "" : " (left open)") + ", " +
        (returns ? "welcome" : "refused"), "not_allowed, closed; welcome",
        kick_ok && kick_code == "not_allowed" && kick_closed && returns != nullptr);
}

}  // namespace xq::attack
