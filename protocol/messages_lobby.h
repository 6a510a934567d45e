// The lobby: the table and user lists a page at a time and their updates, creating,
// joining and leaving tables, invitations. Part of messages.h; documented in
// protocol/PROTOCOL.md (Lobby and tables, Invitations).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/limits.h"
#include "protocol/messages_table_info.h"

namespace xq::proto {

struct UserInfo {
    std::string name;
    TableId table = 0;  // 0 while in the lobby
    std::optional<int> rating;  // registered players only: the Glicko-2 rating (rounded)
    template <class F> void fields(F& f) {
        f("name", name);
        f("table", table);
        f.opt("rating", rating, 0, MAX_RATING);
    }
    bool operator==(const UserInfo&) const = default;
};

// One page of the lobby's tables (waiting tables first, then the others; each by id) or users
// (the lobby's users first, then those at tables; each by name in code point order): from
// `offset` (0..MAX_LIST_OFFSET), at most `limit` items (1..TABLES_PER_PAGE / USERS_PER_PAGE;
// 0 or absent: the most). Anything else is bad_field.
struct ListTables {
    static constexpr std::string_view TYPE = "list_tables";
    int offset = 0;
    int limit = 0;
    template <class F> void fields(F& f) {
        f.opt("offset", offset, 0, MAX_LIST_OFFSET);
        f.opt("limit", limit, 0, int(TABLES_PER_PAGE));
    }
};

struct ListUsers {
    static constexpr std::string_view TYPE = "list_users";
    int offset = 0;
    int limit = 0;
    template <class F> void fields(F& f) {
        f.opt("offset", offset, 0, MAX_LIST_OFFSET);
        f.opt("limit", limit, 0, int(USERS_PER_PAGE));
    }
};

// One line of a page of the lobby's list (ListTables): `offset` is the place of its first
// item in the whole list, `total` the list's length when it was sent; the page holds the
// items from its first line's offset on (more lie past it while offset + items < total).
struct Tables {
    static constexpr std::string_view TYPE = "tables";
    std::vector<TableInfo> tables;
    bool more = false;  // true when another `tables` line of the same page follows
    int offset = 0;
    int total = 0;
    template <class F> void fields(F& f) {
        f("tables", tables);
        f.opt("more", more);
        f.opt("offset", offset, 0, 1 << 30);
        f.opt("total", total, 0, 1 << 30);
    }
    bool operator==(const Tables&) const = default;
};

struct Users {
    static constexpr std::string_view TYPE = "users";
    std::vector<UserInfo> users;
    bool more = false;  // true when another `users` line of the same page follows
    int offset = 0;
    int total = 0;
    template <class F> void fields(F& f) {
        f("users", users);
        f.opt("more", more);
        f.opt("offset", offset, 0, 1 << 30);
        f.opt("total", total, 0, 1 << 30);
    }
    bool operator==(const Users&) const = default;
};

struct UserJoined {
    static constexpr std::string_view TYPE = "user_joined";
    std::string name;
    std::optional<int> rating;  // registered players only: the Glicko-2 rating (rounded)
    template <class F> void fields(F& f) {
        f("name", name);
        f.opt("rating", rating, 0, MAX_RATING);
    }
};

struct UserLeft {
    static constexpr std::string_view TYPE = "user_left";
    std::string name;
    template <class F> void fields(F& f) { f("name", name); }
};

struct TableUpdate {
    static constexpr std::string_view TYPE = "table_update";
    TableInfo table;
    template <class F> void fields(F& f) { f("table", table); }
};

struct TableRemoved {
    static constexpr std::string_view TYPE = "table_removed";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct CreateTable {
    static constexpr std::string_view TYPE = "create_table";
    std::string name;            // optional; defaults to "<creator>'s table"
    Role as = Role::Red;         // where the creator sits (spectator for AI-vs-AI tables)
    std::string fen;             // optional start position; empty = the standard start
    TableSettings settings;      // optional; absent fields take the server's defaults
    template <class F> void fields(F& f) {
        f.opt("name", name);
        f.opt("as", as);
        f.opt("fen", fen);
        f.opt("settings", settings);
    }
};

struct Join {
    static constexpr std::string_view TYPE = "join";
    TableId table = 0;
    Role as = Role::Spectator;
    template <class F> void fields(F& f) {
        f("table", table);
        f("as", as);
    }
};

struct Leave {
    static constexpr std::string_view TYPE = "leave";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

// Acknowledges `leave`; the client is back in the lobby.
struct LeftTable {
    static constexpr std::string_view TYPE = "left";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct Invite {
    static constexpr std::string_view TYPE = "invite";
    TableId table = 0;
    std::string name;         // the invited user
    std::optional<Role> as;   // default: the empty seat, else spectator
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f.opt("as", as);
    }
};

struct AnswerInvite {
    static constexpr std::string_view TYPE = "answer_invite";
    TableId table = 0;
    std::string from;  // who invited
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("from", from);
        f("accept", accept);
    }
};

struct InviteReceived {
    static constexpr std::string_view TYPE = "invite";
    TableId table = 0;
    std::string from;
    std::string table_name;
    Role as = Role::Spectator;
    bool default_name = false;  // as TableInfo.default_name: table_name is "<from>'s table"
    template <class F> void fields(F& f) {
        f("table", table);
        f("from", from);
        f("table_name", table_name);
        f("as", as);
        f.opt("default_name", default_name);
    }
};

struct InviteAnswered {
    static constexpr std::string_view TYPE = "answer_invite";
    TableId table = 0;
    std::string name;  // who was invited
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("name", name);
        f("accept", accept);
    }
};

}  // namespace xq::proto
