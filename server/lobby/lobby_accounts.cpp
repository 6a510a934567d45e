// Registered accounts in the lobby: logins whose password is checked on the accounts
// worker (the hello waits, other sessions do not), register, change_password, and the
// operator console's account commands.
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <sstream>

#include "server/identity/glicko2.h"
#include "server/lobby/lobby.h"

namespace xq::server {

using proto::ErrorCode;
using Result = AccountStore::Result;

namespace {

std::int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string seconds_text(PasswordGuard::Clock::duration d) {
    return std::to_string(std::chrono::ceil<std::chrono::seconds>(d).count()) + " s";
}

// "2026-12-01 11:30 UTC" for the console's history lines.
std::string utc_text(std::int64_t unix_ms) {
    const std::time_t secs = static_cast<std::time_t>(unix_ms / 1000);
    std::tm tm{};
    if (!gmtime_r(&secs, &tm)) return "?";
    char buf[32];
    const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return std::string(buf, n);
}

constexpr const char* BUSY = "the server is busy checking passwords; try again in a moment";

// Why `address` may not try a password now ("" when it may).
std::string lockout_refusal(const PasswordGuard& guard, const std::string& address) {
    const auto left = guard.locked_for(address, PasswordGuard::Clock::now());
    if (left.count() <= 0) return {};
    return "too many wrong account passwords from your address; try again in " + seconds_text(left);
}

// Counts a wrong password from `address`; what to add to the refusal when that locked it out.
std::string wrong_password_note(PasswordGuard& guard, const std::string& address,
                                PasswordGuard::Clock::duration lockout) {
    if (!guard.failed(address, PasswordGuard::Clock::now())) return {};
    return "; too many wrong account passwords from your address, refused for " + seconds_text(lockout);
}

}  // namespace

void Lobby::set_accounts(std::shared_ptr<AccountService> accounts) {
    if (config_.accounts == AccountsMode::Off || !accounts) {
        accounts_.reset();
        directory_.clear();
        return;
    }
    accounts_ = std::move(accounts);
    directory_.clear();
    for (const Account& a : accounts_->call([](AccountStore& s) { return s.list(); })) set_account_entry(a);
}

Lobby::AccountEntry* Lobby::account_named(const NameKey& key) {
    if (key.empty()) return nullptr;
    for (auto& a : directory_)
        if (a.key.same(key)) return &a;
    return nullptr;
}

Lobby::AccountEntry* Lobby::account_by_id(std::int64_t id) {
    for (auto& a : directory_)
        if (a.id == id) return &a;
    return nullptr;
}

void Lobby::set_account_entry(const Account& a) {
    AccountEntry* e = account_by_id(a.id);
    if (!e) e = &directory_.emplace_back();
    e->id = a.id;
    e->name = a.name;
    e->key = names_.key(a.name);
    e->banned = a.banned;
    e->rating = a.rating;
    e->rd = a.rd;
    e->volatility = a.volatility;
    e->rated_games = a.rated_games;
}

int Lobby::rounded_rating(const AccountEntry& a) {
    return std::clamp(static_cast<int>(std::lround(a.rating)), 0, proto::MAX_RATING);
}

std::optional<int> Lobby::shown_rating(const User& u) {
    const AccountEntry* a = u.account_id != 0 ? account_by_id(u.account_id) : nullptr;
    if (!a) return std::nullopt;
    return rounded_rating(*a);
}

// ---- Ratings ---------------------------------------------------------------------------

void Lobby::rate_game(const Table& t, const proto::GameOver& g) {
    if (!t.rules().rated || !accounts_) return;
    const Seat& red = t.seat(RED);
    const Seat& black = t.seat(BLACK);
    if (!red.human() || !black.human() || red.account_id == 0 || black.account_id == 0 ||
        red.account_id == black.account_id)
        return;
    AccountEntry* r = account_by_id(red.account_id);
    AccountEntry* b = account_by_id(black.account_id);
    if (!r || !b) return;  // an account deleted during the game
    double red_score = 0.5;
    if (g.result.outcome == Outcome::RedWins) red_score = 1.0;
    else if (g.result.outcome == Outcome::BlackWins) red_score = 0.0;
    else if (g.result.outcome != Outcome::Draw) return;
    // Each rated game is a rating period of its own, both sides rated from the other's
    // rating before the game.
    const Glicko2Rating red_before{r->rating, r->rd, r->volatility};
    const Glicko2Rating black_before{b->rating, b->rd, b->volatility};
    const Glicko2Rating red_after = glicko2_update(red_before, {{black_before.rating, black_before.rd, red_score}});
    const Glicko2Rating black_after =
        glicko2_update(black_before, {{red_before.rating, red_before.rd, 1.0 - red_score}});
    const std::int64_t at = wall_ms();
    for (auto [entry, after] : {std::pair{r, red_after}, std::pair{b, black_after}}) {
        entry->rating = after.rating;
        entry->rd = after.rd;
        entry->volatility = after.volatility;
        ++entry->rated_games;
        spdlog::info("rating of '{}': {:.1f} ± {:.1f} after table {}", entry->name, after.rating, after.rd, t.id());
        // The ratings observer runs before the recorder's game_over, which forgets the id.
        const RatingEntry row{archive_ ? archive_->game_id_at(t.id()) : 0, at, after.rating, after.rd,
                              after.volatility};
        const std::int64_t id = entry->id;
        // Kept in the database on the worker; the lobby's copy above is what everyone sees.
        accounts_->submit_always([id, row](AccountStore& store) {
            if (store.record_rating(id, row) != AccountStore::Result::Ok)
                spdlog::warn("rating of account {} not saved: {}", id, store.last_error());
        });
    }
    // The seats show the new ratings from the next table info on.
    for (Color c : {RED, BLACK}) {
        const Seat& s = t.seat(c);
        if (Table* live = table(t.id()); live && s.human())
            live->set_seat_account(s.session, s.account_id, rounded_rating(*account_by_id(s.account_id)));
    }
}

template <class Job, class Then>
bool Lobby::on_accounts(Job job, Then then) {
    if (!accounts_) return false;
    return accounts_->submit([&io = io_, alive = std::weak_ptr<char>(alive_), job = std::move(job),
                              then = std::move(then)](AccountStore& store) mutable {
        auto result = job(store);
        boost::asio::post(io, [alive, then = std::move(then), result = std::move(result)]() mutable {
            if (!alive.expired()) then(std::move(result));
        });
    });
}

template <class Job, class Then>
void Lobby::session_account_job(User& u, std::string_view request, Job job, Then then) {
    if (u.account_job) {
        refuse(u, ErrorCode::RateLimited, "your last account request is still being worked on", request);
        return;
    }
    u.account_job = true;
    const bool queued = on_accounts(std::move(job), [this, s = u.id, then = std::move(then)](auto result) mutable {
        User* user = find(s);
        if (user) user->account_job = false;
        then(user && !user->closing ? user : nullptr, std::move(result));
    });
    if (!queued) {
        u.account_job = false;
        refuse(u, ErrorCode::RateLimited, BUSY, request);
    }
}

// ---- Login -----------------------------------------------------------------------------

void Lobby::start_login(User& u, const proto::Hello& m, const AccountEntry& a) {
    if (std::string why = lockout_refusal(login_guard_, u.address); !why.empty()) {
        refuse_and_close(u, ErrorCode::BadLogin, std::move(why), m.TYPE);
        return;
    }
    u.login_pending = true;
    const SessionId s = u.id;
    const std::int64_t id = a.id;
    const bool queued = on_accounts(
        [name = a.name, password = m.account_password, id](AccountStore& store) {
            Account got;
            const Result r = store.verify(name, password, wall_ms(), &got);
            // The password names the account (two accounts may look alike by one key each).
            return r == Result::Ok && got.id != id ? Result::WrongPassword : r;
        },
        [this, s, m, id](Result r) { finish_login(s, m, r == Result::Ok ? id : 0, static_cast<int>(r)); });
    if (!queued) {
        u.login_pending = false;
        refuse_and_close(u, ErrorCode::RateLimited, BUSY, m.TYPE);
    }
}

void Lobby::finish_login(SessionId s, const proto::Hello& m, std::int64_t account_id, int result) {
    User* u = find(s);
    if (!u || u->closing) return;
    u->login_pending = false;
    if (account_id == 0) {
        const auto r = static_cast<Result>(result);
        if (r == Result::Failed) {
            refuse_and_close(*u, ErrorCode::Internal, "the account database failed; try again later", m.TYPE);
            return;
        }
        std::string why = "wrong password for the account '" + m.name + "'";
        if (r == Result::WrongPassword) why += wrong_password_note(login_guard_, u->address, config_.password_lockout);
        spdlog::warn("session {} ({}): wrong account password for '{}'", s, u->address, m.name);
        refuse_and_close(*u, ErrorCode::BadLogin, why, m.TYPE);
        return;
    }
    u->verified_account = account_id;
    handle(*u, m);
    // Lines that came while the password was checked, in order.
    std::vector<std::string> queued = std::move(u->queued);
    u->queued.clear();
    for (const auto& line : queued) {
        if (!find(s)) break;
        on_line(s, line);
    }
}

// ---- register / change_password --------------------------------------------------------

namespace {

ErrorCode code_of(Result r) {
    switch (r) {
    case Result::NameTaken: return ErrorCode::NameTaken;
    case Result::BadPassword: return ErrorCode::WeakPassword;
    case Result::BadName: return ErrorCode::BadName;
    case Result::WrongPassword: return ErrorCode::BadLogin;
    case Result::NoSuchAccount: return ErrorCode::NotAllowed;
    case Result::Ok:
    case Result::Failed: break;
    }
    return ErrorCode::Internal;
}

}  // namespace

void Lobby::handle(User& u, const proto::Register& m) {
    if (!accounts_) {
        refuse(u, ErrorCode::NotAllowed, "this server has no accounts", m.TYPE);
        return;
    }
    if (u.account_id != 0) {
        refuse(u, ErrorCode::NotAllowed, "you are logged in to the account '" + u.name + "' already", m.TYPE);
        return;
    }
    if (const std::string why = AccountStore::check_password(m.password); !why.empty()) {
        refuse(u, ErrorCode::WeakPassword, why, m.TYPE);
        return;
    }
    if (const AccountEntry* a = account_named(u.key)) {
        refuse(u, ErrorCode::NameTaken, "the name '" + a->name + "' is registered already", m.TYPE);
        return;
    }
    session_account_job(
        u, m.TYPE,
        [name = u.name, password = m.password](AccountStore& store) {
            const Result r = store.create(name, password);
            return std::make_pair(r, r == Result::Ok ? store.find(name) : std::nullopt);
        },
        [this](User* u, std::pair<Result, std::optional<Account>> done) {
            if (done.second) set_account_entry(*done.second);
            if (!u) return;
            if (!done.second) {
                refuse(*u, code_of(done.first), std::string(account_result_text(done.first)), proto::Register::TYPE);
                return;
            }
            u->account_id = done.second->id;
            spdlog::info("session {}: '{}' registered", u->id, u->name);
            send_msg(*u, proto::Registered{u->name});
        });
}

void Lobby::handle(User& u, const proto::ChangePassword& m) {
    if (!accounts_ || u.account_id == 0) {
        refuse(u, ErrorCode::NotAllowed, "log in to an account first (hello.account_password)", m.TYPE);
        return;
    }
    if (const std::string why = AccountStore::check_password(m.new_password); !why.empty()) {
        refuse(u, ErrorCode::WeakPassword, why, m.TYPE);
        return;
    }
    if (std::string why = lockout_refusal(login_guard_, u.address); !why.empty()) {
        refuse(u, ErrorCode::BadLogin, std::move(why), m.TYPE);
        return;
    }
    session_account_job(
        u, m.TYPE,
        [name = u.name, old_pw = m.old_password, new_pw = m.new_password](AccountStore& store) {
            return store.change_password(name, old_pw, new_pw);
        },
        [this](User* u, Result r) {
            if (!u) return;
            if (r == Result::Ok) {
                send_msg(*u, proto::PasswordChanged{});
                return;
            }
            std::string why = r == Result::WrongPassword
                                  ? "the old password is wrong" +
                                        wrong_password_note(login_guard_, u->address, config_.password_lockout)
                                  : std::string(account_result_text(r));
            refuse(*u, code_of(r), why, proto::ChangePassword::TYPE);
        });
}

// ---- The operator console --------------------------------------------------------------

void Lobby::admin_account(AccountCommand c, const std::string& name, std::function<void(std::string)> done) {
    if (!accounts_) {
        done("this server has no accounts (--accounts off)\n");
        return;
    }
    using C = AccountCommand;
    struct Outcome {
        Result result = Result::Ok;
        std::vector<Account> accounts;  // List: all; otherwise the account after the change
        std::string password;           // Add, Reset: the new password to read out
        std::vector<RatingEntry> history;  // History: oldest first
    };
    const bool queued = on_accounts(
        [c, name](AccountStore& store) {
            Outcome o;
            auto after = [&] {
                if (auto a = store.find(name)) o.accounts.push_back(*a);
            };
            switch (c) {
            case C::List: o.accounts = store.list(); break;
            case C::Add:
                o.password = AccountStore::random_password();
                o.result = store.create(name, o.password);
                after();
                break;
            case C::Reset:
                o.result = store.reset(name, &o.password);
                break;
            case C::Delete:
                after();
                o.result = store.remove(name);
                break;
            case C::Ban:
            case C::Unban:
                o.result = store.set_banned(name, c == C::Ban);
                after();
                break;
            case C::History:
                after();
                if (o.accounts.empty()) o.result = Result::NoSuchAccount;
                else o.history = store.rating_history(o.accounts.front().id);
                break;
            }
            return o;
        },
        [this, c, name, done](Outcome o) {
            std::ostringstream out;
            if (o.result != Result::Ok) {
                done("account " + name + ": " + std::string(account_result_text(o.result)) + "\n");
                return;
            }
            switch (c) {
            case C::List:
                out << o.accounts.size() << " account(s)\n";
                for (const auto& a : o.accounts) {
                    out << "  " << a.name << "  rating " << static_cast<int>(a.rating + 0.5) << " ±"
                        << static_cast<int>(a.rd + 0.5) << "  " << a.rated_games << " rated game(s)"
                        << (a.banned ? "  BANNED" : "") << (a.last_login_ms == 0 ? "  never logged in" : "") << "\n";
                }
                break;
            case C::Add:
                if (!o.accounts.empty()) set_account_entry(o.accounts.front());
                out << "account " << name << " created; its password: " << o.password << "\n";
                break;
            case C::Reset: out << "password of " << name << " reset to: " << o.password << "\n"; break;
            case C::Delete:
                if (!o.accounts.empty()) {
                    const std::int64_t id = o.accounts.front().id;
                    std::erase_if(directory_, [&](const AccountEntry& e) { return e.id == id; });
                    // Whoever is logged in to it plays on as a guest.
                    for (auto& [sid, u] : users_)
                        if (u->account_id == id) u->account_id = 0;
                }
                out << "account " << name << " deleted\n";
                break;
            case C::Ban:
            case C::Unban:
                if (!o.accounts.empty()) {
                    set_account_entry(o.accounts.front());
                    if (c == C::Ban) {
                        const std::int64_t id = o.accounts.front().id;
                        for (auto& [sid, u] : users_) {
                            if (u->account_id != id || u->closing) continue;
                            refuse_and_close(*u, ErrorCode::Banned, "the operator banned your account", "");
                        }
                    }
                }
                out << "account " << name << (c == C::Ban ? " banned\n" : " unbanned\n");
                break;
            case C::History:
                out << o.accounts.front().name << ": " << o.history.size() << " rated game(s)\n";
                for (const RatingEntry& h : o.history) {
                    out << "  " << utc_text(h.at_ms) << "  rating " << static_cast<int>(std::lround(h.rating)) << " ±"
                        << static_cast<int>(std::lround(h.rd)) << "  game " << h.game_id << "\n";
                }
                break;
            }
            done(out.str());
        });
    if (!queued) done(std::string(BUSY) + "\n");
}

}  // namespace xq::server
