// A tournament's games as one PGN over the wire (get_tournament_pgn): the pages of one text
// join into the export's text, in each notation, cut at character boundaries, the same after
// a restart; every refusal is the documented error. Loopback only.
#include <string>
#include <vector>

#include "durability/durable_server.h"
#include "protocol/utf8.h"
#include "xiangqi/pgn.h"

namespace xq::test {
namespace {

using proto::ErrorCode;
using proto::PgnNotation;

// Every page of the tournament's PGN, asked for `limit` bytes at a time: each page starts where
// the last ended, none is longer than asked, all carry the same total and digest.
std::string whole_pgn(Client& c, std::uint32_t id, PgnNotation notation, int limit, std::string* digest = nullptr) {
    std::string text, first_digest;
    std::int64_t total = -1;
    for (int page = 0; page < 1000; ++page) {
        c.send(proto::GetTournamentPgn{id, notation, std::int64_t(text.size()), limit});
        const auto p = c.expect<proto::TournamentPgn>();
        EXPECT_EQ(p.tournament, id);
        EXPECT_EQ(p.notation, notation);
        EXPECT_EQ(p.offset, std::int64_t(text.size()));
        EXPECT_LE(p.text.size(), std::size_t(limit == 0 ? int(proto::TOURNAMENT_PGN_PAGE_BYTES) : limit));
        EXPECT_TRUE(proto::valid_utf8(p.text));
        if (page == 0) {
            total = p.total;
            first_digest = p.digest;
            EXPECT_EQ(p.digest.size(), 16u);
        }
        EXPECT_EQ(p.total, total);
        EXPECT_EQ(p.digest, first_digest);
        text += p.text;
        if (!p.more) break;
        if (p.text.empty()) {
            ADD_FAILURE() << "an empty page with more";
            break;
        }
    }
    EXPECT_EQ(std::int64_t(text.size()), total);
    if (digest) *digest = first_digest;
    return text;
}

std::string tag(const PgnGame& g, const std::string& name) {
    for (const auto& [k, v] : g.tags)
        if (k == name) return v;
    return {};
}

TEST(TournamentPgn, PagesJoinIntoTheTournamentsGamesInEachNotationAndSurviveARestart) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    std::uint32_t id = 0;
    std::string iccs, digest;
    const std::vector<std::string> played = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2d2", "a9b9"};
    {
        DurableServer s(test_config(), quiet(tmp));
        auto dora = Client::login(s.port(), "dora");
        proto::CreateTournament create;
        create.name = "象棋 night \"A\"";  // a quote to escape in the PGN tag and in JSON
        create.format = proto::TournamentFormat::RoundRobin;
        dora->send(create);
        id = dora->expect<proto::Tournament>().id;
        auto ann = Client::login(s.port(), "ann");
        auto bob = Client::login(s.port(), "bob");
        ann->send(proto::JoinTournament{id});
        bob->send(proto::JoinTournament{id});
        wait_tournament(*dora, id, [](const proto::Tournament& t) { return t.entrants.size() == 2; });

        // No game yet: an empty text, not an error.
        dora->send(proto::GetTournamentPgn{id});
        const auto empty = dora->expect<proto::TournamentPgn>();
        EXPECT_EQ(empty.total, 0);
        EXPECT_TRUE(empty.text.empty());
        EXPECT_FALSE(empty.more);

        dora->send(proto::StartTournament{id});
        const auto t = wait_tournament(*dora, id, [](const proto::Tournament& x) { return x.round == 1; });
        ASSERT_EQ(t.boards.size(), 1u);
        const auto& b = t.boards[0];
        Client& red = t.entrants[std::size_t(b.red)].name == "ann" ? *ann : *bob;
        Client& black = &red == ann.get() ? *bob : *ann;
        for (Client* c : {&red, &black})
            for (;;)
                if (c->expect<proto::TableSnapshot>().table.id == b.table) break;
        red.until_pong();
        black.until_pong();
        for (std::size_t p = 0; p < played.size(); ++p) {
            Client& mover = p % 2 == 0 ? red : black;
            mover.send(proto::MoveRequest{b.table, int(p), played[p]});
            red.expect_ply(int(p) + 1);
            black.expect_ply(int(p) + 1);
        }
        black.send(proto::Resign{b.table});
        red.expect<proto::GameOver>();
        wait_tournament(*dora, id, [](const proto::Tournament& x) {
            return x.state == proto::TournamentState::Finished;
        });

        // Asked 256 bytes at a time (several pages) and at the default size (one page): one text.
        iccs = whole_pgn(*dora, id, PgnNotation::Iccs, 256, &digest);
        EXPECT_GT(iccs.size(), 256u);
        EXPECT_EQ(whole_pgn(*dora, id, PgnNotation::Iccs, 0), iccs);
        const auto games = read_pgn_all(iccs);
        ASSERT_EQ(games.size(), 1u) << iccs;
        ASSERT_TRUE(games[0].ok) << games[0].error;
        EXPECT_EQ(tag(games[0].game, "Event"), create.name);
        EXPECT_EQ(tag(games[0].game, "Round"), "1");
        EXPECT_EQ(tag(games[0].game, "Red"), t.entrants[std::size_t(b.red)].name);
        EXPECT_EQ(games[0].game.result, Outcome::RedWins);
        ASSERT_EQ(games[0].game.moves.size(), played.size());
        for (std::size_t p = 0; p < played.size(); ++p) EXPECT_EQ(move_to_iccs(games[0].game.moves[p]), played[p]);

        // In Chinese notation (three bytes a character) every page still ends on a whole
        // character, and the text reads back as the same game.
        const std::string chinese = whole_pgn(*dora, id, PgnNotation::Chinese, 256);
        EXPECT_NE(chinese.find("炮二平五"), std::string::npos) << chinese;
        const auto zh = read_pgn_all(chinese);
        ASSERT_EQ(zh.size(), 1u);
        ASSERT_TRUE(zh[0].ok) << zh[0].error;
        EXPECT_EQ(zh[0].game.moves, games[0].game.moves);
        EXPECT_NE(whole_pgn(*dora, id, PgnNotation::Wxf, 0).find("C2.5"), std::string::npos);

        // The refusals.
        const std::size_t mid = chinese.find("炮二平五") + 1;  // inside a character
        dora->send(proto::GetTournamentPgn{id, PgnNotation::Chinese, std::int64_t(mid), 0});
        dora->expect_error(ErrorCode::BadField);
        dora->send(proto::GetTournamentPgn{id, PgnNotation::Iccs, std::int64_t(iccs.size()) + 1, 0});
        dora->expect_error(ErrorCode::BadField);
        dora->send(proto::GetTournamentPgn{id, PgnNotation::Iccs, 0, 255});
        dora->expect_error(ErrorCode::BadField);
        dora->send(proto::GetTournamentPgn{id + 1});
        dora->expect_error(ErrorCode::NoSuchTournament);
        ann->send(proto::GetTournamentPgn{id, PgnNotation::Iccs, std::int64_t(iccs.size()), 0});
        const auto end = ann->expect<proto::TournamentPgn>();  // anyone may ask; the end is an empty page
        EXPECT_TRUE(end.text.empty());
        EXPECT_FALSE(end.more);
    }
    // The database keeps it: after a restart the same text, the same digest.
    DurableServer again(test_config(), quiet(tmp));
    auto eve = Client::login(again.port(), "eve");
    std::string digest_again;
    EXPECT_EQ(whole_pgn(*eve, id, PgnNotation::Iccs, 0, &digest_again), iccs);
    EXPECT_EQ(digest_again, digest);
}

TEST(TournamentPgn, AServerWithoutAnArchiveRefusesIt) {
    TestServer s(test_config(), /*with_ai=*/false);
    auto dora = Client::login(s.port(), "dora");
    proto::CreateTournament create;
    create.format = proto::TournamentFormat::RoundRobin;
    dora->send(create);
    const auto id = dora->expect<proto::Tournament>().id;
    dora->send(proto::GetTournamentPgn{id});
    dora->expect_error(ErrorCode::NotAllowed);
}

}  // namespace
}  // namespace xq::test
