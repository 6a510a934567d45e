// xiangqi-server: the LAN Xiangqi game server (lobby, tables, referee, chat, AI seats).
#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdlib>
#include <optional>

#include "protocol/limits.h"
#include "server/admin/password_guard.h"
#include "server/ai/ai_pool.h"
#include "server/ai/engine_pool.h"
#include "server/app/archive_command.h"
#include "server/app/book_command.h"
#include "server/app/server_runtime.h"
#include "server/net/descriptor_limit.h"
#include "server/net/server.h"

int main(int argc, char** argv) {
    // `xiangqi-server export|import|games ...` work on the archive without starting a server.
    if (auto rc = xq::server::run_archive_command(argc, argv)) return *rc;
    if (auto rc = xq::server::run_book_command(argc, argv)) return *rc;
    xq::server::ServerConfig config;
    xq::server::RuntimeConfig runtime_config;
    std::string log_level = "info";
    int seat_grace_s = static_cast<int>(config.seat_grace.count() / 1000);
    int ai_min_move_ms = static_cast<int>(config.ai_min_move.count());
    double idle_ping_s = static_cast<double>(config.idle_ping.count()) / 1000.0;
    double idle_timeout_s = static_cast<double>(config.idle_timeout.count()) / 1000.0;

    CLI::App app{"xiangqi-server: LAN Xiangqi game server (protocol version " +
                 std::to_string(xq::proto::PROTOCOL_VERSION) + ")"};
    app.add_option("--port", config.port, "TCP port to listen on (0 = any free port)")->capture_default_str();
    app.add_option("--bind", config.bind, "address to bind")->capture_default_str();
    app.add_option("--name", config.name, "server name shown to clients")->capture_default_str();
    app.add_option("--data-dir", config.data_dir, "directory of the game database (default: xiangqi-data beside the executable)");
    app.add_option("--max-clients", config.max_clients, "most simultaneous connections")->capture_default_str();
    app.add_option("--max-tables", config.max_tables, "most tables")->capture_default_str();
    app.add_option("--max-spectators", config.max_spectators, "most spectators per table")->capture_default_str();
    app.add_option("--seat-grace", seat_grace_s,
                   "default seconds a disconnected player's seat is kept during a game before it counts as "
                   "abandoned (a table may set its own; the opponent may then claim the win, or the AI holds "
                   "the seat, as the table says)")
        ->capture_default_str()
        ->check(CLI::Range(0, xq::proto::MAX_GRACE_S));
    app.add_option("--idle-ping", idle_ping_s, "seconds of silence before the server pings a connection (0 = never)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    app.add_option("--idle-timeout", idle_timeout_s, "seconds of silence before a connection is closed (0 = never)")
        ->capture_default_str()
        ->check(CLI::Range(0.0, 86400.0));
    app.add_option("--password", config.password,
                   "password clients must give in hello (prefer the environment variable XQ_SERVER_PASSWORD: "
                   "command lines are visible to other users)");
    app.add_option("--password-tries", config.password_max_failures,
                   "wrong passwords from one address within a minute before it is locked out for 5 minutes")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    int ai_quick_workers = 1;
    int ai_quick_ms = 600;
    xq::server::AiTableCaps ai_caps;
    std::string accounts_text = "optional";
    app.add_option("--accounts", accounts_text,
                   "registered accounts: off (nicknames only), optional (guests and accounts; a registered name "
                   "needs its password), required (accounts only; the operator creates them on the console with "
                   "'account add NAME')")
        ->capture_default_str()
        ->check(CLI::IsMember({"off", "optional", "required"}));
    app.add_option("--login-tries", config.login_max_failures,
                   "wrong account passwords from one address within a minute before it is locked out of logging "
                   "in for 5 minutes")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000));
    std::vector<std::string> engine_texts;
    app.add_option("--engine", engine_texts,
                   "an external UCI/UCCI engine offered for AI seats, NAME=PATH (repeatable), e.g. "
                   "fairy-stockfish=/usr/games/fairy-stockfish");
    app.add_option("--engine-workers", config.engine_workers, "external engine searches at once")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    app.add_option("--ai-workers", config.ai_workers, "AI search threads (0 = cores - 1)")->capture_default_str();
    app.add_option("--ai-search-threads", config.ai_search_threads,
                   "threads of each full-strength (level 10) AI search (Lazy SMP); lower levels use one")
        ->capture_default_str()
        ->check(CLI::Range(1, 64));
    app.add_option("--ai-quick-workers", ai_quick_workers,
                   "more AI search threads that take only short searches (a low level's reply never waits "
                   "behind long searches)")
        ->capture_default_str()
        ->check(CLI::Range(0, 16));
    app.add_option("--ai-quick-ms", ai_quick_ms, "an AI search up to this long counts as short (the quick lane)")
        ->capture_default_str()
        ->check(CLI::Range(1, 60000));
    app.add_option("--max-ai-tables", ai_caps.total, "AI-versus-AI tables at once on this server")
        ->capture_default_str()
        ->check(CLI::Range(0, 10000));
    app.add_option("--max-ai-tables-per-user", ai_caps.per_user, "AI-versus-AI tables one table creator may have at once")
        ->capture_default_str()
        ->check(CLI::Range(0, 10000));
    app.add_option("--ai-min-move-ms", ai_min_move_ms, "an AI never moves sooner than this")->capture_default_str();
    std::string tournaments = "anyone";
    app.add_option("--tournaments", tournaments, "who creates tournaments: anyone, or only the operator")
        ->capture_default_str()
        ->check(CLI::IsMember({"anyone", "operator"}));
    app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical, off")
        ->capture_default_str()
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
    xq::server::add_runtime_options(app, runtime_config);
    app.footer("Archive: xiangqi-server export|import|games --help; opening books: xiangqi-server book build --help");
    CLI11_PARSE(app, argc, argv);
    config.tournaments_by_operator = tournaments == "operator";
    config.accounts = accounts_text == "off"        ? xq::server::AccountsMode::Off
                      : accounts_text == "required" ? xq::server::AccountsMode::Required
                                                    : xq::server::AccountsMode::Optional;
    config.seat_grace = std::chrono::seconds(seat_grace_s);
    config.ai_min_move = std::chrono::milliseconds(ai_min_move_ms);
    config.idle_ping = std::chrono::milliseconds(static_cast<long long>(idle_ping_s * 1000.0));
    config.idle_timeout = std::chrono::milliseconds(static_cast<long long>(idle_timeout_s * 1000.0));
    if (config.password.empty())
        if (const char* env = std::getenv("XQ_SERVER_PASSWORD")) config.password = env;
    if (config.password.size() > xq::server::MAX_PASSWORD_BYTES) {
        spdlog::critical("the password is longer than {} bytes", xq::server::MAX_PASSWORD_BYTES);
        return EXIT_FAILURE;
    }

    spdlog::set_level(spdlog::level::from_str(log_level));
    std::vector<xq::server::EngineSpec> engine_specs;
    for (const auto& text : engine_texts) {
        std::string err;
        auto spec = xq::server::parse_engine_spec(text, &err);
        if (!spec) {
            spdlog::critical("--engine {}: {}", text, err);
            return EXIT_FAILURE;
        }
        for (const auto& other : engine_specs)
            if (other.name == spec->name) {
                spdlog::critical("--engine: the name '{}' is given twice", spec->name);
                return EXIT_FAILURE;
            }
        engine_specs.push_back(*spec);
    }
    if (engine_specs.size() > xq::server::MAX_ENGINES) {
        spdlog::critical("--engine: at most {} engines", xq::server::MAX_ENGINES);
        return EXIT_FAILURE;
    }
    std::signal(SIGPIPE, SIG_IGN);
    {
        // Each client is a descriptor: say at start when the limit cannot hold --max-clients.
        const auto needed = xq::server::descriptors_needed(
            config.max_clients, engine_specs.size() * static_cast<std::size_t>(config.engine_workers));
        const auto limit = xq::server::raise_descriptor_limit(needed);
        if (const std::string warning = xq::server::descriptor_warning(limit, config.max_clients); !warning.empty())
            spdlog::warn("{}", warning);
        else if (limit.raised)
            spdlog::info("descriptor limit raised to {} (--max-clients {} needs {})", limit.soft, config.max_clients,
                         needed);
    }

    boost::asio::io_context io(1);
    std::optional<xq::server::AiPool> ai;
    ai.emplace(config.ai_workers, config.ai_hash_mb, ai_quick_workers, ai_quick_ms, config.ai_search_threads);
    // Each engine is started once now: one that does not speak UCI/UCCI stops the server here.
    xq::server::EnginePool engines(engine_specs, config.engine_workers);
    if (std::string err; !engines.start(&err)) {
        spdlog::critical("{}", err);
        return EXIT_FAILURE;
    }
    xq::server::Server server(io, config, &*ai);
    server.lobby().set_engines(&engines);
    server.lobby().set_ai_table_caps(ai_caps);
    if (const auto ec = server.listen()) {
        spdlog::critical("cannot listen on {}:{}: {}", config.bind, config.port, ec.message());
        return EXIT_FAILURE;
    }
    spdlog::info("'{}' listening on {}:{} (protocol {}, {} AI worker(s))", config.name, config.bind, server.port(),
                 xq::proto::PROTOCOL_VERSION, ai->workers());
    // After the listening line: scripts read the port from the first address in the log.
    xq::server::ServerRuntime runtime(io, server, config, runtime_config);
    if (std::string err; !runtime.start(&err)) {
        spdlog::critical("{}", err);
        return EXIT_FAILURE;
    }

    boost::asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int sig) {
        if (ec) return;
        spdlog::info("signal {} received", sig);
        runtime.stop();
        server.stop();
    });
    io.run();
    ai.reset();  // joins the workers (searches were cancelled by the lobby)
    spdlog::info("stopped");
    return EXIT_SUCCESS;
}
