// libFuzzer target: the server's socket-free core with its time, AI and storage. Input lines
// become requests of a few sessions into a Lobby with the game recorder on an SQLite file
// (in a temporary folder) and a one-worker AI pool; the first byte of each line picks the
// session and what happens: it sends the rest, disconnects and comes back, overflows a line,
// misses the hello deadline, or the clock steps forward (flags fall, seat grace runs out, AI
// pauses end), the AI is waited for, or the server restarts from its database (every
// session then comes back with its resume token). Every line the lobby sends must decode as
// a server message and respect the line cap; nothing may crash or trip a sanitizer.
//
// Line format: <op byte><text>\n, op & 7 = 0..3 send <text> from session (op >> 3) & 3;
// 4 control: (op >> 3) < 16 steps the clock by STEPS[op >> 3], < 24 waits for the AI,
// else restarts; 5 the session drops and reconnects (no hello yet); 6 an oversized line;
// 7 the hello deadline passes.
#include <boost/asio/io_context.hpp>
#include <spdlog/spdlog.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <variant>

#include "protocol/codec.h"
#include "protocol/limits.h"
#include "server/ai/ai_pool.h"
#include "server/lobby/lobby.h"
#include "server/store/game_recorder.h"
#include "server/store/storage.h"

#ifndef XQ_STEPPED_CLOCK
#error "fuzz_lobby steps the server's clock: build it with -DXQ_FUZZ=ON (tools/fuzz.sh)"
#endif

namespace {

using xq::server::SessionId;
using namespace std::chrono_literals;

void require(bool ok) {
    if (!ok) std::abort();
}

// Every line must decode and fit; welcomes are kept for their resume tokens.
class Recorder final : public xq::server::Outbox {
public:
    void send(SessionId to, const xq::server::Buffer& line) override {
        std::string_view l = *line;
        if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
        require(l.size() <= xq::proto::MAX_LINE_BYTES);
        auto m = xq::proto::decode_server(l);
        require(m.ok());
        if (const auto* w = std::get_if<xq::proto::Welcome>(&m.value())) tokens[to] = w->resume_token;
    }
    void close(SessionId) override {}
    std::map<SessionId, std::string> tokens;
};

constexpr int SLOTS = 4;
// Clock steps: within a move, past an offer, past a countdown or grace, past a whole clock.
constexpr std::array<std::chrono::milliseconds, 16> STEPS = {
    1ms, 10ms, 100ms, 250ms, 500ms, 1s, 2s, 3s, 5s, 8s, 11s, 21s, 31s, 61s, 121s, 10min};
// How long the target waits for an AI move in real time (a level-1 search takes ~2 ms).
constexpr auto AI_WAIT = 200ms;

// The database folder of this fuzzing process, removed at exit.
class TempDir {
public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "xq-fuzz-lobby-XXXXXX").string();
        require(::mkdtemp(tmpl.data()) != nullptr);
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

const std::filesystem::path& data_dir() {
    static const TempDir dir;
    return dir.path();
}

xq::server::ServerConfig fuzz_config() {
    xq::server::ServerConfig c;
    c.ai_workers = 1;
    c.ai_hash_mb = 1;
    c.ai_movetime_ms[1] = 2;  // a level-1 AI answers within milliseconds
    c.seat_grace = 5s;
    return c;
}

// The server as the runtime wires it: storage, lobby, game recorder (clocks, archive).
struct Server {
    Server(boost::asio::io_context& io, const xq::server::ServerConfig& config, Recorder& out,
           xq::server::AiPool& ai) {
        std::string error;
        storage = xq::server::Storage::open(data_dir(), &error);
        require(storage != nullptr);
        lobby = std::make_unique<xq::server::Lobby>(io, config, out, &ai);
        recorder = std::make_unique<xq::server::GameRecorder>(io, *lobby, storage.get(), xq::server::ClockConfig{},
                                                              config.seat_grace);
        lobby->add_observer(recorder.get());
        lobby->set_archive(recorder.get());
        recorder->restore();
    }
    ~Server() {
        lobby->shutdown();
        lobby.reset();
        recorder.reset();
        storage.reset();
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    std::unique_ptr<xq::server::Storage> storage;
    std::unique_ptr<xq::server::Lobby> lobby;
    std::unique_ptr<xq::server::GameRecorder> recorder;
};

// Runs what is ready (restart: a poll that ran out of work leaves the context stopped).
void poll(boost::asio::io_context& io) {
    io.restart();
    io.poll();
}

// Waits (bounded) until the AI has nothing queued or running, then runs what it posted.
void settle(boost::asio::io_context& io, const xq::server::AiPool& ai) {
    const auto until = std::chrono::steady_clock::now() + AI_WAIT;
    poll(io);
    while ((ai.queued() > 0 || ai.running() > 0) && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(100us);
        poll(io);
    }
    poll(io);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    spdlog::set_level(spdlog::level::off);
    data_dir();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    for (const auto& entry : std::filesystem::directory_iterator(data_dir())) std::filesystem::remove_all(entry);
    boost::asio::io_context io(1);
    const xq::server::ServerConfig config = fuzz_config();
    Recorder out;
    // Declared after io: destroyed (its workers joined) before the context they post into.
    xq::server::AiPool ai(config.ai_workers, config.ai_hash_mb);
    auto server = std::make_unique<Server>(io, config, out, ai);

    // Two tables with games in progress, so every request has something to hit: table 1 on
    // an Asian clock whose abandoned seats a level-1 AI holds, watched by a spectator;
    // table 2 on a Fischer clock against a level-1 AI.
    std::array<SessionId, SLOTS> id{};
    std::array<bool, SLOTS> connected{};
    SessionId next = 1;
    const std::array<std::string_view, SLOTS> prologue = {
        R"({"type":"create_table","name":"fuzz","as":"red","settings":{"clock":"asian:30/10/10","grace":5,"abandon":"ai","hold_level":1}})",
        R"({"type":"join","table":1,"as":"black"})",
        R"({"type":"join","table":1,"as":"spectator"})",
        R"({"type":"create_table","name":"ai","as":"red","settings":{"clock":"fischer:20+1"}})",
    };
    for (int i = 0; i < SLOTS; ++i) {
        id[i] = next++;
        connected[i] = server->lobby->on_connect(id[i]);
        server->lobby->on_line(id[i], R"({"type":"hello","name":"p)" + std::to_string(i) + R"(","version":1})");
        server->lobby->on_line(id[i], prologue[std::size_t(i)]);
        poll(io);
    }
    server->lobby->on_line(id[3], R"({"type":"request_ai","table":2,"seat":"black","level":1})");
    poll(io);

    std::string_view input(reinterpret_cast<const char*>(data), size);
    while (!input.empty()) {
        const std::size_t nl = input.find('\n');
        std::string_view line = input.substr(0, nl);
        input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
        if (line.empty()) continue;
        const auto b = static_cast<std::uint8_t>(line[0]);
        line.remove_prefix(1);
        const int slot = (b >> 3) % SLOTS;
        xq::server::Lobby& lobby = *server->lobby;
        switch (b & 7) {
        case 4: {
            const int sub = b >> 3;
            if (sub < 16) {
                xq::server::Clock::advance(STEPS[std::size_t(sub)]);
            } else if (sub >= 24) {
                // A restart: the server stops, comes back from its database, and every
                // session reconnects with the token its welcome gave it.
                server.reset();
                poll(io);
                server = std::make_unique<Server>(io, config, out, ai);
                for (int i = 0; i < SLOTS; ++i) {
                    const auto token = out.tokens.find(id[i]);
                    std::string hello = R"({"type":"hello","name":"p)" + std::to_string(i) + R"(","version":1)";
                    if (token != out.tokens.end()) hello += R"(,"resume":")" + token->second + '"';
                    id[i] = next++;
                    connected[i] = server->lobby->on_connect(id[i]);
                    if (connected[i]) server->lobby->on_line(id[i], hello + "}");
                }
            }
            settle(io, ai);
            continue;
        }
        case 5:  // the connection drops; the slot comes back as a new session
            if (connected[slot]) lobby.on_disconnect(id[slot], xq::proto::LeaveReason::Disconnected);
            id[slot] = next++;
            connected[slot] = lobby.on_connect(id[slot]);
            break;
        case 6:
            if (connected[slot]) lobby.on_oversized(id[slot]);
            break;
        case 7:
            if (connected[slot]) lobby.hello_timeout(id[slot]);
            break;
        default:
            if (connected[slot] && line.size() <= xq::proto::MAX_LINE_BYTES) lobby.on_line(id[slot], line);
            break;
        }
        poll(io);
    }
    server.reset();
    poll(io);
    return 0;
}
