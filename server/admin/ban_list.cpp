#include "server/admin/ban_list.h"

namespace xq::server {

bool BanList::ban(const std::string& who, bool is_ip) {
    return (is_ip ? ips_ : nicks_).insert(who).second;
}

bool BanList::unban(const std::string& who) { return (ips_.erase(who) + nicks_.erase(who)) > 0; }

std::vector<std::string> BanList::list() const {
    std::vector<std::string> out;
    for (const auto& n : nicks_) out.push_back("nick " + n);
    for (const auto& i : ips_) out.push_back("ip " + i);
    return out;
}

}  // namespace xq::server
