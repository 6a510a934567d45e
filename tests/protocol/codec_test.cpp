// The codec round-trips every message of both directions (encode_line_of included), decodes
// the lines PROTOCOL.md shows, and fills left-out optional fields with their defaults.
// Refusals: codec_errors_test.cpp; the largest lines: codec_line_size_test.cpp.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>

#include "message_samples.h"
#include "protocol/codec.h"

namespace xq::proto {
namespace {

using samples::all_client_samples;
using samples::all_server_samples;

TEST(Codec, EveryClientMessageRoundTrips) {
    std::set<std::string_view> types;
    for (const ClientMessage& m : all_client_samples()) {
        const std::string text = encode(m);
        SCOPED_TRACE(text);
        const auto d = decode_client(text);
        ASSERT_TRUE(d.ok()) << d.error().message;
        EXPECT_EQ(d.value().index(), m.index());
        EXPECT_EQ(encode(d.value()), text);
        EXPECT_EQ(std::visit([](const auto& x) { return encode_line_of(x); }, m), encode_line(m));
        types.insert(type_name(m));
    }
    EXPECT_EQ(types.size(), std::variant_size_v<ClientMessage>);
}

TEST(Codec, EveryServerMessageRoundTrips) {
    std::set<std::size_t> kinds;
    for (const ServerMessage& m : all_server_samples()) {
        const std::string text = encode(m);
        SCOPED_TRACE(text);
        const auto d = decode_server(text);
        ASSERT_TRUE(d.ok()) << d.error().message;
        EXPECT_EQ(d.value().index(), m.index());
        EXPECT_EQ(encode(d.value()), text);
        EXPECT_EQ(std::visit([](const auto& x) { return encode_line_of(x); }, m), encode_line(m));
        kinds.insert(m.index());
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ServerMessage>);
}

TEST(Codec, DecodesTheDocumentedMoveLine) {
    const auto d = decode_client(R"({"type":"move","table":7,"ply":12,"move":"h2e2"})");
    ASSERT_TRUE(d.ok());
    const auto& m = std::get<MoveRequest>(d.value());
    EXPECT_EQ(m.table, 7u);
    EXPECT_EQ(m.ply, 12);
    EXPECT_EQ(m.move, "h2e2");
}

TEST(Codec, DecodesTheDocumentedArbiterLines) {
    const auto d = decode_client(R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":60})");
    ASSERT_TRUE(d.ok());
    const auto& m = std::get<ArbiterRequest>(d.value());
    EXPECT_EQ(m.action, ArbiterKind::AddTime);
    EXPECT_EQ(m.side, std::optional<Color>(BLACK));
    EXPECT_EQ(m.seconds, std::optional<int>(60));
    // Out of range and unknown actions are bad_field when the line is read.
    for (const char* bad : {R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":0})",
                            R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":3601})",
                            R"({"type":"arbiter","table":12,"action":"freeze"})",
                            R"({"type":"arbiter","table":12,"action":"adjudicate","result":"2-0","reason":"x"})"}) {
        const auto e = decode_client(bad);
        ASSERT_FALSE(e.ok()) << bad;
        EXPECT_EQ(e.error().code, ErrorCode::BadField) << bad;
    }
    const auto a = decode_server(
        R"({"type":"arbiter_action","table":12,"by":"dora","action":"add_time","side":"black","seconds":60,"ply":31,)"
        R"("clocks":{"red_ms":240000,"black_ms":95000,"running":"black"}})");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(std::get<ArbiterAction>(a.value()).clocks->black_ms, 95000);
}

TEST(Codec, OptionalFieldsTakeDefaults) {
    const auto d = decode_client(R"({"type":"create_table"})");
    ASSERT_TRUE(d.ok());
    const auto& c = std::get<CreateTable>(d.value());
    EXPECT_EQ(c.as, Role::Red);
    EXPECT_TRUE(c.name.empty());
    EXPECT_TRUE(c.fen.empty());
    const auto h = decode_client(R"({"type":"hello","name":"bob","version":1,"extra":[1,2]})");
    ASSERT_TRUE(h.ok());  // unknown fields are ignored
    EXPECT_EQ(std::get<Hello>(h.value()).name, "bob");
}

TEST(Codec, TableSettingsDecodeWithRangesAndDefaults) {
    const auto d = decode_client(
        R"({"type":"create_table","settings":{"clock":"fischer:600+10","grace":0,"abandon":"ai","hold_level":7,"takebacks":false}})");
    ASSERT_TRUE(d.ok()) << d.error().message;
    const auto& s = std::get<CreateTable>(d.value()).settings;
    EXPECT_EQ(s.clock, "fischer:600+10");
    ASSERT_TRUE(s.grace.has_value());
    EXPECT_EQ(*s.grace, 0);  // zero is a real setting, not "absent"
    EXPECT_EQ(s.abandon, AbandonPolicy::Ai);
    EXPECT_EQ(s.hold_level, 7);
    EXPECT_EQ(s.takebacks, false);
    // Encoding keeps grace 0 and takebacks false (they differ from "absent").
    const std::string text = encode(d.value());
    EXPECT_NE(text.find("\"grace\":0"), std::string::npos) << text;
    EXPECT_NE(text.find("\"takebacks\":false"), std::string::npos) << text;

    const auto none = decode_client(R"({"type":"create_table"})");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(std::get<CreateTable>(none.value()).settings, TableSettings{});

    for (const char* bad : {R"({"type":"create_table","settings":{"grace":3601}})",
                            R"({"type":"create_table","settings":{"grace":-1}})",
                            R"({"type":"create_table","settings":{"abandon":"robot"}})",
                            R"({"type":"create_table","settings":{"hold_level":0}})",
                            R"({"type":"create_table","settings":{"clock":5}})",
                            R"({"type":"create_table","settings":"fischer"})"}) {
        const auto e = decode_client(bad);
        ASSERT_FALSE(e.ok()) << bad;
        EXPECT_EQ(e.error().code, ErrorCode::BadField) << bad;
        EXPECT_EQ(e.error().type, "create_table");
    }
}

TEST(Codec, ServerPingAndSeatCountdownDecode) {
    const auto p = decode_server(R"({"type":"ping","id":5})");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(std::get<Ping>(p.value()).id, 5);
    const auto pong = decode_client(R"({"type":"pong","id":5})");
    ASSERT_TRUE(pong.ok());
    EXPECT_EQ(std::get<Pong>(pong.value()).id, 5);
    const auto left = decode_server(
        R"({"type":"player_left","table":3,"name":"bob","role":"black","reason":"disconnected","grace_ms":45000})");
    ASSERT_TRUE(left.ok());
    EXPECT_EQ(std::get<PlayerLeft>(left.value()).grace_ms, 45000);
    const auto seat = decode_server(
        R"({"type":"table_update","table":{"id":3,"name":"t","creator":"a","spectators":0,"status":"playing","ply":4,)"
        R"("black":{"name":"bob","ai_level":0,"connected":false,"abandoned":true,"hold_level":5}}})");
    ASSERT_TRUE(seat.ok()) << seat.error().message;
    const auto& black = std::get<TableUpdate>(seat.value()).table.black;
    ASSERT_TRUE(black.has_value());
    EXPECT_TRUE(black->abandoned);
    EXPECT_EQ(black->hold_level, 5);
    EXPECT_FALSE(black->grace_ms.has_value());
}

TEST(Codec, SeatlessTableOmitsSeats) {
    const std::string text = encode(ServerMessage{TableUpdate{TableInfo{3, "t", "c", {}, {}, 0, TableStatus::Waiting, 0}}});
    EXPECT_EQ(text.find("\"red\""), std::string::npos);
    const auto d = decode_server(text);
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(std::get<TableUpdate>(d.value()).table.red.has_value());
}

TEST(Codec, EncodeLineEndsWithOneNewline) {
    const std::string line = encode_line(ClientMessage{Ping{1}});
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

}  // namespace
}  // namespace xq::proto
