// libFuzzer target: move text parsers. The first byte picks a position (the start, tandem
// pieces, pawns on one and two files); the rest is move text. A parse either fails with a
// message that is valid UTF-8, or gives a legal move whose texts in all notations read back.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "xiangqi/notation.h"
#include "xiangqi/position.h"

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

constexpr std::array<std::string_view, 6> FENS = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    "3k5/9/9/9/1R7/9/9/1R7/9/4K4 w - - 0 1",
    "5k3/9/4P4/4P1P2/4P4/9/9/9/9/3K5 w - - 0 1",
    "2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1",
    "3k5/9/9/9/9/6p2/6p2/6p2/9/4K4 b - - 0 1",
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    xq::Position pos;
    require(pos.set_fen(FENS[data[0] % FENS.size()]) == xq::FenError::None);
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    xq::MoveList legal;
    pos.generate_legal(legal);
    for (int n = 0; n < 4; ++n) {
        const xq::ParsedMove r = n == 3 ? xq::parse_move(pos, text) : xq::parse_move(pos, text, xq::Notation(n));
        require(xq::valid_utf8(r.message));
        if (!r.ok()) {
            require(r.move == xq::Move::none() && !r.message.empty());
            continue;
        }
        require(legal.contains(r.move));
        for (int w = 0; w < 3; ++w) {
            const std::string written = xq::format_move(pos, r.move, xq::Notation(w));
            require(xq::parse_move(pos, written, xq::Notation(w)).move == r.move);
        }
    }
    return 0;
}
