// A child process with pipes to its stdin and stdout (POSIX fork/exec, no shell), for
// talking to an external engine such as Fairy-Stockfish from a test. Reads time out.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace xq::test {

class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess() { stop(); }

    // Starts `path` with the given arguments (argv[0] is path). False if it cannot start.
    bool start(const std::string& path, const std::vector<std::string>& args = {}) {
        if (::access(path.c_str(), X_OK) != 0) return false;
        int to_child[2], from_child[2];
        if (::pipe2(to_child, O_CLOEXEC) != 0) return false;
        if (::pipe2(from_child, O_CLOEXEC) != 0) {
            ::close(to_child[0]);
            ::close(to_child[1]);
            return false;
        }
        std::vector<std::string> argv_s{path};
        argv_s.insert(argv_s.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (auto& a : argv_s) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            ::dup2(to_child[0], STDIN_FILENO);
            ::dup2(from_child[1], STDOUT_FILENO);
            ::execv(path.c_str(), argv.data());
            ::_exit(127);
        }
        ::close(to_child[0]);
        ::close(from_child[1]);
        if (pid_ < 0) {
            ::close(to_child[1]);
            ::close(from_child[0]);
            return false;
        }
        in_ = to_child[1];
        out_ = from_child[0];
        ::signal(SIGPIPE, SIG_IGN);  // a dead child must give an error, not kill the test
        return true;
    }

    bool send(const std::string& text) {
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(in_, text.data() + done, text.size() - done);
            if (n <= 0) return false;
            done += std::size_t(n);
        }
        return true;
    }

    // One line without its newline; false on end of output or timeout.
    bool read_line(std::string& line, int timeout_ms) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            const auto nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                line = buffer_.substr(0, nl);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                buffer_.erase(0, nl + 1);
                return true;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  deadline - std::chrono::steady_clock::now()).count();
            if (left <= 0 || out_ < 0) return false;
            pollfd pfd{out_, POLLIN, 0};
            if (::poll(&pfd, 1, int(left)) <= 0) return false;
            char chunk[4096];
            const ssize_t n = ::read(out_, chunk, sizeof chunk);
            if (n <= 0) return false;
            buffer_.append(chunk, std::size_t(n));
        }
    }

    void stop() {
        if (pid_ <= 0) return;
        send("quit\n");
        if (in_ >= 0) ::close(in_);
        in_ = -1;
        for (int i = 0; i < 100; ++i) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
            pid_ = -1;
        }
        if (out_ >= 0) ::close(out_);
        out_ = -1;
    }

private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
};

}  // namespace xq::test
