// SQLite persistence with real files in a temporary directory, including a writer process
// killed with SIGKILL in the middle of appending moves.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "server/store/storage.h"
#include "temp_dir.h"

using namespace xq;
using namespace xq::server;
using xq::test::TempDir;
using namespace std::chrono_literals;

namespace {

constexpr const char* START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

std::unique_ptr<Storage> open_ok(const std::filesystem::path& dir) {
    std::string err;
    auto s = Storage::open(dir, &err);
    EXPECT_TRUE(s) << err;
    return s;
}

// Joins with append(): g++ 12 gives a false -Wrestrict on "literal" + std::string at -O3.
std::string cat(std::string_view a, std::string_view b) {
    std::string s(a);
    s.append(b);
    return s;
}

GameRecord new_game(std::int64_t table, std::string red, std::string black) {
    GameRecord g;
    g.table_id = table;
    g.start_fen = START_FEN;
    g.clock = "fischer:300+5";
    g.red = red;
    g.black = black;
    g.started_at_ms = 1'700'000'000'000;
    g.seats = {SeatRecord{RED, SeatKind::Human, red, cat("tok-", red), 0},
               SeatRecord{BLACK, SeatKind::Ai, black, "", 5}};
    return g;
}

MoveRecord move(int ply, std::string text, std::int64_t red_ms = 300'000, std::int64_t black_ms = 300'000) {
    MoveRecord m;
    m.ply = ply;
    m.move = std::move(text);
    m.at_ms = 1'700'000'000'000 + ply * 1000;
    m.clock.main[RED] = Ms(red_ms);
    m.clock.main[BLACK] = Ms(black_ms);
    m.clock.in_countdown[BLACK] = ply % 2 == 1;
    return m;
}

}  // namespace

TEST(Storage, CreatesDirectoryAndDatabaseInWalMode) {
    TempDir tmp;
    ASSERT_TRUE(tmp.ok());
    auto dir = tmp.path() / "nested" / "data";
    auto s = open_ok(dir);
    ASSERT_TRUE(s);
    EXPECT_TRUE(std::filesystem::exists(dir / DATABASE_FILE));
    ASSERT_TRUE(s->create_game(new_game(1, "ann", "AI")).has_value());
    // In WAL mode the commit lands in the -wal file beside the database.
    EXPECT_TRUE(std::filesystem::exists(dir / (std::string(DATABASE_FILE) + "-wal")));
}

TEST(Storage, GameMovesSeatsAndClocksSurviveReopen) {
    TempDir tmp;
    std::int64_t id = 0;
    {
        auto s = open_ok(tmp.path());
        ASSERT_TRUE(s);
        auto made = s->create_game(new_game(7, "ann", "AI level 5"));
        ASSERT_TRUE(made.has_value()) << s->last_error();
        id = *made;
        ASSERT_TRUE(s->append_move(id, move(0, "h2e2", 298'000, 300'000)));
        ASSERT_TRUE(s->append_move(id, move(1, "h9g7", 298'000, 291'500)));
        ASSERT_TRUE(s->append_move(id, move(2, "h0g2")));
    }
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto games = s->unfinished_games();
    ASSERT_EQ(games.size(), 1u);
    const GameRecord& g = games[0];
    EXPECT_EQ(g.id, id);
    EXPECT_EQ(g.table_id, 7);
    EXPECT_EQ(g.start_fen, START_FEN);
    EXPECT_EQ(g.clock, "fischer:300+5");
    ASSERT_EQ(g.moves.size(), 3u);
    EXPECT_EQ(g.moves[0].move, "h2e2");
    EXPECT_EQ(g.moves[1].move, "h9g7");
    EXPECT_EQ(g.moves[2].move, "h0g2");
    EXPECT_EQ(g.moves[1].clock.main[BLACK], Ms(291'500));
    EXPECT_TRUE(g.moves[1].clock.in_countdown[BLACK]);
    EXPECT_FALSE(g.moves[2].clock.in_countdown[BLACK]);
    ASSERT_EQ(g.seats.size(), 2u);
    EXPECT_EQ(g.seats[0].color, RED);
    EXPECT_EQ(g.seats[0].token, "tok-ann");
    EXPECT_EQ(g.seats[1].kind, SeatKind::Ai);
    EXPECT_EQ(g.seats[1].ai_level, 5);
}

TEST(Storage, RefusesOutOfOrderDuplicateAndLateMoves) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto id = s->create_game(new_game(1, "a", "b"));
    ASSERT_TRUE(id);
    EXPECT_FALSE(s->append_move(*id, move(1, "h2e2")));  // skips ply 0
    EXPECT_FALSE(s->last_error().empty());
    ASSERT_TRUE(s->append_move(*id, move(0, "h2e2")));
    EXPECT_FALSE(s->append_move(*id, move(0, "b2e2")));  // ply 0 again
    EXPECT_FALSE(s->append_move(*id + 100, move(0, "h2e2")));  // no such game
    ASSERT_TRUE(s->finish_game(*id, "1-0", "resignation", "Black resigns", 1'700'000'100'000));
    EXPECT_FALSE(s->append_move(*id, move(1, "h9g7")));  // finished
    EXPECT_FALSE(s->finish_game(*id, "0-1", "timeout", "again", 1));
    auto g = s->get_game(*id);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), 1u);
    EXPECT_EQ(g->moves[0].move, "h2e2");
    EXPECT_EQ(g->result, "1-0");
}

TEST(Storage, TakebackTruncatesMoves) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto id = s->create_game(new_game(1, "a", "b"));
    ASSERT_TRUE(id);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(s->append_move(*id, move(i, cat("m", std::to_string(i)))));
    ASSERT_TRUE(s->truncate_moves(*id, 2));
    ASSERT_TRUE(s->append_move(*id, move(2, "x2")));
    auto g = s->get_game(*id);
    ASSERT_TRUE(g);
    ASSERT_EQ(g->moves.size(), 3u);
    EXPECT_EQ(g->moves[2].move, "x2");
}

TEST(Storage, ArchiveKeepsPlayersResultReasonAndTimes) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto a = s->create_game(new_game(1, "ann", "bob"));
    auto b = s->create_game(new_game(2, "cat", "ann"));
    auto c = s->create_game(new_game(3, "dan", "eve"));
    ASSERT_TRUE(a && b && c);
    ASSERT_TRUE(s->append_move(*a, move(0, "h2e2")));
    ASSERT_TRUE(s->finish_game(*a, "0-1", "checkmate", "Red is checkmated", 1'700'000'500'000));
    ASSERT_TRUE(s->finish_game(*c, "1/2-1/2", "agreement", "Draw agreed", 1'700'000'600'000));

    auto all = s->list_games({});
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[0].id, *c);  // newest first
    EXPECT_EQ(all[2].id, *a);
    EXPECT_EQ(all[2].plies, 1);
    EXPECT_EQ(all[2].reason, "checkmate");
    EXPECT_EQ(all[2].ended_at_ms, 1'700'000'500'000);
    EXPECT_TRUE(all[2].finished);
    EXPECT_FALSE(all[1].finished);

    GameFilter ann;
    ann.player = "ann";
    auto anns = s->list_games(ann);
    ASSERT_EQ(anns.size(), 2u);
    ann.finished_only = true;
    anns = s->list_games(ann);
    ASSERT_EQ(anns.size(), 1u);
    EXPECT_EQ(anns[0].id, *a);

    GameFilter page;
    page.limit = 1;
    page.before_id = *c;
    auto p = s->list_games(page);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0].id, *b);
    page.limit = 100000;  // clamped, not an error
    EXPECT_EQ(s->list_games(page).size(), 2u);

    auto g = s->get_game(*a);
    ASSERT_TRUE(g);
    EXPECT_EQ(g->red, "ann");
    EXPECT_EQ(g->black, "bob");
    EXPECT_EQ(g->result_text, "Red is checkmated");
    EXPECT_EQ(g->started_at_ms, 1'700'000'000'000);
    EXPECT_FALSE(s->get_game(9999).has_value());
    EXPECT_EQ(s->unfinished_games().size(), 1u);
}

TEST(Storage, TablesAndTokens) {
    TempDir tmp;
    {
        auto s = open_ok(tmp.path());
        ASSERT_TRUE(s);
        ASSERT_TRUE(s->save_table({3, "club", "asian:1200/120/60", 90'000, true}));
        ASSERT_TRUE(s->save_table({5, "quick", "fischer:60+1", 60'000, false}));
        ASSERT_TRUE(s->save_table({3, "club room", "asian:1200/120/60", 90'000, true}));  // update
        ASSERT_TRUE(s->close_table(5));
        ASSERT_TRUE(s->save_token("tok-ann", "ann", 1000));
        ASSERT_TRUE(s->save_token("tok-old", "old", 1000));
        ASSERT_TRUE(s->create_game(new_game(3, "ann", "AI")).has_value());
    }
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto tables = s->open_tables();
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].name, "club room");
    EXPECT_EQ(tables[0].grace_ms, 90'000);
    EXPECT_TRUE(tables[0].ai_holds_seat);
    EXPECT_EQ(s->max_table_id(), 5);
    EXPECT_EQ(s->token_nick("tok-ann"), std::optional<std::string>("ann"));
    EXPECT_FALSE(s->token_nick("tok-nobody").has_value());
    // tok-ann is held by a seat of an unfinished game, so only tok-old goes.
    EXPECT_EQ(s->prune_tokens(2000), 1);
    EXPECT_TRUE(s->token_nick("tok-ann").has_value());
    EXPECT_FALSE(s->token_nick("tok-old").has_value());
}

TEST(Storage, RefusesOversizedTextAndBadFiles) {
    TempDir tmp;
    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    GameRecord g = new_game(1, std::string(MAX_STORED_TEXT + 1, 'x'), "b");
    EXPECT_FALSE(s->create_game(g).has_value());
    EXPECT_NE(s->last_error().find("too long"), std::string::npos);
    EXPECT_TRUE(s->list_games({}).empty());  // nothing half-written

    TempDir junk;
    { std::ofstream(junk.path() / DATABASE_FILE) << "this is not a database, just some text......"; }
    std::string err;
    EXPECT_FALSE(Storage::open(junk.path(), &err));
    EXPECT_FALSE(err.empty());

    std::string err2;
    EXPECT_FALSE(Storage::open("/proc/no-such-place/data", &err2));
    EXPECT_NE(err2.find("cannot create"), std::string::npos);
}

// A writer process appends moves and reports each ply on a pipe only after append_move()
// returned; it is killed with SIGKILL mid-stream. Every reported ply must be in the file.
TEST(Storage, NoAcknowledgedMoveLostWhenWriterIsKilled) {
    TempDir tmp;
    std::int64_t id = 0;
    {
        auto s = open_ok(tmp.path());
        ASSERT_TRUE(s);
        auto made = s->create_game(new_game(1, "a", "b"));
        ASSERT_TRUE(made);
        id = *made;
    }
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::close(fds[0]);
        std::string err;
        auto s = Storage::open(tmp.path(), &err);
        if (!s) ::_exit(2);
        for (int ply = 0; ply < 100000; ++ply) {
            if (!s->append_move(id, move(ply, cat("p", std::to_string(ply))))) ::_exit(3);
            if (::write(fds[1], &ply, sizeof ply) != sizeof ply) ::_exit(4);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    int last_acked = -1;
    int ply = 0;
    while (last_acked < 300 && ::read(fds[0], &ply, sizeof ply) == sizeof ply) last_acked = ply;
    ASSERT_EQ(::kill(pid, SIGKILL), 0);
    // Drain what the writer acknowledged before it died.
    while (::read(fds[0], &ply, sizeof ply) == sizeof ply) last_acked = ply;
    ::close(fds[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer ended on its own (status " << status << ")";
    ASSERT_GE(last_acked, 300);

    auto s = open_ok(tmp.path());
    ASSERT_TRUE(s);
    auto g = s->get_game(id);
    ASSERT_TRUE(g);
    ASSERT_GE(int(g->moves.size()), last_acked + 1);
    for (int i = 0; i <= last_acked; ++i) ASSERT_EQ(g->moves[i].move, cat("p", std::to_string(i)));
    // The database is still writable after the crash.
    EXPECT_TRUE(s->append_move(id, move(int(g->moves.size()), "next")));
}
