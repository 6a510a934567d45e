// A session's hello: the server's password (with its lockout), the name checked against the
// nickname policy, bans and registered accounts, a resume token that gives back a held seat,
// then the welcome and the lobby's user_joined.
#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "server/admin/ban_list.h"
#include "server/ai/engine_pool.h"
#include "server/ai/level_ratings.h"

namespace xq::server {

using proto::ErrorCode;

void Lobby::handle(User& u, const proto::Hello& m) {
    if (u.greeted) {
        refuse(u, ErrorCode::AlreadyHello, "hello was already accepted", m.TYPE);
        return;
    }
    if (m.version != proto::PROTOCOL_VERSION) {
        refuse_and_close(u, ErrorCode::BadVersion,
                         "this server speaks protocol version " + std::to_string(proto::PROTOCOL_VERSION) +
                             ", not " + std::to_string(m.version),
                         m.TYPE);
        return;
    }
    if (!check_password(u, m)) return;
    const NameCheck checked = names_.check(m.name);
    if (!checked.ok()) {
        refuse_and_close(u, ErrorCode::BadName, checked.error, m.TYPE);
        return;
    }
    if (bans_) {
        for (const auto& banned : bans_->nicks()) {
            if (names_.key(banned).same(checked.key)) {
                refuse_and_close(u, ErrorCode::Banned, "the name '" + checked.name + "' is banned from this server",
                                 m.TYPE);
                return;
            }
        }
    }
    // A seat held for a disconnected player: its token gives it back (with its name).
    std::erase_if(held_seats_, [&](const auto& entry) { return !held_seat(entry.first, entry.second); });
    const Seat* held = nullptr;
    Table* held_table = nullptr;
    if (!m.resume.empty()) {
        if (auto it = held_seats_.find(m.resume); it != held_seats_.end()) {
            held_table = table(it->second);
            held = held_seat(it->first, it->second);
        }
    }
    const std::string name = held ? held->name : checked.name;
    if (find_by_name(name)) {
        refuse_and_close(u, ErrorCode::NameTaken, "the name '" + name + "' is in use", m.TYPE);
        return;
    }
    if (!held) {
        for (const auto& [token, tid] : held_seats_) {
            if (names_.key(held_seat(token, tid)->name).same(checked.key)) {
                refuse_and_close(u, ErrorCode::NameTaken,
                                 "the name '" + name + "' is held for a player who lost the connection", m.TYPE);
                return;
            }
        }
    }
    // Accounts: a registered name is its owner's only (the password is checked on the
    // accounts worker, then this hello runs again with the account known good).
    std::string shown = name;
    std::int64_t account_id = 0;
    if (accounts_) {
        const AccountEntry* a = account_named(names_.key(name));
        if (a && a->banned) {
            refuse_and_close(u, ErrorCode::Banned, "the account '" + a->name + "' is banned from this server", m.TYPE);
            return;
        }
        if (a && u.verified_account != a->id) {
            if (m.account_password.empty()) {
                refuse_and_close(u, ErrorCode::AccountRequired,
                                 "the name '" + a->name +
                                     "' is a registered account: log in with its password (hello.account_password)",
                                 m.TYPE);
                return;
            }
            start_login(u, m, *a);
            return;
        }
        if (a) {
            account_id = a->id;
            shown = held ? name : a->name;
        } else if (config_.accounts == AccountsMode::Required) {
            refuse_and_close(u, ErrorCode::AccountRequired,
                             "this server admits registered accounts only; ask its operator for one", m.TYPE);
            return;
        } else if (!m.account_password.empty()) {
            refuse_and_close(u, ErrorCode::BadLogin, "no account is registered under the name '" + name + "'",
                             m.TYPE);
            return;
        }
    }
    u.greeted = true;
    u.name = shown;
    u.key = names_.key(shown);
    by_folded_.insert_or_assign(u.key.folded, u.id);
    by_shaped_.insert_or_assign(u.key.shaped, u.id);
    set_table(u, u.table);
    u.account_id = account_id;
    u.session = random_hex(8);
    u.token = held ? m.resume : random_hex(16);
    const bool resumed = held != nullptr;
    proto::Welcome welcome{u.session, u.token, config_.name, proto::PROTOCOL_VERSION, u.name, resumed,
                           engines_ ? engines_->names() : std::vector<std::string>{}, account_id != 0};
    if (const AccountEntry* a = account_by_id(account_id)) {
        welcome.rating = shown_rating(u);
        welcome.rating_rd = std::clamp(static_cast<int>(std::lround(a->rd)), 0, proto::MAX_RATING);
    }
    if (ai_) welcome.ai_ratings.assign(ai_level_ratings().begin(), ai_level_ratings().end());
    send_msg(u, welcome);
    spdlog::info("session {}: '{}' logged in{}{}", u.id, u.name, account_id != 0 ? " to its account" : "",
                 resumed ? " (resumed)" : "");
    if (resumed) {
        held_seats_.erase(m.resume);
        set_table(u, held_table->id());
        held_table->reattach(m.resume, u.id);
        if (account_id != 0) held_table->set_seat_account(u.id, account_id, shown_rating(u));
    } else {
        send_tables(u);
        send_users(u);
    }
    proto::UserJoined joined{u.name};
    joined.rating = shown_rating(u);
    broadcast_lobby(joined, u.id);
    // An entrant whose board waits for them goes straight to it.
    if (!resumed) desk_.user_free(u.name);
}

bool Lobby::check_password(User& u, const proto::Hello& m) {
    if (config_.password.empty()) return true;
    const auto now = PasswordGuard::Clock::now();
    if (const auto left = password_guard_.locked_for(u.address, now); left.count() > 0) {
        const auto s = std::chrono::ceil<std::chrono::seconds>(left).count();
        refuse_and_close(u, ErrorCode::BadPassword,
                         "too many wrong passwords from your address; try again in " + std::to_string(s) + " s", m.TYPE);
        return false;
    }
    if (password_matches(config_.password, m.password)) return true;
    const bool locked = password_guard_.failed(u.address, now);
    spdlog::warn("session {} ({}): {} password{}", u.id, u.address, m.password.empty() ? "missing" : "wrong",
                 locked ? "; address locked out" : "");
    std::string why = m.password.empty() ? "this server requires a password" : "wrong password";
    if (locked)
        why += "; too many wrong passwords from your address, refused for " +
               std::to_string(std::chrono::ceil<std::chrono::seconds>(config_.password_lockout).count()) + " s";
    refuse_and_close(u, ErrorCode::BadPassword, why, m.TYPE);
    return false;
}

const Seat* Lobby::held_seat(const std::string& token, proto::TableId id) {
    Table* t = table(id);
    if (!t) return nullptr;
    for (Color c : {RED, BLACK}) {
        const Seat& s = t->seat(c);
        if (s.human() && !s.connected && s.resume_token == token) return &s;
    }
    return nullptr;
}

}  // namespace xq::server
