// The codec refuses bad lines with a typed error that names the request and the field: bad
// JSON, missing or unknown types, fields of the wrong kind or out of range, nesting, duplicate
// keys; and the checks of names, ICCS text and error code names.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/codec.h"

namespace xq::proto {
namespace {

struct BadCase {
    std::string line;
    ErrorCode code;
};

TEST(Codec, BadInputGivesTypedErrors) {
    std::string deep = R"({"type":"ping","x":)";
    for (int i = 0; i < 20; ++i) deep += "[";
    for (int i = 0; i < 20; ++i) deep += "]";
    deep += "}";
    const std::vector<BadCase> cases = {
        {"not json", ErrorCode::BadJson},
        {"{\"type\":\"ping\"", ErrorCode::BadJson},
        {"[1,2,3]", ErrorCode::BadJson},
        {"\"hello\"", ErrorCode::BadJson},
        {"{}", ErrorCode::MissingType},
        {R"({"type":5})", ErrorCode::MissingType},
        {R"({"type":"launch_missiles"})", ErrorCode::UnknownType},
        {R"({"type":"welcome","session":"x"})", ErrorCode::UnknownType},  // server-only type
        {R"({"type":"move","table":7,"ply":"12","move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":7,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":-1,"ply":0,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":7,"ply":1.5,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":99999999999,"ply":0,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"join","table":7,"as":"referee"})", ErrorCode::BadField},
        {R"({"type":"request_ai","table":7,"seat":"red","level":11})", ErrorCode::BadField},
        {R"({"type":"request_ai","table":7,"seat":"red","level":0})", ErrorCode::BadField},
        {R"({"type":"answer_draw","table":7,"accept":"yes"})", ErrorCode::BadField},
        {R"({"type":"hello","name":"a","version":1,"resume":3})", ErrorCode::BadField},
        {"{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xFF\"}", ErrorCode::BadUtf8},
        {deep, ErrorCode::TooDeep},
        {std::string(MAX_LINE_BYTES + 1, ' '), ErrorCode::LineTooLong},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.line.substr(0, 80));
        const auto d = decode_client(c.line);
        ASSERT_FALSE(d.ok());
        EXPECT_EQ(d.error().code, c.code) << d.error().message;
        EXPECT_FALSE(d.error().message.empty());
    }
}

TEST(Codec, FieldErrorsNameTheRequestAndField) {
    const auto d = decode_client(R"({"type":"move","table":7,"ply":"x","move":"h2e2"})");
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().type, "move");
    EXPECT_NE(d.error().message.find("ply"), std::string::npos);
    const auto n = decode_server(R"({"type":"tables","tables":[{"id":1}]})");
    ASSERT_FALSE(n.ok());
    EXPECT_NE(n.error().message.find("tables[0].name"), std::string::npos) << n.error().message;
}

// Issue #15, point 6: an out-of-range list_games.limit is refused, not silently clamped.
TEST(Codec, ListGamesLimitOutOfRangeIsABadField) {
    for (const char* line : {R"({"type":"list_games","limit":1000})", R"({"type":"list_games","limit":-5})",
                             R"({"type":"list_games","limit":51})"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadField) << line;
        EXPECT_NE(d.error().message.find("limit"), std::string::npos) << d.error().message;
    }
    EXPECT_TRUE(decode_client(R"({"type":"list_games","limit":50})").ok());
    EXPECT_TRUE(decode_client(R"({"type":"list_games","limit":0})").ok());
}

// The lobby's pages (PROTOCOL.md, Lobby lists): offset 0..1,000,000, limit 0..100 tables or
// 0..200 users; anything else (negative, too large, not an integer) is bad_field.
TEST(Codec, ListPagesOutOfRangeAreBadFields) {
    for (const char* line :
         {R"({"type":"list_users","offset":-1})", R"({"type":"list_users","offset":1000001})",
          R"({"type":"list_users","limit":201})", R"({"type":"list_users","limit":-1})",
          R"({"type":"list_users","offset":"5"})", R"({"type":"list_users","offset":1.5})",
          R"({"type":"list_tables","limit":101})", R"({"type":"list_tables","offset":-100})",
          R"({"type":"list_tables","limit":true})", R"({"type":"list_tables","offset":99999999999})"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadField) << line;
        EXPECT_TRUE(d.error().message.find("offset") != std::string::npos ||
                    d.error().message.find("limit") != std::string::npos)
            << d.error().message;
    }
    const auto users = decode_client(R"({"type":"list_users","offset":1000000,"limit":200})");
    ASSERT_TRUE(users.ok());
    EXPECT_EQ(std::get<ListUsers>(users.value()).offset, 1'000'000);
    EXPECT_EQ(std::get<ListUsers>(users.value()).limit, 200);
    const auto tables = decode_client(R"({"type":"list_tables","limit":100})");
    ASSERT_TRUE(tables.ok());
    EXPECT_EQ(std::get<ListTables>(tables.value()).offset, 0);
    EXPECT_EQ(std::get<ListTables>(tables.value()).limit, 100);
}

TEST(Codec, NestingAtTheLimitIsAccepted) {
    // Depth 1 (the object) + 7 arrays = MAX_JSON_DEPTH.
    std::string line = R"({"type":"ping","x":)";
    for (int i = 1; i < MAX_JSON_DEPTH; ++i) line += "[";
    for (int i = 1; i < MAX_JSON_DEPTH; ++i) line += "]";
    line += "}";
    EXPECT_TRUE(decode_client(line).ok());
    // Brackets inside strings do not count.
    EXPECT_TRUE(decode_client(R"({"type":"chat","scope":"lobby","text":"[[[[[[[[[[[[{{{{{{\"]]"})").ok());
}

TEST(Codec, ErrorCodeNamesAreUniqueAndRoundTrip) {
    std::set<std::string_view> names;
    for (int i = 0; i < ERROR_CODE_COUNT; ++i) {
        const auto c = static_cast<ErrorCode>(i);
        const auto n = error_code_name(c);
        EXPECT_TRUE(names.insert(n).second) << n;
        EXPECT_EQ(error_code_from_name(n), c);
    }
    EXPECT_FALSE(error_code_from_name("nope").has_value());
}

TEST(Codec, UnknownErrorCodeFromANewerServerDecodesAsInternal) {
    const auto d = decode_server(R"({"type":"error","code":"brand_new","message":"m","request":"x"})");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<Error>(d.value()).code, ErrorCode::Internal);
}

TEST(Codec, NamesAreChecked) {
    EXPECT_EQ(check_name("alice"), "");
    EXPECT_EQ(check_name("小明"), "");
    EXPECT_NE(check_name(""), "");
    EXPECT_NE(check_name(" alice"), "");
    EXPECT_NE(check_name("a\tb"), "");
    EXPECT_NE(check_name(std::string(MAX_NAME_CODE_POINTS + 1, 'x')), "");
    EXPECT_EQ(check_name(std::string(MAX_NAME_CODE_POINTS, 'x')), "");
}

TEST(Codec, IccsSyntax) {
    EXPECT_TRUE(is_iccs_syntax("h2e2"));
    EXPECT_TRUE(is_iccs_syntax("a0i9"));
    EXPECT_FALSE(is_iccs_syntax("j2e2"));
    EXPECT_FALSE(is_iccs_syntax("h2e"));
    EXPECT_FALSE(is_iccs_syntax("H2-E2"));
}

TEST(Codec, TournamentRequestsAreChecked) {
    auto bad = [](const std::string& line) {
        const auto d = decode_client(line);
        return !d.ok() && d.error().code == ErrorCode::BadField;
    };
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"knockout"})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament"})"));  // format is required
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":16})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":3,"ai":[{"level":11}]})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":3,"forfeit_seconds":-1})"));
    EXPECT_TRUE(bad(R"({"type":"join_tournament","tournament":"3"})"));
    EXPECT_TRUE(decode_client(R"({"type":"create_tournament","format":"round_robin"})").ok());
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"notation":"san"})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"offset":-1})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"limit":7169})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn"})"));
    EXPECT_TRUE(decode_client(R"({"type":"get_tournament_pgn","tournament":3})").ok());
}

TEST(Codec, DuplicateKeysAndAByteOrderMarkAreBadJson) {
    for (const std::string line : {"{\"type\":\"ping\",\"type\":\"pong\",\"id\":1}",
                                   "{\"type\":\"ping\",\"id\":1,\"id\":2}",
                                   "{\"type\":\"create_table\",\"settings\":{\"grace\":1,\"grace\":2}}",
                                   "\xEF\xBB\xBF{\"type\":\"ping\",\"id\":1}"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadJson) << line;
    }
    // One key per object: the same name in two objects is fine.
    EXPECT_TRUE(decode_client("{\"type\":\"create_table\",\"name\":\"x\",\"settings\":{\"name\":1}}").ok());
}

}  // namespace
}  // namespace xq::proto
