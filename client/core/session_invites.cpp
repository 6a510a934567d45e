// Session: invitations both ways. Ours to a player (the invite list at a table) and theirs to
// us, kept while they can still be taken up: the lobby's messages retire one whose table closed,
// whose offered seat was taken, whose inviter left the table or the server (PROTOCOL.md,
// Invitations; a player at a table hears none of them, so what it learns on its return counts).
#include "core/session.h"

#include <algorithm>

#include "protocol/codec.h"

namespace xq::client {

namespace {

constexpr std::size_t MAX_INVITATIONS = 20;  // as many as the server keeps for a player

bool seated(const TableSummary& t, const std::string& name) {
    return t.seats[RED].name == name || t.seats[BLACK].name == name;
}

}  // namespace

void Session::invite(const std::string& name) {
    proto::Invite i;
    i.table = proto::TableId(state_.table.id);
    i.name = name;
    last_invited_ = name;
    send(i);
}

void Session::answer_invite(bool accept) {
    auto& list = state_.lobby.invitations;
    if (list.empty()) return;
    proto::AnswerInvite a;
    a.table = proto::TableId(list.back().table);
    a.from = list.back().from;
    a.accept = accept;
    send(a);
    list.pop_back();
}

void Session::on(const proto::InviteReceived& m) {
    auto& list = state_.lobby.invitations;
    // A second invitation from the same player to the same table replaces the first (the
    // server keeps one); the oldest gives way beyond the server's bound.
    std::erase_if(list, [&](const Invitation& i) { return i.table == int(m.table) && i.from == m.from; });
    if (list.size() >= MAX_INVITATIONS) list.erase(list.begin());
    Invitation inv{m.from, int(m.table), m.table_name, m.default_name, color_of_role(m.as), false};
    list.push_back(std::move(inv));
    // At a table our list of tables is not live (nothing of the lobby reaches us there): the
    // invitation waits for our return, when fresh lists check it.
    if (state_.table.joined()) {
        notice(Str::InviteWaits, m.from, std::to_string(m.table));
        return;
    }
    // In the lobby it is: the invitation is checked against it at once.
    const auto& tables = state_.lobby.tables;
    const auto t = std::find_if(tables.begin(), tables.end(), [&](const TableSummary& x) { return x.id == int(m.table); });
    if (t != tables.end()) {
        list.back().from_seated = seated(*t, m.from);
        invitations_seen_table(*t);
    }
    if (!list.empty() && list.back().table == int(m.table) && list.back().from == m.from) cue(Cue::Kind::Invitation);
}

void Session::on(const proto::InviteAnswered& m) {
    notice(m.accept ? Str::InviteAccepted : Str::InviteDeclined, m.name);
}

void Session::invitations_seen_table(const TableSummary& t) {
    std::erase_if(state_.lobby.invitations, [&](Invitation& i) {
        if (i.table != t.id) return false;
        // The seat we were offered is someone else's now.
        if (i.seat && !t.seats[*i.seat].name.empty()) return true;
        // The inviter sat there and is gone from the seats (left, or the seat changed hands).
        const bool there = seated(t, i.from);
        if (i.from_seated && !there) return true;
        i.from_seated = there;
        return false;
    });
}

void Session::invitations_table_gone(int table) {
    std::erase_if(state_.lobby.invitations, [&](const Invitation& i) { return i.table == table; });
}

void Session::invitations_user_gone(const std::string& name) {
    std::erase_if(state_.lobby.invitations, [&](const Invitation& i) { return i.from == name; });
}

void Session::invitations_whole_tables() {
    const auto& tables = state_.lobby.tables;
    std::erase_if(state_.lobby.invitations, [&](const Invitation& i) {
        return std::none_of(tables.begin(), tables.end(), [&](const TableSummary& t) { return t.id == i.table; });
    });
}

void Session::invitations_whole_users() {
    const auto& users = state_.lobby.users;
    std::erase_if(state_.lobby.invitations, [&](const Invitation& i) {
        return std::none_of(users.begin(), users.end(), [&](const UserEntry& u) { return u.name == i.from; });
    });
}

void Session::invite_refused(const proto::Error& m) {
    // Whom we invited is gone: off the list of players to invite, which is asked for afresh
    // (at a table we hear of nobody's coming and going).
    if (m.code != proto::ErrorCode::NoSuchUser || last_invited_.empty()) return;
    std::erase_if(state_.lobby.users, [&](const UserEntry& u) { return u.name == last_invited_; });
    last_invited_.clear();
    list_users();
}

}  // namespace xq::client
