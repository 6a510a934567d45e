// The largest messages the server may send still fit in one line (MAX_LINE_BYTES) and decode:
// a snapshot, a game record, a tournament, a page of a tournament's PGN.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "message_samples.h"
#include "protocol/codec.h"

namespace xq::proto {
namespace {

using samples::sample_table;
using samples::sample_tournament;
using samples::seat;

TEST(Codec, LongestSnapshotFitsInALine) {
    // The worst snapshot the server may send: full move chunk, full chat budget, long names.
    TableSnapshot s;
    s.table = sample_table();
    s.table.name = std::string(MAX_TABLE_NAME_CODE_POINTS, '\x7e');
    s.table.red = seat(std::string(MAX_NAME_CODE_POINTS * 3, 'r'));
    s.table.black = seat(std::string(MAX_NAME_CODE_POINTS * 3, 'b'));
    s.start_fen = std::string(START_FEN);
    s.fen = std::string(START_FEN);
    s.moves.assign(SNAPSHOT_MOVES_PER_LINE, "h2e2");
    s.result = ResultInfo{Outcome::Draw, "move_limit", std::string(200, 't')};
    std::size_t chat_bytes = 0;
    while (s.chat.size() < SNAPSHOT_CHAT_LINES && chat_bytes < SNAPSHOT_CHAT_BYTES) {
        s.chat.push_back(ChatLine{ChatScope::Table, 7, std::string(MAX_NAME_CODE_POINTS * 3, 'n'),
                                  std::string(200, '"')});  // quotes double when escaped
        chat_bytes += 200 + MAX_NAME_CODE_POINTS * 3;
    }
    s.clocks = Clocks{1000000, 1000000, RED};
    EXPECT_LE(encode(ServerMessage{s}).size(), MAX_LINE_BYTES);
}

TEST(Codec, LargestGameRecordFitsInALine) {
    // The most a `game_record` holds: the longest names, moves and result text, and events up
    // to their caps, all of quotes (which double when escaped).
    GameRecord r;
    r.game = GameSummary{9000000000, std::string(MAX_NAME_CODE_POINTS * 3, 'r'), std::string(MAX_NAME_CODE_POINTS * 3, 'b'),
                         Outcome::Draw, "insufficient_material", 1 << 30, 1764400000000, 1764400900000};
    r.game.red_rating = r.game.black_rating = MAX_RATING;
    r.start_fen = std::string(START_FEN);
    r.moves.assign(SNAPSHOT_MOVES_PER_LINE, "h2e2");
    r.text = std::string(512, '"');
    const std::size_t per_event = GAME_EVENTS_BYTES / GAME_EVENTS_PER_LINE;
    while (r.events.size() < GAME_EVENTS_PER_LINE)
        r.events.push_back(GameEventInfo{1 << 30, 1764400900000, std::string(per_event, '"')});
    r.more_events = true;
    const std::string line = encode(ServerMessage{r});
    EXPECT_LE(line.size(), MAX_LINE_BYTES);
    const auto back = decode_server(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
}

TEST(Codec, LargestTournamentFitsInALine) {
    // The most a `tournament` line can hold: the entrant cap, four-byte characters in every
    // name, the longest round-robin's games (with byes), every board with a long reason.
    const std::string glyph = "\xF0\x9F\x90\x89";  // four bytes of UTF-8
    auto long_name = [&](std::size_t code_points) {
        std::string s;
        for (std::size_t i = 0; i < code_points; ++i) s += glyph;
        return s;
    };
    Tournament t = sample_tournament();
    t.id = 4000000000u;
    t.name = long_name(MAX_TOURNAMENT_NAME_CODE_POINTS);
    t.director = long_name(MAX_NAME_CODE_POINTS);
    t.round = t.rounds = MAX_TOURNAMENT_ROUNDS;
    t.settings = TableSettings{"asian:3600/3600/3600", 3600, AbandonPolicy::Claim, 10, false};
    t.forfeit_seconds = MAX_FORFEIT_SECONDS;
    t.spectator_delay = MAX_SPECTATOR_DELAY;
    t.entrants.clear();
    t.boards.clear();
    t.games.clear();
    t.standings.clear();
    const int n = MAX_TOURNAMENT_ENTRANTS;
    for (int i = 0; i < n; ++i) {
        t.entrants.push_back(TournamentEntrant{long_name(MAX_NAME_CODE_POINTS), 10, true});
        t.standings.push_back(TournamentStanding{i, i + 1, 99999, 99999, 99999, 99999, 99999});
    }
    for (int b = 1; b <= n / 2; ++b)
        t.boards.push_back(TournamentBoard{b, 4000000000u, n - 1, n - 1, BoardResult::DoubleForfeit,
                                           "insufficient_material"});
    for (int r = 1; r <= MAX_TOURNAMENT_ROUNDS; ++r)
        for (int b = 0; b < n / 2; ++b) t.games.push_back(TournamentGame{r, n - 1, n - 1, BoardResult::DoubleForfeit});
    const std::string line = encode(ServerMessage{t});
    EXPECT_LE(line.size(), MAX_LINE_BYTES);
    const auto back = decode_server(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
}

TEST(Codec, FullestTournamentPgnPageFitsInALine) {
    // A page of the most escaping PGN text can need: every byte a quote or a backslash
    // (each written as two), at the largest offsets and a long digest.
    for (const char c : {'"', '\\', '\n'}) {
        TournamentPgn p{4000000000u, PgnNotation::Chinese, std::int64_t(MAX_TOURNAMENT_PGN_BYTES),
                        std::int64_t(MAX_TOURNAMENT_PGN_BYTES), "ffffffffffffffff",
                        std::string(TOURNAMENT_PGN_PAGE_BYTES, c), true};
        const std::string line = encode(ServerMessage{p});
        EXPECT_LE(line.size(), MAX_LINE_BYTES);
        const auto back = decode_server(line);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(std::get<TournamentPgn>(back.value()).text, p.text);
    }
}

}  // namespace
}  // namespace xq::proto
