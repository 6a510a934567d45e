#include "core/handicap.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace xq::client {

namespace {

// Red is at the bottom of a FEN (its last rank); Red's left horse stands on file b.
constexpr std::array<HandicapInfo, 4> HANDICAPS{{
    {"none", "", Str::HandicapNone, Str::HandicapNoneDetail},
    {"left_horse", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w", Str::HandicapLeftHorse,
     Str::HandicapLeftHorseDetail},
    {"two_horses", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w", Str::HandicapTwoHorses,
     Str::HandicapTwoHorsesDetail},
    {"nine_pieces", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/1C5C1/9/RN2K2NR w", Str::HandicapNinePieces,
     Str::HandicapNinePiecesDetail},
}};

}  // namespace

std::span<const HandicapInfo> handicaps() { return HANDICAPS; }

const HandicapInfo* find_handicap(std::string_view key) {
    for (const HandicapInfo& h : HANDICAPS)
        if (h.key == key) return &h;
    return nullptr;
}

const HandicapInfo* handicap_of(const Position& start) {
    // The starts' position keys, parsed once: the table panel asks on every frame.
    static const std::array<std::optional<std::uint64_t>, HANDICAPS.size()> keys = [] {
        std::array<std::optional<std::uint64_t>, HANDICAPS.size()> k;
        for (std::size_t i = 0; i < HANDICAPS.size(); ++i) {
            Position p;
            if (HANDICAPS[i].fen.empty() || p.set_fen(HANDICAPS[i].fen) == FenError::None) k[i] = p.key();
        }
        return k;
    }();
    for (std::size_t i = 0; i < HANDICAPS.size(); ++i)
        if (keys[i] == start.key()) return &HANDICAPS[i];
    return nullptr;
}

}  // namespace xq::client
