// Operator side of the server: the console commands typed on its stdin (parsed here, carried
// out by the server), connection admission (global and per-IP caps, bans), the optional
// server password, and the durability limits that join the server's config and --help.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace xq::server {

// Longest console line and broadcast text accepted.
constexpr std::size_t MAX_ADMIN_LINE = 1024;
constexpr std::size_t MAX_ADMIN_BROADCAST = 200;
constexpr std::size_t MAX_PASSWORD_BYTES = 128;

// Settings of the durability layer (flags of xiangqi-server, shown by --help with these
// defaults). The core's own settings (port, caps, hello timeout, seat grace) stay in
// ServerConfig.
struct DurabilityConfig {
    std::string data_dir;                  // empty: xiangqi-data beside the executable
    bool no_persist = false;               // run without a database (tests, demos)
    bool sync_full = false;                // fsync every move (power-cut safe); default survives kill -9
    std::string clock = "none";            // default clock of new tables (clock_spec text)
    std::uint16_t discovery_port = 5050;   // UDP port answered (0: discovery off)
    std::string discovery_bind = "0.0.0.0";
    std::size_t max_per_ip = 32;           // connections from one address
    bool cap_loopback = false;             // count loopback too (the host's own tools are exempt)
    bool console = true;                   // read operator commands from stdin
};

struct AdminCommand {
    enum class Kind { Help, List, Tables, Kick, Ban, Unban, Bans, Broadcast, Shutdown };
    Kind kind = Kind::Help;
    std::string target;  // nick or IP for kick/ban/unban; the text for broadcast
    bool target_is_ip = false;
};

// "help", "list", "tables", "kick NICK", "ban NICK|IP", "unban NICK|IP", "bans",
// "broadcast TEXT" (alias "say"), "shutdown" (alias "quit"). nullopt and why otherwise.
std::optional<AdminCommand> parse_admin_command(std::string_view line, std::string* error = nullptr);
std::string admin_help();
// True for a dotted IPv4 or an IPv6 address text.
bool looks_like_ip(std::string_view text);

// Bans by nick (case-sensitive, as names are) and by IP, for the server's lifetime.
class BanList {
public:
    bool ban(const std::string& who, bool is_ip);
    bool unban(const std::string& who);
    bool nick_banned(std::string_view nick) const { return nicks_.count(std::string(nick)) > 0; }
    bool ip_banned(std::string_view ip) const { return ips_.count(std::string(ip)) > 0; }
    std::vector<std::string> list() const;  // "nick ann", "ip 10.0.0.7"

private:
    std::set<std::string> nicks_;
    std::set<std::string> ips_;
};

// Counts connections globally and per address; the listener asks before it keeps one.
class Admission {
public:
    enum class Verdict { Admit, ServerFull, TooManyFromAddress, Banned };

    // Loopback addresses (127.0.0.0/8, ::1: the host's own load tools and bots) skip the
    // per-address cap unless `cap_loopback`; the global cap and bans apply to everyone.
    Admission(std::size_t max_total, std::size_t max_per_ip, bool cap_loopback = true)
        : max_total_(max_total), max_per_ip_(max_per_ip), cap_loopback_(cap_loopback) {}
    // On Admit the connection is counted until release().
    Verdict admit(const std::string& ip, const BanList& bans);
    void release(const std::string& ip);
    std::size_t total() const { return total_; }
    std::size_t from(const std::string& ip) const;

private:
    std::size_t max_total_;
    std::size_t max_per_ip_;
    bool cap_loopback_;
    std::size_t total_ = 0;
    std::map<std::string, std::size_t> per_ip_;
};
std::string_view admission_message(Admission::Verdict v);

// Compares in time independent of where the texts differ (a password guess learns nothing).
bool password_matches(std::string_view expected, std::string_view given);

}  // namespace xq::server
