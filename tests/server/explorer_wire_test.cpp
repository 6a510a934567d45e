// get_explorer over the wire: the moves played from a position in the archive's finished
// games and in the opening book, with their results; refusals of a bad FEN, an illegal move
// and too many moves; closed to the players of a running game, whose moves stay out of it
// until it ends (a spectator learns nothing a broadcast delay would hold back).
#include "harness.h"

#include "book/opening_book.h"
#include "server/store/explorer_index.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

const proto::ExplorerMove* find_move(const proto::Explorer& e, const std::string& move) {
    for (const auto& m : e.moves)
        if (m.move == move) return &m;
    return nullptr;
}

proto::Explorer explore(Client& c, std::vector<std::string> moves, std::string fen = "") {
    c.send(proto::GetExplorer{std::move(fen), std::move(moves)});
    return c.expect<proto::Explorer>();
}

TEST(ExplorerWire, ShowsTheArchiveAndTheBookAndKeepsARunningGameOut) {
    server::ExplorerIndex index;
    book::Book book;
    Position start;
    // The book: 1. h2e2 three times (one red win), 1. b2e2 once.
    for (int i = 0; i < 3; ++i)
        book.add_game(start, {Move(square_from_string("h2"), square_from_string("e2"))},
                      i == 0 ? Outcome::RedWins : Outcome::Ongoing);
    book.add_game(start, {Move(square_from_string("b2"), square_from_string("e2"))}, Outcome::Ongoing);
    TestServer s;
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_book(&book);
        srv.lobby().set_explorer_games(&index.games());
        srv.lobby().add_observer(&index);
        return 0;
    });
    auto red = Client::login(s.port(), "alice");
    red->send(proto::CreateTable{"duel", proto::Role::Red, ""});
    const proto::TableId table = red->expect<proto::TableSnapshot>().table.id;
    auto black = Client::login(s.port(), "bob");
    black->send(proto::Join{table, proto::Role::Black});
    black->expect<proto::TableSnapshot>();
    auto spec = Client::login(s.port(), "carol");
    spec->send(proto::Join{table, proto::Role::Spectator});
    spec->expect<proto::TableSnapshot>();
    red->until_pong();
    red->send(proto::MoveRequest{table, 0, "h2e2"});
    red->expect<proto::MoveMade>();
    black->expect<proto::MoveMade>();
    spec->expect<proto::MoveMade>();

    // The players of the running game are refused; its spectator is answered without it.
    red->send(proto::GetExplorer{"", {"h2e2"}});
    EXPECT_EQ(red->expect_error(ErrorCode::NotAllowed).request, "get_explorer");
    const auto during = explore(*spec, {});
    EXPECT_EQ(during.fen, std::string(START_FEN));
    ASSERT_GE(during.moves.size(), 2u);
    EXPECT_EQ(during.moves[0].move, "h2e2") << "most played first";
    EXPECT_FALSE(during.moves[0].games) << "a running game is not in the explorer";
    ASSERT_TRUE(during.moves[0].book);
    EXPECT_EQ(during.moves[0].book->plays, 3);
    EXPECT_EQ(during.moves[0].book->wins, 1);
    EXPECT_EQ(during.moves[1].move, "b2e2");

    // Black resigns: the game is archived, and the explorer counts it for both players.
    black->send(proto::Resign{table});
    spec->expect<proto::GameOver>();
    red->until_pong();
    const auto after = explore(*red, {});
    const auto* h2e2 = find_move(after, "h2e2");
    ASSERT_TRUE(h2e2 && h2e2->games);
    EXPECT_EQ(h2e2->games->plays, 1);
    EXPECT_EQ(h2e2->games->wins, 1) << "Red played it and won";
    EXPECT_EQ(h2e2->games->losses, 0);
    // From the position after 1. h2e2 no black move was played: the archive has nothing.
    const auto reply = explore(*spec, {"h2e2"});
    EXPECT_NE(reply.fen, std::string(START_FEN));
    for (const auto& m : reply.moves) EXPECT_FALSE(m.games) << m.move;
    // The same position given by its FEN.
    EXPECT_EQ(explore(*spec, {}, reply.fen).fen, reply.fen);
}

TEST(ExplorerWire, RefusesABadFenIllegalMovesAndTooManyMoves) {
    TestServer s(test_config(), false);
    auto c = Client::login(s.port(), "alice");
    c->send(proto::GetExplorer{"not a fen", {}});
    auto e = c->expect_error(ErrorCode::BadFen);
    EXPECT_EQ(e.request, "get_explorer");
    EXPECT_FALSE(e.detail.empty());
    c->send(proto::GetExplorer{"", {"h2e2", "h2e2"}});
    e = c->expect_error(ErrorCode::IllegalMove);
    EXPECT_NE(e.message.find("moves[1]"), std::string::npos) << e.message;
    c->send(proto::GetExplorer{"", std::vector<std::string>(proto::MAX_EXPLORER_PLIES + 1, "h2e2")});
    c->expect_error(ErrorCode::BadField);
    // Without an archive or a book the answer is empty, not an error.
    const auto empty = explore(*c, {"h2e2", "h9g7"});
    EXPECT_TRUE(empty.moves.empty());
    EXPECT_FALSE(empty.more);
}

}  // namespace
}  // namespace xq::test
