// The server under test as a process: started by the tool (fork/exec) so it can be measured,
// given console commands, killed and stopped; its readings as the kernel sees them (RSS, open
// descriptors); a free loopback port to start it on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "harness.h"

namespace xq::attack {

// A server process started by the tool (fork/exec), so it can be measured and killed.
// Scenarios stop their server through Session, which reports the exit status as a check;
// one still running here is stopped the same way and a bad exit is printed.
class ServerProc {
public:
    ServerProc() = default;
    ~ServerProc();
    ServerProc(const ServerProc&) = delete;
    ServerProc& operator=(const ServerProc&) = delete;

    // Starts `bin args...` with stdout/stderr appended to log_path; nofile > 0 caps its file
    // descriptors (RLIMIT_NOFILE). Waits until the port accepts a TCP connection.
    bool start(const std::string& bin, const std::vector<std::string>& args, const std::string& log_path,
               const Target& t, int nofile = 0, std::string* why = nullptr);
    void kill9();
    // Set before start(): the server's stdin is a pipe its operator console reads, and
    // console() writes one command line to it (the console's answers go to the log).
    bool with_console = false;
    bool console(const std::string& line);
    // SIGTERM, then SIGKILL after 5 s. Returns the exit code, 128 + the signal that ended
    // it, or -1 when no server was started. A clean stop is 0: the server exits 0 on
    // SIGTERM (and, in a sanitizer build, LeakSanitizer has then found nothing).
    int stop();
    bool running() const;
    int pid() const { return pid_; }

private:
    void close_console();
    int pid_ = -1;
    int console_fd_ = -1;  // the write end of the console pipe
    // The status of a server that running() found ended (waitpid reaps it only once).
    mutable std::optional<int> ended_;
};

// The server process as the kernel sees it.
long rss_kb(int pid);
// The resident size once it holds still (two readings 100 ms apart agree, at most 3 s): a
// server just started may still be filling its AI workers' tables on other threads.
long settled_rss_kb(int pid);
int open_fds(int pid);

// A TCP port on 127.0.0.1 that was free a moment ago.
std::string free_port();

}  // namespace xq::attack
