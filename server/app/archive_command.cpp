#include "server/app/archive_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "server/store/archive.h"
#include "server/store/storage.h"

namespace xq::server {

std::optional<int> run_archive_command(int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const std::string cmd = argv[1];
    if (cmd != "export" && cmd != "import" && cmd != "games") return std::nullopt;

    CLI::App app{"xiangqi-server " + cmd + ": work on the game archive of a data directory"};
    std::string data_dir, notation_name = "iccs", out_path, site = "LAN", player, in_path;
    std::int64_t game_id = 0, tournament_id = 0;
    int limit = 50;
    app.add_option("--data-dir", data_dir, "data directory (default: xiangqi-data beside the executable)");
    if (cmd == "export") {
        app.add_option("--game", game_id, "the game's id (default: every finished game)");
        app.add_option("--tournament", tournament_id, "every game of this tournament, in one file")
            ->excludes("--game");
        app.add_option("--notation", notation_name, "iccs, wxf or chinese")->capture_default_str();
        app.add_option("--out", out_path, "write here instead of standard output");
        app.add_option("--site", site, "the PGN Site tag")->capture_default_str();
    } else if (cmd == "import") {
        app.add_option("file", in_path, "PGN file of classic games to add to the archive")->required();
    } else {
        app.add_option("--player", player, "only games of this player");
        app.add_option("--limit", limit, "most games listed")->capture_default_str();
    }
    try {
        app.parse(argc - 1, argv + 1);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    std::string err;
    auto storage = Storage::open(data_dir.empty() ? default_data_dir() : std::filesystem::path(data_dir), &err);
    if (!storage) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 1;
    }
    if (cmd == "games") {
        GameFilter f;
        f.player = player;
        f.limit = limit;
        for (const auto& g : storage->list_games(f))
            std::printf("%lld\t%s\t%s - %s\t%s\t%d plies\t%s\n", static_cast<long long>(g.id),
                        g.finished ? "finished" : "playing", g.red.c_str(), g.black.c_str(), g.result.c_str(), g.plies,
                        g.reason.c_str());
        return 0;
    }
    if (cmd == "import") {
        std::ifstream in(in_path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "cannot read %s\n", in_path.c_str());
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        ImportResult r = import_pgn(*storage, text.str(), unix_ms_now());
        if (!r.error.empty()) {
            std::fprintf(stderr, "%s: %s\n", in_path.c_str(), r.error.c_str());
            return 1;
        }
        std::printf("imported %d game(s)\n", r.imported);
        return 0;
    }
    auto notation = notation_from_name(notation_name);
    if (!notation) {
        std::fprintf(stderr, "unknown notation '%s' (iccs, wxf or chinese)\n", notation_name.c_str());
        return 1;
    }
    std::vector<std::int64_t> ids;
    std::string all;
    if (tournament_id > 0) {
        auto pgn = tournament_pgn(*storage, tournament_id, *notation, site, &err);
        if (!pgn) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return 1;
        }
        all = std::move(*pgn);
    } else if (game_id > 0) {
        ids.push_back(game_id);
    } else {
        GameFilter f;
        f.finished_only = true;
        f.limit = MAX_GAME_LIST;
        for (;;) {
            auto page = storage->list_games(f);
            for (const auto& g : page) ids.push_back(g.id);
            if (int(page.size()) < MAX_GAME_LIST) break;
            f.before_id = page.back().id;
        }
        std::reverse(ids.begin(), ids.end());  // oldest first
    }
    for (auto id : ids) {
        auto rec = storage->get_game(id);
        if (!rec) {
            std::fprintf(stderr, "no game %lld\n", static_cast<long long>(id));
            return 1;
        }
        const auto analysis = storage->analysis(id);
        auto pgn = record_pgn(*rec, *notation, site, &err, analysis ? &*analysis : nullptr);
        if (!pgn) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return 1;
        }
        all += *pgn;
        all += "\n";
    }
    if (out_path.empty()) {
        std::fwrite(all.data(), 1, all.size(), stdout);
    } else {
        std::ofstream out(out_path, std::ios::binary);
        out << all;
        if (!out) {
            std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
            return 1;
        }
    }
    return 0;
}

}  // namespace xq::server
