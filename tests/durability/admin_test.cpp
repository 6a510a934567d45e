// Operator console parsing, bans, connection caps and the password check.
#include <gtest/gtest.h>

#include "server/admin/admin_command.h"
#include "server/admin/ban_list.h"
#include "server/admin/password_guard.h"
#include "server/net/admission.h"

using namespace xq::server;
using K = AdminCommand::Kind;

TEST(AdminCommand, ParsesEveryCommand) {
    auto k = [](std::string_view line) {
        std::string err;
        auto c = parse_admin_command(line, &err);
        EXPECT_TRUE(c) << line << ": " << err;
        return c ? c->kind : K::Help;
    };
    EXPECT_EQ(k("help"), K::Help);
    EXPECT_EQ(k("  list  "), K::List);
    EXPECT_EQ(k("tables"), K::Tables);
    EXPECT_EQ(k("bans"), K::Bans);
    EXPECT_EQ(k("shutdown"), K::Shutdown);
    EXPECT_EQ(k("quit\r\n"), K::Shutdown);

    auto kick = parse_admin_command("kick ann");
    ASSERT_TRUE(kick);
    EXPECT_EQ(kick->kind, K::Kick);
    EXPECT_EQ(kick->target, "ann");
    EXPECT_FALSE(kick->target_is_ip);

    auto ban = parse_admin_command("ban 127.0.0.9");
    ASSERT_TRUE(ban);
    EXPECT_EQ(ban->kind, K::Ban);
    EXPECT_TRUE(ban->target_is_ip);
    auto ban6 = parse_admin_command("ban ::1");
    ASSERT_TRUE(ban6);
    EXPECT_TRUE(ban6->target_is_ip);

    auto say = parse_admin_command("say  server restarts at 22:00 ");
    ASSERT_TRUE(say);
    EXPECT_EQ(say->kind, K::Broadcast);
    EXPECT_EQ(say->target, "server restarts at 22:00");
    EXPECT_NE(admin_help().find("broadcast"), std::string::npos);

    EXPECT_EQ(k("accounts"), K::Accounts);
    for (auto [line, kind] : {std::pair{"account add Li Wei", K::AccountAdd}, std::pair{"account reset Li Wei", K::AccountReset},
                              std::pair{"account delete Li Wei", K::AccountDelete},
                              std::pair{"account ban  Li Wei ", K::AccountBan},
                              std::pair{"account unban Li Wei", K::AccountUnban},
                              std::pair{"account history Li Wei", K::AccountHistory}}) {
        auto c = parse_admin_command(line);
        ASSERT_TRUE(c) << line;
        EXPECT_EQ(c->kind, kind) << line;
        EXPECT_EQ(c->target, "Li Wei") << line;  // a name may hold a space
    }
    EXPECT_NE(admin_help().find("account reset"), std::string::npos);
}

TEST(AdminCommand, RefusesBadLinesWithAMessage) {
    for (std::string_view bad : {"", "   ", "frobnicate", "kick", "kick a b", "list all", "broadcast", "shutdown now",
                                 "ban \x01x", "account", "account add", "account rename x", "accounts all"}) {
        std::string err;
        EXPECT_FALSE(parse_admin_command(bad, &err)) << bad;
        EXPECT_FALSE(err.empty()) << bad;
    }
    std::string err;
    EXPECT_FALSE(parse_admin_command("say " + std::string(MAX_ADMIN_BROADCAST + 1, 'x'), &err));
    EXPECT_FALSE(parse_admin_command(std::string(MAX_ADMIN_LINE + 1, 'x'), &err));
}

TEST(Admission, GlobalAndPerAddressCaps) {
    BanList bans;
    Admission a(5, 2);
    EXPECT_EQ(a.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(a.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(a.admit("127.0.0.1", bans), Admission::Verdict::TooManyFromAddress);
    EXPECT_EQ(a.admit("127.0.0.2", bans), Admission::Verdict::Admit);
    EXPECT_EQ(a.admit("127.0.0.3", bans), Admission::Verdict::Admit);
    EXPECT_EQ(a.admit("127.0.0.4", bans), Admission::Verdict::Admit);
    EXPECT_EQ(a.total(), 5u);
    EXPECT_EQ(a.admit("127.0.0.5", bans), Admission::Verdict::ServerFull);
    a.release("127.0.0.1");
    EXPECT_EQ(a.from("127.0.0.1"), 1u);
    EXPECT_EQ(a.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    a.release("127.0.0.99");  // unknown: ignored, counts stay right
    EXPECT_EQ(a.total(), 5u);
    EXPECT_NE(admission_message(Admission::Verdict::ServerFull).find("full"), std::string_view::npos);
}

TEST(Admission, LoopbackIsExemptFromThePerAddressCapUnlessAsked) {
    BanList bans;
    Admission lenient(10, 1, false);
    EXPECT_EQ(lenient.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(lenient.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(lenient.admit("::1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(lenient.admit("::1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(lenient.admit("10.1.2.3", bans), Admission::Verdict::Admit);
    EXPECT_EQ(lenient.admit("10.1.2.3", bans), Admission::Verdict::TooManyFromAddress);
    Admission strict(10, 1, true);
    EXPECT_EQ(strict.admit("127.0.0.1", bans), Admission::Verdict::Admit);
    EXPECT_EQ(strict.admit("127.0.0.1", bans), Admission::Verdict::TooManyFromAddress);
}

TEST(Admission, BansByAddressAndNick) {
    BanList bans;
    Admission a(10, 10);
    EXPECT_TRUE(bans.ban("127.0.0.7", true));
    EXPECT_FALSE(bans.ban("127.0.0.7", true));  // already
    EXPECT_TRUE(bans.ban("troll", false));
    EXPECT_EQ(a.admit("127.0.0.7", bans), Admission::Verdict::Banned);
    EXPECT_EQ(a.total(), 0u);
    EXPECT_TRUE(bans.nick_banned("troll"));
    EXPECT_FALSE(bans.nick_banned("Troll"));
    EXPECT_EQ(bans.list(), (std::vector<std::string>{"nick troll", "ip 127.0.0.7"}));
    EXPECT_TRUE(bans.unban("127.0.0.7"));
    EXPECT_FALSE(bans.unban("127.0.0.7"));
    EXPECT_EQ(a.admit("127.0.0.7", bans), Admission::Verdict::Admit);
}

TEST(Password, MatchesOnlyTheExactText) {
    EXPECT_TRUE(password_matches("secret", "secret"));
    EXPECT_FALSE(password_matches("secret", "secreT"));
    EXPECT_FALSE(password_matches("secret", "secret2"));
    EXPECT_FALSE(password_matches("secret", ""));
    EXPECT_TRUE(password_matches("", ""));
}
