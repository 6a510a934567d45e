#include "server/lobby/lobby.h"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/pages.h"
#include "protocol/utf8.h"
#include "server/admin/ban_list.h"
#include "server/lobby/broadcast_delay.h"
#include "server/ai/ai_pool.h"
#include "server/ai/engine_pool.h"
#include "server/table/game_clock.h"
#include "server/table/restored_seat.h"

namespace xq::server {

using proto::ErrorCode;

std::string clean_text(std::string_view text, std::size_t max_code_points) {
    std::string s;
    s.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7F) {
            s += ' ';
        } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                   static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
            s += ' ';  // a C1 control character
            ++i;
        } else {
            s += static_cast<char>(c);
        }
    }
    const auto first = s.find_first_not_of(' ');
    if (first == std::string::npos) return {};
    const auto last = s.find_last_not_of(' ');
    s = s.substr(first, last - first + 1);
    return proto::cut_code_points(s, max_code_points);
}

Lobby::Lobby(boost::asio::io_context& io, const ServerConfig& config, Outbox& out, AiPool* ai)
    : io_(io), config_(config), out_(out), ai_(ai),
      password_guard_(config.password_max_failures, config.password_window, config.password_lockout,
                      MAX_PASSWORD_ADDRESSES),
      login_guard_(config.login_max_failures, config.password_window, config.password_lockout, MAX_PASSWORD_ADDRESSES) {
    // Ratings first: a tournament board's game is rated before the desk retires the board.
    observers_.push_back(&ratings_);
    observers_.push_back(&desk_);
}

Lobby::~Lobby() {
    for (auto& [id, t] : tables_) t->close();
}

Lobby::User* Lobby::find(SessionId s) {
    const auto it = users_.find(s);
    return it == users_.end() ? nullptr : it->second.get();
}

// By confusable key: "Bob", "BOB" and "B0b" find the same user.
Lobby::User* Lobby::find_by_name(std::string_view name) {
    const NameKey key = names_.key(name);
    if (key.empty()) return nullptr;
    if (const auto it = by_folded_.find(key.folded); it != by_folded_.end()) return find(it->second);
    if (const auto it = by_shaped_.find(key.shaped); it != by_shaped_.end()) return find(it->second);
    return nullptr;
}

void Lobby::set_engines(EnginePool* engines) {
    engines_ = engines;
    // An engine's name shows in its seat: nobody may take it as a nickname.
    if (engines_)
        for (const auto& n : engines_->names()) names_.reserve(n);
}

Table* Lobby::table(proto::TableId id) {
    const auto it = table_index_.find(id);
    return it == table_index_.end() ? nullptr : it->second;
}

void Lobby::add_table(const std::shared_ptr<Table>& t) {
    tables_.emplace(t->id(), t);
    table_index_.emplace(t->id(), t.get());
}

std::vector<proto::TableId> Lobby::table_ids() const {
    std::vector<proto::TableId> ids;
    for (const auto& [id, t] : tables_) ids.push_back(id);
    return ids;
}

std::string Lobby::random_hex(int bytes) {
    static constexpr char HEX[] = "0123456789abcdef";
    // The OS generator (tokens must not be predictable), opened once per thread: opening it
    // for every session id and token was 1% of the server's time under a flood of logins.
    thread_local std::random_device rd;
    std::string s;
    for (int i = 0; i < bytes; i += 4) {
        std::uint32_t v = rd();
        for (int k = 0; k < 4 && i + k < bytes; ++k) {
            s += HEX[(v >> 4) & 15];
            s += HEX[v & 15];
            v >>= 8;
        }
    }
    return s;
}

void Lobby::send_msg(User& u, const proto::ServerMessage& m) { send_buffer(u, make_buffer(m)); }

void Lobby::send_buffer(User& u, const Buffer& b) { out_.send(u.id, b); }

void Lobby::refuse(User& u, ErrorCode code, std::string message, std::string_view request, proto::TableId table,
                   std::string detail) {
    ++u.refused_in_row;
    // Messages may quote the request (a name, an engine): cut, so a reply stays small.
    send_msg(u, proto::Error{code, proto::cut_code_points(message, proto::MAX_ERROR_MESSAGE_CODE_POINTS),
                             std::string(request), table, std::move(detail)});
    if (u.refused_in_row >= config_.max_refused_in_row && !u.closing) {
        spdlog::warn("session {} ({}): {} refused lines in a row, closing", u.id, u.name, u.refused_in_row);
        // Said before the close, and the table hears `dropped`: the server cut this one.
        send_msg(u, proto::Error{ErrorCode::RateLimited,
                                 std::to_string(u.refused_in_row) +
                                     " refused or rate-limited lines in a row: the server closes this connection",
                                 "", 0});
        u.dropped = true;
        u.closing = true;
        out_.close(u.id);
    }
}

void Lobby::refuse_and_close(User& u, ErrorCode code, std::string message, std::string_view request) {
    send_msg(u, proto::Error{code, proto::cut_code_points(message, proto::MAX_ERROR_MESSAGE_CODE_POINTS),
                             std::string(request), 0});
    u.closing = true;
    out_.close(u.id);
}

void Lobby::report(User& u, const Verdict& v, std::string_view request, proto::TableId table) {
    if (v) refuse(u, v->code, v->message, request, table, v->detail);
}

void Lobby::broadcast_lobby(const proto::ServerMessage& m, SessionId except) {
    broadcast_lobby_buffer(make_buffer(m), except);
}

void Lobby::broadcast_lobby_buffer(const Buffer& b, SessionId except) {
    for (const SessionId id : in_lobby_) {
        const User* u = find(id);
        if (!u || u->closing || id == except) continue;
        out_.send(id, b);
    }
}

// ---- Connection events -----------------------------------------------------------------

bool Lobby::on_connect(SessionId s, const std::string& address) {
    auto user = std::make_unique<User>(s, config_);
    User& u = *user;
    u.address = address;
    users_.emplace(s, std::move(user));
    if (shutting_down_) {
        refuse_and_close(u, ErrorCode::ShuttingDown, "the server is shutting down", "");
        return false;
    }
    if (users_.size() > config_.max_clients) {
        refuse_and_close(u, ErrorCode::ServerFull,
                         "the server is full (" + std::to_string(config_.max_clients) + " clients)", "");
        return false;
    }
    return true;
}

void Lobby::on_oversized(SessionId s) {
    User* u = find(s);
    if (!u || u->closing) return;
    if (!u->greeted) {
        // A first line that cannot be hello: like any bad first line, the connection closes.
        refuse_and_close(*u, ErrorCode::LineTooLong,
                         "the first line is longer than " + std::to_string(proto::MAX_LINE_BYTES) +
                             " bytes; it must be hello",
                         "");
        return;
    }
    refuse(*u, ErrorCode::LineTooLong,
           "line longer than " + std::to_string(proto::MAX_LINE_BYTES) + " bytes (skipped)", "");
}

void Lobby::on_line(SessionId s, std::string_view line) {
    User* up = find(s);
    if (!up || up->closing) return;
    User& u = *up;
    if (u.login_pending) {
        // The hello waits for its password check; what follows it is answered after.
        if (u.queued.size() >= MAX_QUEUED_LOGIN_LINES) {
            refuse_and_close(u, ErrorCode::RateLimited, "too many lines before the login was answered", "");
            return;
        }
        u.queued.emplace_back(line);
        return;
    }
    if (!u.flood.take(Clock::now())) {
        refuse(u, ErrorCode::RateLimited, "too many messages; slow down", "");
        return;
    }
    auto decoded = proto::decode_client(line);
    if (!decoded) {
        const auto& e = decoded.error();
        if (!u.greeted) {
            refuse_and_close(u, ErrorCode::NotHello, "the first line must be hello (" + e.message + ")", e.type);
            return;
        }
        refuse(u, e.code, e.message, e.type);
        return;
    }
    proto::ClientMessage& msg = decoded.value();
    if (!u.greeted && !std::holds_alternative<proto::Hello>(msg)) {
        refuse_and_close(u, ErrorCode::NotHello, "the first line must be hello", proto::type_name(msg));
        return;
    }
    const int refused_before = u.refused_in_row;
    std::visit([&](auto& m) { handle(u, m); }, msg);
    // `u` may be gone only through on_disconnect, which never runs inside a handler.
    if (u.refused_in_row == refused_before) u.refused_in_row = 0;
}

void Lobby::hello_timeout(SessionId s) {
    User* u = find(s);
    if (!u || u->greeted || u->closing || u->login_pending) return;
    refuse_and_close(*u, ErrorCode::NotHello,
                     "no hello within " + std::to_string(config_.hello_timeout.count() / 1000) + " s", "");
}

void Lobby::idle_timeout(SessionId s) {
    User* u = find(s);
    if (!u || u->closing) return;
    spdlog::info("session {} ({}): silent for {} s, closing", s, u->name, config_.idle_timeout.count() / 1000);
    refuse_and_close(*u, ErrorCode::IdleTimeout,
                     "nothing heard from you for " + std::to_string(config_.idle_timeout.count() / 1000) +
                         " s (answer the server's ping with pong)",
                     "");
}

void Lobby::on_disconnect(SessionId s, proto::LeaveReason reason) {
    const auto it = users_.find(s);
    if (it == users_.end()) return;
    cancel_analysis(s);
    std::unique_ptr<User> u = std::move(it->second);
    users_.erase(it);
    in_lobby_.erase(s);
    if (u->greeted) {
        user_places_.erase(place_of(*u));
        if (const auto f = by_folded_.find(u->key.folded); f != by_folded_.end() && f->second == s) by_folded_.erase(f);
        if (const auto h = by_shaped_.find(u->key.shaped); h != by_shaped_.end() && h->second == s) by_shaped_.erase(h);
    }
    if (u->dropped) reason = proto::LeaveReason::Dropped;
    // While stopping, tables are closed: no grace timers, no farewells.
    if (!u->greeted || shutting_down_) return;
    if (u->table != 0) {
        if (auto t = tables_.find(u->table); t != tables_.end()) {
            const auto role = t->second->role_of(s);
            t->second->disconnect(s, reason);
            if (role && *role != proto::Role::Spectator && t->second->seat(*role == proto::Role::Red ? RED : BLACK).human())
                held_seats_[u->token] = u->table;
        }
    }
    broadcast_lobby(proto::UserLeft{u->name});
}

void Lobby::shutdown() {
    shutting_down_ = true;
    desk_.shutdown();
    for (auto& [id, t] : tables_) t->close();
    for (auto& [id, u] : users_) {
        if (u->closing) continue;
        send_msg(*u, proto::Error{ErrorCode::ShuttingDown, "the server is shutting down", "", 0});
        u->closing = true;
        out_.close(id);
    }
}

// ---- Tables ----------------------------------------------------------------------------

void Lobby::table_changed(Table& t) {
    if (!shutting_down_) broadcast_lobby(proto::TableUpdate{t.info()});
    if (!t.wanted()) schedule_check(t.id());
}

void Lobby::schedule_check(proto::TableId id) {
    // Deferred: the table may be in the middle of one of its own functions.
    boost::asio::post(io_, [this, id] { remove_table_if_unwanted(id); });
}

void Lobby::remove_table_if_unwanted(proto::TableId id) {
    const auto it = tables_.find(id);
    if (it == tables_.end() || it->second->wanted()) return;
    std::shared_ptr<Table> t = std::move(it->second);
    tables_.erase(it);
    table_index_.erase(id);
    t->close();
    for (TableObserver* o : observers_) o->table_closed(*t);
    spdlog::info("table {} removed", id);
    if (!shutting_down_) broadcast_lobby(proto::TableRemoved{id});
}

Table* Lobby::at_table(User& u, proto::TableId id, std::string_view request) {
    Table* t = table(id);
    if (!t) {
        refuse(u, ErrorCode::NoSuchTable, "no table " + std::to_string(id), request, id);
        return nullptr;
    }
    if (u.table != id) {
        refuse(u, ErrorCode::NotAtTable, "you are not at table " + std::to_string(id), request, id);
        return nullptr;
    }
    return t;
}

bool Lobby::join_table(User& u, proto::TableId id, proto::Role as, std::string_view request) {
    Table* t = table(id);
    if (!t) {
        refuse(u, ErrorCode::NoSuchTable, "no table " + std::to_string(id), request, id);
        return false;
    }
    if (u.table != 0) {
        refuse(u, ErrorCode::AlreadyAtTable, "you are already at table " + std::to_string(u.table) + "; leave it first",
               request, id);
        return false;
    }
    if (const Verdict v = t->can_join(as, u.name)) {
        refuse(u, v->code, v->message, request, id);
        return false;
    }
    if (t->rules().rated && as != proto::Role::Spectator && u.account_id == 0) {
        refuse(u, ErrorCode::NotAllowed, "only registered players sit at a rated table (register first)", request, id);
        return false;
    }
    set_table(u, id);
    t->join(u.id, u.name, u.token, as, u.account_id, shown_rating(u));
    return true;
}

Table* Lobby::open_board_table(const std::string& name, const std::string& creator, const TableRules& rules) {
    if (tables_.size() >= config_.max_tables) return nullptr;
    const proto::TableId id = next_table_id_++;
    auto t = std::make_shared<Table>(TableContext{io_, config_, *this, ai_, &observers_, engines_, book_}, id, name, creator,
                                     Position{}, rules);
    add_table(t);
    for (TableObserver* o : observers_) o->table_created(*t);
    if (!shutting_down_) broadcast_lobby(proto::TableUpdate{t->info()});
    return t.get();
}

void Lobby::leave_current(User& u) {
    if (u.table == 0) return;
    const proto::TableId id = u.table;
    if (Table* cur = table(id)) {
        cur->leave(u.id);
        if (!cur->wanted()) schedule_check(id);
    }
    set_table(u, 0);
    send_msg(u, proto::LeftTable{id});
}

bool Lobby::seat_user(User& u, Table& t, Color c) {
    if (!u.greeted || u.closing) return false;
    const proto::Role as = proto::role_of(c);
    if (t.can_join(as, u.name)) return false;
    if (u.table != 0) {
        Table* cur = table(u.table);
        const auto role = cur ? cur->role_of(u.id) : std::nullopt;
        if (cur == &t && role == as) return true;
        // A game the user plays elsewhere is not broken off: they come when it ends.
        if (cur && role && *role != proto::Role::Spectator && cur->status() == proto::TableStatus::Playing)
            return false;
        leave_current(u);
    }
    set_table(u, t.id());
    t.join(u.id, u.name, u.token, as, u.account_id, shown_rating(u));
    return true;
}

void Lobby::clear_board(Table& t) {
    for (Color c : {RED, BLACK}) {
        const Seat& s = t.seat(c);
        if (!s.human() || !s.connected) continue;
        if (User* u = find(s.session); u && u->table == t.id()) {
            leave_current(*u);
            send_tables(*u);
        }
    }
}

Table* Lobby::restore_table(proto::TableId id, const std::string& name, const std::string& creator,
                            const Position& start, const std::vector<Move>& moves, const RestoredSeat* seats,
                            const TableRules& rules) {
    if (id == 0 || tables_.count(id)) return nullptr;
    auto t = std::make_shared<Table>(TableContext{io_, config_, *this, ai_, &observers_, engines_, book_}, id, name, creator,
                                     start, rules);
    // A human seat under a registered name is that account's (only its owner can log in
    // under the name and resume the seat): the seat shows its rating from the restart on,
    // in the table list and in every snapshot, not only once its player is back.
    RestoredSeat restored[COLOR_NB] = {seats[RED], seats[BLACK]};
    for (RestoredSeat& r : restored) {
        if (r.kind != RestoredSeat::Kind::Human || !accounts_) continue;
        if (const AccountEntry* a = account_named(names_.key(r.name))) {
            r.account_id = a->id;
            r.rating = rounded_rating(*a);
        }
    }
    if (!t->restore_game(moves, restored)) return nullptr;
    // The creator's rights go with the seat token of the creator's name (the database keeps
    // no session of a spectating creator), and with its account when it has one.
    for (const RestoredSeat& r : restored) {
        if (r.kind != RestoredSeat::Kind::Human || r.name != creator || r.token.empty()) continue;
        t->add_creator_identity("session:" + r.token);
        if (r.account_id != 0) t->add_creator_identity("account:" + std::to_string(r.account_id));
    }
    add_table(t);
    if (next_table_id_ <= id) next_table_id_ = id + 1;
    for (Color c : {RED, BLACK})
        if (seats[c].kind == RestoredSeat::Kind::Human && !seats[c].token.empty()) held_seats_[seats[c].token] = id;
    return t.get();
}

std::vector<proto::UserInfo> Lobby::admin_users() const {
    std::vector<proto::UserInfo> out;
    for (const auto& [id, u] : users_)
        if (u->greeted) out.push_back(proto::UserInfo{u->name, u->table});
    return out;
}

bool Lobby::admin_kick(const std::string& name, bool banned) {
    User* u = find_by_name(name);
    if (!u || u->closing) return false;
    send_msg(*u, banned ? proto::Error{proto::ErrorCode::Banned, "the operator banned your name", "", 0}
                        : proto::Error{proto::ErrorCode::NotAllowed, "the operator closed your connection", "", 0});
    u->closing = true;
    out_.close(u->id);
    return true;
}

void Lobby::admin_notice(const std::string& text) {
    // Its own message type: no chat line, so no user can pose as the server.
    const Buffer line = make_buffer(proto::Notice{proto::cut_code_points(text, proto::MAX_NOTICE_CODE_POINTS)});
    for (const auto& [id, u] : users_)
        if (u->greeted && !u->closing) out_.send(id, line);
}

void Lobby::handle(User& u, const proto::ListGames& m) {
    if (!archive_) {
        refuse(u, proto::ErrorCode::NotAllowed, "this server keeps no game archive", m.TYPE);
        return;
    }
    send_msg(u, archive_->list_games(m));
}

void Lobby::handle(User& u, const proto::GetGame& m) {
    if (!archive_) {
        refuse(u, proto::ErrorCode::NotAllowed, "this server keeps no game archive", m.TYPE);
        return;
    }
    auto record = archive_->get_game(m.id);
    if (!record) {
        refuse(u, proto::ErrorCode::NoSuchGame, "no game " + std::to_string(m.id) + " in the archive", m.TYPE);
        return;
    }
    if (const proto::TableId t = delayed_table(tables_, *archive_, u.id, m.id)) {
        refuse(u, proto::ErrorCode::NotAllowed, delayed_message(t), m.TYPE);
        return;
    }
    send_msg(u, *record);
}

}  // namespace xq::server
