// analyse_game over the wire: an archived game analysed on the AI pool with progress, the
// result stored with the game and served at once the next time; one analysis per user,
// cancellable; unknown games refused.
#include "harness.h"

#include <map>

#include "book/game_analysis.h"
#include "server/lobby/game_archive.h"

namespace xq::test {
namespace {

// An archive of two games: 42 (1. h2e2 h9g7 2. e2e6?? g7e6, a cannon lost for a pawn) and 43
// (a longer one, for the cancel). Runs on the server's thread only.
class FakeArchive final : public server::GameArchive {
public:
    proto::Games list_games(const proto::ListGames&) override { return {}; }
    std::int64_t game_id_at(proto::TableId) const override { return 0; }
    std::optional<proto::GameRecord> get_game(std::int64_t id) override {
        proto::GameRecord r;
        r.game.id = id;
        r.start_fen = std::string(START_FEN);
        if (id == 42) r.moves = {"h2e2", "h9g7", "e2e6", "g7e6"};
        else if (id == 43 || id == 44)
            r.moves = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9", "a0b0", "h7h3",
                       "c3c4", "b7b3", "g3g4", "c6c5", "c4c5", "b3c3"};
        else return std::nullopt;
        return r;
    }
    std::optional<proto::Analysis> analysis(std::int64_t id) override {
        auto it = stored.find(id);
        if (it == stored.end()) return std::nullopt;
        return it->second;
    }
    void save_analysis(const proto::Analysis& a) override {
        stored[a.id] = a;
        ++saves;
    }
    std::map<std::int64_t, proto::Analysis> stored;
    int saves = 0;
};

TEST(AnalysisWire, AnalysesAnArchivedGameWithProgressAndStoresIt) {
    FakeArchive archive;
    TestServer s;
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_archive(&archive);
        return 0;
    });
    auto c = Client::login(s.port(), "alice");
    c->send(proto::AnalyseGame{42});
    const auto first = c->expect<proto::AnalysisProgress>();
    EXPECT_EQ(first.id, 42);
    EXPECT_EQ(first.done, 0);
    EXPECT_EQ(first.total, 5);
    const auto a = c->expect<proto::Analysis>(120000ms);
    ASSERT_EQ(a.evals.size(), 5u);
    ASSERT_EQ(a.best.size(), 5u);
    EXPECT_LT(std::abs(a.evals[0]), 150) << "the start is about even";
    EXPECT_LT(a.evals[4], -200) << "Red is a cannon down for a pawn";
    EXPECT_NE(a.best[2], "e2e6") << "the blunder is not the best move";
    EXPECT_EQ(a.nodes, std::int64_t(book::ANALYSIS_NODES));
    ASSERT_EQ(a.losses.size(), 4u) << "one loss per move";
    EXPECT_EQ(a.losses[0], 0) << "1. h2e2 is a book move";
    EXPECT_EQ(a.losses[1], 0) << "1... h9g7 is a book move";
    EXPECT_GE(a.losses[2], 300) << "2. e2e6?? is a blunder";
    int progress = 0;
    for (const auto& m : c->skipped)
        if (std::holds_alternative<proto::AnalysisProgress>(m)) ++progress;
    EXPECT_EQ(progress, 4) << "a progress line per position before the last";
    EXPECT_EQ(s.on_server([&](server::Server&) { return archive.saves; }), 1);
    // Asked again: the stored analysis, at once, with no new search.
    c->send(proto::AnalyseGame{42});
    const auto again = c->expect<proto::Analysis>();
    EXPECT_EQ(again.evals, a.evals);
    EXPECT_EQ(again.losses, a.losses);
    EXPECT_EQ(s.on_server([&](server::Server&) { return archive.saves; }), 1);
    // One stored at another budget, without losses (before they were kept), is made again.
    s.on_server([&](server::Server&) {
        archive.stored[42] = proto::Analysis{42, 30000, {97, 20, 60, -300, -290}, {"b2b4", "h9g7", "b0c2", "g7e6", ""}};
        return 0;
    });
    c->send(proto::AnalyseGame{42});
    EXPECT_EQ(c->expect<proto::AnalysisProgress>().done, 0);
    const auto redone = c->expect<proto::Analysis>(120000ms);
    ASSERT_EQ(redone.losses.size(), 4u);
    EXPECT_GE(redone.losses[2], 300);
    EXPECT_EQ(s.on_server([&](server::Server&) { return archive.saves; }), 2);
    // No such game.
    c->send(proto::AnalyseGame{7});
    EXPECT_EQ(c->expect<proto::Error>().code, proto::ErrorCode::NoSuchGame);
}

TEST(AnalysisWire, AnalysesAGivenGameThatIsNotInTheArchive) {
    // id 0 with the moves: a PGN opened in a client. Analysed like an archived game, answered
    // under id 0 and stored nowhere; a game that does not replay is refused, naming the move.
    FakeArchive archive;
    TestServer s;
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_archive(&archive);
        return 0;
    });
    auto c = Client::login(s.port(), "carol");
    c->send(proto::AnalyseGame{0, "", {"h2e2", "h9g7", "e2e6", "g7e6"}});
    const auto first = c->expect<proto::AnalysisProgress>();
    EXPECT_EQ(first.id, 0);
    EXPECT_EQ(first.total, 5);
    const auto a = c->expect<proto::Analysis>(120000ms);
    EXPECT_EQ(a.id, 0);
    ASSERT_EQ(a.evals.size(), 5u);
    EXPECT_LT(a.evals[4], -200) << "Red is a cannon down for a pawn";
    EXPECT_EQ(s.on_server([&](server::Server&) { return int(archive.saves + archive.stored.size()); }), 0);
    // From a given position: Black to move, a rook up (nothing else but the kings and advisors).
    c->send(proto::AnalyseGame{0, "3akr3/4a4/9/9/9/9/9/9/4A4/4K4 b - - 0 1", {}});
    EXPECT_EQ(c->expect<proto::AnalysisProgress>().total, 1);
    const auto rook = c->expect<proto::Analysis>(120000ms);
    ASSERT_EQ(rook.evals.size(), 1u);
    EXPECT_LT(rook.evals[0], -300) << "Black's rook counts from Red's side as a loss";
    c->send(proto::AnalyseGame{0, "", {"h2e2", "h9g7", "e2e9"}});
    const auto illegal = c->expect<proto::Error>();
    EXPECT_EQ(illegal.code, proto::ErrorCode::IllegalMove);
    EXPECT_NE(illegal.message.find("moves[2] is not"), std::string::npos) << illegal.message;
    c->send(proto::AnalyseGame{0, "not a fen", {}});
    EXPECT_EQ(c->expect<proto::Error>().code, proto::ErrorCode::BadFen);
}

TEST(AnalysisWire, AGivenGameNeedsNoArchive) {
    TestServer s;  // no archive: archived games cannot be analysed, given ones can
    auto c = Client::login(s.port(), "dave");
    c->send(proto::AnalyseGame{42});
    EXPECT_EQ(c->expect<proto::Error>().code, proto::ErrorCode::NotAllowed);
    c->send(proto::AnalyseGame{0, "", {"h2e2"}});
    EXPECT_EQ(c->expect<proto::AnalysisProgress>().total, 2);
    EXPECT_EQ(c->expect<proto::Analysis>(120000ms).evals.size(), 2u);
}

TEST(AnalysisWire, OneAtATimePerUserAndCancellable) {
    FakeArchive archive;
    TestServer s;
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_archive(&archive);
        return 0;
    });
    auto c = Client::login(s.port(), "bob");
    c->send(proto::AnalyseGame{43});
    EXPECT_EQ(c->expect<proto::AnalysisProgress>().total, 17);
    c->send(proto::AnalyseGame{44});
    const auto busy = c->expect<proto::Error>();
    EXPECT_EQ(busy.code, proto::ErrorCode::NotAllowed);
    EXPECT_NE(busy.message.find("one at a time"), std::string::npos) << busy.message;
    c->send(proto::CancelAnalysis{43});
    proto::AnalysisProgress p;
    do p = c->expect<proto::AnalysisProgress>(); while (!p.cancelled);
    EXPECT_EQ(p.id, 43);
    EXPECT_LT(p.done, p.total);
    // Nothing more arrives for it, nothing is stored, and a new analysis may start.
    c->send(proto::AnalyseGame{44});
    EXPECT_EQ(c->expect<proto::AnalysisProgress>().id, 44);
    c->send(proto::CancelAnalysis{44});
    do p = c->expect<proto::AnalysisProgress>(); while (!p.cancelled);
    c->send(proto::Ping{5});
    c->expect<proto::Pong>();
    for (const auto& m : c->skipped) EXPECT_FALSE(std::holds_alternative<proto::Analysis>(m));
    EXPECT_EQ(s.on_server([&](server::Server&) { return archive.saves; }), 0);
    // Cancelling what does not run is refused.
    c->send(proto::CancelAnalysis{43});
    EXPECT_EQ(c->expect<proto::Error>().code, proto::ErrorCode::NotAllowed);
}

TEST(AnalysisWire, ABusyServerRefusesAFourthAnalysisClearly) {
    FakeArchive archive;
    TestServer s;
    s.on_server([&](server::Server& srv) {
        srv.lobby().set_archive(&archive);
        return 0;
    });
    std::vector<std::unique_ptr<Client>> running;
    for (const char* name : {"ann", "ben", "cy"}) {
        running.push_back(Client::login(s.port(), name));
        running.back()->send(proto::AnalyseGame{43});
        EXPECT_EQ(running.back()->expect<proto::AnalysisProgress>().done, 0);
    }
    auto late = Client::login(s.port(), "dee");
    late->send(proto::AnalyseGame{44});
    const auto busy = late->expect<proto::Error>();
    EXPECT_EQ(busy.code, proto::ErrorCode::NotAllowed);
    EXPECT_NE(busy.message.find("analyses already"), std::string::npos) << busy.message;
    // A finished or cancelled analysis frees its place.
    running[0]->send(proto::CancelAnalysis{43});
    proto::AnalysisProgress p;
    do p = running[0]->expect<proto::AnalysisProgress>(); while (!p.cancelled);
    late->send(proto::AnalyseGame{44});
    EXPECT_EQ(late->expect<proto::AnalysisProgress>().id, 44);
}

}  // namespace
}  // namespace xq::test
