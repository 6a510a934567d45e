// Cross-check against Fairy-Stockfish: at positions reached by seeded random play from the
// start and from every published perft position, our per-move perft divide at depth 2 must
// equal Fairy-Stockfish's `go perft 2` (its move text numbers ranks 1-10; converted here).
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "child_process.h"
#include "perft_data.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

constexpr const char* FSF_DEFAULT_PATH = "/usr/games/fairy-stockfish";
constexpr int POSITIONS_TO_COMPARE = 600;
constexpr int READ_TIMEOUT_MS = 10000;

std::string fsf_path() {
    const char* env = std::getenv("XQ_FAIRY_STOCKFISH");
    return env && *env ? env : FSF_DEFAULT_PATH;
}

// "h3e3" (ranks 1-10) -> "h2e2" (ranks 0-9); empty string if it is not a move.
std::string fsf_to_iccs(const std::string& t) {
    std::size_t i = 0;
    std::string out;
    for (int part = 0; part < 2; ++part) {
        if (i >= t.size() || t[i] < 'a' || t[i] > 'i') return {};
        out += t[i++];
        int rank = 0, digits = 0;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9' && digits < 2) rank = rank * 10 + (t[i++] - '0'), ++digits;
        if (digits == 0 || rank < 1 || rank > 10) return {};
        out += char('0' + rank - 1);
    }
    return i == t.size() ? out : std::string{};
}

TEST(FsfCrossCheck, MoveTextConversion) {
    EXPECT_EQ(fsf_to_iccs("h3e3"), "h2e2");
    EXPECT_EQ(fsf_to_iccs("h10g8"), "h9g7");
    EXPECT_EQ(fsf_to_iccs("i10h10"), "i9h9");
    EXPECT_EQ(fsf_to_iccs("j1a1"), "");
    EXPECT_EQ(fsf_to_iccs("a11a1"), "");
}

std::map<std::string, std::uint64_t> our_divide(Position p) {
    std::map<std::string, std::uint64_t> out;
    MoveList l;
    p.generate_legal(l);
    for (Move m : l) {
        UndoInfo u;
        p.do_move(m, u);
        out[move_to_iccs(m)] = perft(p, 1);
        p.undo_move(m, u);
    }
    return out;
}

bool fsf_divide(test::ChildProcess& fsf, const std::string& fen, std::map<std::string, std::uint64_t>& out,
                std::uint64_t& total, std::string& error) {
    if (!fsf.send("position fen " + fen + "\ngo perft 2\n")) {
        error = "cannot write to Fairy-Stockfish";
        return false;
    }
    std::string line;
    while (fsf.read_line(line, READ_TIMEOUT_MS)) {
        if (line.rfind("Nodes searched:", 0) == 0) {
            total = std::stoull(line.substr(15));
            return true;
        }
        const auto colon = line.find(": ");
        if (colon == std::string::npos) continue;
        const std::string mv = fsf_to_iccs(line.substr(0, colon));
        if (mv.empty()) continue;
        out[mv] = std::stoull(line.substr(colon + 2));
    }
    error = "Fairy-Stockfish stopped answering";
    return false;
}

TEST(FsfCrossCheck, PerftDivideDepth2MatchesFairyStockfish) {
    const std::string path = fsf_path();
    test::ChildProcess fsf;
    ASSERT_TRUE(fsf.start(path)) << "Fairy-Stockfish not found or not executable at " << path
                                 << ": run tools/setup.sh (it installs the Debian package fairy-stockfish)";
    ASSERT_TRUE(fsf.send("uci\nsetoption name UCI_Variant value xiangqi\nisready\n"));
    std::string line;
    bool ready = false;
    while (!ready && fsf.read_line(line, READ_TIMEOUT_MS)) ready = line == "readyok";
    ASSERT_TRUE(ready) << "Fairy-Stockfish did not answer isready";

    // Roots: the start position and every distinct published perft position.
    std::vector<std::string> roots{std::string(START_FEN)};
    std::set<std::string> seen_roots{roots[0]};
    for (const auto& c : test::load_published_perft(1, 1))
        if (seen_roots.insert(c.fen).second) roots.push_back(c.fen);
    ASSERT_GE(roots.size(), 5u) << test::published_perft_path() << " not found or truncated";

    std::mt19937 rng(20261129);
    int compared = 0, with_check = 0, game = 0;
    while (compared < POSITIONS_TO_COMPARE) {
        Position p;
        ASSERT_EQ(p.set_fen(roots[std::size_t(game) % roots.size()]), FenError::None);
        ++game;
        for (int ply = 0; ply < 60 && compared < POSITIONS_TO_COMPARE; ++ply) {
            MoveList l;
            p.generate_legal(l);
            if (ply % 3 == 0 || p.in_check() || l.size() <= 3) {
                std::map<std::string, std::uint64_t> theirs;
                std::uint64_t total = 0;
                std::string error;
                const std::string fen = p.fen();
                ASSERT_TRUE(fsf_divide(fsf, fen, theirs, total, error)) << error << " at " << fen;
                const auto ours = our_divide(p);
                ASSERT_EQ(ours, theirs) << "perft divide 2 differs at " << fen;
                std::uint64_t sum = 0;
                for (const auto& [m, n] : ours) sum += n;
                ASSERT_EQ(sum, total) << fen;
                ++compared;
                with_check += p.in_check();
            }
            if (l.empty()) break;
            UndoInfo u;
            p.do_move(l[int(rng() % unsigned(l.size()))], u);
        }
    }
    EXPECT_EQ(compared, POSITIONS_TO_COMPARE);
    EXPECT_GT(with_check, 0) << "the sample should include positions in check";
    std::printf("[ info ] compared perft divide 2 with Fairy-Stockfish at %d positions (%d in check) from %d games\n",
                compared, with_check, game);
}

}  // namespace
