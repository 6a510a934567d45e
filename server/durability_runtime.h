// The durability layer inside the xiangqi-server process: its command-line options, the
// database, the restore of unfinished games, the discovery responder and the operator
// console on stdin, started and stopped together; plus the archive subcommands
// (`xiangqi-server export|import|games`) that work on a data directory without a server.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/streambuf.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "admin.h"
#include "server/config.h"

namespace CLI {
class App;
}

namespace xq::server {

class Server;
class Storage;
class DurabilityLayer;
class DiscoveryResponder;

// Adds --data-dir, --no-persist, --sync-full, --clock, --discovery-port, --discovery-bind,
// --no-console and --max-per-ip to the server's options (shown by --help with their defaults).
void add_durability_options(CLI::App& app, DurabilityConfig& config);

// Runs `export`, `import` or `games` when argv[1] names one; nullopt otherwise.
std::optional<int> run_archive_command(int argc, char** argv);

class DurabilityRuntime {
public:
    DurabilityRuntime(boost::asio::io_context& io, Server& server, const ServerConfig& server_config,
                      const DurabilityConfig& config);
    ~DurabilityRuntime();
    DurabilityRuntime(const DurabilityRuntime&) = delete;
    DurabilityRuntime& operator=(const DurabilityRuntime&) = delete;

    // Opens the database, restores unfinished games, starts discovery and the console.
    // False and a message when the database cannot be used (the server should not start:
    // running without its record would silently lose games).
    bool start(std::string* error);
    // Stops discovery and the console (so io.run() can return); the database stays open
    // until destruction.
    void stop();
    // Carries out one console command and returns the reply (also used by tests).
    std::string execute(const AdminCommand& command);

    Storage* storage() const { return storage_.get(); }
    std::uint16_t discovery_port() const;

private:
    void read_console();

    boost::asio::io_context& io_;
    Server& server_;
    const ServerConfig& server_config_;
    DurabilityConfig config_;
    std::unique_ptr<Storage> storage_;
    std::unique_ptr<DurabilityLayer> layer_;
    std::unique_ptr<DiscoveryResponder> discovery_;
    std::unique_ptr<boost::asio::posix::stream_descriptor> console_;
    boost::asio::streambuf console_buf_;
    BanList bans_;
    std::unique_ptr<Admission> admission_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace xq::server
