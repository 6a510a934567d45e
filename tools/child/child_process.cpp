#include "child_process.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace xq::tools {

bool ChildProcess::start(const std::vector<std::string>& argv, std::string& error) {
    if (argv.empty()) {
        error = "no program to run";
        return false;
    }
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) {
        error = "pipe failed";
        return false;
    }
    if (pipe(from_child) != 0) {
        close(to_child[0]);
        close(to_child[1]);
        error = "pipe failed";
        return false;
    }
    signal(SIGPIPE, SIG_IGN);  // writing to a dead child is an error to report, not our end
    pid_ = fork();
    if (pid_ < 0) {
        for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) close(fd);
        error = "fork failed";
        return false;
    }
    if (pid_ == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[1]);
        close(from_child[0]);
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_fd_ = to_child[1];
    out_fd_ = from_child[0];
    return true;
}

bool ChildProcess::send(const std::string& line) {
    const std::string s = line + "\n";
    std::size_t off = 0;
    while (off < s.size()) {
        if (in_fd_ < 0) return false;
        const ssize_t n = write(in_fd_, s.data() + off, s.size() - off);
        if (n <= 0) return false;
        off += std::size_t(n);
    }
    return true;
}

std::optional<std::string> ChildProcess::read_line(int timeout_ms) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        const auto nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (out_fd_ < 0) return std::nullopt;
        int wait_ms = -1;
        if (timeout_ms >= 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return std::nullopt;
            wait_ms = int(left);
        }
        pollfd p{out_fd_, POLLIN, 0};
        if (poll(&p, 1, wait_ms) <= 0) continue;  // timed out (checked above) or interrupted
        char chunk[4096];
        const ssize_t n = read(out_fd_, chunk, sizeof chunk);
        if (n <= 0) {
            close(out_fd_);
            out_fd_ = -1;
            return std::nullopt;
        }
        buffer_.append(chunk, std::size_t(n));
    }
}

void ChildProcess::stop(const std::string& farewell) {
    if (pid_ > 0) {
        if (!farewell.empty()) send(farewell);
        if (in_fd_ >= 0) close(in_fd_);
        in_fd_ = -1;
        for (int i = 0; i < 100 && pid_ > 0; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) pid_ = -1;
            else std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
    }
    for (int* fd : {&in_fd_, &out_fd_}) {
        if (*fd >= 0) close(*fd);
        *fd = -1;
    }
}

}  // namespace xq::tools
