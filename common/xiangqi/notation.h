// Move text in the three notations of docs/RULES.md: ICCS coordinates, WXF letters and Chinese.
// Writers take a legal move of the position; parsers match text against the legal moves and
// return an error value (never throw) for anything else, including arbitrary bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "position.h"
#include "types.h"

namespace xq {

enum class Notation { Iccs, Wxf, Chinese };

enum class NotationError { None, Empty, Malformed, UnknownPiece, NoSuchPiece, Ambiguous, IllegalMove };

struct ParsedMove {
    Move move;                                  // Move::none() on error
    NotationError error = NotationError::None;
    std::string message;                        // readable reason on error, e.g. "no red cannon on file 2"
    bool ok() const { return error == NotationError::None; }
};

// Longest move text any parser looks at; longer input is refused as malformed.
inline constexpr std::size_t MAX_MOVE_TEXT = 64;

std::string to_iccs(Move m);                          // "h2e2"
std::string to_iccs_pgn(Move m);                      // "H2-E2"
std::string to_wxf(const Position& pos, Move m);      // "C2.5", tandems "R+.3", "C--1", pawns per docs/RULES.md
std::string to_chinese(const Position& pos, Move m);  // UTF-8 "炮二平五", "马8进7", "前车进一", "后炮平4"
std::string format_move(const Position& pos, Move m, Notation n);
// The texts of a line of legal moves played from start (e.g. a game's move list); stops at the
// first move that is not legal where it is played.
std::vector<std::string> format_moves(const Position& start, const std::vector<Move>& moves, Notation n);

ParsedMove parse_iccs(const Position& pos, std::string_view text);     // "h2e2", "H2-E2", "h2-e2"
ParsedMove parse_wxf(const Position& pos, std::string_view text);      // accepts '=' for '.', H/N, E/B
ParsedMove parse_chinese(const Position& pos, std::string_view text);  // traditional/variant chars, full-width digits
ParsedMove parse_move(const Position& pos, std::string_view text);     // tries ICCS, then WXF, then Chinese
ParsedMove parse_move(const Position& pos, std::string_view text, Notation n);  // one notation only

std::string_view notation_error_name(NotationError e);  // "none", "empty", "malformed", ...
std::string_view notation_name(Notation n);             // "ICCS", "WXF", "Chinese"

// True when the bytes are well-formed UTF-8 (no overlongs, surrogates or truncation).
bool valid_utf8(std::string_view s);

}  // namespace xq
