// libFuzzer target: the PGN reader. Any text gives games or line-numbered errors; every game
// read is written again in each notation and reads back to the same start, moves, comments
// and result.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "xiangqi/pgn.h"

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

// The writer turns '}' (possible in a ';' comment) into ')'.
std::string braced(std::string s) {
    std::replace(s.begin(), s.end(), '}', ')');
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const xq::PgnReadResult& r : xq::read_pgn_all(text)) {
        const xq::PgnGame& g = r.game;
        require(g.comments.size() == g.moves.size());
        if (!r.ok) {
            require(!r.error.empty() && r.line >= 1);
            continue;
        }
        for (int n = 0; n < 3; ++n) {
            const xq::PgnReadResult back = xq::read_pgn(xq::write_pgn(g, xq::Notation(n)));
            require(back.ok);
            require(back.game.start.fen() == g.start.fen());
            require(back.game.moves == g.moves);
            require(back.game.result == g.result);
            require(back.game.pre_comment == braced(g.pre_comment));
            for (std::size_t i = 0; i < g.comments.size(); ++i)
                require(back.game.comments[i] == braced(g.comments[i]));
        }
    }
    return 0;
}
