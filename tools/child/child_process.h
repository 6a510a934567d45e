// A program run as a child process on two pipes (its standard input and output), read line by
// line: the UCI engines of xiangqi-match and of `xiangqi-tune label`. Nothing here touches the
// network.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace xq::tools {

class ChildProcess {
public:
    ChildProcess() = default;
    ~ChildProcess() { stop(""); }
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // argv[0] is the program (searched on PATH). False, with `error` set, when it cannot run
    // at all; a program that is not found ends at once, which the first read reports.
    bool start(const std::vector<std::string>& argv, std::string& error);
    // One line to the child; false once it no longer reads (a dead child is not a signal here).
    bool send(const std::string& line);
    // The next line of its output, without the line end ("\r\n" too); nothing at the end of
    // its output or after `timeout_ms` (negative: no limit).
    std::optional<std::string> read_line(int timeout_ms = -1);
    // Sends `farewell` (unless empty), closes its input, gives it a second to end, then kills it.
    void stop(const std::string& farewell);

private:
    pid_t pid_ = -1;
    int in_fd_ = -1;   // the child's standard input
    int out_fd_ = -1;  // its standard output
    std::string buffer_;
};

}  // namespace xq::tools
