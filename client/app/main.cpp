// xiangqi-client: the SFML desktop client. See README.md ("Desktop client") for usage.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <iostream>

#include "app/app.h"
#include "core/client_config.h"

int main(int argc, char** argv) {
    xq::client::AppOptions opt;
    if (const char* user = std::getenv("USER"); user && *user) opt.name = user;
    else opt.name = "player";
    std::string lang = "zh";
    CLI::App cli{"LAN Xiangqi desktop client"};
    cli.add_option("--connect", opt.connect, "connect at start to HOST:PORT (e.g. 127.0.0.1:5050)");
    cli.add_option("--name", opt.name, "nickname");
    cli.add_option("--password", opt.password, "the server's password (servers started with --password)");
    cli.add_option("--script", opt.script, "run the actions in FILE (see client/core/script.h)");
    cli.add_option("--screenshot", opt.screenshot, "after the script, save the window to this PNG and exit");
    cli.add_option("--bench-frames", opt.bench_frames, "render N frames offline, print p50/p99 frame time");
    cli.add_option("--play-ai", opt.play_ai, "create a table as Red and seat the AI (level 1-10) as Black")
        ->check(CLI::Range(1, 10));
    cli.add_option("--discovery-address", opt.discovery_address,
                   "where LAN search queries go, a.b.c.d[:port] (default $XQ_DISCOVERY_ADDR, else broadcast)");
    cli.add_option("--review", opt.review, "open a PGN file in the review screen");
    cli.add_option("--width", opt.width, "window width")->check(CLI::Range(640, 8192));
    cli.add_option("--height", opt.height, "window height")->check(CLI::Range(480, 8192));
    cli.add_option("--lang", lang, "zh or en")->check(CLI::IsMember({"zh", "en"}));
    cli.add_option("--theme", opt.theme, "0 wood, 1 jade")->check(CLI::Range(0, 1));
    cli.add_flag("--mute", opt.mute, "no sound");
    // The remembered settings (client.conf) fill what the command line leaves out.
    std::vector<std::string> problems;
    xq::client::ClientConfig config;
    if (const auto dir = xq::client::config_dir(); !dir.empty()) config = xq::client::load_config_file(dir / "client.conf", problems);
    if (!config.nickname.empty()) opt.name = config.nickname;
    if (config.lang) lang = *config.lang == xq::client::Lang::English ? "en" : "zh";
    if (config.theme) opt.theme = *config.theme;
    opt.notation = config.notation;
    std::string last_server = config.server;
    CLI11_PARSE(cli, argc, argv);
    opt.lang = lang == "en" ? xq::client::Lang::English : xq::client::Lang::Chinese;
    // A language chosen on the command line is remembered like one chosen in the window.
    if (const auto dir = xq::client::config_dir(); !dir.empty() && cli.count("--lang") > 0 && config.lang != opt.lang) {
        std::string error;
        if (!xq::client::update_config_file(dir / "client.conf", [&](xq::client::ClientConfig& c) { c.lang = opt.lang; }, error))
            std::cerr << "xiangqi-client: " << error << "\n";
    }
    opt.last_server = last_server;
    xq::client::App app(opt);
    return app.run();
}
