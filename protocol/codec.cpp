#include "protocol/codec.h"

#include <nlohmann/json.hpp>

#include <array>
#include <limits>
#include <set>
#include <type_traits>

#include "protocol/utf8.h"

namespace xq::proto {

using json = nlohmann::json;

namespace {

// ---- Enum names ------------------------------------------------------------------------

constexpr std::array<std::string_view, 3> ROLE_NAMES = {"red", "black", "spectator"};
constexpr std::array<std::string_view, 2> SCOPE_NAMES = {"lobby", "table"};
constexpr std::array<std::string_view, 3> STATUS_NAMES = {"waiting", "playing", "over"};
constexpr std::array<std::string_view, 4> LEAVE_NAMES = {"left", "disconnected", "dropped",
                                                         "replaced"};
constexpr std::array<std::string_view, 2> COLOR_NAMES = {"red", "black"};
constexpr std::array<std::string_view, 2> ABANDON_NAMES = {"claim", "ai"};
constexpr std::array<std::string_view, 2> FORMAT_NAMES = {"round_robin", "swiss"};
constexpr std::array<std::string_view, 3> TOURNAMENT_STATE_NAMES = {"open", "running", "finished"};
constexpr std::array<std::string_view, 8> BOARD_RESULT_NAMES = {
    "*", "1-0", "1/2-1/2", "0-1", "red_forfeit", "black_forfeit", "double_forfeit", "bye"};
constexpr std::array<std::string_view, 3> OFFER_NAMES = {"draw", "takeback", "new_game"};
constexpr std::array<std::string_view, 5> ARBITER_NAMES = {"pause", "resume", "add_time", "adjudicate", "cancel"};
constexpr std::array<std::string_view, 4> OUTCOME_NAMES = {"*", "1-0", "0-1", "1/2-1/2"};
constexpr std::array<std::string_view, 3> NOTATION_NAMES = {"iccs", "wxf", "chinese"};

template <class E, std::size_t N>
bool enum_from(const std::array<std::string_view, N>& names, std::string_view s, E& out) {
    for (std::size_t i = 0; i < N; ++i) {
        if (names[i] == s) {
            out = static_cast<E>(i);
            return true;
        }
    }
    return false;
}

// ---- Encoding --------------------------------------------------------------------------

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

// ---- Decoding --------------------------------------------------------------------------

// Reads fields from one JSON object; remembers the first problem.
class Reader {
public:
    Reader(const json& j, std::string path, std::string& err) : j_(j), path_(std::move(path)), err_(err) {}

    template <class T>
    void operator()(const char* key, T& v) {
        get(key, v, true, std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max());
    }
    template <class T>
    void operator()(const char* key, T& v, long long lo, long long hi) {
        get(key, v, true, lo, hi);
    }
    template <class T>
    void opt(const char* key, T& v) {
        get(key, v, false, std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max());
    }
    template <class T>
    void opt(const char* key, T& v, long long lo, long long hi) {
        get(key, v, false, lo, hi);
    }

private:
    template <class T>
    void get(const char* key, T& v, bool required, long long lo, long long hi) {
        if (!err_.empty()) return;
        const auto it = j_.find(key);
        if (it == j_.end() || it->is_null()) {
            if (required) err_ = "missing field '" + path_ + key + "'";
            return;
        }
        std::string why;
        if (!read(*it, v, lo, hi, path_ + key, why)) err_ = why;
    }

    static bool fail(std::string& why, const std::string& name, const char* expected) {
        why = "field '" + name + "' must be " + expected;
        return false;
    }

    template <class I>
    static bool read_int(const json& j, I& v, long long lo, long long hi, const std::string& name,
                         std::string& why) {
        long long lo2 = std::max<long long>(lo, std::is_signed_v<I> ? std::numeric_limits<I>::min() : 0);
        long long hi2 = hi;
        if constexpr (sizeof(I) < sizeof(long long) || std::is_signed_v<I>)
            hi2 = std::min<long long>(hi, static_cast<long long>(std::numeric_limits<I>::max()));
        if (!j.is_number_integer())
            return fail(why, name, "an integer");
        if (j.is_number_unsigned()) {
            const auto u = j.get<std::uint64_t>();
            if constexpr (std::is_same_v<I, std::uint64_t>) {
                if (lo2 <= 0) {
                    v = u;
                    return true;
                }
            }
            if (u > static_cast<std::uint64_t>(std::numeric_limits<long long>::max()) ||
                static_cast<long long>(u) > hi2 || static_cast<long long>(u) < lo2) {
                why = "field '" + name + "' is out of range " + std::to_string(lo2) + ".." + std::to_string(hi2);
                return false;
            }
            v = static_cast<I>(u);
            return true;
        }
        const auto s = j.get<long long>();
        if (s < lo2 || s > hi2) {
            why = "field '" + name + "' is out of range " + std::to_string(lo2) + ".." + std::to_string(hi2);
            return false;
        }
        v = static_cast<I>(s);
        return true;
    }

    static bool read(const json& j, int& v, long long lo, long long hi, const std::string& n, std::string& w) {
        return read_int(j, v, lo, hi, n, w);
    }
    static bool read(const json& j, std::int64_t& v, long long lo, long long hi, const std::string& n, std::string& w) {
        return read_int(j, v, lo, hi, n, w);
    }
    static bool read(const json& j, std::uint32_t& v, long long lo, long long hi, const std::string& n, std::string& w) {
        return read_int(j, v, lo, hi, n, w);
    }
    static bool read(const json& j, std::uint64_t& v, long long lo, long long hi, const std::string& n, std::string& w) {
        return read_int(j, v, lo, hi, n, w);
    }
    static bool read(const json& j, bool& v, long long, long long, const std::string& n, std::string& w) {
        if (!j.is_boolean()) return fail(w, n, "true or false");
        v = j.get<bool>();
        return true;
    }
    static bool read(const json& j, std::string& v, long long, long long, const std::string& n, std::string& w) {
        if (!j.is_string()) return fail(w, n, "a string");
        v = j.get<std::string>();
        return true;
    }
    template <class E, std::size_t N>
    static bool read_enum(const json& j, E& v, const std::array<std::string_view, N>& names,
                          const std::string& n, std::string& w) {
        if (!j.is_string() || !enum_from(names, j.get_ref<const std::string&>(), v)) {
            w = "field '" + n + "' must be one of:";
            for (auto s : names) w += std::string(" ") + std::string(s);
            return false;
        }
        return true;
    }
    static bool read(const json& j, Role& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, ROLE_NAMES, n, w);
    }
    static bool read(const json& j, ChatScope& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, SCOPE_NAMES, n, w);
    }
    static bool read(const json& j, TableStatus& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, STATUS_NAMES, n, w);
    }
    static bool read(const json& j, LeaveReason& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, LEAVE_NAMES, n, w);
    }
    static bool read(const json& j, Color& v, long long, long long, const std::string& n, std::string& w) {
        int idx = 0;
        if (!read_enum(j, idx, COLOR_NAMES, n, w)) return false;
        v = idx == 0 ? RED : BLACK;
        return true;
    }
    static bool read(const json& j, OfferKind& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, OFFER_NAMES, n, w);
    }
    static bool read(const json& j, ArbiterKind& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, ARBITER_NAMES, n, w);
    }
    static bool read(const json& j, AbandonPolicy& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, ABANDON_NAMES, n, w);
    }
    static bool read(const json& j, Outcome& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, OUTCOME_NAMES, n, w);
    }
    static bool read(const json& j, TournamentFormat& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, FORMAT_NAMES, n, w);
    }
    static bool read(const json& j, TournamentState& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, TOURNAMENT_STATE_NAMES, n, w);
    }
    static bool read(const json& j, BoardResult& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, BOARD_RESULT_NAMES, n, w);
    }
    static bool read(const json& j, PgnNotation& v, long long, long long, const std::string& n, std::string& w) {
        return read_enum(j, v, NOTATION_NAMES, n, w);
    }
    static bool read(const json& j, ErrorCode& v, long long, long long, const std::string& n, std::string& w) {
        if (!j.is_string()) return fail(w, n, "a string");
        const auto c = error_code_from_name(j.get_ref<const std::string&>());
        // Codes from a newer server still decode, as "internal".
        v = c ? *c : ErrorCode::Internal;
        return true;
    }
    template <class T>
    static bool read(const json& j, std::optional<T>& v, long long lo, long long hi, const std::string& n,
                     std::string& w) {
        T x{};
        if (!read(j, x, lo, hi, n, w)) return false;
        v = std::move(x);
        return true;
    }
    template <class T>
    static bool read(const json& j, std::vector<T>& v, long long lo, long long hi, const std::string& n,
                     std::string& w) {
        if (!j.is_array()) return fail(w, n, "an array");
        v.clear();
        v.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i) {
            T x{};
            if (!read(j[i], x, lo, hi, n + "[" + std::to_string(i) + "]", w)) return false;
            v.push_back(std::move(x));
        }
        return true;
    }
    template <class T>
        requires std::is_class_v<T>
    static bool read(const json& j, T& v, long long, long long, const std::string& n, std::string& w) {
        if (!j.is_object()) return fail(w, n, "an object");
        std::string err;
        Reader r(j, n + ".", err);
        v.fields(r);
        if (!err.empty()) {
            w = err;
            return false;
        }
        return true;
    }

    const json& j_;
    std::string path_;
    std::string& err_;
};

// Nesting depth outside strings; stops counting once past the limit.
bool too_deep(std::string_view line) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : line) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '{' || c == '[') {
            if (++depth > MAX_JSON_DEPTH) return true;
        } else if (c == '}' || c == ']') --depth;
    }
    return false;
}

std::string printable_type(const std::string& t) {
    std::string s = cut_code_points(t, 40);
    return has_control_chars(s) ? std::string("?") : s;
}

template <class Variant, std::size_t I = 0>
bool decode_alternative(const std::string& type, const json& j, Variant& out, std::string& err) {
    if constexpr (I == std::variant_size_v<Variant>) {
        return false;
    } else {
        using T = std::variant_alternative_t<I, Variant>;
        if (type == T::TYPE) {
            T m{};
            Reader r(j, "", err);
            m.fields(r);
            if (err.empty()) out = std::move(m);
            return true;
        }
        return decode_alternative<Variant, I + 1>(type, j, out, err);
    }
}

template <class Variant>
Decoded<Variant> decode_line(std::string_view line) {
    if (line.size() > MAX_LINE_BYTES)
        return DecodeError{ErrorCode::LineTooLong,
                           "line longer than " + std::to_string(MAX_LINE_BYTES) + " bytes", ""};
    if (!valid_utf8(line)) return DecodeError{ErrorCode::BadUtf8, "line is not valid UTF-8", ""};
    if (too_deep(line))
        return DecodeError{ErrorCode::TooDeep,
                           "JSON nested deeper than " + std::to_string(MAX_JSON_DEPTH) + " levels", ""};
    // nlohmann skips a leading byte order mark; the protocol has none (PROTOCOL.md, Framing).
    if (line.starts_with("\xEF\xBB\xBF"))
        return DecodeError{ErrorCode::BadJson, "line starts with a byte order mark (U+FEFF)", ""};
    try {
        // Duplicate keys are refused: with two "type"s (or two "move"s) the sender and a
        // reader could each believe a different one.
        std::vector<std::set<std::string>> keys;
        std::string duplicate;
        const json::parser_callback_t cb = [&](int, json::parse_event_t event, json& parsed) {
            switch (event) {
            case json::parse_event_t::object_start: keys.emplace_back(); break;
            case json::parse_event_t::object_end:
                if (!keys.empty()) keys.pop_back();
                break;
            case json::parse_event_t::key:
                if (!keys.empty() && parsed.is_string()) {
                    const auto& k = parsed.get_ref<const std::string&>();
                    if (!keys.back().insert(k).second && duplicate.empty()) duplicate = k;
                }
                break;
            default: break;
            }
            return true;
        };
        const json j = json::parse(line, cb, /*allow_exceptions=*/false);
        if (j.is_discarded()) return DecodeError{ErrorCode::BadJson, "line is not valid JSON", ""};
        if (!duplicate.empty())
            return DecodeError{ErrorCode::BadJson, "duplicate key \"" + printable_type(duplicate) + "\"", ""};
        if (!j.is_object()) return DecodeError{ErrorCode::BadJson, "line is not a JSON object", ""};
        const auto t = j.find("type");
        if (t == j.end() || !t->is_string())
            return DecodeError{ErrorCode::MissingType, "object has no \"type\" string", ""};
        const std::string& type = t->get_ref<const std::string&>();
        Variant out;
        std::string err;
        if (!decode_alternative(type, j, out, err))
            return DecodeError{ErrorCode::UnknownType, "unknown message type '" + printable_type(type) + "'",
                               printable_type(type)};
        if (!err.empty()) return DecodeError{ErrorCode::BadField, err, type};
        return out;
    } catch (const std::exception& e) {
        // Not expected with allow_exceptions=false; kept so a codec bug never escapes.
        return DecodeError{ErrorCode::BadJson, std::string("could not decode: ") + e.what(), ""};
    }
}

template <class Variant>
std::string encode_variant(const Variant& m) {
    return std::visit([](const auto& x) { return encode_struct(x); }, m);
}

}  // namespace

Decoded<ClientMessage> decode_client(std::string_view line) { return decode_line<ClientMessage>(line); }
Decoded<ServerMessage> decode_server(std::string_view line) { return decode_line<ServerMessage>(line); }

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

std::string_view role_name(Role r) { return ROLE_NAMES[static_cast<std::size_t>(r)]; }
std::string_view scope_name(ChatScope s) { return SCOPE_NAMES[static_cast<std::size_t>(s)]; }
std::string_view status_name(TableStatus s) { return STATUS_NAMES[static_cast<std::size_t>(s)]; }
std::string_view leave_reason_name(LeaveReason r) { return LEAVE_NAMES[static_cast<std::size_t>(r)]; }
std::string_view color_wire_name(Color c) { return COLOR_NAMES[c == RED ? 0 : 1]; }
std::string_view abandon_policy_name(AbandonPolicy p) { return ABANDON_NAMES[static_cast<std::size_t>(p)]; }
std::string_view board_result_name(BoardResult r) { return BOARD_RESULT_NAMES[static_cast<std::size_t>(r)]; }
std::string_view notation_name(PgnNotation n) { return NOTATION_NAMES[static_cast<std::size_t>(n)]; }

std::string check_name(std::string_view name) {
    if (name.empty()) return "name is empty";
    if (!valid_utf8(name)) return "name is not valid UTF-8";
    if (has_control_chars(name)) return "name contains control characters";
    if (count_code_points(name) > MAX_NAME_CODE_POINTS)
        return "name is longer than " + std::to_string(MAX_NAME_CODE_POINTS) + " characters";
    if (name.front() == ' ' || name.back() == ' ') return "name starts or ends with a space";
    return {};
}

bool is_iccs_syntax(std::string_view t) {
    return t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
           t[2] <= 'i' && t[3] >= '0' && t[3] <= '9';
}

}  // namespace xq::proto
