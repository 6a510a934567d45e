// The codec's encoder: a message's fields() list written into a JSON object, then dumped as
// one line (invalid UTF-8 replaced, never thrown).
#include <nlohmann/json.hpp>

#include <type_traits>

#include "protocol/codec.h"
#include "protocol/wire_names.h"

namespace xq::proto {

using json = nlohmann::json;
using namespace wire;

namespace {

json to_value(const std::string& v) { return v; }
json to_value(bool v) { return v; }
json to_value(int v) { return v; }
json to_value(std::int64_t v) { return v; }
json to_value(std::uint64_t v) { return v; }
json to_value(std::uint32_t v) { return v; }
json to_value(Role v) { return ROLE_NAMES[static_cast<std::size_t>(v)]; }
json to_value(ChatScope v) { return SCOPE_NAMES[static_cast<std::size_t>(v)]; }
json to_value(TableStatus v) { return STATUS_NAMES[static_cast<std::size_t>(v)]; }
json to_value(LeaveReason v) { return LEAVE_NAMES[static_cast<std::size_t>(v)]; }
json to_value(Color v) { return COLOR_NAMES[v == RED ? 0 : 1]; }
json to_value(AbandonPolicy v) { return ABANDON_NAMES[static_cast<std::size_t>(v)]; }
json to_value(OfferKind v) { return OFFER_NAMES[static_cast<std::size_t>(v)]; }
json to_value(ArbiterKind v) { return ARBITER_NAMES[static_cast<std::size_t>(v)]; }
json to_value(Outcome v) { return OUTCOME_NAMES[static_cast<std::size_t>(v)]; }
json to_value(ErrorCode v) { return error_code_name(v); }
json to_value(TournamentFormat v) { return FORMAT_NAMES[static_cast<std::size_t>(v)]; }
json to_value(TournamentState v) { return TOURNAMENT_STATE_NAMES[static_cast<std::size_t>(v)]; }
json to_value(BoardResult v) { return BOARD_RESULT_NAMES[static_cast<std::size_t>(v)]; }
json to_value(PgnNotation v) { return NOTATION_NAMES[static_cast<std::size_t>(v)]; }
template <class T>
json to_value(const std::vector<T>& v);
template <class T>
    requires std::is_class_v<T>
json to_value(const T& v);

class Writer {
public:
    explicit Writer(json& j) : j_(j) {}
    template <class T>
    void operator()(const char* key, const T& v) {
        j_[key] = to_value(v);
    }
    template <class T>
    void operator()(const char* key, const T& v, long long, long long) {
        j_[key] = to_value(v);
    }
    template <class T>
    void opt(const char* key, const std::optional<T>& v) {
        if (v) j_[key] = to_value(*v);
    }
    // Optional plain fields are left out when they hold their default value.
    template <class T>
    void opt(const char* key, const T& v) {
        if (!(v == T{})) j_[key] = to_value(v);
    }
    template <class T>
    void opt(const char* key, const T& v, long long, long long) {
        opt(key, v);
    }

private:
    json& j_;
};

template <class T>
json to_value(const std::vector<T>& v) {
    json a = json::array();
    for (const T& x : v) a.push_back(to_value(x));
    return a;
}

template <class T>
    requires std::is_class_v<T>
json to_value(const T& v) {
    json o = json::object();
    Writer w(o);
    // fields() only reads through the writer; it is non-const so one list serves both ways.
    const_cast<T&>(v).fields(w);
    return o;
}

template <class T>
std::string encode_struct(const T& m) {
    json o = json::object();
    o["type"] = T::TYPE;
    Writer w(o);
    const_cast<T&>(m).fields(w);
    return o.dump(-1, ' ', false, json::error_handler_t::replace);
}

template <class Variant>
std::string encode_variant(const Variant& m) {
    return std::visit([](const auto& x) { return encode_struct(x); }, m);
}

}  // namespace

std::string encode(const ClientMessage& m) { return encode_variant(m); }
std::string encode(const ServerMessage& m) { return encode_variant(m); }
std::string encode_line(const ClientMessage& m) { return encode(m) + '\n'; }
std::string encode_line(const ServerMessage& m) { return encode(m) + '\n'; }

template <class M>
std::string encode_line_of(const M& m) {
    static_assert(std::is_same_v<decltype(encode_struct(m)), std::string>);
    return encode_struct(m) + '\n';
}

// Every alternative of ClientMessage and ServerMessage (a missing one fails at link time;
// codec_test checks each one against encode_line of the variant).
template std::string encode_line_of<Hello>(const Hello&);
template std::string encode_line_of<Ping>(const Ping&);
template std::string encode_line_of<ListTables>(const ListTables&);
template std::string encode_line_of<ListUsers>(const ListUsers&);
template std::string encode_line_of<CreateTable>(const CreateTable&);
template std::string encode_line_of<Join>(const Join&);
template std::string encode_line_of<Leave>(const Leave&);
template std::string encode_line_of<Sync>(const Sync&);
template std::string encode_line_of<MoveRequest>(const MoveRequest&);
template std::string encode_line_of<ChatSend>(const ChatSend&);
template std::string encode_line_of<RequestAi>(const RequestAi&);
template std::string encode_line_of<Resign>(const Resign&);
template std::string encode_line_of<OfferDraw>(const OfferDraw&);
template std::string encode_line_of<AnswerDraw>(const AnswerDraw&);
template std::string encode_line_of<RequestTakeback>(const RequestTakeback&);
template std::string encode_line_of<AnswerTakeback>(const AnswerTakeback&);
template std::string encode_line_of<NewGame>(const NewGame&);
template std::string encode_line_of<Invite>(const Invite&);
template std::string encode_line_of<AnswerInvite>(const AnswerInvite&);
template std::string encode_line_of<ListGames>(const ListGames&);
template std::string encode_line_of<GetGame>(const GetGame&);
template std::string encode_line_of<Pong>(const Pong&);
template std::string encode_line_of<ClaimWin>(const ClaimWin&);
template std::string encode_line_of<CreateTournament>(const CreateTournament&);
template std::string encode_line_of<JoinTournament>(const JoinTournament&);
template std::string encode_line_of<LeaveTournament>(const LeaveTournament&);
template std::string encode_line_of<StartTournament>(const StartTournament&);
template std::string encode_line_of<ListTournaments>(const ListTournaments&);
template std::string encode_line_of<GetTournament>(const GetTournament&);
template std::string encode_line_of<WithdrawOffer>(const WithdrawOffer&);
template std::string encode_line_of<Register>(const Register&);
template std::string encode_line_of<ChangePassword>(const ChangePassword&);
template std::string encode_line_of<AnalyseGame>(const AnalyseGame&);
template std::string encode_line_of<CancelAnalysis>(const CancelAnalysis&);
template std::string encode_line_of<ArbiterRequest>(const ArbiterRequest&);
template std::string encode_line_of<GetTournamentPgn>(const GetTournamentPgn&);
template std::string encode_line_of<Welcome>(const Welcome&);
template std::string encode_line_of<Error>(const Error&);
template std::string encode_line_of<Tables>(const Tables&);
template std::string encode_line_of<Users>(const Users&);
template std::string encode_line_of<UserJoined>(const UserJoined&);
template std::string encode_line_of<UserLeft>(const UserLeft&);
template std::string encode_line_of<TableUpdate>(const TableUpdate&);
template std::string encode_line_of<TableRemoved>(const TableRemoved&);
template std::string encode_line_of<TableSnapshot>(const TableSnapshot&);
template std::string encode_line_of<SnapshotMoves>(const SnapshotMoves&);
template std::string encode_line_of<PlayerJoined>(const PlayerJoined&);
template std::string encode_line_of<PlayerLeft>(const PlayerLeft&);
template std::string encode_line_of<PlayerReturned>(const PlayerReturned&);
template std::string encode_line_of<MoveMade>(const MoveMade&);
template std::string encode_line_of<GameOver>(const GameOver&);
template std::string encode_line_of<ChatLine>(const ChatLine&);
template std::string encode_line_of<AiProgress>(const AiProgress&);
template std::string encode_line_of<DrawOffered>(const DrawOffered&);
template std::string encode_line_of<DrawAnswered>(const DrawAnswered&);
template std::string encode_line_of<TakebackRequested>(const TakebackRequested&);
template std::string encode_line_of<TakebackAnswered>(const TakebackAnswered&);
template std::string encode_line_of<TakebackDone>(const TakebackDone&);
template std::string encode_line_of<NewGameOffered>(const NewGameOffered&);
template std::string encode_line_of<InviteReceived>(const InviteReceived&);
template std::string encode_line_of<InviteAnswered>(const InviteAnswered&);
template std::string encode_line_of<LeftTable>(const LeftTable&);
template std::string encode_line_of<Games>(const Games&);
template std::string encode_line_of<GameRecord>(const GameRecord&);
template std::string encode_line_of<SeatAbandoned>(const SeatAbandoned&);
template std::string encode_line_of<Notice>(const Notice&);
template std::string encode_line_of<Registered>(const Registered&);
template std::string encode_line_of<PasswordChanged>(const PasswordChanged&);
template std::string encode_line_of<Tournament>(const Tournament&);
template std::string encode_line_of<Tournaments>(const Tournaments&);
template std::string encode_line_of<OfferWithdrawn>(const OfferWithdrawn&);
template std::string encode_line_of<AnalysisProgress>(const AnalysisProgress&);
template std::string encode_line_of<Analysis>(const Analysis&);
template std::string encode_line_of<ArbiterAction>(const ArbiterAction&);
template std::string encode_line_of<TournamentPgn>(const TournamentPgn&);
template std::string encode_line_of<GetExplorer>(const GetExplorer&);
template std::string encode_line_of<RequestHint>(const RequestHint&);
template std::string encode_line_of<Explorer>(const Explorer&);
template std::string encode_line_of<Hint>(const Hint&);
template std::string encode_line_of<HintUsed>(const HintUsed&);

std::string_view type_name(const ClientMessage& m) {
    return std::visit([](const auto& x) { return std::decay_t<decltype(x)>::TYPE; }, m);
}
std::string_view type_name(const ServerMessage& m) {
    return std::visit([](const auto& x) { return std::decay_t<decltype(x)>::TYPE; }, m);
}

}  // namespace xq::proto
