#include "core/handicap.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace xq::client {

namespace {

// Red is at the bottom of a FEN (its last rank); Red's left horse stands on file b.
// The chariot handicaps follow the same convention (Red gives, Red moves first); one chariot is
// the left one, as XQWLight's one horse is: the board is symmetric about its middle file, so
// giving the right one instead is the same game mirrored.
// A chariot and a horse (让车马) are two different games by the same symmetry: the horse of the
// chariot's wing or of the other wing; both are offered, named by which.
constexpr std::array<HandicapInfo, 8> HANDICAPS{{
    {"none", "", Str::HandicapNone, Str::HandicapNoneDetail},
    {"left_horse", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w", Str::HandicapLeftHorse,
     Str::HandicapLeftHorseDetail},
    {"two_horses", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKAB1R w", Str::HandicapTwoHorses,
     Str::HandicapTwoHorsesDetail},
    {"left_chariot", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w", Str::HandicapLeftChariot,
     Str::HandicapLeftChariotDetail},
    {"two_chariots", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABN1 w", Str::HandicapTwoChariots,
     Str::HandicapTwoChariotsDetail},
    {"chariot_horse_same_wing", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/2BAKABNR w",
     Str::HandicapChariotHorseSame, Str::HandicapChariotHorseSameDetail},
    {"chariot_horse_other_wing", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKAB1R w",
     Str::HandicapChariotHorseOther, Str::HandicapChariotHorseOtherDetail},
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
