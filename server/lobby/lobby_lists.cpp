// The lobby's lists, a page at a time: the tables and the users a client sees after its
// welcome and asks for with list_tables / list_users (PROTOCOL.md, Lobby and tables). A page
// holds at most TABLES_PER_PAGE / USERS_PER_PAGE items whatever the size of the lobby, so a
// login costs the same at ten users as at ten thousand (docs/scale.md, "Logins at scale").
#include "server/lobby/lobby.h"

#include <iterator>

#include "protocol/pages.h"

namespace xq::server {

void Lobby::set_table(User& u, proto::TableId table) {
    if (u.greeted) user_places_.erase(place_of(u));
    u.table = table;
    if (!u.greeted) return;
    user_places_.insert(place_of(u));
    if (table == 0)
        in_lobby_.insert(u.id);
    else
        in_lobby_.erase(u.id);
}

// Pages measured in bytes (protocol/pages.h): no line over MAX_LINE_BYTES, whatever the names.
// The first page, which every login gets, is compared with the last one sent: only what changed
// is encoded again, and every client gets the same shared lines. Other pages are encoded afresh.
void Lobby::send_tables(User& u, int offset, int limit) {
    std::vector<proto::TableInfo> page;
    int place = 0;
    for (const auto status : {proto::TableStatus::Waiting, proto::TableStatus::Playing, proto::TableStatus::Over}) {
        for (const auto& [id, t] : tables_) {
            if (page.size() == static_cast<std::size_t>(limit)) break;
            if (t->status() != status || place++ < offset) continue;
            page.push_back(t->info());
        }
    }
    const int total = static_cast<int>(tables_.size());
    if (offset == 0 && limit == static_cast<int>(proto::TABLES_PER_PAGE)) {
        for (const auto& line : table_lines_.lines(std::move(page), 0, total)) out_.send(u.id, line);
        return;
    }
    for (const auto& line : proto::table_pages(page, offset, total)) send_msg(u, line);
}

void Lobby::send_users(User& u, int offset, int limit) {
    std::vector<proto::UserInfo> page;
    auto it = user_places_.begin();
    if (static_cast<std::size_t>(offset) >= user_places_.size())
        it = user_places_.end();
    else
        std::advance(it, offset);
    for (; it != user_places_.end() && page.size() < static_cast<std::size_t>(limit); ++it)
        if (const User* other = find(std::get<SessionId>(*it)))
            page.push_back(proto::UserInfo{other->name, other->table, shown_rating(*other)});
    const int total = static_cast<int>(user_places_.size());
    if (offset == 0 && limit == static_cast<int>(proto::USERS_PER_PAGE)) {
        for (const auto& line : user_lines_.lines(std::move(page), 0, total)) out_.send(u.id, line);
        return;
    }
    for (const auto& line : proto::user_pages(page, offset, total)) send_msg(u, line);
}

void Lobby::handle(User& u, const proto::ListTables& m) {
    send_tables(u, m.offset, m.limit == 0 ? static_cast<int>(proto::TABLES_PER_PAGE) : m.limit);
}

void Lobby::handle(User& u, const proto::ListUsers& m) {
    send_users(u, m.offset, m.limit == 0 ? static_cast<int>(proto::USERS_PER_PAGE) : m.limit);
}

}  // namespace xq::server
