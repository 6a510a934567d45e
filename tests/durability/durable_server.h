// Test helpers for the durability layer: a server with the durability runtime (database,
// clocks, archive, tournaments kept) in this process on its own thread, the quiet runtime
// settings of a test, and the wait for a tournament line. Loopback only.
#pragma once

#include "temp_dir.h"
#include "server/app/server_runtime.h"
#include "server/harness.h"

namespace xq::test {

using server::RuntimeConfig;

// A server with the durability runtime, in this process, on its own thread.
class DurableServer {
public:
    DurableServer(server::ServerConfig config, RuntimeConfig dc) : config_(std::move(config)) {
        quiet_logs();
        server_ = std::make_unique<server::Server>(io_, config_, nullptr);
        EXPECT_FALSE(server_->listen());
        runtime_ = std::make_unique<server::ServerRuntime>(io_, *server_, config_, dc);
        std::string err;
        EXPECT_TRUE(runtime_->start(&err)) << err;
        thread_ = std::thread([this] { io_.run(); });
    }
    ~DurableServer() {
        asio::post(io_, [this] {
            runtime_->stop();
            server_->stop();
        });
        thread_.join();
        runtime_.reset();
    }
    std::uint16_t port() const { return server_->port(); }
    template <class F>
    auto on_server(F f) {
        std::promise<decltype(f(*server_, *runtime_))> p;
        asio::post(io_, [&] { p.set_value(f(*server_, *runtime_)); });
        return p.get_future().get();
    }

private:
    server::ServerConfig config_;
    asio::io_context io_{1};
    std::unique_ptr<server::Server> server_;
    std::unique_ptr<server::ServerRuntime> runtime_;
    std::thread thread_;
};

inline RuntimeConfig quiet(const TempDir& dir) {
    RuntimeConfig dc;
    dc.data_dir = dir.path().string();
    dc.discovery_port = 0;  // off unless a test turns it on (on loopback)
    dc.console = false;
    return dc;
}

// The next `tournament` line of tournament `id` that satisfies `ok` (others are skipped).
template <class Pred>
proto::Tournament wait_tournament(Client& c, std::uint32_t id, Pred ok, std::chrono::milliseconds timeout = 10000ms) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ADD_FAILURE() << "no tournament line as expected";
            return {};
        }
        const auto t = c.expect<proto::Tournament>(left);
        if (t.id == id && ok(t)) return t;
    }
}

}  // namespace xq::test
