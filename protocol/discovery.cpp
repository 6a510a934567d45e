#include "protocol/discovery.h"

#include <arpa/inet.h>

#include <charconv>
#include <nlohmann/json.hpp>

namespace xq::proto {

namespace {

using nlohmann::json;

constexpr std::size_t MAX_DISCOVERY_KEYS = 16;
constexpr std::string_view QUERY_TYPE = "xq_discover";
constexpr std::string_view REPLY_TYPE = "xq_server";

template <class T>
std::optional<T> fail(std::string* error, std::string message) {
    if (error) *error = std::move(message);
    return std::nullopt;
}

// C0 controls, DEL and C1 controls (U+0080..U+009F, encoded C2 80..C2 9F).
bool has_controls(std::string_view s) {
    for (std::size_t i = 0; i < s.size(); ++i) {
        auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7F) return true;
        if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return true;
    }
    return false;
}

bool valid_nonce(std::string_view s) {
    if (s.empty() || s.size() > MAX_DISCOVERY_NONCE_CHARS) return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    return true;
}

// Parses a datagram into a flat object of the expected type: size cap first, then JSON
// (nlohmann validates UTF-8), then the shape. Nested values are refused outright.
std::optional<json> parse_flat(std::string_view datagram, std::size_t cap, std::string_view type, std::string* error) {
    if (datagram.size() > cap)
        return fail<json>(error, "datagram of " + std::to_string(datagram.size()) + " bytes exceeds " +
                                     std::to_string(cap));
    json j = json::parse(datagram.begin(), datagram.end(), nullptr, false);
    if (j.is_discarded()) return fail<json>(error, "not valid JSON (or not UTF-8)");
    if (!j.is_object()) return fail<json>(error, "not a JSON object");
    if (j.size() > MAX_DISCOVERY_KEYS) return fail<json>(error, "too many fields");
    for (const auto& [key, value] : j.items())
        if (value.is_structured()) return fail<json>(error, "field '" + key.substr(0, 32) + "' is not a plain value");
    auto t = j.find("type");
    if (t == j.end() || !t->is_string()) return fail<json>(error, "missing type");
    if (t->get_ref<const std::string&>() != type) return fail<json>(error, "type is not " + std::string(type));
    return j;
}

std::optional<std::int64_t> int_field(const json& j, const char* key, std::int64_t lo, std::int64_t hi) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return std::nullopt;
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > std::uint64_t(hi)) return std::nullopt;
    std::int64_t v = it->get<std::int64_t>();
    if (v < lo || v > hi) return std::nullopt;
    return v;
}

const std::string* string_field(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return nullptr;
    return &it->get_ref<const std::string&>();
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::string encode_discovery_query(const DiscoveryQuery& q) {
    return dump(json{{"type", QUERY_TYPE}, {"version", q.version}, {"nonce", q.nonce}});
}

std::string encode_discovery_reply(const DiscoveryReply& r) {
    return dump(json{{"type", REPLY_TYPE},
                     {"version", r.version},
                     {"nonce", r.nonce},
                     {"name", r.name.substr(0, MAX_DISCOVERY_NAME_BYTES)},
                     {"port", r.port},
                     {"protocol", r.protocol},
                     {"server_version", r.server_version.substr(0, MAX_DISCOVERY_VERSION_BYTES)},
                     {"tables", r.tables},
                     {"players", r.players},
                     {"password", r.password}});
}

std::optional<DiscoveryQuery> decode_discovery_query(std::string_view datagram, std::string* error) {
    auto j = parse_flat(datagram, MAX_DISCOVERY_QUERY_BYTES, QUERY_TYPE, error);
    if (!j) return std::nullopt;
    DiscoveryQuery q;
    auto version = int_field(*j, "version", 1, 1000);
    if (!version) return fail<DiscoveryQuery>(error, "version must be an integer 1..1000");
    q.version = int(*version);
    const std::string* nonce = string_field(*j, "nonce");
    if (!nonce || !valid_nonce(*nonce)) return fail<DiscoveryQuery>(error, "nonce must be 1..32 letters or digits");
    q.nonce = *nonce;
    return q;
}

std::optional<DiscoveryReply> decode_discovery_reply(std::string_view datagram, std::string* error) {
    auto j = parse_flat(datagram, MAX_DISCOVERY_REPLY_BYTES, REPLY_TYPE, error);
    if (!j) return std::nullopt;
    DiscoveryReply r;
    auto version = int_field(*j, "version", 1, 1000);
    auto port = int_field(*j, "port", 1, 65535);
    auto protocol = int_field(*j, "protocol", 1, 1000);
    auto tables = int_field(*j, "tables", 0, MAX_DISCOVERY_COUNT);
    auto players = int_field(*j, "players", 0, MAX_DISCOVERY_COUNT);
    if (!version) return fail<DiscoveryReply>(error, "version must be an integer 1..1000");
    if (!port) return fail<DiscoveryReply>(error, "port must be an integer 1..65535");
    if (!protocol) return fail<DiscoveryReply>(error, "protocol must be an integer 1..1000");
    if (!tables || !players) return fail<DiscoveryReply>(error, "tables and players must be integers 0..1000000");
    const std::string* nonce = string_field(*j, "nonce");
    if (!nonce || !valid_nonce(*nonce)) return fail<DiscoveryReply>(error, "nonce must be 1..32 letters or digits");
    const std::string* name = string_field(*j, "name");
    if (!name || name->empty() || name->size() > MAX_DISCOVERY_NAME_BYTES || has_controls(*name))
        return fail<DiscoveryReply>(error, "name must be 1..120 bytes without control characters");
    const std::string* sv = string_field(*j, "server_version");
    if (!sv || sv->size() > MAX_DISCOVERY_VERSION_BYTES || has_controls(*sv))
        return fail<DiscoveryReply>(error, "server_version must be up to 32 bytes without control characters");
    auto pw = j->find("password");
    if (pw == j->end() || !pw->is_boolean()) return fail<DiscoveryReply>(error, "password must be true or false");
    r.version = int(*version);
    r.nonce = *nonce;
    r.name = *name;
    r.port = std::uint16_t(*port);
    r.protocol = int(*protocol);
    r.server_version = *sv;
    r.tables = *tables;
    r.players = *players;
    r.password = pw->get<bool>();
    return r;
}

std::optional<DiscoveryTarget> parse_discovery_target(std::string_view text, std::string* error) {
    DiscoveryTarget t;
    std::string_view host = text;
    auto colon = text.find(':');
    if (colon != std::string_view::npos) {
        host = text.substr(0, colon);
        std::string_view port_text = text.substr(colon + 1);
        unsigned value = 0;
        auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
        if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 ||
            value > 65535)
            return fail<DiscoveryTarget>(error, "discovery port must be 1..65535");
        t.port = std::uint16_t(value);
    }
    if (host.size() > 15) return fail<DiscoveryTarget>(error, "discovery address must be a dotted IPv4 address");
    std::string h(host);
    in_addr addr{};
    if (::inet_pton(AF_INET, h.c_str(), &addr) != 1)
        return fail<DiscoveryTarget>(error, "discovery address must be a dotted IPv4 address, not '" + h + "'");
    t.address = h;
    return t;
}

std::optional<DiscoveryTarget> choose_discovery_target(std::optional<std::string_view> flag_value,
                                                       const char* env_value, std::string* error) {
    if (flag_value) return parse_discovery_target(*flag_value, error);
    if (env_value && *env_value) return parse_discovery_target(env_value, error);
    return DiscoveryTarget{};
}

bool is_loopback_target(const DiscoveryTarget& t) {
    in_addr addr{};
    if (::inet_pton(AF_INET, t.address.c_str(), &addr) != 1) return false;
    return (ntohl(addr.s_addr) >> 24) == 127;
}

}  // namespace xq::proto
