// The executable's protocols, driven through the same session code: UCI, UCCI, perft output,
// options, and errors for malformed input (never a crash).
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "uci.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

std::string run(const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    xq::engine::run_uci(in, out);
    return out.str();
}

std::vector<std::string> lines_of(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::string bestmove_of(const std::string& out) {
    for (const auto& l : lines_of(out))
        if (l.rfind("bestmove ", 0) == 0) {
            std::istringstream in(l);
            std::string a, b;
            in >> a >> b;
            return b;
        }
    return "";
}

bool legal_in(const Position& pos, const std::string& text) {
    MoveList l;
    pos.generate_legal(l);
    for (Move m : l)
        if (move_to_iccs(m) == text) return true;
    return false;
}

TEST(Uci, Handshake) {
    const std::string out = run("uci\nisready\nquit\n");
    EXPECT_NE(out.find("id name xiangqi-engine"), std::string::npos);
    EXPECT_NE(out.find("option name Hash type spin"), std::string::npos);
    EXPECT_NE(out.find("option name Level type spin default 10 min 1 max 10"), std::string::npos);
    EXPECT_NE(out.find("uciok"), std::string::npos);
    EXPECT_NE(out.find("readyok"), std::string::npos);
}

TEST(Uci, GoDepthGivesInfoLinesAndALegalBestMove) {
    const std::string out = run("uci\nposition startpos moves h2e2 h9g7\ngo depth 4\n");
    EXPECT_NE(out.find("info depth 4 "), std::string::npos);
    EXPECT_NE(out.find(" pv "), std::string::npos);
    Position pos;
    UndoInfo u;
    pos.do_move(Move(square_from_string("h2"), square_from_string("e2")), u);
    pos.do_move(Move(square_from_string("h9"), square_from_string("g7")), u);
    EXPECT_TRUE(legal_in(pos, bestmove_of(out))) << out;
}

TEST(Uci, PerftKeepsItsFormat) {
    const auto lines = lines_of(run("go perft 2\n"));
    ASSERT_GE(lines.size(), 46u);
    for (int i = 0; i < 44; ++i) EXPECT_NE(lines[std::size_t(i)].find(": "), std::string::npos);
    EXPECT_EQ(lines[44], "");
    EXPECT_EQ(lines[45], "Nodes searched: 1920");
}

TEST(Uci, FenAndMovesAndMateScore) {
    const std::string out = run("position fen 4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\ngo depth 3\n");
    EXPECT_NE(out.find("score mate 1"), std::string::npos) << out;
    const std::string b = bestmove_of(out);
    EXPECT_TRUE(b == "b0b9" || b == "a8a9") << out;
}

TEST(Uci, MatedSideAnswersBestmoveNone) {
    const std::string out = run("position fen 1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1\ngo depth 3\n");
    EXPECT_NE(out.find("bestmove (none)"), std::string::npos) << out;
}

TEST(Uci, MalformedInputGetsErrorsNeverACrash) {
    // Each malformed line, on its own, gets an error (one or more lines saying why), and the
    // session goes on working afterwards.
    const std::vector<std::string> bad = {
        "foo bar",
        "position fen nonsense",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "position startpos moves h2e2 zz99",
        "position startpos moves a0a5",
        "position",
        "go perft",
        "go perft 99",
        "go depth x",
        "go wtime",
        "setoption name Hash value -3",
        "setoption name Level value 11",
        "setoption name Nope value 1",
        "setoption",
    };
    for (const auto& line : bad) {
        const std::string out = run(line + "\nposition startpos\ngo depth 2\n");
        int errors = 0;
        for (const auto& l : lines_of(out))
            if (l.rfind("info string error", 0) == 0) ++errors;
        EXPECT_GE(errors, 1) << line << " ->\n" << out;
        EXPECT_TRUE(legal_in(Position(), bestmove_of(out))) << line << " ->\n" << out;
    }
    // Blank lines and a switch to UCCI mid-session are no errors.
    const std::string out = run("ucci\n\n\n\r\nposition startpos\ngo depth 2\n");
    EXPECT_EQ(out.find("info string error"), std::string::npos) << out;
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out))) << out;
}

TEST(Uci, SetOptionsAndLevel) {
    const std::string out = run(
        "setoption name Hash value 8\nsetoption name Level value 1\nsetoption name Seed value 7\n"
        "setoption name Threads value 1\nsetoption name Clear Hash\nposition startpos\ngo nodes 5000\n");
    EXPECT_EQ(out.find("error"), std::string::npos) << out;
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out)));
}

TEST(Uci, ThreadsOptionRunsHelpersAndRefusesTooMany) {
    const std::string out = run("setoption name Threads value 2\nposition startpos moves h2e2 h9g7\ngo depth 6\n");
    EXPECT_EQ(out.find("error"), std::string::npos) << out;
    Position after;
    UndoInfo u;
    after.do_move(Move(square_from_string("h2"), square_from_string("e2")), u);
    after.do_move(Move(square_from_string("h9"), square_from_string("g7")), u);
    EXPECT_TRUE(legal_in(after, bestmove_of(out))) << out;
    const std::string bad = run("setoption name Threads value 65\n");
    EXPECT_NE(bad.find("info string error: Threads needs a number 1..64"), std::string::npos) << bad;
}

TEST(Uci, InfiniteWaitsForStop) {
    std::ostringstream out;
    {
        xq::engine::UciSession session(out);
        session.handle("position startpos");
        session.handle("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_EQ(out.str().find("bestmove"), std::string::npos);
        session.handle("isready");
        session.handle("stop");
        session.wait(false);
    }
    EXPECT_NE(out.str().find("readyok"), std::string::npos);
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out.str()))) << out.str();
}

// An output stream the test may read while the search thread writes to it.
class SharedOut {
public:
    std::ostream& stream() { return out_; }
    std::string text() {
        std::lock_guard<std::recursive_mutex> lock(buf_.mutex);
        return buf_.str();
    }
    bool has(const std::string& what) { return text().find(what) != std::string::npos; }

private:
    struct Buf : std::stringbuf {
        std::recursive_mutex mutex;  // xsputn may call overflow
        std::streamsize xsputn(const char* s, std::streamsize n) override {
            std::lock_guard<std::recursive_mutex> lock(mutex);
            return std::stringbuf::xsputn(s, n);
        }
        int_type overflow(int_type c) override {
            std::lock_guard<std::recursive_mutex> lock(mutex);
            return std::stringbuf::overflow(c);
        }
    } buf_;
    std::ostream out_{&buf_};
};

// Waits up to `limit` for `what` to appear; returns how long it took, or `limit` when it never did.
std::chrono::milliseconds wait_for(SharedOut& out, const std::string& what, std::chrono::milliseconds limit) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
        if (out.has(what) || took >= limit) return took;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

TEST(Uci, PonderWaitsForPonderhitThenSearchesOnTheClock) {
    SharedOut out;
    xq::engine::UciSession session(out.stream());
    session.handle("uci");
    EXPECT_TRUE(out.has("option name Ponder type check"));
    session.handle("position startpos moves h2e2");
    // The move time would long be over: pondering ignores the clock until ponderhit.
    session.handle("go ponder movetime 1500");
    std::this_thread::sleep_for(std::chrono::milliseconds(1800));
    EXPECT_FALSE(out.has("bestmove")) << out.text();
    session.handle("ponderhit");
    // Then the clock counts from the ponderhit: about 1.5 s more of search (it had answered at
    // once when ponderhit acted as stop).
    const auto took = wait_for(out, "bestmove", std::chrono::milliseconds(20000));
    EXPECT_GE(took.count(), 700) << out.text();
    EXPECT_LT(took.count(), 20000) << out.text();
    session.wait(false);
    Position pos;
    MoveList l;
    pos.generate_legal(l);
    for (Move m : l)
        if (move_to_iccs(m) == "h2e2") {
            UndoInfo u;
            pos.do_move(m, u);
        }
    EXPECT_TRUE(legal_in(pos, bestmove_of(out.text()))) << out.text();
}

TEST(Uci, StopEndsAPonderSearchWithABestMove) {
    SharedOut out;
    {
        xq::engine::UciSession session(out.stream());
        session.handle("position startpos");
        session.handle("go ponder wtime 60000 btime 60000");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_FALSE(out.has("bestmove"));
        session.handle("stop");
        EXPECT_LT(wait_for(out, "bestmove", std::chrono::milliseconds(10000)).count(), 10000) << out.text();
        // A ponderhit after the answer changes nothing, and the session goes on.
        session.handle("ponderhit");
        session.handle("isready");
        session.wait(false);
    }
    EXPECT_TRUE(out.has("readyok"));
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out.text()))) << out.text();
}

TEST(Uci, PonderhitOutsidePonderingDoesNotStopTheSearch) {
    SharedOut out;
    xq::engine::UciSession session(out.stream());
    session.handle("position startpos");
    session.handle("go infinite");
    session.handle("ponderhit");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(out.has("bestmove")) << out.text();
    session.handle("stop");
    session.wait(false);
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out.text()))) << out.text();
}

TEST(Uci, BareGoEndsAtEndOfInput) {
    // `go` without limits searches until stop; end of input counts as stop.
    const std::string out = run("position startpos\ngo\n");
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out))) << out;
}

TEST(Uci, RandomGarbageNeverCrashes) {
    // Seeded random lines built from protocol words, numbers and junk bytes.
    std::mt19937 rng(2024);
    const std::vector<std::string> words = {"uci", "isready", "position", "startpos", "fen", "moves", "go",
                                            "depth", "nodes", "movetime", "wtime", "btime", "winc", "perft",
                                            "setoption", "name", "value", "Hash", "Level", "banmoves", "h2e2",
                                            "b9c7", "-1", "0", "99999999999999999999", "rnbakabnr/9", "w", "b",
                                            "searchmoves", "mate", "movestogo", "eval", "d", "stop", "\x01\xff"};
    std::string input;
    for (int i = 0; i < 300; ++i) {
        const int n = int(rng() % 8);
        for (int k = 0; k < n; ++k) {
            const std::string& w = words[rng() % words.size()];
            input += w;
            if (w == "depth" || w == "perft") {  // keep searches tiny
                input += ' ';
                input += char('0' + rng() % 3);
            }
            if (w == "go") input += " depth 1";
            input += ' ';
        }
        input += "\n";
    }
    input += "position startpos\ngo depth 2\n";
    const std::string out = run(input);
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out.substr(out.rfind("info depth 1 ")))));
}

TEST(Ucci, HandshakeBanmovesAndNobestmove) {
    const std::string out = run(
        "ucci\nsetoption hashsize 8\nsetoption usemillisec true\nposition startpos\n"
        "banmoves h2e2 b2e2\ngo depth 3\n");
    EXPECT_NE(out.find("ucciok"), std::string::npos);
    const std::string b = bestmove_of(out);
    EXPECT_TRUE(legal_in(Position(), b)) << out;
    EXPECT_NE(b, "h2e2");
    EXPECT_NE(b, "b2e2");
    const std::string mated = run("ucci\nposition fen 1R2k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1\ngo time 100\nquit\n");
    EXPECT_NE(mated.find("nobestmove"), std::string::npos) << mated;
    EXPECT_NE(mated.find("bye"), std::string::npos) << mated;
}

TEST(Ucci, TimeInMilliseconds) {
    const std::string out = run("ucci\nsetoption usemillisec true\nposition startpos\ngo time 300 increment 0\n");
    EXPECT_TRUE(legal_in(Position(), bestmove_of(out))) << out;
}

}  // namespace
