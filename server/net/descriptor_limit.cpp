#include "server/net/descriptor_limit.h"

#include <sys/resource.h>

#include <algorithm>

namespace xq::server {

std::uint64_t descriptors_needed(std::uint64_t max_clients, std::uint64_t engine_processes) {
    return max_clients + DESCRIPTOR_RESERVE + DESCRIPTORS_PER_ENGINE * engine_processes;
}

DescriptorLimit raise_descriptor_limit(std::uint64_t needed) {
    DescriptorLimit out;
    out.needed = needed;
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return out;
    out.soft = rl.rlim_cur;
    out.hard = rl.rlim_max;
    // As before this check: the whole hard limit (descriptors cost nothing until used).
    const rlim_t want = rl.rlim_max == RLIM_INFINITY ? std::max<rlim_t>(rl.rlim_cur, static_cast<rlim_t>(needed))
                                                     : rl.rlim_max;
    if (want <= rl.rlim_cur) return out;
    rlimit raised = rl;
    raised.rlim_cur = want;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) {
        out.soft = want;
        out.raised = true;
    }
    return out;
}

std::string descriptor_warning(const DescriptorLimit& limit, std::uint64_t max_clients) {
    if (limit.enough()) return {};
    const std::uint64_t usable = limit.soft > DESCRIPTOR_RESERVE ? limit.soft - DESCRIPTOR_RESERVE : 0;
    return "the descriptor limit is " + std::to_string(limit.soft) + " (hard limit " + std::to_string(limit.hard) +
           "), below the " + std::to_string(limit.needed) + " that --max-clients " + std::to_string(max_clients) +
           " needs: clients beyond about " + std::to_string(usable) +
           " will be refused. Raise the hard limit (ulimit -Hn " + std::to_string(limit.needed) +
           " as root, LimitNOFILE= in a systemd unit, --ulimit nofile= for Docker, or nofile in "
           "/etc/security/limits.conf), or lower --max-clients; docs/scale.md has the kernel settings";
}

}  // namespace xq::server
