#include "protocol/errors.h"

#include <array>

namespace xq::proto {

namespace {
constexpr std::array<std::string_view, ERROR_CODE_COUNT> NAMES = {
    "line_too_long", "bad_utf8",       "too_deep",       "bad_json",
    "missing_type",  "unknown_type",   "bad_field",      "not_hello",
    "already_hello", "bad_version",    "bad_name",       "name_taken",
    "server_full",   "rate_limited",   "shutting_down",  "no_such_table",
    "no_such_user",  "not_at_table",   "already_at_table", "seat_taken",
    "table_full",    "too_many_tables", "bad_fen",       "not_allowed",
    "game_not_in_progress", "not_seated", "not_your_turn", "wrong_ply",
    "bad_move_text", "illegal_move",   "no_offer",       "offer_pending",
    "nothing_to_take_back", "game_in_progress", "empty_text", "no_such_game",
    "bad_settings", "bad_password", "idle_timeout", "no_such_engine", "no_claim",
    "account_required", "bad_login", "weak_password", "banned",
    "no_such_tournament", "already_entered", "entries_closed", "internal",
};
}  // namespace

std::string_view error_code_name(ErrorCode c) {
    const auto i = static_cast<std::size_t>(c);
    return i < NAMES.size() ? NAMES[i] : "internal";
}

std::string_view fen_error_detail(FenError e) {
    switch (e) {
    case FenError::None: return "";
    case FenError::Empty: return "empty";
    case FenError::BadRankCount: return "bad_rank_count";
    case FenError::BadFileCount: return "bad_file_count";
    case FenError::UnknownPiece: return "unknown_piece";
    case FenError::MissingKing: return "missing_king";
    case FenError::TooManyKings: return "too_many_kings";
    case FenError::TooManyPieces: return "too_many_pieces";
    case FenError::BadKingSquare: return "bad_king_square";
    case FenError::BadAdvisorSquare: return "bad_advisor_square";
    case FenError::BadElephantSquare: return "bad_elephant_square";
    case FenError::BadPawnSquare: return "bad_pawn_square";
    case FenError::BadSideToMove: return "bad_side_to_move";
    case FenError::BadCounter: return "bad_counter";
    case FenError::SideNotToMoveInCheck: return "side_not_to_move_in_check";
    case FenError::TrailingGarbage: return "trailing_garbage";
    }
    return "";
}

std::array<std::string_view, 15> fen_error_details() {
    std::array<std::string_view, 15> out{};
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = fen_error_detail(static_cast<FenError>(i + 1));
    return out;
}

std::optional<ErrorCode> error_code_from_name(std::string_view name) {
    for (std::size_t i = 0; i < NAMES.size(); ++i)
        if (NAMES[i] == name) return static_cast<ErrorCode>(i);
    return std::nullopt;
}

}  // namespace xq::proto
