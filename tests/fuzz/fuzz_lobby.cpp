// libFuzzer target: the server's socket-free core. Input lines become requests of a few
// sessions into an in-memory Lobby (no sockets, no AI threads); the first byte of each line
// picks the session and whether it sends the rest, disconnects and comes back, overflows a
// line or misses the hello deadline. Every line the lobby sends must decode as a server
// message and respect the line cap; nothing may crash or trip a sanitizer.
#include <boost/asio/io_context.hpp>
#include <spdlog/spdlog.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "protocol/codec.h"
#include "protocol/limits.h"
#include "server/lobby/lobby.h"

namespace {

using xq::server::SessionId;

void require(bool ok) {
    if (!ok) std::abort();
}

class Recorder final : public xq::server::Outbox {
public:
    void send(SessionId, const xq::server::Buffer& line) override {
        std::string_view l = *line;
        if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
        require(l.size() <= xq::proto::MAX_LINE_BYTES);
        require(xq::proto::decode_server(l).ok());
        ++lines;
    }
    void close(SessionId) override {}
    std::size_t lines = 0;
};

constexpr int SLOTS = 4;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    spdlog::set_level(spdlog::level::off);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    boost::asio::io_context io(1);
    xq::server::ServerConfig config;
    Recorder out;
    xq::server::Lobby lobby(io, config, out, nullptr);

    // A table with a game in progress and a spectator, so every request has something to hit.
    std::array<SessionId, SLOTS> id{};
    std::array<bool, SLOTS> connected{};
    SessionId next = 1;
    const std::array<std::string_view, SLOTS> prologue = {
        R"({"type":"create_table","name":"fuzz","as":"red"})",
        R"({"type":"join","table":1,"as":"black"})",
        R"({"type":"join","table":1,"as":"spectator"})",
        R"({"type":"list_tables"})",
    };
    for (int i = 0; i < SLOTS; ++i) {
        id[i] = next++;
        connected[i] = lobby.on_connect(id[i]);
        lobby.on_line(id[i], R"({"type":"hello","name":"p)" + std::to_string(i) + R"(","version":1})");
        lobby.on_line(id[i], prologue[std::size_t(i)]);
        io.poll();
    }

    std::string_view input(reinterpret_cast<const char*>(data), size);
    while (!input.empty()) {
        const std::size_t nl = input.find('\n');
        std::string_view line = input.substr(0, nl);
        input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
        if (line.empty()) continue;
        const auto b = static_cast<std::uint8_t>(line[0]);
        line.remove_prefix(1);
        const int slot = (b >> 3) % SLOTS;
        switch (b & 7) {
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
        io.poll();
    }
    lobby.shutdown();
    io.poll();
    return 0;
}
