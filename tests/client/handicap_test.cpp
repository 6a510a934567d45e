// The handicap start positions of the create-table dialog (core/handicap.h): each FEN is a
// legal position with Red to move, Black has its full army, and Red lacks exactly the pieces
// the handicap names (XQWLight's set: the left horse, both horses, nine pieces; and the left chariot and both
// chariots, a chariot and a horse of one wing or of both, by the same convention).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/handicap.h"
#include "core/strings.h"
#include "core/table_rules.h"
#include "xiangqi/position.h"

using namespace xq;
using namespace xq::client;

namespace {

// The points (ICCS names) Red's pieces leave, and the piece standing there at the start.
struct Removed {
    const char* key;
    std::set<std::string> points;
};

const Removed REMOVED[] = {
    {"none", {}},
    {"left_horse", {"b0"}},
    {"two_horses", {"b0", "h0"}},
    {"left_chariot", {"a0"}},
    {"two_chariots", {"a0", "i0"}},
    {"chariot_horse_same_wing", {"a0", "b0"}},
    {"chariot_horse_other_wing", {"a0", "h0"}},
    {"nine_pieces", {"a3", "c3", "e3", "g3", "i3", "d0", "f0", "c0", "g0"}},
};

}  // namespace

TEST(Handicap, EachStartIsTheStandardOneWithoutTheNamedRedPieces) {
    Position start;
    ASSERT_EQ(start.set_fen(START_FEN), FenError::None);
    ASSERT_EQ(handicaps().size(), std::size(REMOVED));
    for (std::size_t i = 0; i < handicaps().size(); ++i) {
        const HandicapInfo& h = handicaps()[i];
        const Removed& r = REMOVED[i];
        SCOPED_TRACE(std::string(h.key));
        EXPECT_EQ(h.key, r.key);
        Position p;
        ASSERT_EQ(p.set_fen(h.fen.empty() ? std::string(START_FEN) : std::string(h.fen)), FenError::None);
        EXPECT_EQ(p.side_to_move(), RED);  // the side that gives the pieces moves first
        int removed = 0;
        for (int s = 0; s < 90; ++s) {
            const Square sq = Square(s);
            const std::string name = square_to_string(sq);
            if (r.points.count(name)) {
                ASSERT_NE(start.piece_on(sq), NO_PIECE) << name;
                EXPECT_EQ(color_of(start.piece_on(sq)), RED) << name;
                EXPECT_TRUE(p.empty(sq)) << name;
                ++removed;
            } else {
                EXPECT_EQ(p.piece_on(sq), start.piece_on(sq)) << name;
            }
        }
        EXPECT_EQ(removed, int(r.points.size()));
        EXPECT_EQ(find_handicap(h.key), &h);
        EXPECT_EQ(handicap_of(p), &h);  // the table panel names the game's start
    }
    // The named pieces are the ones the names say.
    Position p;
    ASSERT_EQ(p.set_fen(std::string(find_handicap("two_horses")->fen)), FenError::None);
    EXPECT_EQ(p.count(RED, HORSE), 0);
    ASSERT_EQ(p.set_fen(std::string(find_handicap("two_chariots")->fen)), FenError::None);
    EXPECT_EQ(p.count(RED, ROOK), 0);
    EXPECT_EQ(p.count(RED, HORSE), 2);
    ASSERT_EQ(p.set_fen(std::string(find_handicap("left_chariot")->fen)), FenError::None);
    EXPECT_EQ(p.count(RED, ROOK), 1);
    ASSERT_EQ(p.set_fen(std::string(find_handicap("nine_pieces")->fen)), FenError::None);
    EXPECT_EQ(p.count(RED, PAWN), 0);
    EXPECT_EQ(p.count(RED, ADVISOR), 0);
    EXPECT_EQ(p.count(RED, ELEPHANT), 0);
    EXPECT_EQ(p.count(RED, ROOK), 2);
    EXPECT_EQ(p.count(BLACK, PAWN), 5);
}

TEST(Handicap, AnyOtherSetUpPositionIsNoHandicap) {
    Position p;
    ASSERT_EQ(p.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR b"), FenError::None);
    EXPECT_EQ(handicap_of(p), nullptr);  // the left-horse start with Black to move is not it
    ASSERT_EQ(p.set_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w"), FenError::None);
    EXPECT_EQ(handicap_of(p), nullptr);
}

TEST(Handicap, TheFormSendsTheChosenStartAndRefusesUnknownNames) {
    CreateTableForm f;
    EXPECT_EQ(f.start_fen(), "");
    std::string bad;
    ASSERT_TRUE(f.apply("handicap=left_horse as=black", bad)) << bad;
    EXPECT_EQ(f.start_fen(), std::string(find_handicap("left_horse")->fen));
    EXPECT_EQ(f.seat, CreateSeat::Black);
    ASSERT_TRUE(f.apply("handicap=none", bad));
    EXPECT_EQ(f.start_fen(), "");
    EXPECT_FALSE(f.apply("handicap=queen", bad));
    EXPECT_EQ(bad, "handicap=queen");
    EXPECT_EQ(find_handicap("queen"), nullptr);
}

TEST(Handicap, NamesAndDetailsInBothLanguages) {
    for (const HandicapInfo& h : handicaps()) {
        const std::string en = tr(Lang::English, h.name), zh = tr(Lang::Chinese, h.name);
        EXPECT_FALSE(en.empty());
        EXPECT_NE(en, zh);
        EXPECT_NE(std::string(tr(Lang::English, h.detail)), std::string(tr(Lang::Chinese, h.detail)));
    }
    EXPECT_NE(std::string(tr(Lang::Chinese, Str::HandicapLeftHorse)).find("让左马"), std::string::npos);
}
