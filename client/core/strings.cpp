#include "core/strings.h"

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
        {"engine_failure", Str::EndEngineFailure},
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
    case IllegalReason::Other: return Str::ReasonOther;
    }
    return Str::ReasonOther;
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
