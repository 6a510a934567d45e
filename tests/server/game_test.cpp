// Whole games over real sockets: the referee, broadcasts, offers, new games, leaving.
#include "harness.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

struct Trio {
    std::unique_ptr<Client> red, black, spec;
    proto::TableId table = 0;
};

Trio seat_three(TestServer& s, const std::string& fen = "") {
    Trio t;
    t.red = Client::login(s.port(), "alice");
    t.red->send(proto::CreateTable{"duel", proto::Role::Red, fen});
    t.table = t.red->expect<proto::TableSnapshot>().table.id;
    t.black = Client::login(s.port(), "bob");
    t.black->send(proto::Join{t.table, proto::Role::Black});
    const auto snap = t.black->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.you, proto::Role::Black);
    t.spec = Client::login(s.port(), "carol");
    t.spec->send(proto::Join{t.table, proto::Role::Spectator});
    EXPECT_EQ(t.spec->expect<proto::TableSnapshot>().you, proto::Role::Spectator);
    t.red->until_pong();
    t.black->until_pong();
    t.spec->until_pong();
    return t;
}

TEST(Game, FullGameToCheckmateSeenBySpectator) {
    TestServer s;
    Trio t = seat_three(s);
    // A helpmate found by search: the red cannon mates on c9 (the advisor blocks e8).
    const std::vector<std::string> moves = {"b2b4", "a6a5", "b4c4", "f9e8", "c4c9"};
    Position pos;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        Client& mover = i % 2 == 0 ? *t.red : *t.black;
        mover.send(proto::MoveRequest{t.table, static_cast<int>(i), moves[i]});
        UndoInfo u;
        pos.do_move(Move(square_from_string(moves[i].substr(0, 2)), square_from_string(moves[i].substr(2, 2))), u);
        for (Client* c : {t.red.get(), t.black.get(), t.spec.get()}) {
            const auto mm = c->expect<proto::MoveMade>();
            const bool last = i + 1 == moves.size();
            EXPECT_EQ(mm.check, last);
            EXPECT_EQ(mm.capture, last);
            EXPECT_EQ(mm.ply, static_cast<int>(i + 1));
            EXPECT_EQ(mm.move, moves[i]);
            EXPECT_EQ(mm.fen, pos.fen());
            EXPECT_EQ(mm.by, i % 2 == 0 ? RED : BLACK);
        }
    }
    for (Client* c : {t.red.get(), t.black.get(), t.spec.get()}) {
        const auto go = c->expect<proto::GameOver>();
        EXPECT_EQ(go.result.outcome, Outcome::RedWins);
        EXPECT_EQ(go.result.reason, "checkmate");
        EXPECT_EQ(go.ply, 5);
    }
    // The final move was a checking capture, and nothing else is pending for the spectator.
    const auto rest = t.spec->until_pong();
    EXPECT_EQ(count_of<proto::MoveMade>(rest), 0);
    // After the game, moves are refused.
    t.black->send(proto::MoveRequest{t.table, 5, "a9a8"});
    t.black->expect_error(ErrorCode::GameNotInProgress);
}

TEST(Game, MoveCarriesNotationsAndFlags) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    const auto mm = t.spec->expect<proto::MoveMade>();
    EXPECT_EQ(mm.wxf, "C2.5");
    EXPECT_EQ(mm.chinese, "炮二平五");
    EXPECT_FALSE(mm.check);
    EXPECT_FALSE(mm.capture);
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    const auto mm2 = t.spec->expect<proto::MoveMade>();
    EXPECT_EQ(mm2.wxf, "H8+7");
    EXPECT_EQ(mm2.chinese, "马8进7");
    t.red->send(proto::MoveRequest{t.table, 2, "e2e6"});  // cannon takes the central pawn
    const auto mm3 = t.spec->expect<proto::MoveMade>();
    EXPECT_TRUE(mm3.capture);
    EXPECT_FALSE(mm3.check);  // no screen between e6 and the king
}

TEST(Game, RefereeRejectsWithDistinctCodesAndNoBroadcast) {
    TestServer s;
    auto red = Client::login(s.port(), "alice");
    red->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = red->expect<proto::TableSnapshot>().table.id;
    // Before an opponent sits, no game runs.
    red->send(proto::MoveRequest{table, 0, "h2e2"});
    red->expect_error(ErrorCode::GameNotInProgress);

    auto black = Client::login(s.port(), "bob");
    black->send(proto::Join{table, proto::Role::Black});
    black->expect<proto::TableSnapshot>();
    auto spec = Client::login(s.port(), "carol");
    spec->send(proto::Join{table, proto::Role::Spectator});
    spec->expect<proto::TableSnapshot>();
    red->until_pong();
    black->until_pong();
    spec->until_pong();

    spec->send(proto::MoveRequest{table, 0, "h2e2"});
    spec->expect_error(ErrorCode::NotSeated);
    black->send(proto::MoveRequest{table, 0, "h9g7"});
    black->expect_error(ErrorCode::NotYourTurn);
    red->send(proto::MoveRequest{table, 3, "h2e2"});
    red->expect_error(ErrorCode::WrongPly);
    red->send(proto::MoveRequest{table, 0, "a0a5"});  // the rook is blocked by its own pawn
    red->expect_error(ErrorCode::IllegalMove);
    red->send(proto::MoveRequest{table, 0, "e0e1x"});
    red->expect_error(ErrorCode::BadMoveText);
    red->send(proto::MoveRequest{table + 50, 0, "h2e2"});
    red->expect_error(ErrorCode::NoSuchTable);

    // Nothing reached anyone else, and the board is untouched: the first move is still ply 0.
    for (Client* c : {red.get(), black.get(), spec.get()}) {
        const auto got = c->until_pong();
        EXPECT_EQ(count_of<proto::MoveMade>(got), 0);
        EXPECT_EQ(count_of<proto::Error>(got), 0);
    }
    red->send(proto::MoveRequest{table, 0, "h2e2"});
    EXPECT_EQ(spec->expect<proto::MoveMade>().ply, 1);
    // A resent move (same ply) is refused, not doubled.
    red->send(proto::MoveRequest{table, 0, "h2e2"});
    red->expect_error(ErrorCode::NotYourTurn);
    EXPECT_EQ(count_of<proto::MoveMade>(spec->until_pong()), 0);
}

TEST(Game, TakebackFlow) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::RequestTakeback{t.table});
    t.red->expect_error(ErrorCode::NothingToTakeBack);
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect_ply(1);
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    t.red->expect_ply(2);

    // Declined: nothing changes.
    t.red->send(proto::RequestTakeback{t.table});
    EXPECT_EQ(t.black->expect<proto::TakebackRequested>().by, RED);
    t.red->send(proto::RequestTakeback{t.table});
    t.red->expect_error(ErrorCode::OfferPending);
    t.black->send(proto::AnswerTakeback{t.table, false});
    const auto no = t.spec->expect<proto::TakebackAnswered>();
    EXPECT_FALSE(no.accept);
    EXPECT_EQ(no.by, BLACK);
    t.black->send(proto::AnswerTakeback{t.table, true});
    t.black->expect_error(ErrorCode::NoOffer);

    // Accepted with Red to move: two plies go, Red moves again from the start.
    t.red->send(proto::RequestTakeback{t.table});
    t.black->expect<proto::TakebackRequested>();
    t.black->send(proto::AnswerTakeback{t.table, true});
    for (Client* c : {t.red.get(), t.black.get(), t.spec.get()}) {
        const auto tb = c->expect<proto::TakebackDone>();
        EXPECT_EQ(tb.plies, 2);
        EXPECT_EQ(tb.ply, 0);
        EXPECT_EQ(tb.fen, std::string(START_FEN));
    }
    t.red->send(proto::MoveRequest{t.table, 0, "b2e2"});
    EXPECT_EQ(t.spec->expect<proto::MoveMade>().move, "b2e2");

    // Requested by the side that just moved: one ply goes.
    t.red->send(proto::RequestTakeback{t.table});
    t.black->expect<proto::TakebackRequested>();
    t.black->send(proto::AnswerTakeback{t.table, true});
    const auto tb = t.spec->expect<proto::TakebackDone>();
    EXPECT_EQ(tb.plies, 1);
    EXPECT_EQ(tb.ply, 0);

    // An open request dies when the position changes.
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect_ply(1);
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    t.red->expect_ply(2);
    t.red->send(proto::MoveRequest{t.table, 2, "h0g2"});
    t.black->expect_ply(3);
    t.black->send(proto::RequestTakeback{t.table});
    t.red->expect<proto::TakebackRequested>();
    t.black->send(proto::MoveRequest{t.table, 3, "i9h9"});
    t.red->expect_ply(4);
    t.red->send(proto::AnswerTakeback{t.table, true});
    t.red->expect_error(ErrorCode::NoOffer);
}

TEST(Game, DrawOfferDeclinedThenAccepted) {
    TestServer s;
    Trio t = seat_three(s);
    t.spec->send(proto::OfferDraw{t.table});
    t.spec->expect_error(ErrorCode::NotSeated);
    t.red->send(proto::OfferDraw{t.table});
    EXPECT_EQ(t.black->expect<proto::DrawOffered>().by, RED);
    EXPECT_EQ(t.spec->expect<proto::DrawOffered>().by, RED);
    t.red->send(proto::OfferDraw{t.table});
    t.red->expect_error(ErrorCode::OfferPending);
    t.black->send(proto::AnswerDraw{t.table, false});
    EXPECT_FALSE(t.red->expect<proto::DrawAnswered>().accept);
    t.red->send(proto::AnswerDraw{t.table, true});
    t.red->expect_error(ErrorCode::NoOffer);

    t.black->send(proto::OfferDraw{t.table});
    t.red->expect<proto::DrawOffered>();
    t.red->send(proto::AnswerDraw{t.table, true});
    for (Client* c : {t.red.get(), t.black.get(), t.spec.get()}) {
        const auto go = c->expect<proto::GameOver>();
        EXPECT_EQ(go.result.outcome, Outcome::Draw);
        EXPECT_EQ(go.result.reason, "agreement");
    }
}

TEST(Game, ResignAndNewGameSwapsColours) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::NewGame{t.table});
    t.red->expect_error(ErrorCode::GameInProgress);
    t.black->send(proto::Resign{t.table});
    const auto go = t.spec->expect<proto::GameOver>();
    EXPECT_EQ(go.result.outcome, Outcome::RedWins);
    EXPECT_EQ(go.result.reason, "resignation");

    t.red->send(proto::NewGame{t.table});
    EXPECT_EQ(t.black->expect<proto::NewGameOffered>().by, RED);
    t.black->send(proto::NewGame{t.table});
    const auto a = t.red->expect<proto::TableSnapshot>();
    const auto b = t.black->expect<proto::TableSnapshot>();
    const auto c = t.spec->expect<proto::TableSnapshot>();
    EXPECT_EQ(a.you, proto::Role::Black);  // alice was Red
    EXPECT_EQ(b.you, proto::Role::Red);
    EXPECT_EQ(c.you, proto::Role::Spectator);
    EXPECT_EQ(c.ply, 0);
    ASSERT_TRUE(c.table.red.has_value());
    EXPECT_EQ(c.table.red->name, "bob");
    // Bob (now Red) opens.
    t.red->until_pong();
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.red->expect_error(ErrorCode::NotYourTurn);
    t.black->send(proto::MoveRequest{t.table, 0, "h2e2"});
    EXPECT_EQ(t.spec->expect<proto::MoveMade>().by, RED);
}

// Every kind of offer can be withdrawn by its maker before the answer: the whole table hears
// it, the opponent can no longer answer it, and only the maker can withdraw it.
TEST(Game, OffersAreWithdrawnByTheirMaker) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::WithdrawOffer{t.table, proto::OfferKind::Draw});
    t.red->expect_error(ErrorCode::NoOffer);
    t.red->send(proto::OfferDraw{t.table});
    t.black->expect<proto::DrawOffered>();
    t.black->send(proto::WithdrawOffer{t.table, proto::OfferKind::Draw});
    t.black->expect_error(ErrorCode::NoOffer);  // not bob's offer
    t.spec->send(proto::WithdrawOffer{t.table, proto::OfferKind::Draw});
    t.spec->expect_error(ErrorCode::NotSeated);
    t.red->send(proto::WithdrawOffer{t.table, proto::OfferKind::Draw});
    for (Client* c : {t.red.get(), t.black.get(), t.spec.get()}) {
        const auto w = c->expect<proto::OfferWithdrawn>();
        EXPECT_EQ(w.by, RED);
        EXPECT_EQ(w.offer, proto::OfferKind::Draw);
    }
    t.black->send(proto::AnswerDraw{t.table, true});
    t.black->expect_error(ErrorCode::NoOffer);
    // A new offer after the withdrawal is an ordinary offer again.
    t.red->send(proto::OfferDraw{t.table});
    t.black->expect<proto::DrawOffered>();
    t.black->send(proto::AnswerDraw{t.table, false});
    t.red->expect<proto::DrawAnswered>();

    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect_ply(1);
    t.red->send(proto::RequestTakeback{t.table});
    t.black->expect<proto::TakebackRequested>();
    t.red->send(proto::WithdrawOffer{t.table, proto::OfferKind::Takeback});
    EXPECT_EQ(t.black->expect<proto::OfferWithdrawn>().offer, proto::OfferKind::Takeback);
    t.black->send(proto::AnswerTakeback{t.table, true});
    t.black->expect_error(ErrorCode::NoOffer);

    t.black->send(proto::Resign{t.table});
    t.spec->expect<proto::GameOver>();
    t.red->send(proto::NewGame{t.table});
    t.black->expect<proto::NewGameOffered>();
    EXPECT_EQ(t.red->expect<proto::NewGameOffered>().by, RED);  // the table hears it, alice too
    t.red->send(proto::WithdrawOffer{t.table, proto::OfferKind::NewGame});
    EXPECT_EQ(t.spec->expect<proto::OfferWithdrawn>().offer, proto::OfferKind::NewGame);
    // Bob's new_game is now an offer of his own, not the acceptance of alice's.
    t.black->send(proto::NewGame{t.table});
    EXPECT_EQ(t.red->expect<proto::NewGameOffered>().by, BLACK);
    // Against a human the colour cannot be chosen.
    t.red->send(proto::NewGame{t.table, RED});
    t.red->expect_error(ErrorCode::NotAllowed);
}

// Against the AI the player picks the next game's colour; without a choice they swap.
TEST(Game, NewGameAgainstTheAiTakesTheChosenColour) {
    TestServer s;
    auto human = Client::login(s.port(), "alice");
    human->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = human->expect<proto::TableSnapshot>().table.id;
    human->send(proto::RequestAi{table, BLACK, 1});
    human->until_pong();
    human->send(proto::Resign{table});
    human->expect<proto::GameOver>();
    human->send(proto::NewGame{table, RED});
    EXPECT_EQ(human->expect<proto::TableSnapshot>().you, proto::Role::Red) << "kept red as asked";
    human->until_pong();
    human->send(proto::Resign{table});
    human->expect<proto::GameOver>();
    human->send(proto::NewGame{table, BLACK});
    const auto snap = human->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.you, proto::Role::Black);
    ASSERT_TRUE(snap.table.red.has_value());
    EXPECT_EQ(snap.table.red->ai_level, 1);
    human->expect<proto::MoveMade>(30000ms);  // the AI opens as Red
    human->send(proto::Resign{table});
    human->expect<proto::GameOver>();
    human->send(proto::NewGame{table});
    EXPECT_EQ(human->expect<proto::TableSnapshot>().you, proto::Role::Red) << "no choice: the colours swap";
}

TEST(Game, LeavingASeatMidGameResignsAndDisconnectIsAnnounced) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::Leave{t.table});
    t.red->expect<proto::LeftTable>();
    const auto go = t.spec->expect<proto::GameOver>();
    EXPECT_EQ(go.result.outcome, Outcome::BlackWins);
    const auto pl = t.spec->expect<proto::PlayerLeft>();
    EXPECT_EQ(pl.name, "alice");
    EXPECT_EQ(pl.reason, proto::LeaveReason::Left);

    // A new player takes the free seat; the game restarts on request.
    auto dave = Client::login(s.port(), "dave");
    dave->send(proto::Join{t.table, proto::Role::Red});
    EXPECT_TRUE(dave->expect<proto::TableSnapshot>().result.has_value());
    dave->send(proto::NewGame{t.table});
    t.black->expect<proto::NewGameOffered>();
    t.black->send(proto::NewGame{t.table});
    EXPECT_EQ(dave->expect<proto::TableSnapshot>().you, proto::Role::Black);
    t.black->until_pong();
    t.spec->until_pong();

    // Dropping the connection mid-game: the table hears at once.
    dave.reset();
    const auto gone = t.spec->expect<proto::PlayerLeft>();
    EXPECT_EQ(gone.name, "dave");
    EXPECT_EQ(gone.reason, proto::LeaveReason::Disconnected);
}

TEST(Game, DisconnectedPlayerReclaimsSeatWithResumeToken) {
    TestServer s;
    Trio t = seat_three(s);
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect<proto::MoveMade>();
    const std::string token = t.red->welcome.resume_token;
    EXPECT_EQ(token.size(), 32u);
    t.red.reset();
    t.black->expect<proto::PlayerLeft>();
    // The name stays reserved while the seat waits.
    auto impostor = std::make_unique<Client>(s.port());
    impostor->send(proto::Hello{"alice", 1, ""});
    impostor->expect_error(ErrorCode::NameTaken);

    auto back = std::make_unique<Client>(s.port());
    back->send(proto::Hello{"alice", 1, token});
    const auto w = back->expect<proto::Welcome>();
    EXPECT_TRUE(w.resumed);
    const auto snap = back->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.you, proto::Role::Red);
    EXPECT_EQ(snap.ply, 1);
    EXPECT_EQ(t.black->expect<proto::PlayerReturned>().name, "alice");
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    back->expect<proto::MoveMade>();
    back->send(proto::MoveRequest{t.table, 2, "h0g2"});
    EXPECT_EQ(t.spec->expect<proto::MoveMade>().ply, 1);  // seen before the drop
    EXPECT_EQ(t.spec->expect<proto::MoveMade>().ply, 2);
    EXPECT_EQ(t.spec->expect<proto::MoveMade>().ply, 3);
}

TEST(Game, AbandonmentAfterTheGraceIsClaimed) {
    auto cfg = test_config();
    cfg.seat_grace = std::chrono::milliseconds(200);
    TestServer s(cfg);
    Trio t = seat_three(s);
    t.black.reset();
    EXPECT_EQ(t.red->expect<proto::PlayerLeft>().grace_ms, std::optional<std::int64_t>(200));
    // The grace runs out: no automatic loss, the seat is abandoned and Red may claim.
    const auto ab = t.red->expect<proto::SeatAbandoned>(3000ms);
    EXPECT_EQ(ab.seat, BLACK);
    EXPECT_TRUE(ab.claimable);
    t.red->send(proto::ClaimWin{t.table});
    const auto go = t.red->expect<proto::GameOver>(3000ms);
    EXPECT_EQ(go.result.outcome, Outcome::RedWins);
    EXPECT_EQ(go.result.reason, "abandonment");
}

TEST(Game, InvitationJoinsTheInvitee) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = alice->expect<proto::TableSnapshot>().table.id;
    auto bob = Client::login(s.port(), "bob");
    alice->send(proto::Invite{table, "nobody", std::nullopt});
    alice->expect_error(ErrorCode::NoSuchUser);
    alice->send(proto::Invite{table, "alice", std::nullopt});
    alice->expect_error(ErrorCode::NotAllowed);
    alice->send(proto::Invite{table, "bob", std::nullopt});
    const auto inv = bob->expect<proto::InviteReceived>();
    EXPECT_EQ(inv.from, "alice");
    EXPECT_EQ(inv.as, proto::Role::Black);
    bob->send(proto::AnswerInvite{table, "carol", true});
    bob->expect_error(ErrorCode::NoOffer);
    bob->send(proto::AnswerInvite{table, "alice", true});
    EXPECT_EQ(bob->expect<proto::TableSnapshot>().you, proto::Role::Black);
    const auto ans = alice->expect<proto::InviteAnswered>();
    EXPECT_TRUE(ans.accept);
    EXPECT_EQ(ans.name, "bob");
    alice->send(proto::MoveRequest{table, 0, "h2e2"});
    bob->expect<proto::MoveMade>();
}

TEST(Game, LobbyHearsOfTablesAndUsers) {
    TestServer s;
    auto watcher = Client::login(s.port(), "watcher");
    auto alice = Client::login(s.port(), "alice");
    EXPECT_EQ(watcher->expect<proto::UserJoined>().name, "alice");
    alice->send(proto::CreateTable{"Room 1", proto::Role::Red, ""});
    alice->expect<proto::TableSnapshot>();
    const auto upd = watcher->expect<proto::TableUpdate>();
    EXPECT_EQ(upd.table.name, "Room 1");
    ASSERT_TRUE(upd.table.red.has_value());
    watcher->send(proto::ListTables{});
    const auto list = watcher->expect<proto::Tables>();
    ASSERT_EQ(list.tables.size(), 1u);
    EXPECT_EQ(list.tables[0].status, proto::TableStatus::Waiting);
    alice->send(proto::Leave{upd.table.id});
    alice->expect<proto::LeftTable>();
    EXPECT_EQ(watcher->expect<proto::TableRemoved>().table, upd.table.id);
    alice.reset();
    EXPECT_EQ(watcher->expect<proto::UserLeft>().name, "alice");
}

TEST(Game, CustomStartPositionAndBadFen) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"", proto::Role::Red, "not a fen"});
    EXPECT_EQ(alice->expect_error(ErrorCode::BadFen).detail, "bad_rank_count");
    // The detail names the problem (protocol/errors.h), for the client's own words.
    alice->send(proto::CreateTable{"", proto::Role::Red, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 x"});
    EXPECT_EQ(alice->expect_error(ErrorCode::BadFen).detail, "trailing_garbage");
    alice->send(proto::CreateTable{"", proto::Role::Red, "4k4/9/9/9/9/9/9/9/9/9 w - - 0 1"});
    EXPECT_EQ(alice->expect_error(ErrorCode::BadFen).detail, "missing_king");
    const std::string fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    alice->send(proto::CreateTable{"", proto::Role::Red, fen});
    const auto snap = alice->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.start_fen, fen);
    EXPECT_EQ(snap.fen, fen);
}

}  // namespace
}  // namespace xq::test
