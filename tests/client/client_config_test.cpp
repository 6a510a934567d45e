// client.conf: parsing, writing back, seat tokens per server and name, bad lines skipped.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "core/client_config.h"

namespace xq::client {
namespace {

TEST(ClientConfig, RoundTripsEveryField) {
    ClientConfig c;
    c.nickname = "李雷";
    c.server = "127.0.0.1:5050";
    c.add_recent("10.0.0.2:5050");
    c.add_recent("127.0.0.1:5050");
    c.lang = Lang::English;
    c.theme = 1;
    c.notation = MoveNotation::Wxf;
    c.sound = false;
    c.set_token("127.0.0.1:5050", "李雷", "ab12");
    c.set_token("127.0.0.1:6000", "Bob Smith", "cd34");
    std::vector<std::string> problems;
    const ClientConfig back = parse_config(format_config(c), problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(back.nickname, "李雷");
    EXPECT_EQ(back.server, "127.0.0.1:5050");
    EXPECT_EQ(back.recent, (std::vector<std::string>{"127.0.0.1:5050", "10.0.0.2:5050"}));
    EXPECT_EQ(back.lang, Lang::English);
    EXPECT_EQ(back.theme, 1);
    EXPECT_EQ(back.notation, MoveNotation::Wxf);
    EXPECT_EQ(back.sound, false);
    EXPECT_EQ(back.token_for("127.0.0.1:5050", "李雷"), "ab12");
    EXPECT_EQ(back.token_for("127.0.0.1:6000", "Bob Smith"), "cd34");
    EXPECT_EQ(back.token_for("127.0.0.1:6000", "李雷"), "");  // per server and name
}

TEST(ClientConfig, BadLinesAreNamedAndSkipped) {
    std::vector<std::string> problems;
    const ClientConfig c = parse_config("nickname=Ann\nlang=fr\ngarbage\nresume=onlytoken\ntheme=1\n", problems);
    EXPECT_EQ(c.nickname, "Ann");
    EXPECT_FALSE(c.lang);
    EXPECT_EQ(c.theme, 1);
    ASSERT_EQ(problems.size(), 3u);
    EXPECT_EQ(problems[0], "line 2: lang=fr");
}

TEST(ClientConfig, NewestTokenReplacesAndTheListIsBounded) {
    ClientConfig c;
    for (int i = 0; i < 40; ++i) {
        const std::string n = std::to_string(i);
        c.set_token(std::string("s:").append(n), "n", std::string("t").append(n));
    }
    c.set_token("s:39", "n", "fresh");
    EXPECT_EQ(c.resume.size(), CONFIG_MAX_TOKENS);
    EXPECT_EQ(c.token_for("s:39", "n"), "fresh");
    EXPECT_EQ(c.token_for("s:0", "n"), "");
    c.set_token("s:39", "n", "");
    EXPECT_EQ(c.token_for("s:39", "n"), "");
}

TEST(ClientConfig, UpdatesKeepWhatOtherClientsWrote) {
    const auto dir = std::filesystem::temp_directory_path() / ("xq_conf_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const auto file = dir / "xiangqi" / "client.conf";
    std::string error;
    ASSERT_TRUE(update_config_file(file, [](ClientConfig& c) { c.set_token("h:1", "alice", "A"); }, error)) << error;
    ASSERT_TRUE(update_config_file(file, [](ClientConfig& c) { c.set_token("h:1", "bob", "B"); }, error)) << error;
    ASSERT_TRUE(update_config_file(file, [](ClientConfig& c) { c.lang = Lang::Chinese; }, error)) << error;
    std::vector<std::string> problems;
    const ClientConfig c = load_config_file(file, problems);
    EXPECT_EQ(c.token_for("h:1", "alice"), "A");
    EXPECT_EQ(c.token_for("h:1", "bob"), "B");
    EXPECT_EQ(c.lang, Lang::Chinese);
    EXPECT_TRUE(problems.empty());
    // No temporary file is left behind (only the file and its lock file).
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(file.parent_path())) {
        EXPECT_TRUE(e.path().filename() == "client.conf" || e.path().filename() == "client.conf.lock") << e.path();
        ++files;
    }
    EXPECT_EQ(files, 2);
    std::filesystem::remove_all(dir);
}

// Two clients saving into one config folder at the same moment: each read-change-write holds
// the lock, so neither overwrites the other's newest token with a stale copy.
TEST(ClientConfig, ConcurrentUpdatesLoseNothing) {
    const auto dir = std::filesystem::temp_directory_path() / ("xq_conf_race_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    const auto file = dir / "client.conf";
    constexpr int ROUNDS = 150;
    auto writer = [&](std::string name, std::string& error) {
        for (int i = 0; i < ROUNDS; ++i) {
            std::string token = "t";
            token.append(std::to_string(i));
            if (!update_config_file(file, [&](ClientConfig& c) { c.set_token("h:1", name, token); }, error)) return;
        }
    };
    std::string e1, e2;
    std::thread a(writer, "alice", std::ref(e1));
    std::thread b(writer, "bob", std::ref(e2));
    a.join();
    b.join();
    EXPECT_EQ(e1, "");
    EXPECT_EQ(e2, "");
    std::vector<std::string> problems;
    const ClientConfig c = load_config_file(file, problems);
    std::string last = "t";
    last.append(std::to_string(ROUNDS - 1));
    EXPECT_EQ(c.token_for("h:1", "alice"), last);
    EXPECT_EQ(c.token_for("h:1", "bob"), last);
    std::filesystem::remove_all(dir);
}

TEST(ClientConfig, AMissingFileIsAnEmptyConfig) {
    std::vector<std::string> problems;
    const ClientConfig c = load_config_file("/nonexistent-xq/client.conf", problems);
    EXPECT_TRUE(c.nickname.empty());
    EXPECT_TRUE(problems.empty());
}

}  // namespace
}  // namespace xq::client
