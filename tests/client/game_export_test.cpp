// Copy and save: the PGN and file name of a game, the captured pieces, files written whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "core/client_state.h"
#include "core/game_export.h"
#include "xiangqi/game.h"
#include "xiangqi/pgn.h"

namespace xq::client {
namespace {

Move iccs(const Game& g, const char* text) {
    for (const Move m : g.legal_moves())
        if (move_to_iccs(m) == text) return m;
    ADD_FAILURE() << "no move " << text;
    return Move::none();
}

GameRecord sample() {
    GameRecord g;
    Game game;
    for (const char* m : {"h2e2", "h9g7", "e2e6"}) {  // the cannon takes the middle pawn
        const Move mv = iccs(game, m);
        g.moves.push_back(mv);
        EXPECT_TRUE(game.play(mv));
    }
    g.red = "alice";
    g.black = "bob/../x";
    g.event = "Table 3";
    g.date = "2026.12.01";
    g.outcome = Outcome::BlackWins;
    g.reason = "resignation";
    return g;
}

TEST(GameExport, PgnReadsBackWithPlayersMovesAndResult) {
    const GameRecord g = sample();
    for (const MoveNotation n : {MoveNotation::Chinese, MoveNotation::Wxf, MoveNotation::Iccs}) {
        const std::string text = record_pgn(g, n);
        const PgnReadResult r = read_pgn(text);
        ASSERT_TRUE(r.ok) << r.error << "\n" << text;
        EXPECT_EQ(r.game.tag("Red"), "alice");
        EXPECT_EQ(r.game.tag("Black"), "bob/../x");
        EXPECT_EQ(r.game.tag("Event"), "Table 3");
        EXPECT_EQ(r.game.tag("Termination"), "resignation");
        EXPECT_EQ(r.game.result, Outcome::BlackWins) << "a result the board does not decide comes from the table";
        EXPECT_EQ(r.game.moves, g.moves);
    }
    GameRecord running = g;
    running.outcome = Outcome::Ongoing;
    EXPECT_EQ(read_pgn(record_pgn(running, MoveNotation::Iccs)).game.result, Outcome::Ongoing);
}

TEST(GameExport, FileNamesStayInTheirFolder) {
    const std::string name = suggested_file_name(sample(), "pgn");
    EXPECT_EQ(name, "2026.12.01 alice - bob_.._x.pgn");
    GameRecord hidden = sample();
    hidden.date.assign(2, '.');
    const std::string h = suggested_file_name(hidden, "fen");
    EXPECT_NE(h.front(), '.');
    EXPECT_EQ(h.find('/'), std::string::npos);
    EXPECT_EQ(pgn_date_today().size(), 10u);
}

TEST(GameExport, SavedWholeOrNotAtAll) {
    const auto dir = std::filesystem::temp_directory_path() / ("xq_export_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::string error;
    ASSERT_TRUE(save_text_file(dir / "a.pgn", "first", error)) << error;
    ASSERT_TRUE(save_text_file(dir / "a.pgn", "second", error)) << error;
    std::ifstream in(dir / "a.pgn");
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), "second");
    EXPECT_FALSE(std::filesystem::exists(dir / "a.pgn.part"));
    EXPECT_FALSE(save_text_file(dir / "no_such_folder" / "b.pgn", "x", error));
    EXPECT_NE(error.find("b.pgn"), std::string::npos) << error;
    EXPECT_FALSE(save_text_file(dir, "x", error)) << "a folder is not a file name";
    std::filesystem::remove_all(dir);
}

TEST(GameExport, CapturedPiecesMostValuableFirst) {
    const GameRecord g = sample();
    Game game;
    for (const Move m : g.moves) ASSERT_TRUE(game.play(m));
    const Position& p = game.position();
    EXPECT_EQ(captured_by(g.start, p, RED), std::vector<Piece>{make_piece(BLACK, PAWN)});
    EXPECT_TRUE(captured_by(g.start, p, BLACK).empty());
    Position few;
    ASSERT_EQ(few.set_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"), FenError::None);
    // From the standard start to a bare board: Red took everything of Black's but the king.
    const auto all = captured_by(Position(), few, RED);
    ASSERT_EQ(all.size(), 15u);
    EXPECT_EQ(all.front(), make_piece(BLACK, ROOK));
    EXPECT_EQ(all.back(), make_piece(BLACK, PAWN));
}

}  // namespace
}  // namespace xq::client
