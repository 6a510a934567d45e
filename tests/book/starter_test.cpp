// The starter collection (data/openings): every file read by the rules library's PGN reader,
// every move legal, at least 10 plies, labelled as an opening line (not a game), and named;
// opening names found from a game's moves and written as PGN tags.
#include <gtest/gtest.h>

#include <set>

#include "book/opening_names.h"
#include "book/starter_openings.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"
#include "xiangqi/pgn.h"

namespace xq::test {
namespace {

TEST(Starter, EveryFileIsLegalNamedAndAtLeastTenPlies) {
    const auto& files = book::starter_openings();
    ASSERT_GE(files.size(), 10u) << "the starter collection is missing (data/openings/*.pgn)";
    std::set<std::string> names;
    for (const auto& f : files) {
        SCOPED_TRACE(std::string(f.name));
        const auto games = read_pgn_all(f.pgn);
        ASSERT_FALSE(games.empty());
        for (const auto& g : games) {
            ASSERT_TRUE(g.ok) << "line " << g.line << ": " << g.error;
            EXPECT_GE(g.game.moves.size(), 10u);
            // Replayed through the referee's own Game: legal, and no ending on the way.
            Game game(g.game.start);
            for (Move m : g.game.moves) ASSERT_TRUE(game.play(m)) << move_to_iccs(m) << " refused";
            EXPECT_FALSE(game.over());
            // Lines, not games: no invented players, event or result.
            EXPECT_EQ(g.game.tag("Event"), "Opening line (not a game)");
            EXPECT_EQ(g.game.tag("Red"), "?");
            EXPECT_EQ(g.game.tag("Black"), "?");
            EXPECT_EQ(g.game.result, Outcome::Ongoing);
            const std::string name = g.game.tag("Opening");
            EXPECT_FALSE(name.empty());
            EXPECT_FALSE(g.game.tag("OpeningEnglish").empty());
            EXPECT_TRUE(names.insert(name).second) << "the name " << name << " is given twice";
            const std::string ecco = g.game.tag("ECCO");
            // The ECCO group only (letter A-E and one digit), see data/openings/README.md.
            if (!ecco.empty()) {
                EXPECT_EQ(ecco.size(), 2u);
                EXPECT_TRUE(ecco[0] >= 'A' && ecco[0] <= 'E') << ecco;
                EXPECT_TRUE(ecco[1] >= '0' && ecco[1] <= '9') << ecco;
            }
            // Each line is recognised by its own name at its end.
            const auto found = book::OpeningIndex::starter().classify(g.game.start, g.game.moves);
            ASSERT_TRUE(found.has_value()) << name << " is not recognised";
            EXPECT_EQ(found->name, name);
            EXPECT_EQ(found->ecco, ecco);
        }
    }
}

TEST(Starter, NamesAGameByItsPositionsAndTagsItsPgn) {
    // The 过宫炮局 line, then a move of our own: the name stays.
    Game game;
    for (const char* t : {"h2d2", "h7e7", "h0g2", "h9g7", "i0h0", "i9h9", "b0c2", "b9c7", "a0b0", "a9b9",
                          "g3g4", "c6c5", "b2b6"}) {
        ParsedMove pm = parse_iccs(game.position(), t);
        ASSERT_TRUE(pm.move) << t;
        ASSERT_TRUE(game.play(pm.move)) << t;
    }
    PgnTags tags = {{"Event", "club game"}};
    book::tag_opening(tags, game.start_position(), game.moves());
    const std::string pgn = write_pgn(game, tags, Notation::Chinese);
    EXPECT_NE(pgn.find("[Opening \"过宫炮局\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[ECCO \"A6\"]"), std::string::npos) << pgn;
    // Read back: the tags come back as written.
    const auto back = read_pgn(pgn);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.game.tag("Opening"), "过宫炮局");
    EXPECT_EQ(back.game.tag("OpeningEnglish"), "Cross-Palace Cannon");
    EXPECT_EQ(back.game.tag("ECCO"), "A6");
    // A file's own Opening tag is kept.
    PgnTags own = {{"Opening", "my name"}};
    book::tag_opening(own, game.start_position(), game.moves());
    ASSERT_EQ(own.size(), 1u);
    EXPECT_EQ(own[0].second, "my name");
}

TEST(Starter, AnUnknownOrSharedBeginningHasNoName) {
    Game game;
    // 1. 炮二平五 马8进7: shared by several named lines, so no single name.
    for (const char* t : {"h2e2", "h9g7"}) ASSERT_TRUE(game.play(parse_iccs(game.position(), t).move));
    EXPECT_FALSE(book::OpeningIndex::starter().classify(game.start_position(), game.moves()).has_value());
    Game other;
    for (const char* t : {"a3a4", "a6a5"}) ASSERT_TRUE(other.play(parse_iccs(other.position(), t).move));
    EXPECT_FALSE(book::OpeningIndex::starter().classify(other.start_position(), other.moves()).has_value());
}

}  // namespace
}  // namespace xq::test
