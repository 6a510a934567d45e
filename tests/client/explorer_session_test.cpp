// The opening explorer in the session: one request per position, the answer kept and cached,
// answers for a position left meanwhile not shown, refusals in the panel and not as a toast,
// and the W/D/L shares.
#include <gtest/gtest.h>

#include "core/session.h"
#include "protocol/codec.h"
#include "xiangqi/notation.h"

using namespace xq;
using namespace xq::client;

namespace {

struct ExplorerSessionTest : ::testing::Test {
    ClientState state;
    Session session{state};

    void feed(const proto::ServerMessage& m) { session.handle_line(proto::encode(m)); }
    // The get_explorer lines sent since the last call.
    std::vector<proto::GetExplorer> asked() {
        std::vector<proto::GetExplorer> out;
        for (std::string line : session.take_outbox()) {
            if (!line.empty() && line.back() == '\n') line.pop_back();
            auto d = proto::decode_client(line);
            EXPECT_TRUE(d.ok()) << line;
            if (d.ok() && std::holds_alternative<proto::GetExplorer>(d.value()))
                out.push_back(std::get<proto::GetExplorer>(d.value()));
        }
        return out;
    }
    static Position after(std::initializer_list<const char*> moves) {
        Position p;
        for (const char* m : moves) {
            UndoInfo u;
            p.do_move(parse_iccs(p, m).move, u);
        }
        return p;
    }
};

TEST_F(ExplorerSessionTest, AsksOncePerPositionAndCachesTheAnswer) {
    const Position start;
    session.explore(start);
    session.explore(start);
    auto sent = asked();
    ASSERT_EQ(sent.size(), 1u) << "asked once while unanswered";
    EXPECT_EQ(sent[0].fen, start.fen());
    EXPECT_TRUE(state.explorer.asked == start.fen());
    EXPECT_FALSE(state.explorer.answered(start.fen()));

    proto::Explorer e;
    e.fen = start.fen();
    e.moves = {proto::ExplorerMove{"h2e2", proto::ExplorerStats{10, 5, 3, 2}, proto::ExplorerStats{4, 1, 0, 0}},
               proto::ExplorerMove{"b0c2", std::nullopt, proto::ExplorerStats{2, 0, 0, 0}},
               proto::ExplorerMove{"a0a5", proto::ExplorerStats{1, 1, 0, 0}, std::nullopt}};  // not legal: left out
    e.more = true;
    feed(e);
    ASSERT_TRUE(state.explorer.answered(start.fen()));
    ASSERT_EQ(state.explorer.rows.size(), 2u);
    EXPECT_EQ(state.explorer.rows[0].move, parse_iccs(start, "h2e2").move);
    EXPECT_EQ(state.explorer.rows[0].games, (ExplorerCounts{10, 5, 3, 2}));
    EXPECT_EQ(state.explorer.rows[0].book.plays, 4);
    EXPECT_EQ(state.explorer.rows[1].games.plays, 0) << "a source that did not see it counts nothing";
    EXPECT_TRUE(state.explorer.more);
    session.explore(start);
    EXPECT_TRUE(asked().empty()) << "answered: nothing asked again";

    // Another position is asked; coming back to the start comes from the cache.
    const Position next = after({"h2e2"});
    session.explore(next);
    ASSERT_EQ(asked().size(), 1u);
    EXPECT_FALSE(state.explorer.answered(next.fen())) << "waiting for the new position";
    session.explore(start);
    EXPECT_TRUE(asked().empty()) << "from the cache";
    ASSERT_TRUE(state.explorer.answered(start.fen()));
    EXPECT_EQ(state.explorer.rows.size(), 2u);
}

TEST_F(ExplorerSessionTest, AnAnswerForAPositionLeftIsNotShown) {
    const Position start, next = after({"h2e2"});
    session.explore(start);
    session.explore(next);
    EXPECT_EQ(asked().size(), 2u);
    proto::Explorer late;
    late.fen = start.fen();
    late.moves = {proto::ExplorerMove{"h2e2", proto::ExplorerStats{1, 1, 0, 0}, std::nullopt}};
    feed(late);
    EXPECT_EQ(state.explorer.asked, next.fen()) << "still waiting for the shown position";
    EXPECT_FALSE(state.explorer.answered(start.fen()));
    session.explore(start);
    EXPECT_TRUE(asked().empty()) << "the late answer was cached";
    EXPECT_TRUE(state.explorer.answered(start.fen()));
}

TEST_F(ExplorerSessionTest, ARefusalShowsInThePanelNotAsAToast) {
    const Position start;
    session.explore(start);
    asked();
    feed(proto::Error{proto::ErrorCode::NotAllowed, "the explorer is closed to the players of a running game",
                      "get_explorer", 3});
    EXPECT_TRUE(session.take_cues().empty());
    EXPECT_EQ(state.explorer.error_code, "not_allowed");
    EXPECT_TRUE(state.explorer.answered(start.fen()));
    EXPECT_TRUE(state.explorer.rows.empty());
    session.explore(start);
    EXPECT_TRUE(asked().empty()) << "a refused position is not asked again at once";
}

TEST_F(ExplorerSessionTest, APlayerRefusedDuringTheGameMayAskOnceItIsOver) {
    proto::Welcome w;
    w.name = "alice";
    w.server = "test";
    feed(w);
    proto::TableSnapshot snap;
    snap.table.id = 3;
    snap.you = proto::Role::Red;
    snap.start_fen = snap.fen = std::string(START_FEN);
    feed(snap);
    session.take_outbox();
    const Position start;
    session.explore(start);
    asked();
    feed(proto::Error{proto::ErrorCode::NotAllowed, "closed", "get_explorer", 3});
    session.explore(start);
    EXPECT_TRUE(asked().empty());
    proto::GameOver go;
    go.table = 3;
    go.result.outcome = Outcome::BlackWins;
    go.result.reason = "resignation";
    feed(go);
    session.explore(start);
    EXPECT_EQ(asked().size(), 1u) << "asked again after the game";
}

TEST(ExplorerCounts, SharesOfTheDecidedGamesAddUpTo100) {
    const ExplorerCounts c{10, 1, 1, 1};  // seven games without a result
    EXPECT_EQ(c.win_pct(), 33);
    EXPECT_EQ(c.loss_pct(), 33);
    EXPECT_EQ(c.draw_pct(), 34);
    EXPECT_EQ((ExplorerCounts{3, 0, 0, 0}).win_pct(), 0) << "no result: no share";
    EXPECT_EQ((ExplorerCounts{3, 0, 0, 0}).draw_pct(), 0);
    EXPECT_EQ((ExplorerCounts{4, 3, 0, 1}).win_pct(), 75);
}

}  // namespace
