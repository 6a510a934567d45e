// Registered accounts over the wire (issue #15): register, login in hello, change_password,
// a registered name refused to guests, --accounts off/optional/required, the operator's
// account commands, logins surviving a restart, wrong-password lockout, and password hashes
// that never hold up the I/O thread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <cmath>
#include <future>
#include <map>
#include <string>

#include "harness.h"
#include "server/identity/account_service.h"
#include "server/identity/glicko2.h"

namespace xq::test {
namespace {

using proto::ErrorCode;
using server::AccountService;
using server::AccountStore;
using server::Lobby;

// A database file of its own per test, removed after.
class AccountsWire : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("xq_accounts_wire_" + std::to_string(::getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // A server with accounts in this test's file (minimal Argon2id cost: tests only).
    std::unique_ptr<TestServer> start(server::ServerConfig c = test_config(),
                                      std::shared_ptr<AccountService>* keep = nullptr) {
        auto s = std::make_unique<TestServer>(c, false);
        std::string err;
        auto svc = AccountService::open(dir_ / "xiangqi.sqlite3", &err, AccountStore::Cost::Minimal);
        EXPECT_TRUE(svc) << err;
        s->on_server([&](server::Server& srv) {
            srv.lobby().set_accounts(svc);
            return 0;
        });
        if (keep) *keep = svc;
        return s;
    }

    std::filesystem::path dir_;
};

std::unique_ptr<Client> hello(std::uint16_t port, const std::string& name, const std::string& account_password) {
    auto c = std::make_unique<Client>(port);
    proto::Hello h{name, proto::PROTOCOL_VERSION, ""};
    h.account_password = account_password;
    c->send(h);
    return c;
}

// Logs in to an account; the lobby lines after welcome are consumed.
std::unique_ptr<Client> login(std::uint16_t port, const std::string& name, const std::string& password) {
    auto c = hello(port, name, password);
    c->welcome = c->expect<proto::Welcome>();
    c->expect<proto::Tables>();
    c->expect<proto::Users>();
    return c;
}

// The hello is refused with `code` and the connection closed.
void refused(std::uint16_t port, const std::string& name, const std::string& password, ErrorCode code) {
    auto c = hello(port, name, password);
    c->expect_error(code);
    EXPECT_TRUE(c->wait_closed()) << name;
}

std::string operator_says(TestServer& s, Lobby::AccountCommand cmd, const std::string& name) {
    std::promise<std::string> p;
    s.on_server([&](server::Server& srv) {
        srv.lobby().admin_account(cmd, name, [&](std::string text) { p.set_value(std::move(text)); });
        return 0;
    });
    return p.get_future().get();
}

TEST_F(AccountsWire, ARegisteredNameIsItsOwnersOnly) {
    auto s = start();
    {
        auto alice = Client::login(s->port(), "alice");
        EXPECT_FALSE(alice->welcome.account);
        alice->send(proto::Register{"correct horse"});
        EXPECT_EQ(alice->expect<proto::Registered>().name, "alice");
        // Registered once is enough.
        alice->send(proto::Register{"another horse"});
        alice->expect_error(ErrorCode::NotAllowed);
    }
    // The guest's name is gone with its connection: the account now holds it.
    for (const char* name : {"alice", "ALICE", "AIice"})
        refused(s->port(), name, "", ErrorCode::AccountRequired);
    refused(s->port(), "alice", "correct horsE", ErrorCode::BadLogin);
    refused(s->port(), "bob", "correct horse", ErrorCode::BadLogin);  // no such account
    auto alice = login(s->port(), "ALICE", "correct horse");
    EXPECT_TRUE(alice->welcome.account);
    EXPECT_EQ(alice->welcome.name, "alice");  // the account's spelling
    // Logged in twice: the second is name_taken, as for any name in use.
    refused(s->port(), "alice", "correct horse", ErrorCode::NameTaken);
}

TEST_F(AccountsWire, PasswordsHaveLimitsAndCanBeChanged) {
    auto s = start();
    auto bob = Client::login(s->port(), "bob");
    bob->send(proto::Register{"short"});
    bob->expect_error(ErrorCode::WeakPassword);
    bob->send(proto::Register{std::string(proto::MAX_ACCOUNT_PASSWORD_BYTES + 1, 'x')});
    bob->expect_error(ErrorCode::WeakPassword);
    bob->send(proto::ChangePassword{"whatever1", "whatever2"});
    bob->expect_error(ErrorCode::NotAllowed);  // a guest has no password to change
    bob->send(proto::Register{"first password"});
    bob->expect<proto::Registered>();
    bob->send(proto::ChangePassword{"wrong password", "second password"});
    bob->expect_error(ErrorCode::BadLogin);  // the connection stays
    bob->send(proto::ChangePassword{"first password", "tiny"});
    bob->expect_error(ErrorCode::WeakPassword);
    bob->send(proto::ChangePassword{"first password", "second password"});
    bob->expect<proto::PasswordChanged>();
    bob.reset();
    refused(s->port(), "bob", "first password", ErrorCode::BadLogin);
    EXPECT_TRUE(login(s->port(), "bob", "second password")->welcome.account);
}

TEST_F(AccountsWire, AccountsSurviveARestart) {
    {
        auto s = start();
        auto carol = Client::login(s->port(), "carol");
        carol->send(proto::Register{"carol's secret"});
        carol->expect<proto::Registered>();
    }
    auto s = start();
    refused(s->port(), "carol", "", ErrorCode::AccountRequired);
    EXPECT_TRUE(login(s->port(), "carol", "carol's secret")->welcome.account);
}

TEST_F(AccountsWire, OffAndRequiredModes) {
    {
        auto c = test_config();
        c.accounts = server::AccountsMode::Off;
        auto s = start(c);
        auto dave = Client::login(s->port(), "dave");
        dave->send(proto::Register{"dave's secret"});
        dave->expect_error(ErrorCode::NotAllowed);
        EXPECT_EQ(operator_says(*s, Lobby::AccountCommand::List, ""), "this server has no accounts (--accounts off)\n");
    }
    auto c = test_config();
    c.accounts = server::AccountsMode::Required;
    auto s = start(c);
    refused(s->port(), "erin", "", ErrorCode::AccountRequired);
    // The operator creates the account and reads its password out.
    const std::string said = operator_says(*s, Lobby::AccountCommand::Add, "erin");
    const std::string marker = "its password: ";
    ASSERT_NE(said.find(marker), std::string::npos) << said;
    std::string password = said.substr(said.find(marker) + marker.size());
    password.pop_back();  // the newline
    EXPECT_TRUE(login(s->port(), "erin", password)->welcome.account);
    EXPECT_NE(operator_says(*s, Lobby::AccountCommand::Add, "ERIN").find("registered already"), std::string::npos);
    EXPECT_NE(operator_says(*s, Lobby::AccountCommand::List, "").find("1 account(s)\n  erin  rating 1500"),
              std::string::npos);
}

TEST_F(AccountsWire, TheOperatorResetsBansAndDeletes) {
    auto s = start();
    {
        auto frank = Client::login(s->port(), "frank");
        frank->send(proto::Register{"frank's secret"});
        frank->expect<proto::Registered>();
        EXPECT_EQ(operator_says(*s, Lobby::AccountCommand::Ban, "Frank"), "account Frank banned\n");
        frank->expect_error(ErrorCode::Banned);  // the banned owner is cut at once
        EXPECT_TRUE(frank->wait_closed());
    }
    refused(s->port(), "frank", "frank's secret", ErrorCode::Banned);
    EXPECT_EQ(operator_says(*s, Lobby::AccountCommand::Unban, "frank"), "account frank unbanned\n");
    const std::string said = operator_says(*s, Lobby::AccountCommand::Reset, "frank");
    const std::string marker = "reset to: ";
    ASSERT_NE(said.find(marker), std::string::npos) << said;
    std::string password = said.substr(said.find(marker) + marker.size());
    password.pop_back();
    refused(s->port(), "frank", "frank's secret", ErrorCode::BadLogin);
    login(s->port(), "frank", password);
    EXPECT_EQ(operator_says(*s, Lobby::AccountCommand::Delete, "frank"), "account frank deleted\n");
    EXPECT_NE(operator_says(*s, Lobby::AccountCommand::Delete, "frank").find("no account"), std::string::npos);
    EXPECT_FALSE(Client::login(s->port(), "frank2")->welcome.account);
}

TEST_F(AccountsWire, WrongPasswordsLockTheAddressOut) {
    auto c = test_config();
    c.login_max_failures = 2;
    auto s = start(c);
    {
        auto gina = Client::login(s->port(), "gina");
        gina->send(proto::Register{"gina's secret"});
        gina->expect<proto::Registered>();
    }
    refused(s->port(), "gina", "guess one", ErrorCode::BadLogin);
    auto second = hello(s->port(), "gina", "guess two");
    EXPECT_NE(second->expect_error(ErrorCode::BadLogin).message.find("refused for"), std::string::npos);
    // Now even the right password waits for the lockout.
    auto right = hello(s->port(), "gina", "gina's secret");
    EXPECT_NE(right->expect_error(ErrorCode::BadLogin).message.find("try again in"), std::string::npos);
}

// Issue #15 point 4: the creator's rights (request_ai as a spectator) follow the account or
// session, never the bare name: a guest who connects under the creator's name after the
// creator left gets none; the creator's account logging in again has them back.
TEST_F(AccountsWire, CreatorRightsFollowTheAccountNotTheName) {
    auto s = std::make_unique<TestServer>(test_config(), true);
    std::string err;
    auto svc = AccountService::open(dir_ / "xiangqi.sqlite3", &err, AccountStore::Cost::Minimal);
    ASSERT_TRUE(svc) << err;
    s->on_server([&](server::Server& srv) {
        srv.lobby().set_accounts(svc);
        return 0;
    });
    auto bob = Client::login(s->port(), "bob");
    proto::TableId account_table = 0;
    {
        auto alice = Client::login(s->port(), "alice");
        alice->send(proto::Register{"alice's secret"});
        alice->expect<proto::Registered>();
        alice->send(proto::CreateTable{"account's", proto::Role::Spectator});
        account_table = alice->expect<proto::TableSnapshot>().table.id;
        // bob keeps both tables alive (a table goes when no connected human is at it).
        bob->send(proto::Join{account_table, proto::Role::Red});
        bob->expect<proto::TableSnapshot>();
    }
    // A guest creator's table, kept alive by dave.
    auto carol = Client::login(s->port(), "carol");
    carol->send(proto::CreateTable{"carol's", proto::Role::Spectator});
    const proto::TableId carol_table = carol->expect<proto::TableSnapshot>().table.id;
    auto dave = Client::login(s->port(), "dave");
    dave->send(proto::Join{carol_table, proto::Role::Red});
    dave->expect<proto::TableSnapshot>();
    carol.reset();
    // An impostor takes the guest creator's name once it is free.
    std::unique_ptr<Client> impostor;
    for (int i = 0; i < 50 && !impostor; ++i) {
        auto c2 = std::make_unique<Client>(s->port());
        c2->send(proto::Hello{"carol", proto::PROTOCOL_VERSION, ""});
        auto m = c2->next();
        if (m && std::holds_alternative<proto::Welcome>(*m)) impostor = std::move(c2);
        else std::this_thread::sleep_for(20ms);  // the old connection's close is still on its way
    }
    ASSERT_TRUE(impostor);
    impostor->send(proto::Join{carol_table, proto::Role::Spectator});
    impostor->expect<proto::TableSnapshot>();
    impostor->send(proto::RequestAi{carol_table, BLACK, 1});
    impostor->expect_error(ErrorCode::NotAllowed);
    // The account's owner, logged in again (a new session, no resume), keeps the rights.
    auto alice = login(s->port(), "alice", "alice's secret");
    alice->send(proto::Join{account_table, proto::Role::Spectator});
    alice->expect<proto::TableSnapshot>();
    alice->send(proto::RequestAi{account_table, BLACK, 1});
    proto::PlayerJoined joined = alice->expect<proto::PlayerJoined>();
    if (joined.name == "alice") joined = alice->expect<proto::PlayerJoined>();  // her own arrival first
    EXPECT_EQ(joined.ai_level, 1);
}

// Ratings (issue #15): a rated table (two registered players and a clock) updates both
// players' Glicko-2 ratings after the game; they show in users, welcome and the seats, and
// stay in the database. Guests and AIs cannot sit at a rated table.
TEST_F(AccountsWire, ARatedGameMovesBothRatingsByGlicko2) {
    std::shared_ptr<AccountService> svc;
    auto s = start(test_config(), &svc);
    auto alice = Client::login(s->port(), "alice");
    alice->send(proto::Register{"alice's secret"});
    alice->expect<proto::Registered>();
    auto bob = Client::login(s->port(), "bob");
    bob->send(proto::Register{"bob's secret"});
    bob->expect<proto::Registered>();
    auto guest = Client::login(s->port(), "carol");

    proto::TableSettings rated;
    rated.rated = true;
    alice->send(proto::CreateTable{"no clock", proto::Role::Red, "", rated});
    alice->expect_error(ErrorCode::BadSettings);  // a rated game needs a clock
    rated.clock = "fischer:300+5";
    guest->send(proto::CreateTable{"guest", proto::Role::Red, "", rated});
    guest->expect_error(ErrorCode::NotAllowed);
    // A handicap or set-up position is never rated; the standard start written out is.
    alice->send(proto::CreateTable{"handicap", proto::Role::Red,
                                   "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w", rated});
    EXPECT_NE(alice->expect_error(ErrorCode::NotAllowed).message.find("standard"), std::string::npos);
    alice->send(proto::CreateTable{"rated", proto::Role::Red, std::string(START_FEN), rated});
    const auto snap = alice->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.settings.rated, std::optional<bool>(true));
    ASSERT_TRUE(snap.table.red);
    EXPECT_EQ(snap.table.red->rating, std::optional<int>(1500));
    const proto::TableId table = snap.table.id;
    alice->send(proto::RequestAi{table, BLACK, 1});
    EXPECT_NE(alice->expect_error(ErrorCode::NotAllowed).message.find("rated"), std::string::npos);  // AI games are unrated
    guest->send(proto::Join{table, proto::Role::Black});
    guest->expect_error(ErrorCode::NotAllowed);
    bob->send(proto::Join{table, proto::Role::Black});
    bob->expect<proto::TableSnapshot>();
    alice->send(proto::Resign{table});
    EXPECT_EQ(bob->expect<proto::GameOver>().result.outcome, Outcome::BlackWins);

    const server::Glicko2Rating fresh;
    const auto winner = server::glicko2_update(fresh, {{1500.0, 350.0, 1.0}});
    const auto loser = server::glicko2_update(fresh, {{1500.0, 350.0, 0.0}});
    guest->send(proto::ListUsers{});
    std::map<std::string, std::optional<int>> shown;
    for (const auto& u : guest->expect<proto::Users>().users) shown[u.name] = u.rating;
    EXPECT_EQ(shown["alice"], std::optional<int>(static_cast<int>(std::lround(loser.rating))));
    EXPECT_EQ(shown["bob"], std::optional<int>(static_cast<int>(std::lround(winner.rating))));
    EXPECT_EQ(shown["carol"], std::nullopt);  // guests have no rating
    EXPECT_GT(winner.rating, 1600.0);  // a first win against an equal moves a lot (RD 350)

    // Kept in the database (written on the worker), with a history line per game.
    alice.reset();
    bob.reset();
    guest->until_pong();
    for (int i = 0; i < 100; ++i) {
        const auto n = svc->call([](AccountStore& st) { return st.find("bob")->rated_games; });
        if (n == 1) break;
        std::this_thread::sleep_for(10ms);
    }
    const auto stored = svc->call([](AccountStore& st) { return *st.find("bob"); });
    EXPECT_NEAR(stored.rating, winner.rating, 1e-6);
    EXPECT_NEAR(stored.rd, winner.rd, 1e-6);
    EXPECT_EQ(svc->call([&](AccountStore& st) { return st.rating_history(stored.id).size(); }), 1u);
    auto again = login(s->port(), "bob", "bob's secret");
    EXPECT_EQ(again->welcome.rating, std::optional<int>(static_cast<int>(std::lround(winner.rating))));
    EXPECT_EQ(again->welcome.rating_rd, std::optional<int>(static_cast<int>(std::lround(winner.rd))));
    // The lobby hears the login with the rating; a guest's login comes without one.
    const auto joined = guest->expect<proto::UserJoined>();
    EXPECT_EQ(joined.name, "bob");
    EXPECT_EQ(joined.rating, std::optional<int>(static_cast<int>(std::lround(winner.rating))));
    auto dave = Client::login(s->port(), "dave");
    const auto guest_joined = guest->expect<proto::UserJoined>();
    EXPECT_EQ(guest_joined.name, "dave");
    EXPECT_EQ(guest_joined.rating, std::nullopt);
    svc.reset();
}

// A tournament whose table settings say rated: its games are rated like any rated table's,
// so it admits registered players only, and no AI entrants.
TEST_F(AccountsWire, ARatedTournamentRatesItsGames) {
    auto s = start();
    auto alice = Client::login(s->port(), "alice");
    alice->send(proto::Register{"alice's secret"});
    alice->expect<proto::Registered>();
    auto bob = Client::login(s->port(), "bob");
    bob->send(proto::Register{"bob's secret"});
    bob->expect<proto::Registered>();
    auto guest = Client::login(s->port(), "carol");

    proto::CreateTournament create;
    create.settings.clock = "fischer:300+5";
    create.settings.rated = true;
    create.ai = {proto::AiEntrant{3}};
    alice->send(create);
    alice->expect_error(ErrorCode::BadSettings);
    create.ai.clear();
    alice->send(create);
    const auto id = alice->expect<proto::Tournament>().id;
    guest->send(proto::JoinTournament{id});
    EXPECT_NE(guest->expect_error(ErrorCode::NotAllowed).message.find("registered"), std::string::npos);
    alice->send(proto::JoinTournament{id});
    bob->send(proto::JoinTournament{id});
    bob->until_pong();
    alice->send(proto::StartTournament{id});
    proto::Tournament t;
    do t = alice->expect<proto::Tournament>();
    while (t.state != proto::TournamentState::Running && !::testing::Test::HasFailure());
    ASSERT_EQ(t.boards.size(), 1u);
    const proto::TableId table = t.boards[0].table;
    bob->until_pong();
    alice->until_pong();
    // Seated by the desk with their ratings shown.
    guest->send(proto::Join{table, proto::Role::Spectator});
    const auto snap = guest->expect<proto::TableSnapshot>();
    ASSERT_TRUE(snap.table.red && snap.table.black);
    EXPECT_EQ(snap.table.red->rating, std::optional<int>(1500));
    EXPECT_EQ(snap.table.black->rating, std::optional<int>(1500));
    const bool alice_red = snap.table.red->name == "alice";
    alice->send(proto::Resign{table});
    EXPECT_EQ(guest->expect<proto::GameOver>().result.outcome, alice_red ? Outcome::BlackWins : Outcome::RedWins);

    const auto winner = server::glicko2_update(server::Glicko2Rating{}, {{1500.0, 350.0, 1.0}});
    guest->send(proto::ListUsers{});
    std::map<std::string, std::optional<int>> shown;
    for (const auto& u : guest->expect<proto::Users>().users) shown[u.name] = u.rating;
    EXPECT_EQ(shown["bob"], std::optional<int>(static_cast<int>(std::lround(winner.rating))));
    EXPECT_LT(shown["alice"].value_or(1500), 1500);
}

// The password check runs on the accounts worker: with that worker held up, a login waits
// (its pipelined request too) while another client is answered; then both complete in order.
TEST_F(AccountsWire, OthersAreAnsweredWhileAPasswordIsChecked) {
    std::shared_ptr<AccountService> svc;
    auto s = start(test_config(), &svc);
    {
        auto hank = Client::login(s->port(), "hank");
        hank->send(proto::Register{"hank's secret"});
        hank->expect<proto::Registered>();
    }
    std::promise<void> release;
    std::promise<void> holding;
    ASSERT_TRUE(svc->submit([gate = release.get_future().share(), &holding](AccountStore&) {
        holding.set_value();
        gate.wait();
    }));
    holding.get_future().wait();
    auto hank = hello(s->port(), "hank", "hank's secret");
    hank->send(proto::ListUsers{});
    auto other = Client::login(s->port(), "ivy");
    other->until_pong();  // answered while hank's check waits
    EXPECT_FALSE(hank->next(200ms)) << "hank was answered before the password check ran";
    release.set_value();
    EXPECT_TRUE(hank->expect<proto::Welcome>().account);
    hank->expect<proto::Tables>();
    hank->expect<proto::Users>();
    hank->expect<proto::Users>();  // the pipelined list_users, after the login
    svc.reset();
}

}  // namespace
}  // namespace xq::test
