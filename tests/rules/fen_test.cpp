// FEN: round trips, every FenError value with a FEN that provokes it, and garbage input.
#include <gtest/gtest.h>

#include <random>

#include "test_util.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

FenError parse(std::string_view fen) {
    Position p;
    const std::string before = p.fen();
    const FenError e = p.set_fen(fen);
    if (e != FenError::None) {
        EXPECT_EQ(p.fen(), before) << "a refused FEN must change nothing: " << fen;
    }
    return e;
}

TEST(Fen, StartRoundTrip) {
    Position p;
    EXPECT_EQ(p.fen(), std::string(START_FEN));
    Position q;
    ASSERT_EQ(q.set_fen(p.fen()), FenError::None);
    EXPECT_EQ(q.key(), p.key());
    EXPECT_EQ(q.fen(), p.fen());
}

TEST(Fen, AlternativeLettersAndSideAreAcceptedAndWrittenCanonically) {
    Position p;
    ASSERT_EQ(p.set_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1"), FenError::None);
    EXPECT_EQ(p.fen(), std::string(START_FEN));
    EXPECT_EQ(p.key(), Position().key());
}

TEST(Fen, BoardOnlyDefaultsToRedToMove) {
    Position p;
    ASSERT_EQ(p.set_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"), FenError::None);
    EXPECT_EQ(p.side_to_move(), RED);
    ASSERT_EQ(p.set_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 7 12"), FenError::None);
    EXPECT_EQ(p.side_to_move(), BLACK);
    EXPECT_EQ(p.rule50(), 7);
    EXPECT_EQ(p.fullmove(), 12);
    EXPECT_EQ(p.fen(), "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 7 12");
}

TEST(Fen, RoundTripAlongRandomGames) {
    std::mt19937 rng(12345);
    for (int game = 0; game < 20; ++game) {
        Position p;
        for (int ply = 0; ply < 150; ++ply) {
            const std::string f = p.fen();
            Position q;
            ASSERT_EQ(q.set_fen(f), FenError::None) << f;
            ASSERT_EQ(q.fen(), f);
            ASSERT_EQ(q.key(), p.key()) << "the incremental key must equal a fresh key: " << f;
            MoveList l;
            p.generate_legal(l);
            if (l.empty()) break;
            UndoInfo u;
            p.do_move(l[int(rng() % unsigned(l.size()))], u);
        }
    }
}

struct BadFen {
    const char* fen;
    FenError expected;
};

// One FEN per error value (several for some); each names what is wrong.
const BadFen BAD_FENS[] = {
    {"", FenError::Empty},
    {"   \t\n ", FenError::Empty},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1", FenError::BadRankCount},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::BadRankCount},
    {"rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::BadFileCount},
    {"rnbakabnr/91/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::BadFileCount},
    {"rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::BadFileCount},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1", FenError::BadFileCount},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1", FenError::UnknownPiece},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/0/RNBAKABNR w - - 0 1", FenError::UnknownPiece},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1", FenError::MissingKing},
    {"rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::MissingKing},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w - - 0 1", FenError::TooManyKings},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w - - 0 1", FenError::TooManyPieces},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", FenError::TooManyPieces},
    {"4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", FenError::BadKingSquare},
    {"4k4/9/9/9/9/9/3K5/9/9/9 w - - 0 1", FenError::BadKingSquare},
    {"4k4/9/9/9/9/9/9/4A4/9/3K5 w - - 0 1", FenError::BadAdvisorSquare},
    {"4k4/9/9/9/9/9/9/9/9/3KB4 w - - 0 1", FenError::BadElephantSquare},
    {"4k4/9/9/9/2B6/9/9/9/9/3K5 w - - 0 1", FenError::BadElephantSquare},
    {"4k4/9/9/9/9/9/9/P8/9/3K5 w - - 0 1", FenError::BadPawnSquare},
    {"4k4/9/9/9/9/9/1P7/9/9/3K5 w - - 0 1", FenError::BadPawnSquare},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", FenError::BadSideToMove},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR white - - 0 1", FenError::BadSideToMove},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1", FenError::BadCounter},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", FenError::BadCounter},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 -3", FenError::BadCounter},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999 1", FenError::BadCounter},
    {"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", FenError::SideNotToMoveInCheck},  // facing kings
    {"4k4/4R4/9/9/9/9/9/9/9/3K5 w - - 0 1", FenError::SideNotToMoveInCheck},
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra", FenError::TrailingGarbage},
};

TEST(Fen, EveryErrorValueHasASpecificFen) {
    bool seen[int(FenError::TrailingGarbage) + 1] = {};
    for (const BadFen& b : BAD_FENS) {
        EXPECT_EQ(parse(b.fen), b.expected) << "\"" << b.fen << "\"";
        seen[int(b.expected)] = true;
        EXPECT_FALSE(fen_error_message(b.expected).empty());
    }
    for (int e = 1; e <= int(FenError::TrailingGarbage); ++e)
        EXPECT_TRUE(seen[e]) << "FenError " << e << " has no test FEN";
}

TEST(Fen, SideToMoveInCheckIsFine) {
    EXPECT_EQ(parse("4k4/4R4/9/9/9/9/9/9/9/3K5 b - - 0 1"), FenError::None);
}

TEST(Fen, RandomBytesNeverCrash) {
    std::mt19937 rng(2024);
    const std::string alphabet = "rnbakcpRNBAKCPEHeh0123456789/ -wbrx\t\n\xff\x80";
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string s(rng() % 120, ' ');
        for (char& c : s) c = (i % 2) ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
        Position p;
        if (p.set_fen(s) == FenError::None) {
            ++accepted;
            Position q;
            ASSERT_EQ(q.set_fen(p.fen()), FenError::None) << "an accepted FEN must write back readable";
            EXPECT_EQ(q.key(), p.key());
        }
    }
    // Mutations of a real FEN reach the deeper checks.
    const std::string base(START_FEN);
    for (int i = 0; i < 20000; ++i) {
        std::string s = base;
        const int edits = 1 + int(rng() % 4);
        for (int k = 0; k < edits; ++k) {
            const std::size_t at = rng() % s.size();
            switch (rng() % 3) {
            case 0: s[at] = alphabet[rng() % alphabet.size()]; break;
            case 1: s.erase(at, 1); break;
            default: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            }
        }
        Position p;
        if (p.set_fen(s) == FenError::None) {
            ++accepted;
            Position q;
            ASSERT_EQ(q.set_fen(p.fen()), FenError::None) << s;
            EXPECT_EQ(q.fen(), p.fen());
        }
    }
    EXPECT_GT(accepted, 0) << "some mutations stay valid (e.g. edits in the counters)";
}

}  // namespace
