#include "server/app/book_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "book/starter_openings.h"
#include "server/store/archive.h"
#include "server/store/storage.h"

namespace xq::server {

namespace {

bool read_file(const std::string& path, std::string& text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return bool(in) || in.eof();
}

bool ends_with_pgn(const std::string& path) {
    const auto ext = std::filesystem::path(path).extension().string();
    return ext == ".pgn" || ext == ".PGN";
}

}  // namespace

int add_archive_to_book(Storage& storage, book::Book& book, int plies) {
    GameFilter f;
    f.finished_only = true;
    f.limit = MAX_GAME_LIST;
    int added = 0;
    for (;;) {
        const auto page = storage.list_games(f);
        for (const auto& g : page) {
            auto rec = storage.get_game(g.id);
            if (!rec) continue;
            auto game = replay(*rec);
            if (!game) continue;  // a damaged record teaches nothing
            book.add_game(game->start_position(), game->moves(), game->result().outcome, plies);
            ++added;
        }
        if (int(page.size()) < MAX_GAME_LIST) break;
        f.before_id = page.back().id;
    }
    return added;
}

bool load_book(const std::vector<std::string>& files, book::Book& book, std::string* error) {
    if (files.empty()) {
        for (const auto& f : book::starter_openings()) book::add_pgn(book, f.pgn);
        return true;
    }
    for (const auto& path : files) {
        std::string text;
        if (!read_file(path, text)) {
            if (error) *error = "--book " + path + ": cannot read the file";
            return false;
        }
        if (ends_with_pgn(path)) {
            const auto r = book::add_pgn(book, text);
            if (!r.errors.empty()) {
                if (error) *error = "--book " + path + ": " + r.errors.front();
                return false;
            }
            continue;
        }
        std::string why;
        auto loaded = book::Book::parse(text, &why);
        if (!loaded) {
            if (error) *error = "--book " + path + ": " + why;
            return false;
        }
        book.merge(*loaded);
    }
    return true;
}

std::optional<int> run_book_command(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) != "book") return std::nullopt;
    CLI::App app{"xiangqi-server book: opening books from game records"};
    app.require_subcommand(1);
    auto* build = app.add_subcommand("build", "build a book file from PGN files and/or the server's archive");
    std::string out_path, data_dir;
    std::vector<std::string> pgn_files;
    bool archive = false, starter = false;
    int plies = book::DEFAULT_BOOK_PLIES;
    build->add_option("--out", out_path, "the book file to write")->required();
    build->add_flag("--archive", archive, "add the finished games of the archive (see --data-dir)");
    build->add_option("--data-dir", data_dir, "data directory of the archive (default: xiangqi-data beside the executable)");
    build->add_flag("--starter", starter, "add the starter collection built into the program (data/openings)");
    build->add_option("--plies", plies, "plies of each game recorded")->capture_default_str()->check(CLI::Range(1, 200));
    build->add_option("pgn", pgn_files, "PGN files of games");
    try {
        app.parse(argc - 1, argv + 1);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (!archive && !starter && pgn_files.empty()) {
        std::fprintf(stderr, "book build: give PGN files, --archive or --starter\n");
        return 2;
    }
    book::Book book;
    int games = 0;
    if (starter)
        for (const auto& f : book::starter_openings()) games += book::add_pgn(book, f.pgn, plies).games;
    for (const auto& path : pgn_files) {
        std::string text;
        if (!read_file(path, text)) {
            std::fprintf(stderr, "cannot read %s\n", path.c_str());
            return 1;
        }
        const auto r = book::add_pgn(book, text, plies);
        if (!r.errors.empty()) {
            // All or nothing, as `xiangqi-server import`: a broken file writes no book.
            std::fprintf(stderr, "%s: %s\n", path.c_str(), r.errors.front().c_str());
            return 1;
        }
        games += r.games;
    }
    if (archive) {
        std::string err;
        auto storage = Storage::open(data_dir.empty() ? default_data_dir() : std::filesystem::path(data_dir), &err);
        if (!storage) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return 1;
        }
        games += add_archive_to_book(*storage, book, plies);
    }
    std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
    out << book.serialize();
    out.close();
    if (!out) {
        std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
        return 1;
    }
    std::printf("book %s: %d games, %zu positions, %zu moves\n", out_path.c_str(), games, book.positions(),
                book.moves());
    return 0;
}

}  // namespace xq::server
