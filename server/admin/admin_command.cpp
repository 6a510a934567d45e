#include "server/admin/admin_command.h"

#include <arpa/inet.h>

#include <charconv>

namespace xq::server {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

std::optional<AdminCommand> fail(std::string* error, std::string m) {
    if (error) *error = std::move(m);
    return std::nullopt;
}

bool has_controls(std::string_view s) {
    for (unsigned char c : s)
        if (c < 0x20 || c == 0x7F) return true;
    return false;
}

// The next space-separated word of `rest` (consumed).
std::string_view next_word(std::string_view& rest) {
    const auto sp = rest.find(' ');
    const std::string_view w = rest.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view() : trim(rest.substr(sp + 1));
    return w;
}

std::optional<long long> number(std::string_view w) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (w.empty() || ec != std::errc() || end != w.data() + w.size()) return std::nullopt;
    return v;
}

std::optional<AdminCommand> parse_arbiter(std::string_view rest, std::string* error) {
    constexpr const char* USAGE =
        "arbiter TABLE pause|resume|cancel [REASON]|add_time red|black SECONDS|adjudicate 1-0|0-1|1/2-1/2 REASON";
    if (has_controls(rest)) return fail(error, "arbiter: control characters");
    AdminCommand c;
    c.kind = AdminCommand::Kind::Arbiter;
    const auto table = number(next_word(rest));
    if (!table || *table < 1 || *table > 0xFFFFFFFFLL) return fail(error, USAGE);
    c.table = static_cast<std::uint32_t>(*table);
    c.action = std::string(next_word(rest));
    if (c.action == "pause" || c.action == "resume") {
        if (!rest.empty()) return fail(error, "arbiter " + c.action + " takes no reason");
        return c;
    }
    if (c.action == "cancel") {
        c.target = std::string(rest);
        return c;
    }
    if (c.action == "add_time") {
        c.side = std::string(next_word(rest));
        const auto seconds = number(next_word(rest));
        if ((c.side != "red" && c.side != "black") || !seconds || *seconds < 1 || *seconds > 3600 || !rest.empty())
            return fail(error, "arbiter TABLE add_time red|black SECONDS (1-3600)");
        c.seconds = static_cast<int>(*seconds);
        return c;
    }
    if (c.action == "adjudicate") {
        c.result = std::string(next_word(rest));
        if ((c.result != "1-0" && c.result != "0-1" && c.result != "1/2-1/2") || rest.empty())
            return fail(error, "arbiter TABLE adjudicate 1-0|0-1|1/2-1/2 REASON");
        c.target = std::string(rest);
        return c;
    }
    return fail(error, USAGE);
}

}  // namespace

bool looks_like_ip(std::string_view text) {
    if (text.size() > 45) return false;
    std::string t(text);
    unsigned char buf[16];
    return ::inet_pton(AF_INET, t.c_str(), buf) == 1 || ::inet_pton(AF_INET6, t.c_str(), buf) == 1;
}

std::optional<AdminCommand> parse_admin_command(std::string_view line, std::string* error) {
    if (line.size() > MAX_ADMIN_LINE) return fail(error, "line too long");
    line = trim(line);
    if (line.empty()) return fail(error, "empty command; type help");
    auto space = line.find(' ');
    std::string_view word = line.substr(0, space);
    std::string_view rest = space == std::string_view::npos ? std::string_view() : trim(line.substr(space + 1));
    AdminCommand c;
    using K = AdminCommand::Kind;
    auto no_arg = [&](K k) -> std::optional<AdminCommand> {
        if (!rest.empty()) return fail(error, std::string(word) + " takes no argument");
        c.kind = k;
        return c;
    };
    if (word == "help" || word == "?") return no_arg(K::Help);
    if (word == "list" || word == "users") return no_arg(K::List);
    if (word == "tables") return no_arg(K::Tables);
    if (word == "bans") return no_arg(K::Bans);
    if (word == "shutdown" || word == "quit") return no_arg(K::Shutdown);
    if (word == "kick" || word == "ban" || word == "unban") {
        if (rest.empty() || rest.find(' ') != std::string_view::npos || has_controls(rest))
            return fail(error, std::string(word) + " wants one nick or IP address");
        c.kind = word == "kick" ? K::Kick : word == "ban" ? K::Ban : K::Unban;
        c.target = std::string(rest);
        c.target_is_ip = looks_like_ip(rest);
        return c;
    }
    if (word == "book") {
        if (rest.empty()) {
            c.kind = K::Book;
            return c;
        }
        if (rest == "reset") {
            c.kind = K::BookReset;
            return c;
        }
        if (rest.substr(0, 7) == "export ") {
            const std::string_view file = trim(rest.substr(7));
            if (file.empty() || has_controls(file)) return fail(error, "book export wants a file name");
            c.kind = K::BookExport;
            c.target = std::string(file);
            return c;
        }
        return fail(error, "book takes nothing, reset, or export FILE");
    }
    if (word == "accounts") return no_arg(K::Accounts);
    if (word == "account") {
        const auto sp = rest.find(' ');
        const std::string_view sub = rest.substr(0, sp);
        const std::string_view name = sp == std::string_view::npos ? std::string_view() : trim(rest.substr(sp + 1));
        static constexpr std::pair<std::string_view, K> SUBS[] = {{"add", K::AccountAdd},
                                                                  {"reset", K::AccountReset},
                                                                  {"delete", K::AccountDelete},
                                                                  {"ban", K::AccountBan},
                                                                  {"unban", K::AccountUnban},
                                                                  {"history", K::AccountHistory}};
        for (const auto& [w, k] : SUBS) {
            if (sub != w) continue;
            if (name.empty() || has_controls(name)) return fail(error, "account " + std::string(w) + " wants a name");
            c.kind = k;
            c.target = std::string(name);
            return c;
        }
        return fail(error, "account wants add, reset, delete, ban, unban or history, then a name");
    }
    if (word == "arbiter") return parse_arbiter(rest, error);
    if (word == "broadcast" || word == "say") {
        if (rest.empty()) return fail(error, "broadcast wants a message");
        if (rest.size() > MAX_ADMIN_BROADCAST) return fail(error, "message too long");
        if (has_controls(rest)) return fail(error, "message has control characters");
        c.kind = K::Broadcast;
        c.target = std::string(rest);
        return c;
    }
    return fail(error, "unknown command '" + std::string(word.substr(0, 32)) + "'; type help");
}

std::string admin_help() {
    return "commands:\n"
           "  list               connected users (name, address, table)\n"
           "  tables             tables and their games\n"
           "  kick NICK          close that user's connection (a seat is kept for the grace period)\n"
           "  ban NICK|IP        kick and refuse from now on\n"
           "  unban NICK|IP      lift a ban\n"
           "  bans               list bans\n"
           "  broadcast TEXT     a notice to everyone (alias: say)\n"
           "  shutdown           stop the server cleanly (alias: quit)\n"
           "  book               the AI's opening book: size and what it learned from its games\n"
           "  book reset         forget what the AI learned (the base book stays)\n"
           "  book export FILE   write what the AI learned as a book file (xiangqi-server --book FILE)\n"
           "  accounts           registered accounts (rating, games, bans)\n"
           "  account add NAME   register NAME; prints its password to hand over\n"
           "  account reset NAME a new password for NAME (printed)\n"
           "  account delete NAME   delete the account (its owner plays on as a guest)\n"
           "  account ban NAME   refuse the account's logins (kept in the database)\n"
           "  account unban NAME lift it\n"
           "  account history NAME   NAME's rating after each rated game, with the archive's game id\n"
           "  arbiter TABLE pause|resume      stop or restart the game's clocks (moves wait)\n"
           "  arbiter TABLE add_time red|black SECONDS   more time (1-3600 s) for that side\n"
           "  arbiter TABLE adjudicate 1-0|0-1|1/2-1/2 REASON   decide the game\n"
           "  arbiter TABLE cancel [REASON]   end the game without a result\n";
}

}  // namespace xq::server
