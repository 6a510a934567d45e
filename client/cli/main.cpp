// xiangqi-cli: the terminal client. Interactive on a terminal (board drawn with Unicode
// pieces and colours, moves typed in ICCS, WXF or Chinese), or driven by a script
// (--script FILE or --batch on stdin) printing every server line as it arrives.
#include <poll.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "cli_app.h"
#include "line_socket.h"
#include "protocol/limits.h"

namespace {

using Clock = std::chrono::steady_clock;
using xq::client::CliApp;
using xq::client::LineSocket;

enum ExitCode { OK = 0, CONNECT_FAILED = 1, WAIT_TIMEOUT = 2, CONNECTION_LOST = 3, USAGE = 64 };

// Server lines may be a little over the request cap (snapshots); anything far beyond is bogus.
constexpr std::size_t MAX_SERVER_LINE = 4 * xq::proto::MAX_LINE_BYTES;
constexpr int CONNECT_TIMEOUT_MS = 5000;

void flush(CliApp& app) {
    const std::string out = app.take_output();
    if (!out.empty()) {
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
    }
}

// Reads and handles server lines for up to `ms` milliseconds, or until `done()` holds.
// Returns false when the connection is gone.
template <class Done>
bool pump(LineSocket& sock, CliApp& app, int ms, Done done) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    std::vector<std::string> lines;
    while (!done()) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left < 0) left = 0;
        pollfd p{sock.fd(), POLLIN, 0};
        const int r = ::poll(&p, 1, int(left));
        if (r < 0) continue;
        if (r == 0) return true;
        lines.clear();
        const bool alive = sock.read_available(lines, MAX_SERVER_LINE);
        for (const auto& l : lines) app.handle_server_line(l);
        for (const auto& r : app.take_replies()) sock.send_line(r);
        flush(app);
        if (!alive) return false;
    }
    return true;
}

// Runs one command; returns an exit code, or -1 to go on.
int run_command(LineSocket& sock, CliApp& app, const std::string& line, bool& quit) {
    const auto res = app.handle_command(line);
    flush(app);
    auto lost = [&app] {
        app.note_error("connection closed by the server");
        flush(app);
        return CONNECTION_LOST;
    };
    for (const auto& l : res.send)
        if (!sock.send_line(l)) return lost();
    if (!res.send_raw.empty() && !sock.send_raw(res.send_raw)) return lost();
    if (res.sleep_ms > 0 && !pump(sock, app, res.sleep_ms, [] { return false; })) return lost();
    if (res.wait) {
        const auto& w = *res.wait;
        bool satisfied = false;
        const bool alive =
            pump(sock, app, w.timeout_ms, [&] { return satisfied = satisfied || app.try_satisfy(w); });
        if (!satisfied) {
            app.note_error((alive ? "timeout waiting for " : "connection closed while waiting for ") +
                           w.type);
            flush(app);
            return alive ? WAIT_TIMEOUT : CONNECTION_LOST;
        }
    }
    quit = res.quit;
    return -1;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App cli{"xiangqi-cli: terminal client for xiangqi-server"};
    std::string address = "127.0.0.1:5050";
    std::string name;
    std::string script;
    std::string resume;
    std::string password;
    std::string color = "auto";
    std::string notation = "chinese";
    bool batch = false;
    bool ascii = false;
    int wait_s = 10;
    int linger_ms = 300;
    cli.add_option("-c,--connect", address, "server HOST:PORT")->capture_default_str();
    cli.add_option("-n,--name", name, "your nickname")->required();
    cli.add_option("--script", script, "run commands from FILE, print every server line (JSON)");
    cli.add_flag("--batch", batch, "run commands from stdin, print every server line (JSON)");
    cli.add_option("--password", password,
                   "the server's password (or set XQ_PASSWORD: a command line is visible to other users)");
    cli.add_option("--resume", resume, "resume token from an earlier welcome (reclaims your seat)");
    cli.add_option("--color", color, "auto, always or never")->capture_default_str();
    cli.add_flag("--ascii", ascii, "draw pieces as FEN letters instead of Chinese characters");
    cli.add_option("--notation", notation, "moves shown as chinese, wxf or iccs")->capture_default_str();
    cli.add_option("--wait-timeout", wait_s, "seconds a script's wait may take before failing")
        ->capture_default_str();
    cli.add_option("--linger", linger_ms, "ms to keep printing server lines after a script ends")
        ->capture_default_str();
    CLI11_PARSE(cli, argc, argv);

    xq::client::CliOptions opt;
    opt.name = name;
    if (password.empty())
        if (const char* env = std::getenv("XQ_PASSWORD")) password = env;
    opt.password = password;
    opt.batch = batch || !script.empty();
    opt.style.unicode = !ascii;
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    opt.style.color =
        color == "always" || (color == "auto" && !opt.batch && ::isatty(STDOUT_FILENO) &&
                              no_color == nullptr && term != nullptr && std::string(term) != "dumb");
    opt.notation = notation == "wxf"    ? xq::Notation::Wxf
                   : notation == "iccs" ? xq::Notation::Iccs
                                        : xq::Notation::Chinese;
    opt.default_wait_ms = wait_s * 1000;

    std::string host, port;
    if (!xq::client::split_host_port(address, host, port)) {
        std::fprintf(stderr, "xiangqi-cli: --connect wants HOST:PORT, got '%s'\n", address.c_str());
        return USAGE;
    }

    CliApp app(opt);
    LineSocket sock;
    if (const std::string err = sock.connect(host, port, CONNECT_TIMEOUT_MS); !err.empty()) {
        app.note_error(err);
        flush(app);
        return CONNECT_FAILED;
    }
    sock.send_line(app.hello_line(resume));
    const bool alive = pump(sock, app, CONNECT_TIMEOUT_MS, [&] { return app.welcomed() || app.refused(); });
    if (!app.welcomed()) {
        app.note_error(alive ? "no welcome from the server" : "connection closed during hello");
        flush(app);
        return CONNECT_FAILED;
    }

    if (opt.batch) {
        std::ifstream file;
        if (!script.empty()) {
            file.open(script);
            if (!file) {
                app.note_error("cannot open script " + script);
                flush(app);
                return USAGE;
            }
        }
        std::istream& in = script.empty() ? std::cin : file;
        std::string line;
        bool quit = false;
        while (!quit && std::getline(in, line)) {
            if (!pump(sock, app, 0, [] { return false; })) {
                app.note_error("connection closed by the server");
                flush(app);
                return CONNECTION_LOST;
            }
            const int rc = run_command(sock, app, line, quit);
            if (rc >= 0) return rc;
        }
        pump(sock, app, linger_ms, [] { return false; });
        flush(app);
        return OK;
    }

    // Interactive: stdin and the server at once.
    std::fputs("type help for commands\n", stdout);
    std::string pending;
    for (;;) {
        pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {sock.fd(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) continue;
        if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!pump(sock, app, 0, [] { return false; }) ||
                (fds[1].revents & (POLLHUP | POLLERR) && !(fds[1].revents & POLLIN))) {
                app.note_error("connection closed by the server");
                flush(app);
                return CONNECTION_LOST;
            }
        }
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            char buf[4096];
            const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
            if (n <= 0) return OK;
            pending.append(buf, std::size_t(n));
            std::size_t nl;
            while ((nl = pending.find('\n')) != std::string::npos) {
                const std::string line = pending.substr(0, nl);
                pending.erase(0, nl + 1);
                bool quit = false;
                const int rc = run_command(sock, app, line, quit);
                if (rc >= 0) return rc;
                if (quit) return OK;
            }
        }
    }
}
