// The codec's decoder: an untrusted line checked (size, UTF-8, depth, duplicate keys, byte
// order mark), parsed, and read through the message's fields() list with each field's range;
// the first problem becomes a typed DecodeError, never an exception.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <type_traits>

#include "protocol/codec.h"
#include "protocol/utf8.h"
#include "protocol/wire_names.h"

namespace xq::proto {

using json = nlohmann::json;
using namespace wire;

namespace {

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

}  // namespace

Decoded<ClientMessage> decode_client(std::string_view line) { return decode_line<ClientMessage>(line); }
Decoded<ServerMessage> decode_server(std::string_view line) { return decode_line<ServerMessage>(line); }

}  // namespace xq::proto
