// LAN discovery datagrams: a client's UDP query and a server's answer (one JSON object per
// datagram), strict parsing of both as untrusted input, and the discovery target setting.
// No sockets here: the server's responder and the client's probe do the sending.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace xq::proto {

inline constexpr int DISCOVERY_VERSION = 1;
inline constexpr std::uint16_t DISCOVERY_DEFAULT_PORT = 5050;
// The real default target: every host of the LAN. Development and CI machines must override
// it with a loopback address (flag --discovery-address or this environment variable).
inline constexpr std::string_view DISCOVERY_DEFAULT_ADDRESS = "255.255.255.255";
inline constexpr std::string_view DISCOVERY_ENV_VAR = "XQ_DISCOVERY_ADDR";
// Size caps, checked before parsing: a query is tiny, an answer fits one unfragmented datagram.
inline constexpr std::size_t MAX_DISCOVERY_QUERY_BYTES = 256;
inline constexpr std::size_t MAX_DISCOVERY_REPLY_BYTES = 1024;
inline constexpr std::size_t MAX_DISCOVERY_NONCE_CHARS = 32;
inline constexpr std::size_t MAX_DISCOVERY_NAME_BYTES = 120;
inline constexpr std::size_t MAX_DISCOVERY_VERSION_BYTES = 32;
inline constexpr std::int64_t MAX_DISCOVERY_COUNT = 1'000'000;

// {"type":"xq_discover","version":1,"nonce":"4f1c..."}
struct DiscoveryQuery {
    int version = DISCOVERY_VERSION;
    std::string nonce;  // 1..32 characters [0-9a-zA-Z]; echoed so stale answers are ignored
};

// {"type":"xq_server","version":1,"nonce":"4f1c...","name":"Club room","port":5050,
//  "protocol":1,"server_version":"0.1.0","tables":3,"players":7,"password":false}
struct DiscoveryReply {
    int version = DISCOVERY_VERSION;
    std::string nonce;
    std::string name;            // the server's --name, valid UTF-8 without control characters
    std::uint16_t port = 0;      // the TCP port to connect to (1..65535)
    int protocol = 0;            // the TCP protocol version it speaks
    std::string server_version;  // e.g. "0.1.0"
    std::int64_t tables = 0;
    std::int64_t players = 0;
    bool password = false;       // the server asks for a password in hello
};

std::string encode_discovery_query(const DiscoveryQuery& q);
std::string encode_discovery_reply(const DiscoveryReply& r);
// Return nullopt and say why (in `error`) for anything but a well-formed datagram.
std::optional<DiscoveryQuery> decode_discovery_query(std::string_view datagram, std::string* error = nullptr);
std::optional<DiscoveryReply> decode_discovery_reply(std::string_view datagram, std::string* error = nullptr);

// Where queries go: a dotted IPv4 address and a port.
struct DiscoveryTarget {
    std::string address = std::string(DISCOVERY_DEFAULT_ADDRESS);
    std::uint16_t port = DISCOVERY_DEFAULT_PORT;
};

// "a.b.c.d" or "a.b.c.d:port" (IPv4 only: broadcast is an IPv4 idea). nullopt and why otherwise.
std::optional<DiscoveryTarget> parse_discovery_target(std::string_view text, std::string* error = nullptr);
// The target in force: the flag's value if given, else the environment variable's
// (`env_value`, pass getenv(DISCOVERY_ENV_VAR)), else the LAN broadcast default.
std::optional<DiscoveryTarget> choose_discovery_target(std::optional<std::string_view> flag_value,
                                                       const char* env_value, std::string* error = nullptr);
// True for 127.0.0.0/8: the only targets allowed on development and test machines.
bool is_loopback_target(const DiscoveryTarget& t);

}  // namespace xq::proto
