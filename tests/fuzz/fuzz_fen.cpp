// libFuzzer target: FEN parsing. Any input must be either refused with a FenError or give
// a position whose FEN reads back to itself and whose legal moves do/undo cleanly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "xiangqi/position.h"

namespace {

// Crash on a broken invariant so libFuzzer records the input.
void require(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    xq::Position pos;
    const std::string before = pos.fen();
    const xq::FenError err = pos.set_fen(text);
    if (err != xq::FenError::None) {
        require(pos.fen() == before);  // refused input leaves the position unchanged
        require(!xq::fen_error_message(err).empty());
        return 0;
    }

    const std::string fen = pos.fen();
    xq::Position again;
    require(again.set_fen(fen) == xq::FenError::None);
    require(again.fen() == fen);
    require(again.key() == pos.key());
    require(!pos.king_attacked(~pos.side_to_move()));

    xq::MoveList legal;
    pos.generate_legal(legal);
    require(legal.empty() != pos.has_legal_move());
    for (const xq::Move m : legal) {
        require(pos.is_pseudo_legal(m));
        xq::UndoInfo undo;
        pos.do_move(m, undo);
        require(!pos.king_attacked(~pos.side_to_move()));
        pos.undo_move(m, undo);
        require(pos.fen() == fen);
        require(pos.key() == again.key());
    }
    return 0;
}
