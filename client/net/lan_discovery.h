// The client's side of LAN discovery: send one small UDP query to the configured target
// (LAN broadcast by default; a loopback address on development machines) and collect the
// servers' answers for a while. Blocking; call it from a worker thread, not the frame loop.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "protocol/discovery.h"

namespace xq::client {

// The longest a caller may ask to wait for answers.
constexpr std::chrono::milliseconds MAX_DISCOVERY_WAIT{10'000};
// At most this many distinct servers are kept from one probe.
constexpr std::size_t MAX_DISCOVERED_SERVERS = 64;

struct FoundServer {
    std::string address;  // where the answer came from: connect here, on info.port
    proto::DiscoveryReply info;
    std::chrono::milliseconds round_trip{0};
};

struct ProbeResult {
    std::vector<FoundServer> servers;  // in order of arrival, one per address and port
    int rejected = 0;                  // malformed, oversized or stale answers dropped
    std::string error;                 // set when the probe could not run at all
};

// Sends the query (twice, a third of the wait apart, in case one datagram is lost) and
// gathers answers until `wait` has passed.
ProbeResult probe_lan(const proto::DiscoveryTarget& target, std::chrono::milliseconds wait);

}  // namespace xq::client
