// The opening book on the server's side: `xiangqi-server book build` (from PGN files and the
// archive of a data directory), and the loading of the book a server starts with (--book).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "book/opening_book.h"

namespace xq::server {

class Storage;

// Adds every finished game of the archive (first `plies` plies); returns the games added.
int add_archive_to_book(Storage& storage, book::Book& book, int plies = book::DEFAULT_BOOK_PLIES);

// Reads the given files into `book`: a file ending in .pgn is a game collection, anything
// else a book file (`xiangqi-engine book build` / `xiangqi-server book build`). With no file
// the starter collection is used. False and a message naming the file on the first failure.
bool load_book(const std::vector<std::string>& files, book::Book& book, std::string* error);

// Runs `xiangqi-server book build ...` when argv[1] is "book"; nullopt otherwise.
std::optional<int> run_book_command(int argc, char** argv);

}  // namespace xq::server
