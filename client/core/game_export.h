// Copy and save: a game the client shows (a table's, an archived or imported one) as PGN, a
// position as FEN, and the files they are saved to (written whole or not at all).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/client_state.h"
#include "xiangqi/game.h"
#include "xiangqi/position.h"

namespace xq::client {

struct GameRecord {
    Position start;
    std::vector<Move> moves;
    Outcome outcome = Outcome::Ongoing;
    std::string reason;  // end_reason_name() ("resignation"), "" when unknown
    std::string red, black, event, site;
    std::string date;  // "2026.12.01"; "" leaves "????.??.??"
};

// The PGN text (write_pgn: seven-tag roster, FEN for a set-up start, Format, moves in
// `notation`, result). Moves that do not follow from the start are cut at the first one.
std::string record_pgn(const GameRecord& g, MoveNotation notation);
// A file name for the game, e.g. "2026.12.01 alice - bob.pgn", with nothing a file system
// could refuse or read as a folder.
std::string suggested_file_name(const GameRecord& g, std::string_view extension);
// Today's date in PGN form ("2026.12.01").
std::string pgn_date_today();
// Writes `text` to `path` through a temporary file beside it, so a failed write leaves no
// half file; false with a message (the path and why) when it fails.
bool save_text_file(const std::filesystem::path& path, std::string_view text, std::string& error);

}  // namespace xq::client
