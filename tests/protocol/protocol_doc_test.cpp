// The wire examples of protocol/PROTOCOL.md against the codec: every JSON message the
// document shows (in ```json blocks and in `inline` spans) is decoded with the project's
// codec, and every field the example names must come back, with the same value, when the
// decoded message is encoded again. A field renamed in the code but not in the document (or
// the reverse) fails here, which a round trip of the encoder's own output cannot catch.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "protocol/codec.h"
#include "protocol/discovery.h"

namespace xq::proto {
namespace {

using nlohmann::json;

std::string read_doc() {
    std::ifstream in(XQ_PROTOCOL_MD);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The examples write elided parts as {...table info...}, "...", [...] and N; each becomes a
// concrete value of the right shape (the table info is the document's own example).
std::string fill_placeholders(std::string text, const std::string& table_info) {
    text = std::regex_replace(text, std::regex(R"(\{\.\.\.table info\.\.\.\})"), table_info);
    text = std::regex_replace(text, std::regex(R"("moves":\[\.\.\.\])"), R"("moves":["h2e2"])");
    text = std::regex_replace(text, std::regex(R"("id":N\b)"), R"("id":1)");
    return text;
}

struct Example {
    int line = 0;
    std::string text;
};

// Every JSON object with a "type" the document shows, and the table info example.
std::vector<Example> examples(const std::string& doc, std::string* table_info) {
    std::vector<Example> out;
    std::istringstream in(doc);
    std::string line, block;
    bool in_json = false;
    int n = 0, block_line = 0;
    auto flush_block = [&] {
        // A block holds one object per line, or one object spread over several lines.
        std::string joined;
        std::istringstream b(block);
        std::string l;
        int depth = 0, start = block_line;
        for (int k = 0; std::getline(b, l); ++k) {
            if (depth == 0) start = block_line + k;
            joined += l;
            for (char c : l) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (depth == 0 && !joined.empty()) {
                if (joined.find("\"type\"") == std::string::npos) *table_info = joined;
                else out.push_back({start, joined});
                joined.clear();
            }
        }
        block.clear();
    };
    const std::regex inline_json(R"(`(\{"type":[^`]*\})`)");
    while (std::getline(in, line)) {
        ++n;
        if (line.rfind("```json", 0) == 0) {
            in_json = true;
            block_line = n + 1;
            continue;
        }
        if (in_json) {
            if (line.rfind("```", 0) == 0) {
                in_json = false;
                flush_block();
            } else {
                block += line + "\n";
            }
            continue;
        }
        for (std::sregex_iterator it(line.begin(), line.end(), inline_json), end; it != end; ++it)
            out.push_back({n, (*it)[1].str()});
    }
    return out;
}

// Every field of `want` is in `got` with an equal value (objects compared field by field,
// recursively; arrays element by element). Top-level fields missing from `got` are listed in
// `missing` for the caller to judge; nested ones are differences.
void expect_fields(const json& want, const json& got, const std::string& path, std::vector<std::string>* diffs,
                   std::vector<std::string>* missing) {
    if (want.is_object()) {
        if (!got.is_object()) {
            diffs->push_back(path + ": not an object in the codec's output");
            return;
        }
        for (const auto& [k, v] : want.items()) {
            if (got.contains(k)) expect_fields(v, got.at(k), path + "." + k, diffs, nullptr);
            else if (missing) missing->push_back(k);
            else diffs->push_back(path + "." + k + ": missing from the codec's output");
        }
    } else if (want.is_array()) {
        if (!got.is_array() || got.size() != want.size()) {
            diffs->push_back(path + ": " + got.dump() + " instead of " + want.dump());
            return;
        }
        for (std::size_t i = 0; i < want.size(); ++i)
            expect_fields(want[i], got[i], path + "[" + std::to_string(i) + "]", diffs, nullptr);
    } else if (want != got) {
        diffs->push_back(path + ": " + got.dump() + " instead of " + want.dump());
    }
}

// The names a message's fields() declares (required and optional).
struct FieldNames {
    std::set<std::string>* names;
    template <class... A>
    void operator()(std::string_view name, A&&...) {
        names->insert(std::string(name));
    }
    template <class... A>
    void opt(std::string_view name, A&&...) {
        names->insert(std::string(name));
    }
};

// One codec's reading of an example: the message encoded again, the field names of its
// type, and the same codec for variants of the example.
struct View {
    json got;
    std::set<std::string> names;
    std::function<std::optional<json>(const std::string&)> reencode;
};

template <class Variant>
std::set<std::string> names_of(Variant& v) {
    std::set<std::string> names;
    std::visit(
        [&](auto& m) {
            FieldNames f{&names};
            m.fields(f);
        },
        v);
    return names;
}

// The example decoded by every codec that accepts it. Messages that exist in both
// directions (chat, offer_draw, ...) are tried as both, and the one that keeps every field
// wins.
std::vector<View> codec_views(const std::string& text, std::vector<std::string>* errors) {
    std::vector<View> views;
    auto client = [](const std::string& t) -> std::optional<json> {
        auto c = decode_client(t);
        if (!c.ok()) return std::nullopt;
        return json::parse(encode(c.value()));
    };
    auto server = [](const std::string& t) -> std::optional<json> {
        auto c = decode_server(t);
        if (!c.ok()) return std::nullopt;
        return json::parse(encode(c.value()));
    };
    if (auto c = decode_client(text); c.ok()) views.push_back({*client(text), names_of(c.value()), client});
    else errors->push_back("client: " + c.error().message);
    if (auto c = decode_server(text); c.ok()) views.push_back({*server(text), names_of(c.value()), server});
    else errors->push_back("server: " + c.error().message);
    // Discovery datagrams: every field is required, so nothing is left out when encoding.
    std::string err;
    if (auto q = decode_discovery_query(text, &err)) views.push_back({json::parse(encode_discovery_query(*q)), {}, {}});
    else errors->push_back("discovery query: " + err);
    if (auto r = decode_discovery_reply(text, &err)) views.push_back({json::parse(encode_discovery_reply(*r)), {}, {}});
    else errors->push_back("discovery reply: " + err);
    return views;
}

// A top-level field the encoder left out is fine only when it is one of the message's own
// fields and holds that field's default (the encoder omits optional fields at their
// default): the example without it must encode to the same line.
std::vector<std::string> judge_missing(const View& v, const json& want, const std::vector<std::string>& missing) {
    std::vector<std::string> diffs;
    for (const auto& k : missing) {
        if (!v.names.count(k)) {
            diffs.push_back("." + k + ": not a field of this message in the codec");
            continue;
        }
        json without = want;
        without.erase(k);
        const auto again = v.reencode ? v.reencode(without.dump()) : std::nullopt;
        if (!again || *again != v.got) diffs.push_back("." + k + ": missing from the codec's output");
    }
    return diffs;
}

TEST(ProtocolDoc, EveryJsonExampleDecodesWithEveryField) {
    const std::string doc = read_doc();
    ASSERT_FALSE(doc.empty()) << "cannot read " << XQ_PROTOCOL_MD;
    std::string table_info;
    const auto all = examples(doc, &table_info);
    ASSERT_FALSE(table_info.empty()) << "the table info example is gone from PROTOCOL.md";
    std::set<std::string> types;
    for (const auto& ex : all) {
        const std::string text = fill_placeholders(ex.text, table_info);
        json want;
        try {
            want = json::parse(text);
        } catch (const std::exception& e) {
            ADD_FAILURE() << "PROTOCOL.md:" << ex.line << ": not JSON (" << e.what() << "): " << ex.text;
            continue;
        }
        const std::string type = want.at("type").get<std::string>();
        types.insert(type);
        std::vector<std::string> errors;
        const auto views = codec_views(text, &errors);
        if (views.empty()) {
            std::string why;
            for (const auto& e : errors) why += "\n  " + e;
            ADD_FAILURE() << "PROTOCOL.md:" << ex.line << ": no codec decodes " << ex.text << why;
            continue;
        }
        std::vector<std::string> best;
        bool matched = false;
        for (const auto& v : views) {
            std::vector<std::string> diffs, missing;
            expect_fields(want, v.got, "", &diffs, &missing);
            for (auto& d : judge_missing(v, want, missing)) diffs.push_back(std::move(d));
            if (diffs.empty()) matched = true;
            else if (best.empty() || diffs.size() < best.size()) best = diffs;
        }
        if (!matched) {
            std::string why;
            for (const auto& d : best) why += "\n  " + d;
            ADD_FAILURE() << "PROTOCOL.md:" << ex.line << ": the codec does not keep " << ex.text << why;
        }
    }
    // The document held 30 examples of 27 message types when this test was written; a parser
    // that found fewer would make this test pass for nothing.
    EXPECT_GE(all.size(), 30u);
    EXPECT_GE(types.size(), 27u);
}

TEST(ProtocolDoc, ThePlaceholderFillingKeepsEveryExampleJson) {
    // The filler must not touch examples without placeholders, and must make the table
    // snapshot (which elides its table) a complete message.
    const std::string plain = R"({"type":"ping","id":3})";
    EXPECT_EQ(fill_placeholders(plain, "{}"), plain);
    const auto filled = fill_placeholders(R"({"type":"x","table":{...table info...},"moves":[...],"id":N})", R"({"id":7})");
    EXPECT_EQ(filled, R"({"type":"x","table":{"id":7},"moves":["h2e2"],"id":1})");
}

}  // namespace
}  // namespace xq::proto
