// libFuzzer target: LAN discovery datagrams (queries the server answers, replies a client
// reads) and the target-address setting, all untrusted input. A datagram either parses or
// is refused with a reason; a parsed one encodes within the size cap and parses back to the
// same encoding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/discovery.h"

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view d(reinterpret_cast<const char*>(data), size);
    std::string why;
    if (auto q = xq::proto::decode_discovery_query(d, &why)) {
        require(d.size() <= xq::proto::MAX_DISCOVERY_QUERY_BYTES);
        const std::string e = xq::proto::encode_discovery_query(*q);
        const auto back = xq::proto::decode_discovery_query(e);
        require(back && xq::proto::encode_discovery_query(*back) == e);
    } else {
        require(!why.empty());
    }
    why.clear();
    if (auto r = xq::proto::decode_discovery_reply(d, &why)) {
        require(d.size() <= xq::proto::MAX_DISCOVERY_REPLY_BYTES);
        require(r->port >= 1);
        const std::string e = xq::proto::encode_discovery_reply(*r);
        require(e.size() <= xq::proto::MAX_DISCOVERY_REPLY_BYTES);
        const auto back = xq::proto::decode_discovery_reply(e);
        require(back && xq::proto::encode_discovery_reply(*back) == e);
    } else {
        require(!why.empty());
    }
    if (size <= 64) {
        why.clear();
        const auto t = xq::proto::parse_discovery_target(d, &why);
        require(t.has_value() || !why.empty());
    }
    return 0;
}
