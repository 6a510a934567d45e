// Connection admission: the listener asks before it keeps a connection (global cap,
// per-address cap, IP bans) and releases the count when the connection closes.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>

#include "server/admin/ban_list.h"

namespace xq::server {

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

}  // namespace xq::server
