#include "core/game_export.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <system_error>

#include "xiangqi/pgn.h"

namespace xq::client {

namespace {

Notation pgn_notation(MoveNotation n) {
    switch (n) {
    case MoveNotation::Chinese: return Notation::Chinese;
    case MoveNotation::Wxf: return Notation::Wxf;
    case MoveNotation::Iccs: return Notation::Iccs;
    }
    return Notation::Chinese;
}

EndReason reason_from_name(std::string_view name) {
    for (int i = 0; i <= int(EndReason::Cancelled); ++i)
        if (end_reason_name(EndReason(i)) == name) return EndReason(i);
    return EndReason::None;
}

}  // namespace

std::string record_pgn(const GameRecord& g, MoveNotation notation) {
    Game game(g.start);
    for (const Move m : g.moves)
        if (game.over() || !game.play(m)) break;
    // A result the board does not decide (resignation, time, agreement) comes from the table.
    const EndReason r = reason_from_name(g.reason);
    if (!game.over() && (g.outcome != Outcome::Ongoing || r == EndReason::Cancelled)) {
        game.finish(g.outcome, r, std::string(end_reason_name(r)));
    }
    PgnTags tags;
    const auto put = [&](const char* name, const std::string& value) {
        if (!value.empty()) tags.emplace_back(name, value);
    };
    put("Event", g.event);
    put("Site", g.site);
    put("Date", g.date);
    put("Red", g.red);
    put("Black", g.black);
    return write_pgn(game, tags, pgn_notation(notation));
}

std::string suggested_file_name(const GameRecord& g, std::string_view extension) {
    std::string name = g.date.empty() ? pgn_date_today() : g.date;
    name += ' ';
    name += g.red.empty() ? "?" : g.red;
    name += " - ";
    name += g.black.empty() ? "?" : g.black;
    // Folder separators and control characters would make another path; a leading dot a
    // hidden file.
    for (char& c : name)
        if (c == '/' || c == '\\' || (static_cast<unsigned char>(c) < 0x20) || c == ':') c = '_';
    if (!name.empty() && name.front() == '.') name.front() = '_';
    name += '.';
    name += extension;
    return name;
}

std::string pgn_date_today() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04d.%02d.%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
    return buf;
}

bool save_text_file(const std::filesystem::path& path, std::string_view text, std::string& error) {
    std::error_code ec;
    if (path.filename().empty() || std::filesystem::is_directory(path, ec)) {
        error = path.string() + ": not a file name";
        return false;
    }
    std::filesystem::path tmp = path;
    tmp += ".part";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out || !out.write(text.data(), std::streamsize(text.size())) || !out.flush()) {
            error = path.string() + ": cannot write";
            out.close();
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        error = path.string() + ": " + ec.message();
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

}  // namespace xq::client
