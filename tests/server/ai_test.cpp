// AI seats over real sockets: whole games at level 1, AI versus AI, takebacks and offers.
#include "harness.h"

#include <random>

#include "server/ai/level_ratings.h"
#include "xiangqi/notation.h"

namespace xq::test {
namespace {

using proto::ErrorCode;

Move parse(const std::string& iccs) {
    return Move(square_from_string(iccs.substr(0, 2)), square_from_string(iccs.substr(2, 2)));
}

TEST(Ai, PlaysAWholeGameAtLevelOneWithOnlyLegalMoves) {
    TestServer s;
    auto human = Client::login(s.port(), "human");
    human->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = human->expect<proto::TableSnapshot>().table.id;
    human->until_pong();
    human->send(proto::RequestAi{table, BLACK, 1});
    const auto joined = human->expect<proto::PlayerJoined>();
    EXPECT_EQ(joined.ai_level, 1);
    EXPECT_EQ(joined.role, proto::Role::Black);

    std::mt19937 rng(7);
    Position pos;
    int ply = 0, progress = 0;
    bool over = false;
    proto::GameOver result;
    const auto deadline = std::chrono::steady_clock::now() + 150s;
    while (!over && std::chrono::steady_clock::now() < deadline) {
        MoveList legal;
        pos.generate_legal(legal);
        if (pos.side_to_move() == RED && !legal.empty()) {
            // A weak human: random legal moves, so the AI should win.
            const Move m = legal[static_cast<int>(rng() % static_cast<unsigned>(legal.size()))];
            human->send(proto::MoveRequest{table, ply, move_to_iccs(m)});
        }
        // Read until the next move (or the end).
        for (;;) {
            auto msg = human->next(30000ms);
            ASSERT_TRUE(msg != nullptr) << "no move from the server at ply " << ply;
            if (std::holds_alternative<proto::AiProgress>(*msg)) {
                const auto& p = std::get<proto::AiProgress>(*msg);
                EXPECT_EQ(p.seat, BLACK);
                EXPECT_GE(p.percent, 0);
                EXPECT_LE(p.percent, 100);
                ++progress;
                continue;
            }
            if (auto* e = std::get_if<proto::Error>(&*msg)) FAIL() << "error: " << e->message;
            if (auto* go = std::get_if<proto::GameOver>(&*msg)) {
                over = true;
                result = *go;
                break;
            }
            if (auto* mm = std::get_if<proto::MoveMade>(&*msg)) {
                MoveList legal;
                pos.generate_legal(legal);
                const Move m = parse(mm->move);
                ASSERT_TRUE(legal.contains(m)) << mm->move << " is not legal in " << pos.fen();
                UndoInfo u;
                pos.do_move(m, u);
                ++ply;
                ASSERT_EQ(mm->ply, ply);
                ASSERT_EQ(mm->fen, pos.fen());
                break;
            }
        }
    }
    ASSERT_TRUE(over) << "the game did not end in time (ply " << ply << ")";
    EXPECT_EQ(result.ply, ply);
    EXPECT_NE(result.result.outcome, Outcome::Ongoing);
    EXPECT_GT(progress, 0);
    EXPECT_GT(ply, 4);
}

TEST(Ai, ProgressCarriesALegalPrincipalVariation) {
    // Full strength (no depth or node cap) for 1.2 s: several progress lines, deep lines.
    auto config = test_config();
    config.ai_movetime_ms[10] = 1200;
    TestServer s(config);
    auto human = Client::login(s.port(), "human");
    // A middlegame no opening book knows, the AI (Red) to move: it must search.
    const std::string fen = "rnbakab1r/9/1c4nc1/2p1p1p1p/p8/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 0 1";
    Position pos;
    ASSERT_EQ(pos.set_fen(fen), FenError::None);
    human->send(proto::CreateTable{"", proto::Role::Black, fen});
    const auto table = human->expect<proto::TableSnapshot>().table.id;
    human->until_pong();
    human->send(proto::RequestAi{table, RED, 10});
    int lines = 0;
    std::size_t longest = 0;
    for (;;) {
        auto msg = human->next(30000ms);
        ASSERT_TRUE(msg != nullptr) << "no move from the AI";
        if (auto* e = std::get_if<proto::Error>(&*msg)) FAIL() << "error: " << e->message;
        if (std::holds_alternative<proto::MoveMade>(*msg)) break;
        auto* p = std::get_if<proto::AiProgress>(&*msg);
        if (!p) continue;
        ++lines;
        EXPECT_LE(p->pv.size(), proto::AI_PV_MAX);
        longest = std::max(longest, p->pv.size());
        // Every move of the line is legal where it would be played, starting from the board.
        Position line = pos;
        for (const auto& text : p->pv) {
            MoveList legal;
            line.generate_legal(legal);
            ASSERT_EQ(text.size(), 4u) << text;
            const Move m = parse(text);
            ASSERT_TRUE(legal.contains(m)) << text << " in the pv is not legal in " << line.fen();
            UndoInfo u;
            line.do_move(m, u);
        }
    }
    EXPECT_GT(lines, 2) << "too few ai_progress lines during a 1.2 s search";
    EXPECT_GE(longest, 2u) << "no ai_progress carried a principal variation of two moves or more";
}

TEST(Ai, AiVersusAiEndsAndASpectatorSeesIt) {
    TestServer s;
    auto creator = Client::login(s.port(), "director");
    // Two rooks against a bare king: the game must end (mate, or the move limit).
    const std::string fen = "4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1";
    creator->send(proto::CreateTable{"exhibition", proto::Role::Spectator, fen});
    const auto table = creator->expect<proto::TableSnapshot>().table.id;
    auto fan = Client::login(s.port(), "fan");
    fan->send(proto::Join{table, proto::Role::Spectator});
    fan->expect<proto::TableSnapshot>();
    fan->send(proto::RequestAi{table, RED, 1});
    fan->expect_error(ErrorCode::NotAllowed);  // not seated, not the creator
    creator->send(proto::RequestAi{table, RED, 1});
    creator->send(proto::RequestAi{table, BLACK, 1});

    Position pos;
    ASSERT_EQ(pos.set_fen(fen), FenError::None);
    int moves = 0;
    for (;;) {
        auto msg = fan->next(60000ms);
        ASSERT_TRUE(msg != nullptr) << "stalled after " << moves << " moves";
        if (auto* mm = std::get_if<proto::MoveMade>(&*msg)) {
            MoveList legal;
            pos.generate_legal(legal);
            ASSERT_TRUE(legal.contains(parse(mm->move)));
            UndoInfo u;
            pos.do_move(parse(mm->move), u);
            ++moves;
            EXPECT_EQ(mm->fen, pos.fen());
        } else if (auto* go = std::get_if<proto::GameOver>(&*msg)) {
            EXPECT_NE(go->result.outcome, Outcome::BlackWins);
            EXPECT_EQ(go->ply, moves);
            break;
        }
    }
    EXPECT_GT(moves, 0);
    // The creator starts the next exhibition game; the AIs swap colours and play on.
    creator->send(proto::NewGame{table});
    EXPECT_EQ(fan->expect<proto::TableSnapshot>().ply, 0);
    EXPECT_EQ(fan->expect<proto::MoveMade>(30000ms).ply, 1);
}

TEST(Ai, TakebackAgainstAiIsImmediateAndDrawIsDeclined) {
    TestServer s;
    auto human = Client::login(s.port(), "human");
    human->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = human->expect<proto::TableSnapshot>().table.id;
    human->send(proto::RequestAi{table, BLACK, 1});
    human->send(proto::MoveRequest{table, 0, "h2e2"});
    human->expect<proto::MoveMade>();
    const auto reply = human->expect<proto::MoveMade>(30000ms);
    EXPECT_EQ(reply.by, BLACK);

    human->send(proto::OfferDraw{table});
    human->expect<proto::DrawOffered>();
    EXPECT_FALSE(human->expect<proto::DrawAnswered>().accept);  // level position: the AI plays on

    human->send(proto::RequestTakeback{table});
    human->expect<proto::TakebackRequested>();
    const auto ans = human->expect<proto::TakebackAnswered>();
    EXPECT_TRUE(ans.accept);
    EXPECT_EQ(ans.by, BLACK);
    const auto tb = human->expect<proto::TakebackDone>();
    EXPECT_EQ(tb.plies, 2);
    EXPECT_EQ(tb.ply, 0);
    // Red moves again; the AI answers the new move.
    human->send(proto::MoveRequest{table, 0, "b2e2"});
    EXPECT_EQ(human->expect<proto::MoveMade>().move, "b2e2");
    EXPECT_EQ(human->expect<proto::MoveMade>(30000ms).ply, 2);
}

// Against the AI a player gets hints without any setting: the hint is a legal move of the
// position, and a spectator hears that it was taken (not the move).
TEST(Ai, HintsAgainstTheAiAreLegalAndAnnounced) {
    TestServer s;
    auto human = Client::login(s.port(), "human");
    human->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto snap = human->expect<proto::TableSnapshot>();
    EXPECT_FALSE(snap.table.settings.hints.has_value()) << "off by default";
    const auto table = snap.table.id;
    auto watcher = Client::login(s.port(), "watcher");
    watcher->send(proto::Join{table, proto::Role::Spectator});
    watcher->expect<proto::TableSnapshot>();
    human->send(proto::RequestHint{table});
    EXPECT_EQ(human->expect<proto::Error>().code, ErrorCode::NotAllowed) << "no AI opponent yet: hints are off";
    human->send(proto::RequestAi{table, BLACK, 1});
    human->expect<proto::PlayerJoined>();
    human->send(proto::RequestHint{table});
    const auto hint = human->expect<proto::Hint>(30000ms);
    EXPECT_EQ(hint.table, table);
    EXPECT_EQ(hint.ply, 0);
    EXPECT_GT(hint.depth, 0);
    Position start;
    ASSERT_EQ(start.set_fen(START_FEN), FenError::None);
    EXPECT_TRUE(parse_iccs(start, hint.move).ok()) << hint.move;
    const auto used = watcher->expect<proto::HintUsed>();
    EXPECT_EQ(used.side, RED);
    EXPECT_EQ(used.name, "human");
    EXPECT_EQ(used.ply, 0);
    EXPECT_EQ(human->expect<proto::HintUsed>().side, RED) << "the player hears it too";
    // The hint is played like any move; the AI answers.
    human->send(proto::MoveRequest{table, 0, hint.move});
    EXPECT_EQ(human->expect<proto::MoveMade>().move, hint.move);
    EXPECT_EQ(human->expect<proto::MoveMade>(30000ms).by, BLACK);
}

TEST(Ai, SeatRulesForRequestAi) {
    TestServer s;
    auto a = Client::login(s.port(), "a");
    a->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = a->expect<proto::TableSnapshot>().table.id;
    a->send(proto::RequestAi{table, RED, 3});
    a->expect_error(ErrorCode::SeatTaken);
    a->raw("{\"type\":\"request_ai\",\"table\":" + std::to_string(table) + ",\"seat\":\"black\",\"level\":11}\n");
    a->expect_error(ErrorCode::BadField);
    auto b = Client::login(s.port(), "b");
    b->send(proto::Join{table, proto::Role::Black});
    b->expect<proto::TableSnapshot>();
    a->send(proto::RequestAi{table, BLACK, 3});
    a->expect_error(ErrorCode::SeatTaken);
}


TEST(Ai, SeatsAndWelcomeCarryTheLevelsFixedRatings) {
    // The calibrated table (server/ai/level_ratings.cpp): ten ratings, rising with the level.
    const auto& table_of_ratings = server::ai_level_ratings();
    for (int l = 1; l < 10; ++l) EXPECT_LT(table_of_ratings[l - 1], table_of_ratings[l]) << "level " << l;
    EXPECT_EQ(server::ai_level_rating(5), table_of_ratings[4]);
    EXPECT_FALSE(server::ai_level_rating(0).has_value());
    EXPECT_FALSE(server::ai_level_rating(11).has_value());

    TestServer s;
    auto a = Client::login(s.port(), "a");
    EXPECT_EQ(a->welcome.ai_ratings, std::vector<int>(table_of_ratings.begin(), table_of_ratings.end()));
    auto watcher = Client::login(s.port(), "watcher");
    a->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = a->expect<proto::TableSnapshot>().table.id;
    a->send(proto::RequestAi{table, BLACK, 3});
    a->expect<proto::PlayerJoined>();
    // The lobby's table line shows the AI seat with level 3's rating; the human has none.
    for (;;) {
        const auto update = watcher->expect<proto::TableUpdate>();
        if (!update.table.black) continue;
        EXPECT_EQ(update.table.black->ai_level, 3);
        EXPECT_EQ(update.table.black->rating, server::ai_level_rating(3));
        ASSERT_TRUE(update.table.red.has_value());
        EXPECT_FALSE(update.table.red->rating.has_value());
        break;
    }
}

}  // namespace
}  // namespace xq::test
