// The protocol session and the people at the table: a dropped opponent's countdown and the
// claim, the AI holding a seat, late arrivals; offers made, answered and withdrawn.
#include <gtest/gtest.h>

#include "session_fixture.h"

using namespace xq;
using namespace xq::client;

namespace {

proto::TableSnapshot playing_snapshot(proto::AbandonPolicy policy) {
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.black = proto::SeatInfo{"bob", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.table.settings = proto::TableSettings{"fischer:300+5", 60, policy, 5, true};
    s.you = proto::Role::Red;
    return s;
}

}  // namespace

TEST_F(SessionTest, OpponentDropsCountdownThenClaim) {
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    feed(playing_snapshot(proto::AbandonPolicy::Claim));
    session.take_cues();
    session.take_outbox();

    proto::PlayerLeft pl;
    pl.table = 7;
    pl.name = "bob";
    pl.role = proto::Role::Black;
    pl.reason = proto::LeaveReason::Disconnected;
    pl.grace_ms = 58'000;
    feed(pl);
    const SeatInfo& bob = state.table.seats[BLACK];
    EXPECT_FALSE(bob.connected);
    const auto now = std::chrono::steady_clock::now();
    const std::int64_t left = bob.grace_left_ms(now);
    EXPECT_GT(left, 57'000);
    EXPECT_LE(left, 58'000);
    EXPECT_EQ(seat_notice(Lang::English, bob, now), "bob lost connection — seat kept 0:58");
    EXPECT_FALSE(state.table.claim_open) << "nothing to claim while the grace runs";

    // A table_update that does not repeat grace_ms keeps the countdown running.
    proto::TableUpdate u;
    u.table = playing_snapshot(proto::AbandonPolicy::Claim).table;
    u.table.black->connected = false;
    feed(u);
    EXPECT_GT(state.table.seats[BLACK].grace_left_ms(now), 57'000);

    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = true;
    feed(sa);
    EXPECT_TRUE(state.table.seats[BLACK].abandoned);
    EXPECT_TRUE(state.table.claim_open);
    EXPECT_TRUE(state.table.claim_possible);
    EXPECT_TRUE(has_cue(Cue::Kind::Offer));

    session.keep_waiting();
    EXPECT_FALSE(state.table.claim_open);
    EXPECT_TRUE(state.table.claim_possible) << "the win can still be claimed later";
    session.claim_win();
    EXPECT_EQ(sent_types(), std::vector<std::string>{"claim_win"});

    proto::GameOver go;
    go.table = 7;
    go.result.outcome = Outcome::RedWins;
    go.result.reason = "abandonment";
    go.result.text = "Black abandoned the game";
    feed(go);
    EXPECT_FALSE(state.table.claim_possible);
    EXPECT_FALSE(state.table.claim_open);
}

TEST_F(SessionTest, AiHoldsTheSeatUntilThePlayerReturns) {
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    feed(playing_snapshot(proto::AbandonPolicy::Ai));
    session.take_cues();
    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = false;
    sa.hold_level = 5;
    feed(sa);
    EXPECT_FALSE(state.table.claim_open) << "no claim question when the AI holds the seat";
    const auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(tr(Lang::English, cues[0].str, {cues[0].text, cues[0].arg2}), "AI (level 5) plays for bob until they return");
    EXPECT_EQ(seat_notice(Lang::Chinese, state.table.seats[BLACK], std::chrono::steady_clock::now()),
              "电脑（5级）代 bob 下棋，直到其回来");

    proto::PlayerReturned pr;
    pr.table = 7;
    pr.name = "bob";
    pr.role = proto::Role::Black;
    feed(pr);
    const SeatInfo& bob = state.table.seats[BLACK];
    EXPECT_TRUE(bob.connected);
    EXPECT_FALSE(bob.abandoned);
    EXPECT_EQ(bob.hold_level, 0);
    EXPECT_EQ(seat_notice(Lang::English, bob, std::chrono::steady_clock::now()), "");
}

TEST_F(SessionTest, SpectatorArrivingLateSeesTheCountdown) {
    proto::Welcome w;
    w.name = "carol";
    feed(w);
    proto::TableSnapshot s = playing_snapshot(proto::AbandonPolicy::Claim);
    s.you = proto::Role::Spectator;
    s.table.black->connected = false;
    s.table.black->grace_ms = 30'000;
    feed(s);
    const auto now = std::chrono::steady_clock::now();
    EXPECT_EQ(seat_notice(Lang::English, state.table.seats[BLACK], now), "bob lost connection — seat kept 0:30");
    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = true;
    feed(sa);
    EXPECT_FALSE(state.table.claim_open) << "a spectator cannot claim";
    EXPECT_FALSE(state.table.claim_possible);
    EXPECT_NE(seat_notice(Lang::English, state.table.seats[BLACK], now).find("did not come back"), std::string::npos);
}

TEST_F(SessionTest, LateArrivalAtAnAbandonedSeatAsksTheOpponent) {
    // Alice reconnects (resume) after bob's grace ran out: the snapshot alone opens the question.
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    proto::TableSnapshot s = playing_snapshot(proto::AbandonPolicy::Claim);
    s.table.black->connected = false;
    s.table.black->abandoned = true;
    feed(s);
    EXPECT_TRUE(state.table.claim_open);
}

TEST_F(SessionTest, OurOfferWaitsForTheAnswerAndEndsWithIt) {
    join_red_table();
    session.offer_draw();
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw);
    EXPECT_EQ(state.table.outgoing_offer.from, "AI");
    feed(proto::DrawAnswered{7, BLACK, false});
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);
    session.request_takeback();
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Takeback);
    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None) << "offers die when the position changes";
}

// A takeback hands the running clock to the side to move again (the server does the same;
// its takeback line carries no clocks): the clock of the side whose move was taken back
// stops at its figure and the other runs.
TEST_F(SessionTest, ATakebackRunsTheClockOfTheSideToMove) {
    join_red_table();
    proto::TableSnapshot s = red_snapshot({"h2e2"}, "bob", 0);
    s.clocks = proto::Clocks{300000, 280000, BLACK, false};
    feed(s);
    ASSERT_EQ(state.table.clock_running, std::optional<Color>(BLACK));
    proto::TakebackDone tb;
    tb.table = 7;
    tb.plies = 1;
    tb.ply = 0;
    tb.fen = std::string(START_FEN);
    feed(tb);
    ASSERT_EQ(state.table.board.ply(), 0);
    EXPECT_EQ(state.table.clock_running, std::optional<Color>(RED)) << "Red is to move again";
    const auto now = std::chrono::steady_clock::now();
    EXPECT_LE(state.table.clock_now(BLACK, now), 280000);
    EXPECT_GT(state.table.clock_now(BLACK, now), 270000);
    const auto later = now + std::chrono::seconds(5);
    EXPECT_EQ(state.table.clock_now(BLACK, later), state.table.clock_now(BLACK, now)) << "Black's clock stopped";
    EXPECT_LT(state.table.clock_now(RED, later), 296000) << "Red's clock runs";
}

// The clocks of a line run from when the line arrived, not from when a frame got round to
// handling it: a move_made read 300 ms before it is handled shows 300 ms gone already.
TEST_F(SessionTest, ClocksRunFromTheLinesArrival) {
    join_red_table();
    proto::MoveMade mm = move_made(1, "h2e2", RED);
    mm.clocks = proto::Clocks{290000, 300000, BLACK, false};
    const auto handled = std::chrono::steady_clock::now();
    const auto arrived = handled - std::chrono::milliseconds(300);
    session.handle_line(proto::encode(proto::ServerMessage{mm}), arrived);
    ASSERT_EQ(state.table.clock_running, std::optional<Color>(BLACK));
    EXPECT_EQ(state.table.clock_now(BLACK, handled), 299700);
    EXPECT_EQ(state.table.clock_now(RED, handled), 290000);
}

// The clock probe compares what we show when the server's figures arrive with them, and says
// how long the answer took (the figures are older than their arrival by up to that).
TEST_F(SessionTest, TheClockProbeMeasuresTheDriftAndTheRoundTrip) {
    join_red_table();
    proto::MoveMade mm = move_made(1, "h2e2", RED);
    mm.clocks = proto::Clocks{290000, 300000, BLACK, false};
    const auto t0 = std::chrono::steady_clock::now();
    session.handle_line(proto::encode(proto::ServerMessage{mm}), t0);
    session.probe_clocks();
    EXPECT_EQ(sent_types(), std::vector<std::string>{"sync"});
    proto::TableSnapshot s = red_snapshot({"h2e2"});
    s.clocks = proto::Clocks{290000, 299000, BLACK, false};  // Black's second gone, by the server
    session.handle_line(proto::encode(proto::ServerMessage{s}), t0 + std::chrono::milliseconds(1250));
    const auto& d = session.clock_drift();
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->shown[BLACK], 298750);  // 1,250 ms after the move's figures
    EXPECT_EQ(d->server[BLACK], 299000);
    EXPECT_EQ(d->worst, 250);
    EXPECT_GE(d->round_trip_ms, 1000);  // sent just after t0, answered 1,250 ms after it
    EXPECT_LE(d->round_trip_ms, 1250);
}

// A request the server refuses waits for no answer: "waiting for bob's answer" must not stay
// on screen (nor its button stay greyed) after "you have not moved yet".
TEST_F(SessionTest, ARefusedOfferWaitsForNoAnswer) {
    join_red_table();
    session.request_takeback();
    ASSERT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Takeback);
    proto::Error e;
    e.code = proto::ErrorCode::NothingToTakeBack;
    e.message = "you have not moved yet";
    e.request = "request_takeback";
    e.table = 7;
    feed(e);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);
    // "Your draw offer is still open": it still waits.
    session.offer_draw();
    e.code = proto::ErrorCode::OfferPending;
    e.request = "offer_draw";
    feed(e);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw);
    // Another request's refusal leaves it alone; a refused draw offer ends it.
    e.code = proto::ErrorCode::GameNotInProgress;
    e.request = "request_takeback";
    feed(e);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw);
    e.request = "offer_draw";
    feed(e);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);
}

// Our open offer can be withdrawn (the request names its kind) and is gone when the server
// says so; the opponent's withdrawn offer closes its dialog with a notice naming them.
TEST_F(SessionTest, OffersAreWithdrawn) {
    join_red_table({"h2e2", "h9g7"});
    session.take_outbox();
    session.withdraw_offer();
    EXPECT_TRUE(sent_types().empty()) << "no open offer: nothing to withdraw";
    session.offer_draw();
    session.take_outbox();
    session.withdraw_offer();
    const auto out = session.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    const auto d = proto::decode_client(std::string_view(out[0]).substr(0, out[0].size() - 1));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<proto::WithdrawOffer>(d.value()).offer, proto::OfferKind::Draw);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw) << "until the server confirms";
    feed(proto::OfferWithdrawn{7, RED, proto::OfferKind::Draw});
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);

    session.take_cues();
    feed(proto::TakebackRequested{7, BLACK});
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::Takeback);
    feed(proto::OfferWithdrawn{7, BLACK, proto::OfferKind::Takeback});
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);
    bool told = false;
    for (const Cue& c : session.take_cues())
        told |= c.kind == Cue::Kind::Notice && c.str == Str::TakebackWithdrawn && c.text == "AI";
    EXPECT_TRUE(told);
}

TEST_F(SessionTest, ANewGameThatSwapsColoursSaysSo) {
    join_red_table();
    session.take_cues();
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.name = "t7";
    s.table.red = proto::SeatInfo{"AI", 5, true};
    s.table.black = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Waiting;
    s.you = proto::Role::Black;
    feed(s);
    bool told = false;
    for (const Cue& c : session.take_cues()) told |= c.kind == Cue::Kind::Notice && c.str == Str::NowBlack;
    EXPECT_TRUE(told);
    EXPECT_EQ(state.table.board.seat(), BLACK);
}
