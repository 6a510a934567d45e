// A real xiangqi-server process for the durability suites (fork/exec, killed with SIGKILL or
// stopped with SIGTERM and checked to exit 0), free loopback ports, two players seated at a
// table, random legal moves, registered guests and rated settings. Loopback only.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <future>
#include <random>

#include "server/admin/admin_command.h"
#include "server/store/archive.h"
#include "client/net/lan_discovery.h"
#include "server/app/archive_command.h"
#include "server/app/server_runtime.h"
#include "server/identity/account_store.h"
#include "durability/durable_server.h"
#include "server/harness.h"
#include "server/store/storage.h"
#include "temp_dir.h"
#include "xiangqi/pgn.h"

namespace xq::test {


inline std::uint16_t free_port(bool udp = false) {
    int fd = ::socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

struct Pair {
    std::unique_ptr<Client> red, black;
    proto::TableId table = 0;
};

inline Pair seat_two(std::uint16_t port) {
    Pair p;
    p.red = Client::login(port, "ann");
    p.red->send(proto::CreateTable{"durable", proto::Role::Red, ""});
    p.table = p.red->expect<proto::TableSnapshot>().table.id;
    p.black = Client::login(port, "bob");
    p.black->send(proto::Join{p.table, proto::Role::Black});
    p.black->expect<proto::TableSnapshot>();
    p.red->until_pong();
    p.black->until_pong();
    return p;
}

// A legal move of the position after `moves` (from the start), picked at random.
inline std::string random_move(const std::vector<std::string>& moves, std::mt19937& rng) {
    Game g;
    for (const auto& m : moves) g.play(Move(square_from_string(m.substr(0, 2)), square_from_string(m.substr(2, 2))));
    MoveList list = g.legal_moves();
    if (list.empty()) return "";
    return move_to_iccs(list[int(rng() % unsigned(list.size()))]);
}

// The real executable, started with fork/exec; killed for real (kill9) or stopped with
// SIGTERM, after which it must exit 0.
class ServerProcess {
public:
    ServerProcess(const std::filesystem::path& data_dir, std::uint16_t port, const std::filesystem::path& log,
                  const std::vector<std::string>& extra = {})
        : log_(log) {
        std::vector<std::string> args = {XQ_SERVER_EXE, "--bind", "127.0.0.1", "--port", std::to_string(port),
                                         "--data-dir", data_dir.string(), "--discovery-port", "0", "--no-console",
                                         "--ai-workers", "1", "--log-level", "warn"};
        args.insert(args.end(), extra.begin(), extra.end());
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        pid_ = ::fork();
        if (pid_ == 0) {
            int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            int null = ::open("/dev/null", O_RDONLY);
            ::dup2(null, 0);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        // Ready once it accepts connections; a server that never gets there fails the test
        // (with its log), it is not waited on in silence.
        for (int i = 0; i < 1000 && !ready(port); ++i) {
            if (::waitpid(pid_, &status_, WNOHANG) == pid_) {
                pid_ = -1;
                ADD_FAILURE() << "the server exited (status " << status_ << ") before it accepted connections; log:\n"
                              << read_log(log);
                return;
            }
            ::usleep(10'000);
        }
        if (!ready(port)) ADD_FAILURE() << "the server never accepted connections on port " << port << "; log:\n" << read_log(log);
    }
    // A server the test did not kill on purpose is stopped cleanly at the end.
    ~ServerProcess() { stop(); }
    void kill9() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status_, 0);
        pid_ = -1;
    }
    // SIGTERM, as an operator stops it: the server must exit 0 within 30 s (under the
    // sanitizers LeakSanitizer then checks it; a report makes the exit status non-zero).
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        bool exited = false;
        for (int i = 0; i < 3000 && !exited; ++i) {
            exited = ::waitpid(pid_, &status_, WNOHANG) == pid_;
            if (!exited) ::usleep(10'000);
        }
        if (!exited) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status_, 0);
            ADD_FAILURE() << "the server did not exit within 30 s of SIGTERM; log:\n" << read_log(log_);
        } else {
            EXPECT_TRUE(WIFEXITED(status_) && WEXITSTATUS(status_) == 0)
                << "the server's exit status after SIGTERM is " << status_ << "; log:\n" << read_log(log_);
        }
        pid_ = -1;
    }
    int status() const { return status_; }

private:
    static std::string read_log(const std::filesystem::path& log) {
        std::ifstream in(log);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return text.size() > 4000 ? text.substr(text.size() - 4000) : text;
    }
    static bool ready(std::uint16_t port) {
        int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }
    pid_t pid_ = -1;
    int status_ = 0;
    std::filesystem::path log_;
};


// A guest who registers their name at once (password "<name>'s secret").
inline std::unique_ptr<Client> registered(std::uint16_t port, const std::string& name) {
    auto c = Client::login(port, name);
    c->send(proto::Register{name + "'s secret"});
    c->expect<proto::Registered>();
    return c;
}

// A rated table's settings (a rated table needs a clock).
inline proto::TableSettings rated_settings() {
    proto::TableSettings rated;
    rated.clock = "fischer:300+5";
    rated.rated = true;
    return rated;
}


}  // namespace xq::test
