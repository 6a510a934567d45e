// The text protocols of `xiangqi-engine`: UCI (as Pikafish speaks it) and UCCI (ElephantEye's,
// chosen when the first command is `ucci`), plus `go perft`, `bench`, `eval` and `d`.
// Streams are parameters so that tests drive the same code the executable runs.
#pragma once

#include <atomic>
#include <iosfwd>
#include <memory>
#include <string>

namespace xq::engine {

// Reads commands from `in` until `quit` or end of input, answering on `out`. A search runs
// on its own thread so that `stop`, `isready` and `quit` are answered while it thinks. At end
// of input a running finite search is allowed to finish; an infinite one is stopped.
// Returns the process exit code.
int run_uci(std::istream& in, std::ostream& out);

// One session, for callers that feed lines themselves.
class UciSession {
public:
    explicit UciSession(std::ostream& out);
    ~UciSession();
    UciSession(const UciSession&) = delete;
    UciSession& operator=(const UciSession&) = delete;

    // Handles one line; returns false after `quit`.
    bool handle(const std::string& line);
    // Waits for a running search to end (stopping it first when `stop` is true).
    void wait(bool stop);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::engine
