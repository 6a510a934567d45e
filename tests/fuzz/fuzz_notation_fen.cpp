// libFuzzer target: the move-text parsers on arbitrary positions (fuzz_notation covers a
// fixed set). Input: an optional FEN line, then move text. A parsed move must be legal in the position;
// for a FEN line alone, every legal move must write and read back to itself in every notation.
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

void check_parsed(const xq::Position& pos, const xq::MoveList& legal, const xq::ParsedMove& pm) {
    if (pm.ok()) {
        require(legal.contains(pm.move));
    } else {
        require(pm.move == xq::Move::none());
        require(!xq::notation_error_name(pm.error).empty());
    }
    (void)pos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    xq::Position pos;
    const std::size_t nl = input.find('\n');
    if (nl != std::string_view::npos) {
        (void)pos.set_fen(input.substr(0, nl));  // on error the start position stays
        input.remove_prefix(nl + 1);
    }
    xq::MoveList legal;
    pos.generate_legal(legal);

    check_parsed(pos, legal, xq::parse_iccs(pos, input));
    check_parsed(pos, legal, xq::parse_wxf(pos, input));
    check_parsed(pos, legal, xq::parse_chinese(pos, input));
    check_parsed(pos, legal, xq::parse_move(pos, input));
    for (const xq::Notation n : {xq::Notation::Iccs, xq::Notation::Wxf, xq::Notation::Chinese})
        check_parsed(pos, legal, xq::parse_move(pos, input, n));

    // Writers: for a FEN line with no move text after it (keeps parser runs fast).
    if (nl != std::string_view::npos && input.empty()) {
        for (const xq::Move m : legal) {
            for (const xq::Notation n : {xq::Notation::Iccs, xq::Notation::Wxf, xq::Notation::Chinese}) {
                const std::string text = xq::format_move(pos, m, n);
                const xq::ParsedMove back = xq::parse_move(pos, text, n);
                require(back.ok() && back.move == m);
            }
        }
    }
    return 0;
}
