// The process's descriptor limit (RLIMIT_NOFILE) against the connections it must hold: each
// client is one descriptor, so a soft limit below --max-clients refuses clients at accept.
#pragma once

#include <cstdint>
#include <string>

namespace xq::server {

// Descriptors the server needs besides its clients: listener, epoll, timers, the database
// and its WAL files, discovery, console, logs, and some slack.
inline constexpr std::uint64_t DESCRIPTOR_RESERVE = 64;
// Each external engine process holds three pipes to the server (both ends while starting).
inline constexpr std::uint64_t DESCRIPTORS_PER_ENGINE = 6;

struct DescriptorLimit {
    std::uint64_t needed = 0;
    std::uint64_t soft = 0;  // after raising
    std::uint64_t hard = 0;
    bool raised = false;     // the soft limit was raised by the server itself
    bool enough() const { return soft >= needed; }
};

// Descriptors for `max_clients` connections and `engine_processes` external engines.
std::uint64_t descriptors_needed(std::uint64_t max_clients, std::uint64_t engine_processes);

// Raises the soft RLIMIT_NOFILE to the hard limit (to `needed` when the hard limit is
// unlimited) and reports the outcome against `needed`.
DescriptorLimit raise_descriptor_limit(std::uint64_t needed);

// What to tell the operator when the limit is too low: the numbers and how to raise them.
// Empty when it is enough.
std::string descriptor_warning(const DescriptorLimit& limit, std::uint64_t max_clients);

}  // namespace xq::server
