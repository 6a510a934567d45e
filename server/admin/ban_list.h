// The operator's bans: nicks and IP addresses refused for the server's lifetime (checked by
// the lobby at hello and by admission at accept).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace xq::server {

// Bans by nick (case-sensitive, as names are) and by IP, for the server's lifetime.
class BanList {
public:
    bool ban(const std::string& who, bool is_ip);
    bool unban(const std::string& who);
    bool nick_banned(std::string_view nick) const { return nicks_.count(std::string(nick)) > 0; }
    bool ip_banned(std::string_view ip) const { return ips_.count(std::string(ip)) > 0; }
    std::vector<std::string> list() const;  // "nick ann", "ip 10.0.0.7"
    // The banned nicks as typed; the lobby compares them by confusable key (NamePolicy).
    const std::set<std::string>& nicks() const { return nicks_; }

private:
    std::set<std::string> nicks_;
    std::set<std::string> ips_;
};

}  // namespace xq::server
