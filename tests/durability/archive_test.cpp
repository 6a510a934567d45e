// The archive as records: stored games exported as PGN in each notation, imported back,
// and malformed files refused with a message.
#include <gtest/gtest.h>

#include "server/store/archive.h"
#include "temp_dir.h"
#include "xiangqi/pgn.h"

using namespace xq;
using namespace xq::server;
using xq::test::TempDir;

namespace {

std::unique_ptr<Storage> open_ok(const std::filesystem::path& dir) {
    std::string err;
    auto s = Storage::open(dir, &err);
    EXPECT_TRUE(s) << err;
    return s;
}

// Stores a game from `fen` with the given ICCS moves; finished with `result` unless "*".
std::int64_t store(Storage& s, std::string fen, const std::vector<std::string>& moves, std::string result = "*",
                   std::string reason = "", std::string text = "") {
    GameRecord g;
    g.table_id = 4;
    g.start_fen = std::move(fen);
    g.red = "ann";
    g.black = "bob";
    g.started_at_ms = 1'764'400'000'000;  // 2025-11-29
    auto id = s.create_game(g);
    EXPECT_TRUE(id) << s.last_error();
    for (std::size_t i = 0; i < moves.size(); ++i) {
        MoveRecord m;
        m.ply = int(i);
        m.move = moves[i];
        EXPECT_TRUE(s.append_move(*id, m)) << s.last_error();
    }
    if (result != "*") {
        EXPECT_TRUE(s.finish_game(*id, result, reason, text, 1'764'400'100'000));
    }
    return *id;
}

const std::vector<std::string> OPENING = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"};

}  // namespace

TEST(Archive, NamesRoundTrip) {
    for (int i = 0; i <= int(EndReason::Cancelled); ++i)
        EXPECT_EQ(end_reason_from_name(end_reason_name(EndReason(i))), EndReason(i));
    EXPECT_FALSE(end_reason_from_name("bored"));
    EXPECT_EQ(outcome_from_pgn("0-1"), Outcome::BlackWins);
    EXPECT_FALSE(outcome_from_pgn("2-0"));
    EXPECT_EQ(notation_from_name("WXF"), Notation::Wxf);
    EXPECT_EQ(notation_from_name("chinese"), Notation::Chinese);
    EXPECT_FALSE(notation_from_name("algebraic"));
}

TEST(Archive, ExportWritesXiangqiPgnInEachNotation) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto id = store(*s, std::string(START_FEN), OPENING, "1-0", "resignation", "Black resigns");
    auto rec = s->get_game(id);
    ASSERT_TRUE(rec);

    std::string err;
    auto iccs = record_pgn(*rec, Notation::Iccs, "Club", &err);
    ASSERT_TRUE(iccs) << err;
    EXPECT_EQ(iccs->rfind("[Game \"Chinese Chess\"]", 0), 0u) << *iccs;
    EXPECT_NE(iccs->find("[Red \"ann\"]"), std::string::npos);
    EXPECT_NE(iccs->find("[Black \"bob\"]"), std::string::npos);
    EXPECT_NE(iccs->find("[Site \"Club\"]"), std::string::npos);
    EXPECT_NE(iccs->find("[Date \"2025.11.29\"]"), std::string::npos);
    EXPECT_NE(iccs->find("[Result \"1-0\"]"), std::string::npos);
    EXPECT_NE(iccs->find("[Format \"ICCS\"]"), std::string::npos);
    EXPECT_NE(iccs->find("H2-E2"), std::string::npos);
    EXPECT_EQ(iccs->find("[FEN"), std::string::npos);  // standard start: no FEN tag

    auto wxf = record_pgn(*rec, Notation::Wxf, "Club");
    ASSERT_TRUE(wxf);
    EXPECT_NE(wxf->find("C2.5"), std::string::npos) << *wxf;
    EXPECT_NE(wxf->find("H8+7"), std::string::npos);

    auto chinese = record_pgn(*rec, Notation::Chinese, "Club");
    ASSERT_TRUE(chinese);
    EXPECT_NE(chinese->find("炮二平五"), std::string::npos) << *chinese;
    EXPECT_EQ(chinese->find("[Format"), std::string::npos);

    // Each form reads back to the same moves and result.
    for (const std::string* text : {&*iccs, &*wxf, &*chinese}) {
        auto back = read_pgn(*text);
        ASSERT_TRUE(back.ok) << back.error << "\n" << *text;
        ASSERT_EQ(back.game.moves.size(), OPENING.size());
        for (std::size_t i = 0; i < OPENING.size(); ++i) EXPECT_EQ(move_to_iccs(back.game.moves[i]), OPENING[i]);
        EXPECT_EQ(back.game.result, Outcome::RedWins);
    }
}

TEST(Archive, SetUpPositionCarriesItsFen) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    const std::string fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    auto id = store(*s, fen, {"a0a9"});
    auto rec = s->get_game(id);
    ASSERT_TRUE(rec);
    auto pgn = record_pgn(*rec, Notation::Iccs, "Club");
    ASSERT_TRUE(pgn);
    EXPECT_NE(pgn->find("[FEN \"" + fen + "\"]"), std::string::npos) << *pgn;
    EXPECT_NE(pgn->find("[Result \"*\"]"), std::string::npos);
}

TEST(Archive, ExportThenImportRoundTrips) {
    TempDir a, b;
    auto src = open_ok(a.path());
    auto dst = open_ok(b.path());
    ASSERT_TRUE(src && dst);
    auto id1 = store(*src, std::string(START_FEN), OPENING, "0-1", "timeout", "Red lost on time");
    auto id2 = store(*src, std::string(START_FEN), {"b2e2", "b9c7"}, "1/2-1/2", "agreement", "Draw agreed");
    std::string file;
    for (auto id : {id1, id2}) {
        auto pgn = record_pgn(*src->get_game(id), Notation::Chinese, "Club");
        ASSERT_TRUE(pgn);
        file += *pgn + "\n";
    }
    ImportResult r = import_pgn(*dst, file, 1'764'500'000'000);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.imported, 2);
    auto list = dst->list_games({});
    ASSERT_EQ(list.size(), 2u);
    auto first = dst->get_game(list[1].id);
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->finished);
    EXPECT_EQ(first->result, "0-1");
    EXPECT_EQ(first->red, "ann");
    ASSERT_EQ(first->moves.size(), OPENING.size());
    for (std::size_t i = 0; i < OPENING.size(); ++i) EXPECT_EQ(first->moves[i].move, OPENING[i]);
    EXPECT_EQ(dst->get_game(list[0].id)->result, "1/2-1/2");
}

// A hint is exported as a comment on the move played after it, and imported back as a hint
// event of that ply.
TEST(Archive, HintsRoundTripAsComments) {
    TempDir a, b;
    auto src = open_ok(a.path());
    auto dst = open_ok(b.path());
    ASSERT_TRUE(src && dst);
    auto id = store(*src, std::string(START_FEN), OPENING, "0-1", "resignation", "Red resigns");
    ASSERT_TRUE(src->add_event(id, GameEvent{2, 1, "ann (Red) was shown h0g2", false, std::nullopt, "hint"}));
    auto pgn = record_pgn(*src->get_game(id), Notation::Iccs, "Club");
    ASSERT_TRUE(pgn);
    EXPECT_NE(pgn->find("H0-G2 {Hint: ann (Red) was shown h0g2}"), std::string::npos) << *pgn;
    ImportResult r = import_pgn(*dst, *pgn, 1'764'500'000'000);
    ASSERT_EQ(r.error, "");
    auto back = dst->get_game(dst->list_games({})[0].id);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->events.size(), 1u);
    EXPECT_EQ(back->events[0].kind, "hint");
    EXPECT_EQ(back->events[0].ply, 2);
    EXPECT_EQ(back->events[0].text, "ann (Red) was shown h0g2");
}

TEST(Archive, MalformedPgnIsRefusedWholeWithAMessage) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    const std::string good = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 *\n\n";
    const std::string bad = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-H3 *\n";
    ImportResult r = import_pgn(*s, good + bad, 1);
    EXPECT_EQ(r.imported, 0);
    EXPECT_NE(r.error.find("game 2"), std::string::npos) << r.error;
    EXPECT_TRUE(s->list_games({}).empty());  // nothing stored, not even the good game

    for (std::string junk : {std::string(""), std::string("hello"), std::string("[Game \"Chinese Chess\"\n1. zz *"),
                             std::string(3000, '[')}) {
        ImportResult j = import_pgn(*s, junk, 1);
        EXPECT_EQ(j.imported, 0) << junk;
        EXPECT_FALSE(j.error.empty()) << junk;
    }
    EXPECT_TRUE(s->list_games({}).empty());
}

TEST(Archive, DamagedStoredMoveIsAnErrorNotACrash) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto id = store(*s, std::string(START_FEN), {"h2e2", "a0a9"});  // the second is illegal
    std::string err;
    EXPECT_FALSE(record_pgn(*s->get_game(id), Notation::Iccs, "x", &err));
    EXPECT_NE(err.find("move 2"), std::string::npos) << err;
    GameRecord broken;
    broken.start_fen = "not a fen";
    EXPECT_FALSE(replay(broken, &err));
    EXPECT_NE(err.find("FEN"), std::string::npos) << err;
}
