// The one JSON codec of the protocol (nlohmann/json inside, never in the interface).
// Decoding untrusted lines returns a typed message or a typed error and never throws.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "protocol/messages.h"

namespace xq::proto {

using ClientMessage =
    std::variant<Hello, Ping, ListTables, ListUsers, CreateTable, Join, Leave, Sync, MoveRequest,
                 ChatSend, RequestAi, Resign, OfferDraw, AnswerDraw, RequestTakeback,
                 AnswerTakeback, NewGame, Invite, AnswerInvite, ListGames, GetGame, Pong,
                 ClaimWin, CreateTournament, JoinTournament, LeaveTournament, StartTournament,
                 ListTournaments, GetTournament, WithdrawOffer, Register, ChangePassword,
                 AnalyseGame, CancelAnalysis, ArbiterRequest, GetTournamentPgn,
                 GetExplorer, RequestHint>;

using ServerMessage =
    std::variant<Welcome, Pong, Error, Tables, Users, UserJoined, UserLeft, TableUpdate,
                 TableRemoved, TableSnapshot, SnapshotMoves, PlayerJoined, PlayerLeft,
                 PlayerReturned, MoveMade, GameOver, ChatLine, AiProgress, DrawOffered,
                 DrawAnswered, TakebackRequested, TakebackAnswered, TakebackDone,
                 NewGameOffered, InviteReceived, InviteAnswered, LeftTable, Games, GameRecord,
                 Ping, SeatAbandoned, Notice, Registered, PasswordChanged, Tournament, Tournaments, OfferWithdrawn,
                 AnalysisProgress, Analysis, ArbiterAction, TournamentPgn,
                 Explorer, Hint, HintUsed>;

// Why a line could not become a message. `type` is the line's "type" when it had one,
// so the error reply can name the request.
struct DecodeError {
    ErrorCode code = ErrorCode::BadJson;
    std::string message;
    std::string type;
};

// A decoded value or the error that stopped it.
template <class T>
class Decoded {
public:
    Decoded(T value) : v_(std::move(value)) {}
    Decoded(DecodeError error) : v_(std::move(error)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    const DecodeError& error() const { return std::get<1>(v_); }

private:
    std::variant<T, DecodeError> v_;
};

// Lines, without the trailing newline (a trailing '\r' is tolerated by the framer).
Decoded<ClientMessage> decode_client(std::string_view line);
Decoded<ServerMessage> decode_server(std::string_view line);

// JSON text without the newline; encode_line adds it. Output is valid UTF-8 provided the
// strings in the message are (anything else is replaced, never thrown).
std::string encode(const ClientMessage& m);
std::string encode(const ServerMessage& m);
std::string encode_line(const ClientMessage& m);
std::string encode_line(const ServerMessage& m);
// encode_line for one message of a known type M, an alternative of either variant: the same
// line as encode_line(ServerMessage{m}), without building the variant at the call (which
// compiles the variant's destruction, a branch per alternative, into every caller).
// codec_encode.cpp instantiates it for every alternative of both variants.
template <class M>
std::string encode_line_of(const M& m);

std::string_view type_name(const ClientMessage& m);
std::string_view type_name(const ServerMessage& m);

// Wire names of the small enums (also used by logs and tests).
std::string_view role_name(Role r);
std::string_view scope_name(ChatScope s);
std::string_view status_name(TableStatus s);
std::string_view leave_reason_name(LeaveReason r);
std::string_view color_wire_name(Color c);  // "red", "black"
std::string_view abandon_policy_name(AbandonPolicy p);  // "claim", "ai"
std::string_view board_result_name(BoardResult r);      // "*", "1-0", ..., "bye"
std::string_view notation_name(PgnNotation n);          // "iccs", "wxf", "chinese"

// Checks a nickname: 1..MAX_NAME_CODE_POINTS code points of valid UTF-8, no control
// characters, no leading or trailing space. Returns an empty string when fine, else why not.
std::string check_name(std::string_view name);

// True for syntactically valid ICCS move text ("h2e2"): files a-i, ranks 0-9.
bool is_iccs_syntax(std::string_view text);

}  // namespace xq::proto
