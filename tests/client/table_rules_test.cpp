// Table rules as the client shows and edits them: clock text both ways, words for the lobby,
// the create-table form, and the localized texts for refusals and server errors.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/board_model.h"
#include "core/client_state.h"
#include "core/controller.h"
#include "core/session.h"
#include "core/strings.h"
#include "core/table_rules.h"
#include "protocol/errors.h"

using namespace xq;
using namespace xq::client;

namespace {

bool has_cjk(const std::string& s) {
    // Any code point in the CJK Unified Ideographs block (U+4E00..U+9FFF): E4..E9 lead bytes.
    for (std::size_t i = 0; i + 2 < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c >= 0xE4 && c <= 0xE9) return true;
    }
    return false;
}

}  // namespace

TEST(ClockText, ParsesTheProtocolForms) {
    auto f = parse_clock("fischer:300+5");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->kind, ClockSpec::Kind::Fischer);
    EXPECT_EQ(f->base_s, 300);
    EXPECT_EQ(f->increment_s, 5);
    auto a = parse_clock("asian:600/60/30");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->kind, ClockSpec::Kind::Asian);
    EXPECT_EQ(a->base_s, 600);
    EXPECT_EQ(a->move_limit_s, 60);
    EXPECT_EQ(a->countdown_s, 30);
    EXPECT_EQ(parse_clock("none")->kind, ClockSpec::Kind::None);
    EXPECT_EQ(parse_clock("")->kind, ClockSpec::Kind::None);
    for (const char* bad : {"fischer", "fischer:300", "fischer:0+5", "fischer:-1+2", "fischer:3x+1", "fischer:36001+0",
                            "asian:600/60", "asian:0/10/0", "blitz", "asian:a/b/c", "fischer:+5"})
        EXPECT_FALSE(parse_clock(bad)) << bad;
    for (const char* good : {"none", "fischer:300+5", "fischer:90+0", "asian:600/60/30", "asian:0/0/30"})
        EXPECT_EQ(clock_wire(*parse_clock(good)), good);
}

TEST(ClockText, WordsInBothLanguages) {
    EXPECT_EQ(clock_words(Lang::English, "fischer:300+3"), "Fischer 5+3");
    EXPECT_EQ(clock_words(Lang::English, "fischer:90+2"), "Fischer 1:30+2");
    EXPECT_EQ(clock_words(Lang::English, "asian:600/60/30"), "Asian 10 min/60 s/30 s");
    EXPECT_EQ(clock_words(Lang::English, "asian:90/20/10"), "Asian 90 s/20 s/10 s");
    EXPECT_EQ(clock_words(Lang::English, "none"), "no clock");
    EXPECT_EQ(clock_words(Lang::Chinese, "fischer:300+3"), "加秒制 5+3");
    EXPECT_EQ(clock_words(Lang::Chinese, "asian:600/60/30"), "读秒制 10分钟/60秒/30秒");
    EXPECT_EQ(clock_words(Lang::Chinese, "none"), "不计时");
    // A text this client cannot read (a newer server) is shown as it came.
    EXPECT_EQ(clock_words(Lang::English, "hourglass:60"), "hourglass:60");
}

TEST(CreateForm, PresetsCustomAndRules) {
    CreateTableForm f;
    TableRules server_defaults;
    server_defaults.clock.clear();
    server_defaults.grace_s = SERVER_DEFAULT_GRACE;
    EXPECT_EQ(f.rules(), server_defaults) << "a fresh form asks for the server's clock and grace, claim, takebacks";
    f.server_clock = f.server_grace = false;
    EXPECT_EQ(f.rules(), TableRules{}) << "chosen: no clock, 60 s";
    f.clock_kind = ClockSpec::Kind::Fischer;
    ASSERT_GE(f.presets().size(), 4u);
    std::vector<std::string> labels;
    for (const ClockPreset& p : f.presets()) labels.push_back(clock_wire(p.spec));
    for (const char* want : {"fischer:600+5", "fischer:300+3", "fischer:900+10"})
        EXPECT_NE(std::find(labels.begin(), labels.end(), want), labels.end()) << want;
    f.preset = 2;
    EXPECT_EQ(f.rules().clock, "fischer:600+5");
    f.preset = int(f.presets().size());  // custom
    EXPECT_TRUE(f.custom());
    f.custom_base_min = 7;
    f.custom_increment_s = 4;
    EXPECT_EQ(f.rules().clock, "fischer:420+4");
    EXPECT_FALSE(f.problem());
    f.custom_base_min = 0;
    EXPECT_EQ(f.problem(), Str::ProblemFischerBase);

    f.clock_kind = ClockSpec::Kind::Asian;
    f.preset = int(f.presets().size());
    f.custom_base_min = 10;
    f.custom_move_limit_s = 60;
    f.custom_countdown_s = 30;
    EXPECT_EQ(f.rules().clock, "asian:600/60/30");
    f.custom_base_min = 0;
    f.custom_countdown_s = 0;
    EXPECT_EQ(f.problem(), Str::ProblemAsianZero);
    f.custom_countdown_s = 36001;
    EXPECT_EQ(f.problem(), Str::ProblemClockRange);
    f.custom_countdown_s = 30;
    EXPECT_FALSE(f.problem());

    f.grace_s = 3601;
    EXPECT_EQ(f.problem(), Str::ProblemGrace);
    f.grace_s = 0;
    f.abandon = AbandonRule::Ai;
    f.hold_level = 11;
    EXPECT_EQ(f.problem(), Str::ProblemHoldLevel);
    f.hold_level = 3;
    f.takebacks = false;
    const TableRules r = f.rules();
    EXPECT_EQ(r.grace_s, 0);
    EXPECT_EQ(r.abandon, AbandonRule::Ai);
    EXPECT_EQ(r.hold_level, 3);
    EXPECT_FALSE(r.takebacks);
}

// Hints are off unless asked for; the switch goes into the settings sent and comes back from
// a table's info.
TEST(CreateForm, HintsSwitchReachesTheSettings) {
    CreateTableForm f;
    EXPECT_FALSE(f.rules().hints);
    EXPECT_FALSE(settings_from(f.rules()).hints.has_value()) << "off: the server's default, not sent";
    std::string bad;
    ASSERT_TRUE(f.apply("hints=1", bad)) << bad;
    EXPECT_TRUE(f.rules().hints);
    const proto::TableSettings sent = settings_from(f.rules());
    EXPECT_EQ(sent.hints, std::optional<bool>(true));
    EXPECT_TRUE(rules_from(sent).hints);
    EXPECT_FALSE(f.apply("hints=yes", bad));
}

TEST(CreateForm, ScriptWordsFillTheForm) {
    CreateTableForm f;
    std::string bad;
    ASSERT_TRUE(f.apply("clock=fischer:300+3 grace=5 abandon=ai hold=4 takebacks=0 as=black", bad)) << bad;
    EXPECT_FALSE(f.custom()) << "5+3 is a preset";
    EXPECT_EQ(f.rules().clock, "fischer:300+3");
    EXPECT_EQ(f.grace_s, 5);
    EXPECT_EQ(f.abandon, AbandonRule::Ai);
    EXPECT_EQ(f.hold_level, 4);
    EXPECT_FALSE(f.takebacks);
    EXPECT_EQ(f.seat, CreateSeat::Black);
    ASSERT_TRUE(f.apply("clock=asian:1500/45/25", bad)) << bad;
    EXPECT_TRUE(f.custom());
    EXPECT_EQ(f.rules().clock, "asian:1500/45/25");
    EXPECT_FALSE(f.apply("clock=fischer:90+1", bad)) << "the dialog's main time is in whole minutes";
    EXPECT_FALSE(f.apply("colour=red", bad));
    EXPECT_EQ(bad, "colour=red");
    EXPECT_FALSE(f.apply("grace", bad));
    EXPECT_FALSE(f.apply("abandon=maybe", bad));
}

TEST(SeatText, LabelsCountdownAndHolds) {
    SeatInfo s;
    EXPECT_EQ(seat_label(Lang::English, s, "me"), "(empty)");
    s.name = "bob";
    EXPECT_EQ(seat_label(Lang::English, s, "me"), "bob");
    EXPECT_EQ(seat_label(Lang::English, s, "bob"), "bob (you)");
    SeatInfo ai;
    ai.name = "AI";
    ai.ai = true;
    ai.ai_level = 3;
    EXPECT_EQ(seat_label(Lang::English, ai, "me"), "AI level 3");
    // The built-in level's fixed rating (seat info `rating`) follows its name.
    ai.rating = 980;
    EXPECT_EQ(seat_label(Lang::English, ai, "me"), "AI level 3 (980)");
    EXPECT_EQ(seat_label(Lang::Chinese, ai, "me"), "电脑 3 级（等级分980）");
    EXPECT_EQ(ai_rating_text(Lang::English, {400, 580, 980}, 3), "rating 980");
    EXPECT_EQ(ai_rating_text(Lang::Chinese, {400, 580, 980}, 2), "等级分580");
    EXPECT_EQ(ai_rating_text(Lang::English, {400, 580, 980}, 4), "");
    EXPECT_EQ(ai_rating_text(Lang::English, {}, 1), "");
    ai.rating.reset();
    ai.engine = "fairy-stockfish";
    EXPECT_EQ(seat_label(Lang::English, ai, "me"), "fairy-stockfish (level 3)");
    EXPECT_EQ(seat_label(Lang::Chinese, ai, "me"), "fairy-stockfish（3级）");
    // A registered player's rating (from the server's seat info) follows the name.
    SeatInfo rated;
    rated.name = "mei";
    rated.rating = 1612;
    EXPECT_EQ(seat_label(Lang::English, rated, "me"), "mei (1612)");
    EXPECT_EQ(seat_label(Lang::English, rated, "mei"), "mei (1612) (you)");
    EXPECT_EQ(seat_label(Lang::Chinese, rated, "me"), "mei（等级分1612）");
    EXPECT_EQ(user_label(Lang::English, "bob", std::nullopt), "bob");

    const SteadyTime now = std::chrono::steady_clock::now();
    EXPECT_EQ(seat_notice(Lang::English, s, now), "") << "connected: nothing to say";
    s.connected = false;
    s.grace_until = now + std::chrono::milliseconds(57'200);
    EXPECT_EQ(s.grace_left_ms(now), 57'200);
    EXPECT_EQ(seat_notice(Lang::English, s, now), "bob lost connection — seat kept 0:58");
    EXPECT_EQ(seat_notice(Lang::Chinese, s, now), "bob 断线了 — 座位保留 0:58");
    EXPECT_EQ(seat_notice(Lang::English, s, now + std::chrono::seconds(50)), "bob lost connection — seat kept 0:08");
    EXPECT_EQ(s.grace_left_ms(now + std::chrono::minutes(5)), 0) << "never negative";
    s.abandoned = true;
    EXPECT_EQ(s.grace_left_ms(now), -1);
    EXPECT_NE(seat_notice(Lang::English, s, now).find("did not come back"), std::string::npos);
    s.hold_level = 5;
    EXPECT_EQ(seat_notice(Lang::English, s, now), "AI (level 5) plays for bob until they return");
    EXPECT_EQ(countdown_text(61'000), "1:01");
    EXPECT_EQ(countdown_text(0), "0:00");
}

// Every explanation of a refused move exists in Chinese, differs from the English one and
// is what the player sees with a Chinese UI.
TEST(Localized, ChineseUiExplainsEveryRefusalInChinese) {
    for (int i = int(IllegalReason::None); i <= int(IllegalReason::Other); ++i) {
        const IllegalReason r = IllegalReason(i);
        const std::string zh = refusal_text(Lang::Chinese, r), en = refusal_text(Lang::English, r);
        EXPECT_TRUE(has_cjk(zh)) << i << ": " << zh;
        EXPECT_FALSE(has_cjk(en)) << i << ": " << en;
        EXPECT_NE(zh, en) << i;
    }
    // Through the controller, as a click on the board produces them.
    BoardModel m;
    m.set_seat(RED);
    m.set_in_progress(true);
    const BoardGeometry geo = BoardGeometry::fit(0, 0, 900, 1000, false);
    auto click = [&](Controller& c, const char* sq) {
        const PointF p = geo.center(square_from_string(sq));
        Intent i = c.press(m, geo, p.x, p.y);
        const Intent r = c.release(m, geo, p.x, p.y);
        return i.kind == Intent::Kind::None ? r : i;
    };
    struct Case {
        const char* from;
        const char* to;
        const char* zh;  // a phrase of the Chinese explanation
    };
    for (const Case& k : {Case{"b0", "b1", "马走日字"}, Case{"c0", "c2", "象走田字"}, Case{"e0", "e2", "将帅每次只能直走一步"},
                          Case{"a3", "b3", "兵卒只能向前"}, Case{"a0", "a4", "路线被挡住"}, Case{"h2", "h7", "炮必须隔一个子"},
                          Case{"b0", "b9", "马走日字"}, Case{"d0", "d1", "士只能在九宫内斜走一步"}}) {
        Controller c;
        const Intent first = click(c, k.from);
        ASSERT_NE(first.kind, Intent::Kind::Refused) << k.from;
        const Intent second = click(c, k.to);
        ASSERT_EQ(second.kind, Intent::Kind::Refused) << k.from << k.to;
        const std::string text = refusal_text(Lang::Chinese, second.reason);
        EXPECT_NE(text.find(k.zh), std::string::npos) << k.from << k.to << ": " << text;
    }
    Controller c;
    const Intent black = click(c, "b9");
    ASSERT_EQ(black.kind, Intent::Kind::Refused);
    EXPECT_EQ(refusal_text(Lang::Chinese, black.reason), "那不是你的棋子。");
}

// Every detail code the server can send with bad_settings or bad_fen (protocol/errors.h) has
// words of its own in both languages: the Chinese UI says why without the server's English.
TEST(Localized, EveryRefusalDetailInBothLanguages) {
    std::vector<std::pair<std::string, std::string_view>> all;
    for (std::string_view d : proto::SETTINGS_DETAILS) all.emplace_back("bad_settings", d);
    for (std::string_view d : proto::fen_error_details()) all.emplace_back("bad_fen", d);
    ASSERT_EQ(all.size(), proto::SETTINGS_DETAILS.size() + 15u);
    std::set<std::string> seen_zh;
    for (const auto& [code, detail] : all) {
        ASSERT_FALSE(detail.empty()) << code;
        const Str id = error_detail_string(code, detail);
        ASSERT_NE(id, Str::ServerError) << code << " " << detail << " has no words";
        const std::string zh = server_error_text(Lang::Chinese, code, "create_table", "English words", detail);
        const std::string en = server_error_text(Lang::English, code, "create_table", "English words", detail);
        EXPECT_TRUE(has_cjk(zh)) << detail << ": " << zh;
        EXPECT_EQ(zh.find("English words"), std::string::npos) << zh;
        EXPECT_EQ(zh, tr(Lang::Chinese, Str::ErrorWithDetail, {tr(Lang::Chinese, error_code_string(code)), tr(Lang::Chinese, id)}));
        EXPECT_FALSE(has_cjk(en)) << detail << ": " << en;
        EXPECT_EQ(en.find("English words"), std::string::npos) << "the client's own words, not the message: " << en;
        EXPECT_TRUE(seen_zh.insert(zh).second) << "two details read the same: " << zh;
    }
    // A detail the client does not know (a newer server) falls back as before.
    EXPECT_EQ(server_error_text(Lang::Chinese, "bad_settings", "create_table", "new words", "later_detail"), "棋桌设置无效");
    EXPECT_EQ(server_error_text(Lang::English, "bad_settings", "create_table", "new words", "later_detail"),
              "Table settings refused: new words");
    EXPECT_EQ(error_detail_string("bad_fen", "clock_range"), Str::ServerError) << "details belong to their code";
}

TEST(Localized, ServerErrorsGetAPrefixPerCode) {
    EXPECT_EQ(server_error_text(Lang::English, "bad_settings", "create_table", "fischer clock needs a base time above 0"),
              "Table settings refused: fischer clock needs a base time above 0");
    EXPECT_EQ(server_error_text(Lang::Chinese, "bad_settings", "create_table", "fischer clock needs a base time above 0"),
              "棋桌设置无效") << "no English words in the Chinese UI";
    EXPECT_EQ(server_error_text(Lang::Chinese, "bad_password", "", ""), "服务器密码错误或未填写");
    EXPECT_EQ(server_error_text(Lang::Chinese, "not_allowed", "request_takeback", "takebacks are off"),
              "本桌不允许悔棋");
    EXPECT_EQ(server_error_text(Lang::Chinese, "bad_json", "", "oops"), "服务器：bad_json");
    EXPECT_EQ(server_error_text(Lang::English, "bad_json", "", "oops"), "Server: oops") << "framing faults stay generic";
    // Every code of the protocol (proto::ErrorCode, in order): its own words, except the
    // framing faults, hello-order faults and internal, which the client shows as the generic
    // "Server: ..." with the server's message (client/core/strings.cpp says why).
    const std::set<std::string_view> generic = {"line_too_long", "bad_utf8",   "too_deep",      "bad_json",
                                                "missing_type",  "unknown_type", "bad_field",   "not_hello",
                                                "already_hello", "internal"};
    for (int i = 0; i < proto::ERROR_CODE_COUNT; ++i) {
        const std::string code(proto::error_code_name(proto::ErrorCode(i)));
        if (generic.count(code) != 0)
            EXPECT_EQ(error_code_string(code), Str::ServerError) << code;
        else
            EXPECT_NE(error_code_string(code), Str::ServerError) << code;
        EXPECT_TRUE(has_cjk(server_error_text(Lang::Chinese, code, "", "x"))) << code;
    }
}
