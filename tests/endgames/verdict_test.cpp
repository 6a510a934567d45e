// Every stated verdict of the endgame collection, checked by two engines: the project's own
// and Fairy-Stockfish (an independent program). A win: both report a forced mate for the side
// to move (ours by depth 22, Fairy-Stockfish at depth 30), neither longer than the stated
// number of moves. A draw: neither finds a mate for either side (ours at depth 14,
// Fairy-Stockfish at depth 24), ours keeps its score below a rook's worth and
// Fairy-Stockfish within 100 cp. The depths are the collection's documented ones
// (data/endgames/challenges.txt).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <set>
#include <sstream>

#include "child_process.h"
#include "endgames/challenge_collection.h"
#include "engine/eval.h"
#include "engine/search.h"
#include "xiangqi/position.h"

namespace xq::endgames {
namespace {

constexpr int OUR_WIN_DEPTH = 22;
constexpr int OUR_DRAW_DEPTH = 14;
constexpr int FSF_WIN_DEPTH = 30;
constexpr int FSF_DRAW_DEPTH = 24;
constexpr int OUR_DRAW_BOUND_CP = 300;
constexpr int FSF_DRAW_BOUND_CP = 100;
constexpr int FSF_TIMEOUT_MS = 120000;

std::string fsf_path() {
    const char* env = std::getenv("XQ_FAIRY_STOCKFISH");
    return env && *env ? env : "/usr/games/fairy-stockfish";
}

struct FsfScore {
    bool mate = false;
    int value = 0;  // moves to mate (negative: mated) or centipawns, side to move's view
    bool ok = false;
};

// The last score Fairy-Stockfish reports for a `go depth` search.
FsfScore fsf_search(test::ChildProcess& fsf, const std::string& fen, int depth) {
    FsfScore out;
    if (!fsf.send("ucinewgame\nposition fen " + fen + "\ngo depth " + std::to_string(depth) + "\n"))
        return out;
    std::string line;
    while (fsf.read_line(line, FSF_TIMEOUT_MS)) {
        std::istringstream in(line);
        std::string word;
        in >> word;
        if (word == "bestmove") {
            out.ok = true;
            return out;
        }
        while (in >> word) {
            if (word != "score") continue;
            std::string kind;
            in >> kind >> out.value;
            out.mate = kind == "mate";
            break;
        }
    }
    return out;
}

class Verdicts : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string path = fsf_path();
        ASSERT_TRUE(fsf_.start(path)) << "Fairy-Stockfish not found or not executable at " << path
                                      << " (install the Debian package fairy-stockfish, or set "
                                         "XQ_FAIRY_STOCKFISH)";
        ASSERT_TRUE(fsf_.send("uci\nsetoption name UCI_Variant value xiangqi\nisready\n"));
        std::string line;
        bool ready = false;
        while (!ready && fsf_.read_line(line, 10000)) ready = line == "readyok";
        ASSERT_TRUE(ready) << "Fairy-Stockfish did not answer isready";
    }

    // Our engine's result at `depth`, stopping early once an iteration that reports a mate
    // in N moves has gone 2N+2 plies deep (the first mate found is often not the shortest).
    static engine::Result ours(const Position& pos, int depth) {
        engine::Engine eng(16);
        engine::Limits limits;
        limits.depth = depth;
        std::atomic<bool> stop{false};
        return eng.search(
            pos, {}, limits,
            [&](const engine::Progress& p) {
                if (p.iteration_done && p.mate_in != 0 && p.depth >= 2 * std::abs(p.mate_in) + 2)
                    stop = true;
            },
            &stop);
    }

    test::ChildProcess fsf_;
};

TEST_F(Verdicts, EveryWinIsAForcedMateForTheSideToMoveByBothEngines) {
    int checked = 0;
    for (const Challenge& c : challenges()) {
        if (c.verdict != Verdict::Win) continue;
        SCOPED_TRACE(c.id + " " + c.fen);
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None);
        const engine::Result r = ours(pos, OUR_WIN_DEPTH);
        EXPECT_GT(r.mate_in, 0) << "our engine finds no mate (score " << r.score_cp << ", depth "
                                << r.depth << ")";
        EXPECT_LE(r.mate_in, c.mate_in);
        const FsfScore f = fsf_search(fsf_, c.fen, FSF_WIN_DEPTH);
        ASSERT_TRUE(f.ok) << "Fairy-Stockfish gave no answer";
        EXPECT_TRUE(f.mate && f.value > 0) << "Fairy-Stockfish finds no mate (" << f.value << ")";
        EXPECT_LE(f.value, c.mate_in);
        ++checked;
    }
    EXPECT_GE(checked, 30);
}

TEST_F(Verdicts, EveryDrawHoldsForBothEngines) {
    int checked = 0;
    for (const Challenge& c : challenges()) {
        if (c.verdict != Verdict::Draw) continue;
        SCOPED_TRACE(c.id + " " + c.fen);
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None);
        const engine::Result r = ours(pos, OUR_DRAW_DEPTH);
        EXPECT_EQ(r.mate_in, 0) << "our engine finds a mate";
        EXPECT_LT(std::abs(r.score_cp), OUR_DRAW_BOUND_CP);
        const FsfScore f = fsf_search(fsf_, c.fen, FSF_DRAW_DEPTH);
        ASSERT_TRUE(f.ok) << "Fairy-Stockfish gave no answer";
        EXPECT_FALSE(f.mate) << "Fairy-Stockfish finds a mate in " << f.value;
        EXPECT_LE(std::abs(f.value), FSF_DRAW_BOUND_CP);
        ++checked;
    }
    EXPECT_GE(checked, 5);
}

// The draw rules of the evaluation (engine/eval.cpp, scale_for_drawishness): each rule is
// backed by positions where it applies (the stronger side, Red, to move) and whose draw both
// engines confirm at the collection's depths. Fairy-Stockfish's score is its static estimate
// where mate is impossible by how the pieces move (a cannon without a screen, a pawn on the
// last rank), so there only the absence of a mate is checked (fsf_bound 0).
struct DrawRuleCase {
    const char* rule;
    const char* fen;
    int divisor;    // expected draw-scale divisor of Red's advantage
    int fsf_bound;  // Fairy-Stockfish's score within this many cp (0: not checked)
};

const DrawRuleCase DRAW_RULE_CASES[] = {
    {"a pawn on the last rank against a bare king", "P3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", 16, 100},
    {"a rook against two advisors and two elephants", "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", 8, 100},
    {"a horse against two advisors", "3aka3/9/9/9/9/9/9/9/9/3K2N2 w - - 0 1", 8, 100},
    {"a horse against an advisor and an elephant", "4ka3/9/4b4/9/9/9/9/9/9/3K1N3 w - - 0 1", 8, 100},
    {"a horse against two elephants", "4k4/9/4b4/9/6b2/9/9/9/9/3K1N3 w - - 0 1", 8, 100},
    {"a cannon against a bare king", "4k4/9/9/9/9/9/9/9/9/3KC4 w - - 0 1", 8, 0},
    {"a horse and a high pawn against two advisors and two elephants",
     "2bakab2/9/9/4P4/9/9/9/9/9/3K1N3 w - - 0 1", 4, 100},
    {"a horse and a pawn at home against two advisors and two elephants",
     "2bakab2/9/9/9/9/9/4P4/9/9/3K1N3 w - - 0 1", 4, 100},
    {"a cannon and a pawn against two advisors and two elephants",
     "2bakab2/9/9/9/9/9/4P4/9/9/3K1C3 w - - 0 1", 4, 100},
    {"a high pawn against two advisors", "3aka3/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1", 4, 100},
};

TEST_F(Verdicts, EveryDrawRuleOfTheEvaluationHoldsForBothEngines) {
    for (const DrawRuleCase& c : DRAW_RULE_CASES) {
        SCOPED_TRACE(std::string(c.rule) + " " + c.fen);
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None);
        EXPECT_EQ(engine::draw_scale_divisor(pos, 1), c.divisor);
        const engine::Result r = ours(pos, OUR_DRAW_DEPTH);
        EXPECT_EQ(r.mate_in, 0) << "our engine finds a mate";
        EXPECT_LT(std::abs(r.score_cp), OUR_DRAW_BOUND_CP);
        const FsfScore f = fsf_search(fsf_, c.fen, FSF_DRAW_DEPTH);
        ASSERT_TRUE(f.ok) << "Fairy-Stockfish gave no answer";
        EXPECT_FALSE(f.mate) << "Fairy-Stockfish finds a mate in " << f.value;
        if (c.fsf_bound > 0) {
            EXPECT_LE(std::abs(f.value), c.fsf_bound);
        }
    }
}

// The rules never touch a stated win of the collection (the winner's advantage is unscaled),
// and they scale the stated draws of the balances they cover (not d-p-a-1: a pawn against a
// lone advisor, which a high pawn wins).
TEST(DrawRules, ScaleTheCoveredStatedDrawsAndNoStatedWin) {
    const std::set<std::string> covered = {"d-r-aabb-1", "d-r-aabb-2", "d-h-aa-1", "d-h-aa-2", "d-hp-aabb-1"};
    int scaled = 0;
    for (const Challenge& c : challenges()) {
        SCOPED_TRACE(c.id + " " + c.fen);
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None);
        if (c.verdict == Verdict::Win) {
            EXPECT_EQ(engine::draw_scale_divisor(pos, pos.side_to_move() == RED ? 1 : -1), 1);
        } else if (covered.count(c.id)) {
            // The side not to move is the stronger one in every stated draw.
            EXPECT_GT(engine::draw_scale_divisor(pos, pos.side_to_move() == RED ? -1 : 1), 1);
            ++scaled;
        }
    }
    EXPECT_EQ(scaled, int(covered.size()));
}

}  // namespace
}  // namespace xq::endgames
