// The built-in AI seat plays from the server's opening book: a book whose only move from the
// start is one the search would not choose is what the AI opens with.
#include "harness.h"

#include "book/opening_book.h"

namespace xq::test {
namespace {

TEST(AiBook, TheAiSeatOpensWithTheBookMove) {
    TestServer s;
    // 1. b0c2 (马八进七): sound, so it passes the book's sanity check, and not the search's
    // own first choice at level 10 (checked below on a fresh engine).
    const Position start;
    const Move book_move(square_from_string("b0"), square_from_string("c2"));
    engine::Engine e(1);
    engine::Limits lim;
    lim.nodes = 20'000;
    ASSERT_NE(e.search(start, {}, lim).best, book_move) << "pick another book move for this test";
    book::Book b;
    b.add(start.key(), book_move, book::MoveStats{10, 6, 2, 2});
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_book(&b);
        return 0;
    });
    auto human = Client::login(s.port(), "human");
    human->send(proto::CreateTable{"", proto::Role::Black, ""});
    const auto table = human->expect<proto::TableSnapshot>().table.id;
    human->send(proto::RequestAi{table, RED, 10});
    const auto mm = human->expect<proto::MoveMade>(60000ms);
    EXPECT_EQ(mm.ply, 1);
    EXPECT_EQ(mm.move, "b0c2");
}

}  // namespace
}  // namespace xq::test
