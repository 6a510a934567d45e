#include "core/strings.h"

#include <algorithm>

namespace xq::client {

const char* tr(Lang lang, Str id) {
    const int i = int(id);
    if (i < 0 || i >= STRING_COUNT) return "?";
    return (lang == Lang::Chinese ? chinese_table() : english_table())[i].text;
}

std::string format(std::string_view pattern, std::initializer_list<std::string_view> args) {
    std::string out;
    auto it = args.begin();
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '{' && i + 1 < pattern.size() && pattern[i + 1] == '}' && it != args.end()) {
            out += *it++;
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

std::string tr(Lang lang, Str id, std::initializer_list<std::string_view> args) {
    return format(tr(lang, id), args);
}

Str end_reason_string(std::string_view name) {
    struct Pair {
        std::string_view name;
        Str id;
    };
    static constexpr Pair table[] = {
        {"checkmate", Str::EndCheckmate},       {"stalemate", Str::EndStalemate},
        {"perpetual_check", Str::EndPerpetualCheck}, {"perpetual_chase", Str::EndPerpetualChase},
        {"repetition", Str::EndRepetition},     {"move_limit", Str::EndMoveLimit},
        {"insufficient_material", Str::EndMaterial}, {"resignation", Str::EndResignation},
        {"agreement", Str::EndAgreement},       {"timeout", Str::EndTimeout},
        {"abandonment", Str::EndAbandonment},
        {"engine_failure", Str::EndEngineFailure}, {"adjudication", Str::EndAdjudication},
        {"cancelled", Str::EndCancelled},
    };
    for (const Pair& p : table)
        if (p.name == name) return p.id;
    return Str::Ok;
}

Str reason_string(IllegalReason r) {
    switch (r) {
    case IllegalReason::None: return Str::ReasonOther;
    case IllegalReason::GameNotInProgress: return Str::ReasonGameNotInProgress;
    case IllegalReason::Spectator: return Str::ReasonSpectator;
    case IllegalReason::NotYourTurn: return Str::ReasonNotYourTurn;
    case IllegalReason::NotYourPiece: return Str::ReasonNotYourPiece;
    case IllegalReason::EmptySquare: return Str::ReasonEmptySquare;
    case IllegalReason::NoLegalMove: return Str::ReasonNoLegalMove;
    case IllegalReason::WaitingForServer: return Str::ReasonWaiting;
    case IllegalReason::OwnPieceOnTarget: return Str::ReasonOwnPiece;
    case IllegalReason::KingMove: return Str::ReasonKingMove;
    case IllegalReason::KingLeavesPalace: return Str::ReasonKingPalace;
    case IllegalReason::AdvisorMove: return Str::ReasonAdvisor;
    case IllegalReason::ElephantCrossesRiver: return Str::ReasonElephantRiver;
    case IllegalReason::ElephantEyeBlocked: return Str::ReasonElephantEye;
    case IllegalReason::ElephantMove: return Str::ReasonElephantMove;
    case IllegalReason::HorseLegBlocked: return Str::ReasonHorseLeg;
    case IllegalReason::HorseMove: return Str::ReasonHorseMove;
    case IllegalReason::PathBlocked: return Str::ReasonPathBlocked;
    case IllegalReason::CannonNeedsScreen: return Str::ReasonCannonScreen;
    case IllegalReason::StraightLineOnly: return Str::ReasonStraight;
    case IllegalReason::PawnMove: return Str::ReasonPawn;
    case IllegalReason::LeavesKingInCheck: return Str::ReasonSelfCheck;
    case IllegalReason::GeneralsFace: return Str::ReasonGeneralsFace;
    case IllegalReason::InCheck: return Str::ReasonInCheck;
    case IllegalReason::Other: return Str::ReasonOther;
    }
    return Str::ReasonOther;
}

std::string refusal_text(Lang lang, IllegalReason r) { return tr(lang, reason_string(r)); }

Str error_code_string(std::string_view code, std::string_view request) {
    struct Pair {
        std::string_view code;
        Str id;
    };
    // Framing codes (bad_json, bad_field, ...) and internal are the client's own faults or
    // the server's: the generic "Server: ..." with the server's words says enough.
    static constexpr Pair table[] = {
        {"bad_version", Str::ErrBadVersion},
        {"bad_name", Str::ErrBadName},
        {"name_taken", Str::ErrNameTaken},
        {"server_full", Str::ErrServerFull},
        {"rate_limited", Str::ErrRateLimited},
        {"shutting_down", Str::ErrShuttingDown},
        {"no_such_table", Str::ErrNoSuchTable},
        {"no_such_user", Str::ErrNoSuchUser},
        {"not_at_table", Str::ErrNotAtTable},
        {"already_at_table", Str::ErrAlreadyAtTable},
        {"seat_taken", Str::ErrSeatTaken},
        {"table_full", Str::ErrTableFull},
        {"too_many_tables", Str::ErrTooManyTables},
        {"bad_fen", Str::ErrBadFen},
        {"not_allowed", Str::ErrNotAllowed},
        {"game_not_in_progress", Str::ErrGameNotInProgress},
        {"not_seated", Str::ErrNotSeated},
        {"not_your_turn", Str::ErrNotYourTurn},
        {"wrong_ply", Str::ErrWrongPly},
        {"bad_move_text", Str::ErrIllegalMove},
        {"illegal_move", Str::ErrIllegalMove},
        {"no_offer", Str::ErrNoOffer},
        {"offer_pending", Str::ErrOfferPending},
        {"nothing_to_take_back", Str::ErrNothingToTakeBack},
        {"game_in_progress", Str::ErrGameInProgress},
        {"empty_text", Str::ErrEmptyText},
        {"bad_settings", Str::ErrBadSettings},
        {"bad_password", Str::ErrBadPassword},
        {"idle_timeout", Str::ErrIdleTimeout},
        {"no_such_engine", Str::ErrNoSuchEngine},
        {"no_claim", Str::ErrNoClaim},
        {"no_such_game", Str::ErrNoSuchGame},
        {"account_required", Str::ErrAccountRequired},
        {"bad_login", Str::ErrBadLogin},
        {"weak_password", Str::ErrWeakPassword},
        {"banned", Str::ErrBanned},
        {"no_such_tournament", Str::ErrNoSuchTournament},
        {"already_entered", Str::ErrAlreadyEntered},
        {"entries_closed", Str::ErrEntriesClosed},
    };
    if (code == "not_allowed" && request == "request_takeback") return Str::ErrTakebacksOff;
    // A server run without a database refuses the archive requests.
    if (code == "not_allowed" && (request == "list_games" || request == "get_game")) return Str::ErrNoArchive;
    if (code == "not_allowed" && request == "get_tournament_pgn") return Str::ErrNoTourneyPgn;
    if (code == "not_allowed" && request == "arbiter") return Str::ErrArbiterNotAllowed;
    if (code == "not_allowed" && request == "request_hint") return Str::ErrHintNotAllowed;
    for (const Pair& p : table)
        if (p.code == code) return p.id;
    return Str::ServerError;
}

Str error_detail_string(std::string_view code, std::string_view detail) {
    struct Pair {
        std::string_view detail;
        Str id;
    };
    static constexpr Pair settings[] = {
        {"clock_format", Str::DetailClockFormat}, {"clock_range", Str::DetailClockRange},
        {"clock_zero", Str::DetailClockZero},     {"clock_unknown", Str::DetailClockUnknown},
        {"no_ai", Str::DetailNoAi},               {"no_spectator_delay", Str::DetailNoSpectatorDelay},
        {"no_rated", Str::DetailNoRated},         {"rated_needs_clock", Str::DetailRatedNeedsClock},
        {"no_hints", Str::DetailNoHints},
    };
    static constexpr Pair fen[] = {
        {"empty", Str::DetailFenEmpty},
        {"bad_rank_count", Str::DetailFenBadRankCount},
        {"bad_file_count", Str::DetailFenBadFileCount},
        {"unknown_piece", Str::DetailFenUnknownPiece},
        {"missing_king", Str::DetailFenMissingKing},
        {"too_many_kings", Str::DetailFenTooManyKings},
        {"too_many_pieces", Str::DetailFenTooManyPieces},
        {"bad_king_square", Str::DetailFenBadKingSquare},
        {"bad_advisor_square", Str::DetailFenBadAdvisorSquare},
        {"bad_elephant_square", Str::DetailFenBadElephantSquare},
        {"bad_pawn_square", Str::DetailFenBadPawnSquare},
        {"bad_side_to_move", Str::DetailFenBadSideToMove},
        {"bad_counter", Str::DetailFenBadCounter},
        {"side_not_to_move_in_check", Str::DetailFenSideNotToMoveInCheck},
        {"trailing_garbage", Str::DetailFenTrailingGarbage},
    };
    const auto find = [&](const auto& table) {
        for (const Pair& p : table)
            if (p.detail == detail) return p.id;
        return Str::ServerError;
    };
    if (code == "bad_settings") return find(settings);
    if (code == "bad_fen") return find(fen);
    return Str::ServerError;
}

std::string server_error_text(Lang lang, std::string_view code, std::string_view request, std::string_view message,
                              std::string_view detail) {
    const Str id = error_code_string(code, request);
    // The server words its details in English: the Chinese UI shows only its own text
    // (one language at a time), naming the code when it has no text for it; a detail code
    // it knows is worded in the chosen language.
    if (id == Str::ServerError) return tr(lang, Str::ServerError, {lang == Lang::Chinese ? code : message});
    if (const Str d = error_detail_string(code, detail); d != Str::ServerError)
        return tr(lang, Str::ErrorWithDetail, {tr(lang, id), tr(lang, d)});
    if (message.empty() || lang == Lang::Chinese) return tr(lang, id);
    // A message that only repeats our words ("the server is shutting down") adds nothing.
    const std::string_view ours = tr(lang, id);
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (std::equal(ours.begin(), ours.end(), message.begin(), message.end(),
                   [&](char a, char b) { return lower(a) == lower(b); }))
        return std::string(ours);
    return tr(lang, Str::ErrorWithDetail, {ours, message});
}

std::string_view string_id_name(Str id) {
    constexpr std::string_view names[] = {
#define XQ_NAME(name) #name,
        XQ_CLIENT_STRING_IDS(XQ_NAME)
#undef XQ_NAME
    };
    const int i = int(id);
    return i >= 0 && i < STRING_COUNT ? names[i] : "?";
}

}  // namespace xq::client
