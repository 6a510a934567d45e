// The protocol session at a table: server lines in, client state and cues out, lines back
// (hello and welcome, snapshots, moves, the AI's progress, resyncs, game over, bad lines).
#include <gtest/gtest.h>

#include "session_fixture.h"

using namespace xq;
using namespace xq::client;

TEST_F(SessionTest, HelloThenWelcomeAsksForTheLobby) {
    session.hello("alice");
    EXPECT_EQ(sent_types(), std::vector<std::string>{"hello"});
    EXPECT_EQ(state.connection, Connection::Handshake);
    proto::Welcome w;
    w.name = "alice";
    w.server = "club";
    w.resume_token = "00112233445566778899aabbccddeeff";
    feed(w);
    EXPECT_EQ(state.connection, Connection::Ready);
    EXPECT_EQ(state.server_name, "club");
    EXPECT_EQ(state.resume_token, "00112233445566778899aabbccddeeff");
    EXPECT_TRUE(has_cue(Cue::Kind::Welcome));
    EXPECT_EQ(sent_types(), (std::vector<std::string>{"list_tables", "list_users"}));
    EXPECT_EQ(session.received("welcome"), 1);
}

TEST_F(SessionTest, SnapshotSeatsUsAndLoadsTheBoard) {
    join_red_table({"h2e2", "h9g7"});
    EXPECT_TRUE(has_cue(Cue::Kind::TableJoined));
    EXPECT_EQ(state.table.id, 7);
    EXPECT_EQ(state.table.board.ply(), 2);
    EXPECT_EQ(state.table.board.seat(), RED);
    EXPECT_FALSE(state.table.board.flipped());
    EXPECT_TRUE(state.table.board.my_turn());
    EXPECT_EQ(state.table.seats[BLACK].ai_level, 5);
    ASSERT_EQ(state.table.moves.size(), 2u);
    EXPECT_EQ(state.table.moves[1].iccs, "h9g7");
}

// Registered players' ratings come with the users list and the seat infos.
TEST_F(SessionTest, RatingsReachTheUserListAndTheSeats) {
    join_red_table();
    proto::Users u;
    u.users = {proto::UserInfo{"alice", 7}, proto::UserInfo{"mei", 0}};
    u.users[1].rating = 1612;
    feed(u);
    ASSERT_EQ(state.lobby.users.size(), 2u);
    EXPECT_EQ(state.lobby.users[0].rating, std::nullopt);
    EXPECT_EQ(state.lobby.users[1].rating, std::optional<int>(1612));
    proto::TableUpdate up;
    up.table.id = 7;
    up.table.name = "t7";
    up.table.red = proto::SeatInfo{"alice", 0, true};
    up.table.black = proto::SeatInfo{"mei", 0, true};
    up.table.black->rating = 1612;
    up.table.status = proto::TableStatus::Playing;
    feed(up);
    EXPECT_EQ(state.table.seats[BLACK].rating, std::optional<int>(1612));
    EXPECT_EQ(seat_label(Lang::English, state.table.seats[BLACK], "alice"), "mei (1612)");
    EXPECT_EQ(state.table.seats[RED].rating, std::nullopt);
}

TEST_F(SessionTest, MoveIntentAndServerMove) {
    join_red_table();
    session.take_cues();
    session.move(Move(square_from_string("h2"), square_from_string("e2")));
    const auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    std::string l = lines[0];
    l.pop_back();
    auto d = proto::decode_client(l);
    ASSERT_TRUE(d.ok());
    const auto& req = std::get<proto::MoveRequest>(d.value());
    EXPECT_EQ(req.move, "h2e2");
    EXPECT_EQ(req.ply, 0);
    EXPECT_EQ(req.table, 7u);
    EXPECT_EQ(state.table.board.ply(), 0) << "the board changes only on move_made";

    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.board.ply(), 1);
    ASSERT_EQ(state.table.moves.size(), 1u);
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Chinese), "炮二平五");
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Wxf), "C2.5");
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Iccs), "h2e2");
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::MovePlayed);
    EXPECT_EQ(cues[0].piece, R_CANNON);
    EXPECT_FALSE(state.table.board.my_turn());

    // The same move again (a resend) changes nothing.
    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.board.ply(), 1);
    EXPECT_TRUE(session.take_cues().empty());
}

TEST_F(SessionTest, AiProgressKeepsOnlyALegalLineForTheBoard) {
    join_red_table();
    feed(move_made(1, "h2e2", RED));
    proto::AiProgress p;
    p.table = 7;
    p.seat = BLACK;
    p.depth = 9;
    p.score = -20;
    p.percent = 40;
    p.pv = {"h9g7", "h0g2", "a9a5"};  // the third is not legal (the pawn on a6 blocks the rook)
    feed(p);
    ASSERT_TRUE(state.table.ai.active);
    EXPECT_EQ(state.table.ai.depth, 9);
    ASSERT_EQ(state.table.ai.pv.size(), 2u);
    EXPECT_EQ(pv_texts(state.table.board.position(), state.table.ai.pv, MoveNotation::Chinese),
              (std::vector<std::string>{"马8进7", "马二进三"}));
    // A line for another position (Red is not to move here) shows no moves; the move ends it.
    p.seat = RED;
    feed(p);
    EXPECT_TRUE(state.table.ai.pv.empty());
    feed(move_made(2, "h9g7", BLACK));
    EXPECT_FALSE(state.table.ai.active);
}

TEST_F(SessionTest, DivergenceRequestsASnapshot) {
    join_red_table();
    session.take_cues();
    proto::MoveMade mm = move_made(1, "h2e2", RED);
    mm.fen = std::string(START_FEN);  // the server's position differs from ours
    feed(mm);
    EXPECT_EQ(state.table.board.ply(), 0);
    EXPECT_TRUE(has_cue(Cue::Kind::Resync));
    EXPECT_EQ(sent_types(), std::vector<std::string>{"sync"});

    // A fresh snapshot restores agreement.
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.you = proto::Role::Red;
    s.moves = {"h2e2"};
    s.ply = 1;
    feed(s);
    EXPECT_EQ(state.table.board.ply(), 1);
}

TEST_F(SessionTest, LongSnapshotArrivesInParts) {
    join_red_table();
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.you = proto::Role::Red;
    s.moves = {"h2e2"};
    s.ply = 3;
    feed(s);
    EXPECT_EQ(state.table.board.ply(), 0) << "waits for the rest of the moves";
    proto::SnapshotMoves rest;
    rest.table = 7;
    rest.from = 1;
    rest.moves = {"h9g7", "h0g2"};
    feed(rest);
    EXPECT_EQ(state.table.board.ply(), 3);
}

TEST_F(SessionTest, GameOverOffersChatAndTakeback) {
    join_red_table({"h2e2", "h9g7"});
    session.take_cues();
    proto::DrawOffered d;
    d.table = 7;
    d.by = BLACK;
    feed(d);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::Draw);
    EXPECT_EQ(state.table.incoming_offer.from, "AI");
    session.answer_draw(false);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);
    EXPECT_EQ(sent_types(), std::vector<std::string>{"answer_draw"});
    // Our own offer echoed back is not a dialog for us.
    d.by = RED;
    feed(d);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);

    proto::TakebackDone tb;
    tb.table = 7;
    tb.plies = 2;
    tb.ply = 0;
    tb.fen = std::string(START_FEN);
    feed(tb);
    EXPECT_EQ(state.table.board.ply(), 0);
    EXPECT_TRUE(state.table.moves.empty());

    proto::ChatLine c;
    c.scope = proto::ChatScope::Table;
    c.table = 7;
    c.from = "bob";
    c.text = "好棋";
    feed(c);
    ASSERT_EQ(state.table.chat.size(), 1u);
    EXPECT_EQ(state.table.chat.back().text, "好棋");
    c.scope = proto::ChatScope::Lobby;
    feed(c);
    EXPECT_EQ(state.lobby.chat.size(), 1u);

    proto::GameOver go;
    go.table = 7;
    go.result.outcome = Outcome::BlackWins;
    go.result.reason = "resignation";
    go.result.text = "Red resigns";
    feed(go);
    EXPECT_TRUE(state.table.result_shown);
    EXPECT_EQ(state.table.result_text, "Red resigns");
    EXPECT_FALSE(state.table.board.in_progress());
    EXPECT_TRUE(has_cue(Cue::Kind::GameOver));
}

TEST_F(SessionTest, PlayerLeavesAndReturns) {
    join_red_table();
    session.take_cues();
    proto::PlayerLeft pl;
    pl.table = 7;
    pl.name = "AI";
    pl.role = proto::Role::Black;
    pl.reason = proto::LeaveReason::Disconnected;
    feed(pl);
    EXPECT_FALSE(state.table.seats[BLACK].connected);
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].str, Str::OpponentLeft);
    EXPECT_EQ(cues[0].text, "AI");
    proto::PlayerReturned pr;
    pr.table = 7;
    pr.name = "AI";
    pr.role = proto::Role::Black;
    feed(pr);
    EXPECT_TRUE(state.table.seats[BLACK].connected);
}

TEST_F(SessionTest, BadLinesAreReportedNotThrown) {
    session.handle_line("{not json");
    session.handle_line(R"({"type":"no_such_type"})");
    session.handle_line(R"({"type":"move_made","table":"seven"})");
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 3u);
    for (const Cue& c : cues) EXPECT_EQ(c.kind, Cue::Kind::Error);
    EXPECT_EQ(session.received("invalid"), 3);
}
