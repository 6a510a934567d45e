#include "server/net/admission.h"

namespace xq::server {

Admission::Verdict Admission::admit(const std::string& ip, const BanList& bans) {
    if (bans.ip_banned(ip)) return Verdict::Banned;
    if (total_ >= max_total_) return Verdict::ServerFull;
    auto& n = per_ip_[ip];
    const bool loopback = ip.starts_with("127.") || ip == "::1" || ip.starts_with("::ffff:127.");
    if (n >= max_per_ip_ && (cap_loopback_ || !loopback)) {
        if (n == 0) per_ip_.erase(ip);
        return Verdict::TooManyFromAddress;
    }
    ++n;
    ++total_;
    return Verdict::Admit;
}

void Admission::release(const std::string& ip) {
    auto it = per_ip_.find(ip);
    if (it == per_ip_.end()) return;
    if (--it->second == 0) per_ip_.erase(it);
    if (total_ > 0) --total_;
}

std::size_t Admission::from(const std::string& ip) const {
    auto it = per_ip_.find(ip);
    return it == per_ip_.end() ? 0 : it->second;
}

std::string_view admission_message(Admission::Verdict v) {
    switch (v) {
    case Admission::Verdict::Admit: return "welcome";
    case Admission::Verdict::ServerFull: return "the server is full";
    case Admission::Verdict::TooManyFromAddress: return "too many connections from your address";
    case Admission::Verdict::Banned: return "you are banned from this server";
    }
    return "refused";
}

}  // namespace xq::server
