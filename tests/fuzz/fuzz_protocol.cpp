// libFuzzer target: the protocol's framing and codec on untrusted bytes. Every line must
// decode to a message or a typed error (no throw, no crash); a decoded message must encode
// to valid UTF-8 that decodes again to the same encoding; the framer never buffers more
// than the line cap.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/codec.h"
#include "protocol/framing.h"
#include "protocol/limits.h"
#include "protocol/utf8.h"

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

template <class Decode>
void round_trip(std::string_view line, Decode decode) {
    auto first = decode(line);
    if (!first.ok()) {
        require(!xq::proto::error_code_name(first.error().code).empty());
        return;
    }
    const std::string encoded = xq::proto::encode(first.value());
    require(xq::proto::valid_utf8(encoded));
    require(encoded.find('\n') == std::string::npos);
    auto second = decode(encoded);
    require(second.ok());
    require(xq::proto::encode(second.value()) == encoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    // A small cap as well as the real one, so oversized-line handling gets exercised.
    for (const std::size_t cap : {std::size_t(64), xq::proto::MAX_LINE_BYTES}) {
        xq::proto::FrameReader reader(cap);
        // Feed in uneven pieces, as a socket would deliver them.
        std::size_t pos = 0, step = 1;
        while (pos < bytes.size()) {
            const std::string_view piece = bytes.substr(pos, step);
            reader.feed(
                piece,
                [&](std::string_view line) {
                    require(line.size() <= cap);
                    if (cap != xq::proto::MAX_LINE_BYTES) return;
                    round_trip(line, [](std::string_view l) { return xq::proto::decode_client(l); });
                    round_trip(line, [](std::string_view l) { return xq::proto::decode_server(l); });
                },
                [] {});
            require(reader.pending() <= cap + 1);
            pos += piece.size();
            step = step * 3 % 97 + 1;
        }
    }
    return 0;
}
