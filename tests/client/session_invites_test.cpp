// The protocol session's invitations to us: kept while they can be taken up, retired by what
// the lobby's messages tell (the table closed, the offered seat taken, the inviter left the
// table or the server), waiting while we sit at a table and checked on our return.
#include <gtest/gtest.h>

#include "session_fixture.h"

using namespace xq;
using namespace xq::client;

namespace {

proto::TableInfo table_info(int id, const char* red, const char* black) {
    proto::TableInfo t;
    t.id = proto::TableId(id);
    t.name = "t" + std::to_string(id);
    if (*red) t.red = proto::SeatInfo{red, 0, true};
    if (*black) t.black = proto::SeatInfo{black, 0, true};
    return t;
}

proto::InviteReceived invite(int table, const char* from, proto::Role as) {
    proto::InviteReceived i;
    i.table = proto::TableId(table);
    i.from = from;
    i.table_name = "t" + std::to_string(table);
    i.as = as;
    return i;
}

}  // namespace

struct InvitesTest : SessionTest {
    // Welcomed as erin; the lobby has alice's table 3 (Red, Black free) and carol's 4 (Red).
    void SetUp() override {
        proto::Welcome w;
        w.name = "erin";
        feed(w);
        proto::Tables t;
        t.tables = {table_info(3, "alice", ""), table_info(4, "carol", "")};
        t.total = 2;
        feed(t);
        proto::Users u;
        u.users = {proto::UserInfo{"erin", 0}, proto::UserInfo{"alice", 3}, proto::UserInfo{"carol", 4}};
        u.total = 3;
        feed(u);
        session.take_outbox();
        session.take_cues();
    }
    std::vector<std::string> listed() const {
        std::vector<std::string> out;
        for (const Invitation& i : state.lobby.invitations) out.push_back(i.from + " " + std::to_string(i.table));
        return out;
    }
};

TEST_F(InvitesTest, SeveralWaitTheNewestIsAnsweredFirstAndARepeatReplaces) {
    feed(invite(3, "alice", proto::Role::Black));
    EXPECT_TRUE(has_cue(Cue::Kind::Invitation));
    feed(invite(4, "carol", proto::Role::Black));
    feed(invite(3, "alice", proto::Role::Spectator));  // alice again: one invitation of hers
    EXPECT_EQ(listed(), (std::vector<std::string>{"carol 4", "alice 3"}));
    EXPECT_FALSE(state.lobby.invitations.back().seat.has_value());
    session.answer_invite(false);
    const auto sent = session.take_outbox();
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_NE(sent[0].find(R"("from":"alice")"), std::string::npos) << sent[0];
    EXPECT_EQ(listed(), (std::vector<std::string>{"carol 4"}));
}

TEST_F(InvitesTest, AClosedTableOrATakenSeatRetiresTheInvitation) {
    feed(invite(3, "alice", proto::Role::Black));
    feed(invite(4, "carol", proto::Role::Black));
    feed(proto::TableRemoved{3});
    EXPECT_EQ(listed(), (std::vector<std::string>{"carol 4"}));
    // Someone else sat in the seat carol offered.
    feed(proto::TableUpdate{table_info(4, "carol", "dave")});
    EXPECT_TRUE(listed().empty());
}

TEST_F(InvitesTest, AnInvitationToWatchOutlivesAFullTableButNotItsInviter) {
    feed(invite(4, "carol", proto::Role::Spectator));
    feed(proto::TableUpdate{table_info(4, "carol", "dave")});
    EXPECT_EQ(listed(), (std::vector<std::string>{"carol 4"}));
    // carol left her seat (dave stays, the table lives on): hers is no longer an invitation.
    feed(proto::TableUpdate{table_info(4, "", "dave")});
    EXPECT_TRUE(listed().empty());
    // alice's invitation goes when she leaves the server.
    feed(invite(3, "alice", proto::Role::Black));
    feed(proto::UserLeft{"alice"});
    EXPECT_TRUE(listed().empty());
}

TEST_F(InvitesTest, AtATableInvitationsWaitAndAreCheckedOnOurReturn) {
    proto::TableSnapshot s;
    s.table = table_info(9, "erin", "");
    s.you = proto::Role::Red;
    feed(s);
    session.take_cues();
    feed(invite(3, "alice", proto::Role::Black));
    feed(invite(4, "carol", proto::Role::Black));
    feed(invite(5, "bob", proto::Role::Black));  // a table created while we sat: not in our list
    // No dialog cue at the table (the dialog waits for the lobby), but a word that they wait.
    const auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 3u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::Notice);
    EXPECT_EQ(cues[0].str, Str::InviteWaits);
    EXPECT_EQ(listed().size(), 3u);
    // Back in the lobby: the lists asked afresh, each in one page, retire what is gone.
    feed(proto::LeftTable{9});
    EXPECT_EQ(sent_types(), (std::vector<std::string>{"list_tables", "list_users"}));
    proto::Tables t;
    t.tables = {table_info(4, "carol", "dave"), table_info(5, "bob", "")};
    t.total = 2;
    feed(t);
    EXPECT_EQ(listed(), (std::vector<std::string>{"bob 5"}));  // table 3 closed, table 4's seat taken
    proto::Users u;
    u.users = {proto::UserInfo{"erin", 0}, proto::UserInfo{"carol", 4}};
    u.total = 2;
    feed(u);
    EXPECT_TRUE(listed().empty());  // bob left the server
}

TEST_F(InvitesTest, APartOfALongListRetiresNothingForWhatItLacks) {
    feed(invite(3, "alice", proto::Role::Black));
    proto::Tables t;
    t.tables = {table_info(4, "carol", "")};
    t.more = true;  // more lines of the page follow
    t.total = 150;
    feed(t);
    t.more = false;
    t.offset = 1;
    t.tables = {table_info(6, "fay", "")};
    feed(t);  // the first page of a longer list: table 3 may be on a later one
    proto::Users u;
    u.users = {proto::UserInfo{"erin", 0}};
    u.total = 300;
    feed(u);
    EXPECT_EQ(listed(), (std::vector<std::string>{"alice 3"}));
}

TEST_F(InvitesTest, ANewConnectionForgetsThemAsTheServerDid) {
    feed(invite(3, "alice", proto::Role::Black));
    proto::Welcome w;
    w.name = "erin";
    feed(w);
    EXPECT_TRUE(listed().empty());
}

TEST_F(InvitesTest, InvitingSomeoneWhoLeftTakesThemOffTheListAndAsksForItAgain) {
    session.invite("carol");
    session.take_outbox();
    proto::Error e;
    e.code = proto::ErrorCode::NoSuchUser;
    e.request = "invite";
    feed(e);
    for (const UserEntry& u : state.lobby.users) EXPECT_NE(u.name, "carol");
    EXPECT_EQ(sent_types(), std::vector<std::string>{"list_users"});
}
