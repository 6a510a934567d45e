#include "server_process.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

namespace xq::attack {

long settled_rss_kb(int pid) {
    long last = rss_kb(pid);
    for (int i = 0; i < 30; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const long now = rss_kb(pid);
        if (now == last) return now;
        last = now;
    }
    return last;
}

long rss_kb(int pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string key;
    while (f >> key) {
        if (key == "VmRSS:") {
            long kb = 0;
            f >> kb;
            return kb;
        }
        std::string rest;
        std::getline(f, rest);
    }
    return -1;
}

int open_fds(int pid) {
    std::error_code ec;
    int n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        ++n;
    return ec ? -1 : n;
}

bool ServerProc::start(const std::string& bin, const std::vector<std::string>& args,
                       const std::string& log_path, const Target& t, int nofile, std::string* why) {
    stop();
    std::vector<std::string> argv_s;
    argv_s.push_back(bin);
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    int console_pipe[2] = {-1, -1};
    if (with_console && ::pipe2(console_pipe, O_CLOEXEC) != 0) {
        if (why) *why = "no pipe for the console";
        return false;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        if (why) *why = "fork failed";
        if (with_console) {
            ::close(console_pipe[0]);
            ::close(console_pipe[1]);
        }
        return false;
    }
    if (pid == 0) {
        const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::close(fd);
        }
        if (with_console) {
            ::dup2(console_pipe[0], 0);  // the copy is not close-on-exec
        } else {
            const int devnull = ::open("/dev/null", O_RDONLY);
            if (devnull >= 0) ::dup2(devnull, 0);
        }
        if (nofile > 0) {
            rlimit rl{rlim_t(nofile), rlim_t(nofile)};
            ::setrlimit(RLIMIT_NOFILE, &rl);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    pid_ = pid;
    if (with_console) {
        ::close(console_pipe[0]);
        console_fd_ = console_pipe[1];
    }
    // Ready when a TCP connect succeeds.
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
        if (!running()) {
            if (why) *why = "server exited at start, see " + log_path;
            pid_ = -1;
            return false;
        }
        client::LineSocket s;
        if (s.connect(t.host, t.port, 500).empty()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (why) *why = "server did not listen within 20 s";
    return false;
}

namespace {

int exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

ServerProc::~ServerProc() {
    if (pid_ <= 0) return;
    const int pid = pid_;
    const int code = stop();
    if (code != 0) std::fprintf(stderr, "xiangqi-attack: server %d ended with %d when stopped\n", pid, code);
}

bool ServerProc::running() const {
    if (pid_ <= 0 || ended_) return false;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) ended_ = exit_code(status);
    return r == 0;
}

bool ServerProc::console(const std::string& line) {
    if (console_fd_ < 0) return false;
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(console_fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

void ServerProc::close_console() {
    if (console_fd_ >= 0) ::close(console_fd_);
    console_fd_ = -1;
}

void ServerProc::kill9() {
    close_console();
    if (pid_ <= 0) return;
    if (!ended_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    ended_.reset();
}

int ServerProc::stop() {
    close_console();
    if (pid_ <= 0) return -1;
    if (ended_) {
        // It had ended before it was asked to (a crash, or an exit of its own).
        const int code = *ended_;
        pid_ = -1;
        ended_.reset();
        return code;
    }
    ::kill(pid_, SIGTERM);
    int status = 0;
    // A sanitizer build runs LeakSanitizer at exit, which takes a moment on a loaded machine.
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            pid_ = -1;
            return exit_code(status);
        }
        if (r < 0) {
            pid_ = -1;
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill9();
    return 128 + SIGKILL;
}

std::string free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    std::string port;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = std::to_string(ntohs(a.sin_port));
    ::close(fd);
    return port;
}

}  // namespace xq::attack
