// The state of one UCI/UCCI session (UciSession::Impl) and the parsing helpers its commands
// share. Private to the engine front end: the dispatch of lines is in uci.cpp, the
// identification and options in uci_options.cpp, positions and searches in uci_search.cpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "book/opening_book.h"
#include "engine/search.h"
#include "uci.h"
#include "xiangqi/position.h"

namespace xq::engine {

namespace uci_detail {

constexpr int DEFAULT_HASH_MB = 16;
constexpr int MAX_HASH_MB = 4096;
constexpr int MAX_PERFT_DEPTH = 12;
constexpr int MAX_THREADS = Engine::MAX_THREADS;  // Lazy SMP; see docs/engine.md
constexpr std::size_t MAX_LINE = 64 * 1024;

enum class Protocol { Uci, Ucci };

// `s` as a whole decimal number within lo..hi.
bool parse_int(const std::string& s, long long lo, long long hi, long long& out);
// `text` (ICCS) as one of pos's legal moves.
bool parse_move(const Position& pos, const std::string& text, Move& out);
std::string lower(std::string s);

}  // namespace uci_detail

struct UciSession::Impl {
    std::ostream& out;
    std::mutex out_mutex;
    uci_detail::Protocol proto = uci_detail::Protocol::Uci;
    bool first_command = true;

    Engine engine{uci_detail::DEFAULT_HASH_MB};
    Position start;
    std::vector<Move> moves;
    Position current;
    std::vector<Move> banmoves;
    int level = MAX_LEVEL;
    std::uint64_t seed = 0;
    bool ucci_millisec = false;
    std::optional<book::Book> book;  // option BookFile (xiangqi-engine book build)

    std::thread worker;
    std::atomic<bool> stop{false};
    std::atomic<bool> searching{false};
    bool infinite_search = false;  // the running search ends only by stop
    // `go ponder`: true until ponderhit or stop; the search (Limits::pondering) and the answer
    // wait for it. ponder_unbounded: the go had no limit, so after ponderhit only stop ends it.
    std::atomic<bool> pondering{false};
    bool ponder_unbounded = false;

    explicit Impl(std::ostream& o) : out(o) {}

    void say(const std::string& line);
    void error(const std::string& what) { say("info string error: " + what); }
    // Waits for the running search (stopping it first when do_stop or it is infinite).
    void wait(bool do_stop);
    // One line of input; false after quit.
    bool handle(const std::string& raw);

    // Identification and options (uci_options.cpp).
    void cmd_uci();
    void cmd_ucci();
    bool set_option(const std::string& name_in, const std::string& value);
    void cmd_setoption(std::istringstream& in);

    // Positions and searches (uci_search.cpp).
    void cmd_position(std::istringstream& in);
    void cmd_banmoves(std::istringstream& in);
    void cmd_perft(int depth);
    void cmd_bench(std::istringstream& in);
    std::string score_text(int cp, int mate) const;
    void cmd_go(std::istringstream& in);
};

}  // namespace xq::engine
