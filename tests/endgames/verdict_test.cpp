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
#include <sstream>

#include "child_process.h"
#include "endgames/challenge_collection.h"
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

}  // namespace
}  // namespace xq::endgames
