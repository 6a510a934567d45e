// What xiangqi-server runs beside its listener: the runtime options (RuntimeConfig), the
// database and game recorder, the restore of unfinished games, admission, the discovery
// responder and the operator console on stdin, started and stopped together.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/streambuf.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "book/opening_book.h"
#include "server/admin/admin_command.h"
#include "server/admin/ban_list.h"
#include "server/app/runtime_config.h"
#include "server/config/server_config.h"
#include "server/net/admission.h"
#include "server/store/explorer_index.h"

namespace CLI {
class App;
}

namespace xq::server {

class Server;
class Storage;
class GameRecorder;
class StoreWriter;
class BookLearner;
class DiscoveryResponder;
class AccountService;

// Adds --data-dir, --no-persist, --sync-full, --clock, --discovery-port, --discovery-bind,
// --no-console and --max-per-ip to the server's options (shown by --help with their defaults).
void add_runtime_options(CLI::App& app, RuntimeConfig& config);

class ServerRuntime {
public:
    ServerRuntime(boost::asio::io_context& io, Server& server, const ServerConfig& server_config,
                      const RuntimeConfig& config);
    ~ServerRuntime();
    ServerRuntime(const ServerRuntime&) = delete;
    ServerRuntime& operator=(const ServerRuntime&) = delete;

    // Opens the database, restores unfinished games, starts discovery and the console.
    // False and a message when the database cannot be used (the server should not start:
    // running without its record would silently lose games).
    bool start(std::string* error);
    // Stops discovery and the console (so io.run() can return) and sends what waited for the
    // writer's commit; the database stays open until destruction.
    void stop();
    // Carries out one console command and returns the reply (also used by tests). Account
    // commands answer later (hashing runs on the accounts worker): `reply` gets their text
    // on the I/O thread, and execute returns "".
    std::string execute(const AdminCommand& command, std::function<void(std::string)> reply = {});

    Storage* storage() const { return storage_.get(); }
    StoreWriter* writer() const { return writer_.get(); }  // null with --no-persist
    std::uint16_t discovery_port() const;

private:
    void read_console();
    std::string book_command(const AdminCommand& command);

    boost::asio::io_context& io_;
    Server& server_;
    const ServerConfig& server_config_;
    RuntimeConfig config_;
    std::unique_ptr<Storage> storage_;  // read on the I/O thread
    // The games' writes on a thread and connection of their own (group commit); the server
    // holds each line until the writes queued before it are committed.
    std::unique_ptr<StoreWriter> writer_;
    book::Book book_;  // the built-in AI's opening book (read by tables on the I/O thread)
    std::unique_ptr<BookLearner> learner_;
    std::unique_ptr<ExplorerIndex> explorer_;  // the archive's games in the opening explorer
    std::unique_ptr<GameRecorder> recorder_;
    std::shared_ptr<AccountService> accounts_;
    std::unique_ptr<DiscoveryResponder> discovery_;
    std::unique_ptr<boost::asio::posix::stream_descriptor> console_;
    boost::asio::streambuf console_buf_;
    BanList bans_;
    std::unique_ptr<Admission> admission_;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace xq::server
