#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "core/bmp_text.h"
#include "core/client_state.h"
#include "core/move_text.h"
#include "core/script.h"
#include "core/sound_synth.h"
#include "core/strings.h"
#include "net/net_client.h"

using namespace xq;
using namespace xq::client;

TEST(Strings, BothLanguagesCompleteAndDistinct) {
    // Strings that read the same in both languages on purpose (the review buttons' arrow
    // symbols |< < > >|); every other Chinese string must differ from its English one.
    const std::set<std::string_view> same_in_both = {"First", "Prev", "Next", "Last"};
    for (int i = 0; i < STRING_COUNT; ++i) {
        const std::string en = tr(Lang::English, Str(i)), zh = tr(Lang::Chinese, Str(i));
        EXPECT_FALSE(en.empty()) << string_id_name(Str(i));
        EXPECT_FALSE(zh.empty()) << string_id_name(Str(i));
        // Placeholders must match so a translation never drops an argument.
        auto holes = [](const std::string& s) {
            int n = 0;
            for (std::size_t p = s.find("{}"); p != std::string::npos; p = s.find("{}", p + 2)) ++n;
            return n;
        };
        EXPECT_EQ(holes(en), holes(zh)) << string_id_name(Str(i));
        if (same_in_both.count(string_id_name(Str(i))) != 0)
            EXPECT_EQ(en, zh) << string_id_name(Str(i)) << " is translated now: take it off the list";
        else
            EXPECT_NE(en, zh) << string_id_name(Str(i)) << " is not translated";
    }
    EXPECT_STREQ(tr(Lang::Chinese, Str::Takeback), "悔棋");
    EXPECT_EQ(tr(Lang::English, Str::Table, {"7"}), "Table 7");
    EXPECT_EQ(format("{} vs {}", {"a", "b"}), "a vs b");
    EXPECT_EQ(format("{} {}", {"only"}), "only {}") << "missing arguments leave the hole";
}

TEST(Strings, EveryRefusalHasItsOwnMessage) {
    std::set<Str> seen;
    for (IllegalReason r : {IllegalReason::GameNotInProgress, IllegalReason::Spectator, IllegalReason::NotYourTurn,
                            IllegalReason::NotYourPiece, IllegalReason::EmptySquare, IllegalReason::NoLegalMove,
                            IllegalReason::WaitingForServer, IllegalReason::OwnPieceOnTarget, IllegalReason::KingMove,
                            IllegalReason::KingLeavesPalace, IllegalReason::AdvisorMove,
                            IllegalReason::ElephantCrossesRiver, IllegalReason::ElephantEyeBlocked,
                            IllegalReason::ElephantMove, IllegalReason::HorseLegBlocked, IllegalReason::HorseMove,
                            IllegalReason::PathBlocked, IllegalReason::CannonNeedsScreen,
                            IllegalReason::StraightLineOnly, IllegalReason::PawnMove,
                            IllegalReason::LeavesKingInCheck, IllegalReason::GeneralsFace, IllegalReason::InCheck})
        EXPECT_TRUE(seen.insert(reason_string(r)).second) << int(r);
}

TEST(Strings, EndReasonsByStableName) {
    EXPECT_STREQ(tr(Lang::Chinese, end_reason_string("perpetual_check")), "长将");
    EXPECT_STREQ(tr(Lang::Chinese, end_reason_string("checkmate")), "将死");
    EXPECT_EQ(end_reason_string("no such reason"), Str::Ok);
    // Every reason the rules can end a game with (end_reason_name names "none" past the
    // last one), each with its own words in both languages.
    std::set<Str> seen;
    int reasons = 0;
    for (int r = int(EndReason::Checkmate); end_reason_name(EndReason(r)) != "none"; ++r) {
        const std::string_view name = end_reason_name(EndReason(r));
        const Str s = end_reason_string(name);
        EXPECT_NE(s, Str::Ok) << name;
        EXPECT_TRUE(seen.insert(s).second) << name << " shares its words with another reason";
        EXPECT_NE(std::string(tr(Lang::Chinese, s)), std::string(tr(Lang::English, s))) << name;
        ++reasons;
    }
    EXPECT_GE(reasons, int(EndReason::EngineFailure));
}

// Names the server makes up are shown in the language of the UI: the built-in AI's reserved
// seat name and a table's default name; other names stay as their owners typed them.
TEST(Strings, ServerMadeNamesAreLocalized) {
    EXPECT_EQ(player_name(Lang::Chinese, "AI level 3"), "电脑 3 级");
    EXPECT_EQ(player_name(Lang::English, "AI level 10"), "AI level 10");
    EXPECT_EQ(player_name(Lang::Chinese, "AI level x"), "AI level x") << "not the reserved form";
    EXPECT_EQ(player_name(Lang::Chinese, "AI level 3b"), "AI level 3b");
    EXPECT_EQ(player_name(Lang::Chinese, "alice"), "alice");
    EXPECT_EQ(table_title(Lang::Chinese, "alice's table", "alice"), "alice的棋桌");
    EXPECT_EQ(table_title(Lang::English, "alice's table", "alice"), "alice's table");
    EXPECT_EQ(table_title(Lang::Chinese, "Friday blitz", ""), "Friday blitz");
    EXPECT_EQ(refusal_text(Lang::Chinese, IllegalReason::InCheck), "你正被将军，必须先应将。");
}

TEST(Sounds, SynthesizedBuffersAreAudibleAndDeterministic) {
    std::set<std::size_t> lengths;
    for (SoundKind k : {SoundKind::Move, SoundKind::Capture, SoundKind::Check, SoundKind::GameEnd, SoundKind::Notify, SoundKind::Tick}) {
        const auto a = synthesize(k);
        ASSERT_GT(a.size(), SAMPLE_RATE / 20) << "at least 50 ms";
        ASSERT_LT(a.size(), SAMPLE_RATE * 2) << "short effects";
        int peak = 0;
        for (auto v : a) peak = std::max(peak, std::abs(int(v)));
        EXPECT_GT(peak, 20000) << "normalised to a clear level";
        EXPECT_LT(std::abs(int(a.front())), 2000) << "no click at the start";
        EXPECT_EQ(a, synthesize(k));
        lengths.insert(a.size());
    }
    EXPECT_GE(lengths.size(), 4u) << "the effects differ";
}

TEST(Script, ParsesActionsAndRejectsMistakes) {
    std::vector<ScriptAction> acts;
    std::string err;
    ASSERT_TRUE(parse_script("# a game\ncreate red My table\nai black 3\nmove h2e2  # cannon\nwait move_made 5000\n"
                             "chat 你好 world\n\nscreenshot a.png\nexpect ply 2\nquit\n",
                             acts, err))
        << err;
    ASSERT_EQ(acts.size(), 8u);
    EXPECT_EQ(acts[0].verb, "create");
    EXPECT_EQ(acts[0].rest, "red My table");
    EXPECT_EQ(acts[2].args, std::vector<std::string>{"h2e2"});
    EXPECT_EQ(acts[3].args.size(), 2u);
    EXPECT_EQ(acts[4].rest, "你好 world");
    EXPECT_EQ(acts[4].line, 6);
    EXPECT_FALSE(parse_script("move\n", acts, err));
    EXPECT_NE(err.find("line 1"), std::string::npos);
    EXPECT_FALSE(parse_script("create red\nfly away\n", acts, err));
    EXPECT_NE(err.find("line 2"), std::string::npos);
    EXPECT_NE(err.find("fly"), std::string::npos);
}

TEST(HostPort, ParsesAndRejects) {
    std::string h;
    std::uint16_t p = 0;
    EXPECT_TRUE(parse_host_port("127.0.0.1:5050", h, p));
    EXPECT_EQ(h, "127.0.0.1");
    EXPECT_EQ(p, 5050);
    EXPECT_TRUE(parse_host_port("[::1]:7", h, p));
    EXPECT_EQ(h, "::1");
    EXPECT_TRUE(parse_host_port("myhost:65535", h, p));
    for (const char* bad : {"", "127.0.0.1", "127.0.0.1:", ":5050", "h:0", "h:65536", "h:12a", "[::1]5050"})
        EXPECT_FALSE(parse_host_port(bad, h, p)) << bad;
}

TEST(BmpText, EmojiBecomeNamesOrCodesAndTheRestIsKept) {
    EXPECT_EQ(bmp_text("good move 👍"), "good move :+1:");
    EXPECT_EQ(bmp_text("😂😭🤔"), ":joy::sob::thinking:");
    // Skin tones, joiners and variation selectors only glue emoji: dropped.
    EXPECT_EQ(bmp_text("👍🏽"), ":+1:");
    EXPECT_EQ(bmp_text("❤️"), "❤");
    EXPECT_EQ(bmp_text("🇨🇳 vs 🇬🇧"), ":flag-cn: vs :flag-gb:");
    EXPECT_EQ(bmp_text("🦖"), "[U+1F996]");
    EXPECT_EQ(bmp_text("𝄞 clef"), "[U+1D11E] clef");
    // Text inside the Basic Multilingual Plane passes unchanged, symbols included.
    const std::string bmp = "炮二平五 ☺ ♥ ✓ ★ ♟ → ½ é";
    EXPECT_EQ(bmp_text(bmp), bmp);
    EXPECT_EQ(bmp_text(""), "");
    // Bytes that are not UTF-8 become '?', one each, never a crash or a lost neighbour.
    EXPECT_EQ(bmp_text("a\xff\xfe" "b"), "a??b");
    EXPECT_EQ(bmp_text("x\xf0\x9f\x91"), "x???");
    EXPECT_EQ(bmp_text("\xed\xa0\x80!"), std::string(3, '?') + "!");  // a surrogate
    // A lone regional indicator has no flag to name.
    EXPECT_EQ(bmp_text("🇨!"), "[U+1F1E8]!");
}

TEST(BmpText, ChatLinesKeepTheirWordsAndCarryTheDrawableText) {
    std::deque<ChatLine> chat;
    push_chat(chat, ChatLine{"bob🦖", "good move 👍"});
    ASSERT_EQ(chat.size(), 1u);
    EXPECT_EQ(chat[0].from, "bob🦖");  // copy and scripts see what was sent
    EXPECT_EQ(chat[0].text, "good move 👍");
    EXPECT_EQ(chat[0].shown_from, "bob[U+1F996]");
    EXPECT_EQ(chat[0].shown_text, "good move :+1:");
}

TEST(MoveText, PrincipalVariationInEveryNotation) {
    const Position start;
    const auto pv = parse_pv(start, RED, {"h2e2", "h9g7", "h0g2"});
    ASSERT_EQ(pv.size(), 3u);
    EXPECT_EQ(pv_texts(start, pv, MoveNotation::Chinese), (std::vector<std::string>{"炮二平五", "马8进7", "马二进三"}));
    EXPECT_EQ(pv_texts(start, pv, MoveNotation::Wxf), (std::vector<std::string>{"C2.5", "H8+7", "H2+3"}));
    EXPECT_EQ(pv_texts(start, pv, MoveNotation::Iccs), (std::vector<std::string>{"h2e2", "h9g7", "h0g2"}));
    // Cut at the first move that is not legal where it would be played, and at PV_MAX.
    EXPECT_EQ(parse_pv(start, RED, {"h2e2", "h2e2", "h9g7"}).size(), 1u);
    EXPECT_EQ(parse_pv(start, RED, {"zz", "h2e2"}).size(), 0u);
    EXPECT_TRUE(parse_pv(start, BLACK, {"h9g7"}).empty()) << "a line for a position where Black is not to move";
    std::vector<std::string> shuffle;
    for (int i = 0; i < 6; ++i)
        for (const char* m : {"h0g2", "h9g7", "g2h0", "g7h9"}) shuffle.emplace_back(m);
    EXPECT_EQ(parse_pv(start, RED, shuffle).size(), PV_MAX);
}

TEST(MoveText, FitPartsElidesWholeMoves) {
    // One unit per byte: "…" is three bytes of UTF-8.
    const auto width = [](const std::string& s) { return float(s.size()); };
    const std::vector<std::string> parts{"aaaa", "bbbb", "cccc"};
    EXPECT_EQ(fit_parts(parts, 100, width), "aaaa bbbb cccc");
    EXPECT_EQ(fit_parts(parts, 14, width), "aaaa bbbb cccc");
    EXPECT_EQ(fit_parts(parts, 13, width), "aaaa bbbb …");
    EXPECT_EQ(fit_parts(parts, 8, width), "aaaa …");
    EXPECT_EQ(fit_parts(parts, 7, width), "");
    EXPECT_EQ(fit_parts({"aaaa", "b"}, 6, width), "aaaa b") << "the last part may fit where the ellipsis does not";
    EXPECT_EQ(fit_parts({}, 10, width), "");
}

TEST(MoveText, DescribesEveryMoveOfAGame) {
    Game g;
    std::vector<Move> moves;
    for (const char* m : {"h2e2", "h9g7", "h0g2"}) {
        const Move mv(square_from_string(std::string_view(m, 2)), square_from_string(std::string_view(m + 2, 2)));
        ASSERT_TRUE(g.play(mv));
        moves.push_back(mv);
    }
    const auto entries = describe_moves(Position(), moves);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].iccs, "h2e2");
    EXPECT_EQ(entries[2].text(MoveNotation::Iccs), "h0g2");
    EXPECT_EQ(entries[0].text(MoveNotation::Chinese), "炮二平五");
    EXPECT_EQ(entries[0].text(MoveNotation::Wxf), "C2.5");
    EXPECT_EQ(entries[1].text(MoveNotation::Chinese), "马8进7");
    EXPECT_EQ(entries[2].text(MoveNotation::Wxf), "H2+3");
}
