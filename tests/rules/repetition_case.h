// One repetition case: a start FEN, one cycle of moves, and the verdict an arbiter gives when
// the cycle has been played twice (the third occurrence), with the rule it follows. The cases
// are in repetition_cases.h; the four forms each is played in, in repetition_forms.h.
#pragma once

#include <string_view>

namespace xq::test {

enum class Verdict { Draw, RedLoses, BlackLoses };
enum class Why { Repetition, PerpetualCheck, PerpetualChase };

struct RepetitionCase {
    std::string_view name;
    std::string_view source;  // the rule (and diagram) the verdict follows
    std::string_view fen;
    std::string_view cycle;   // ICCS moves separated by spaces; they bring `fen` back
    Verdict verdict;
    Why why;
    std::string_view victim;  // perpetual chase: the chased piece, e.g. "black cannon"
    // When a position inside the cycle recurs first, the ruling comes earlier: at this ply
    // (0: after the cycle has been played twice) and over these plies ("plies 3-10").
    int end_ply = 0;
    std::string_view plies = {};
};

}  // namespace xq::test
