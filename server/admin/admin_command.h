// The operator console's language: the commands typed on the server's stdin, parsed here
// into AdminCommand (carried out by the server runtime, which sees the lobby and the
// listener). Bad lines are an error text, never an exception.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xq::server {

// Longest console line and broadcast text accepted.
constexpr std::size_t MAX_ADMIN_LINE = 1024;
constexpr std::size_t MAX_ADMIN_BROADCAST = 200;

struct AdminCommand {
    enum class Kind {
        Help, List, Tables, Kick, Ban, Unban, Bans, Broadcast, Shutdown, Book, BookReset, BookExport,
        Accounts, AccountAdd, AccountReset, AccountDelete, AccountBan, AccountUnban, AccountHistory, Arbiter
    };
    Kind kind = Kind::Help;
    // nick or IP for kick/ban/unban; the text for broadcast; the file for book export; the
    // account's name
    std::string target;
    bool target_is_ip = false;
    // arbiter: the table, the action ("pause", "resume", "add_time", "adjudicate", "cancel"),
    // add_time's side ("red"/"black") and seconds, adjudicate's result ("1-0", "0-1",
    // "1/2-1/2"); the reason is in `target`.
    std::uint32_t table = 0;
    std::string action;
    std::string side;
    int seconds = 0;
    std::string result;
};

// "help", "list", "tables", "kick NICK", "ban NICK|IP", "unban NICK|IP", "bans",
// "broadcast TEXT" (alias "say"), "shutdown" (alias "quit"), "book", "book reset",
// "book export FILE", "accounts", "account add|reset|delete|ban|unban|history NAME",
// "arbiter TABLE pause|resume|cancel [REASON]|add_time red|black SECONDS|adjudicate RESULT REASON".
// nullopt and why otherwise.
std::optional<AdminCommand> parse_admin_command(std::string_view line, std::string* error = nullptr);
std::string admin_help();
// True for a dotted IPv4 or an IPv6 address text.
bool looks_like_ip(std::string_view text);

}  // namespace xq::server
