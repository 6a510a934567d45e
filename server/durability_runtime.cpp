#include "durability_runtime.h"

#include <CLI/CLI.hpp>
#include <boost/asio/read_until.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "archive.h"
#include "discovery.h"
#include "durability_layer.h"
#include "protocol/limits.h"
#include "server/server.h"
#include "storage.h"
#include "table_clock.h"

namespace xq::server {

namespace {

std::filesystem::path data_dir_of(const DurabilityConfig& c) {
    return c.data_dir.empty() ? default_data_dir() : std::filesystem::path(c.data_dir);
}

std::string status_word(proto::TableStatus s) {
    switch (s) {
    case proto::TableStatus::Waiting: return "waiting";
    case proto::TableStatus::Playing: return "playing";
    case proto::TableStatus::Over: return "over";
    }
    return "?";
}

}  // namespace

void add_durability_options(CLI::App& app, DurabilityConfig& c) {
    // The core may already own --data-dir (ServerConfig::data_dir); the runtime reads either.
    if (!app.get_option_no_throw("--data-dir"))
        app.add_option("--data-dir", c.data_dir, "directory of the game database (default: xiangqi-data beside the executable)");
    app.add_flag("--no-persist", c.no_persist, "run without a database (games are not kept)");
    app.add_flag("--sync-full", c.sync_full,
                 "fsync every move (survives power loss; the default survives a killed server)");
    app.add_option("--clock", c.clock,
                   "default clock of new tables (a table may set its own): none, fischer:<base s>+<inc s>, "
                   "asian:<base s>/<move limit s>/<countdown s>")
        ->capture_default_str()
        ->check([](const std::string& v) {
            std::string err;
            return parse_clock_spec(v, &err) ? std::string() : err;
        });
    app.add_option("--discovery-port", c.discovery_port, "UDP port answering LAN discovery queries (0 = off)")
        ->capture_default_str();
    app.add_option("--discovery-bind", c.discovery_bind, "address the discovery responder listens on")
        ->capture_default_str();
    app.add_flag("--no-console", [&c](std::int64_t) { c.console = false; }, "do not read operator commands from stdin");
    app.add_option("--max-per-ip", c.max_per_ip,
                   "most simultaneous connections from one address (loopback is exempt unless --cap-loopback)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_flag("--cap-loopback", c.cap_loopback, "apply --max-per-ip to loopback addresses too");
}

std::optional<int> run_archive_command(int argc, char** argv) {
    if (argc < 2) return std::nullopt;
    const std::string cmd = argv[1];
    if (cmd != "export" && cmd != "import" && cmd != "games") return std::nullopt;

    CLI::App app{"xiangqi-server " + cmd + ": work on the game archive of a data directory"};
    std::string data_dir, notation_name = "iccs", out_path, site = "LAN", player, in_path;
    std::int64_t game_id = 0;
    int limit = 50;
    app.add_option("--data-dir", data_dir, "data directory (default: xiangqi-data beside the executable)");
    if (cmd == "export") {
        app.add_option("--game", game_id, "the game's id (default: every finished game)");
        app.add_option("--notation", notation_name, "iccs, wxf or chinese")->capture_default_str();
        app.add_option("--out", out_path, "write here instead of standard output");
        app.add_option("--site", site, "the PGN Site tag")->capture_default_str();
    } else if (cmd == "import") {
        app.add_option("file", in_path, "PGN file of classic games to add to the archive")->required();
    } else {
        app.add_option("--player", player, "only games of this player");
        app.add_option("--limit", limit, "most games listed")->capture_default_str();
    }
    try {
        app.parse(argc - 1, argv + 1);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    DurabilityConfig dc;
    dc.data_dir = data_dir;
    std::string err;
    auto storage = Storage::open(data_dir_of(dc), &err);
    if (!storage) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 1;
    }
    if (cmd == "games") {
        GameFilter f;
        f.player = player;
        f.limit = limit;
        for (const auto& g : storage->list_games(f))
            std::printf("%lld\t%s\t%s - %s\t%s\t%d plies\t%s\n", static_cast<long long>(g.id),
                        g.finished ? "finished" : "playing", g.red.c_str(), g.black.c_str(), g.result.c_str(), g.plies,
                        g.reason.c_str());
        return 0;
    }
    if (cmd == "import") {
        std::ifstream in(in_path, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "cannot read %s\n", in_path.c_str());
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        ImportResult r = import_pgn(*storage, text.str(), unix_ms_now());
        if (!r.error.empty()) {
            std::fprintf(stderr, "%s: %s\n", in_path.c_str(), r.error.c_str());
            return 1;
        }
        std::printf("imported %d game(s)\n", r.imported);
        return 0;
    }
    auto notation = notation_from_name(notation_name);
    if (!notation) {
        std::fprintf(stderr, "unknown notation '%s' (iccs, wxf or chinese)\n", notation_name.c_str());
        return 1;
    }
    std::vector<std::int64_t> ids;
    if (game_id > 0) {
        ids.push_back(game_id);
    } else {
        GameFilter f;
        f.finished_only = true;
        f.limit = MAX_GAME_LIST;
        for (;;) {
            auto page = storage->list_games(f);
            for (const auto& g : page) ids.push_back(g.id);
            if (int(page.size()) < MAX_GAME_LIST) break;
            f.before_id = page.back().id;
        }
        std::reverse(ids.begin(), ids.end());  // oldest first
    }
    std::string all;
    for (auto id : ids) {
        auto rec = storage->get_game(id);
        if (!rec) {
            std::fprintf(stderr, "no game %lld\n", static_cast<long long>(id));
            return 1;
        }
        auto pgn = record_pgn(*rec, *notation, site, &err);
        if (!pgn) {
            std::fprintf(stderr, "%s\n", err.c_str());
            return 1;
        }
        all += *pgn;
        all += "\n";
    }
    if (out_path.empty()) {
        std::fwrite(all.data(), 1, all.size(), stdout);
    } else {
        std::ofstream out(out_path, std::ios::binary);
        out << all;
        if (!out) {
            std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
            return 1;
        }
    }
    return 0;
}

DurabilityRuntime::DurabilityRuntime(boost::asio::io_context& io, Server& server, const ServerConfig& server_config,
                                     const DurabilityConfig& config)
    : io_(io), server_(server), server_config_(server_config), config_(config) {
    if (config_.data_dir.empty()) config_.data_dir = server_config.data_dir;
}

DurabilityRuntime::~DurabilityRuntime() {
    *alive_ = false;
    stop();
}

bool DurabilityRuntime::start(std::string* error) {
    if (!config_.no_persist) {
        std::string err;
        storage_ = Storage::open(data_dir_of(config_), &err,
                                 config_.sync_full ? Storage::Sync::Full : Storage::Sync::Normal);
        if (!storage_) {
            if (error) *error = err + " (use --data-dir to choose another place, or --no-persist)";
            return false;
        }
        spdlog::info("game database: {}", storage_->path().string());
    }
    auto clock = parse_clock_spec(config_.clock);
    layer_ = std::make_unique<DurabilityLayer>(io_, server_.lobby(), storage_.get(), clock.value_or(ClockConfig{}),
                                               server_config_.seat_grace);
    server_.lobby().add_observer(layer_.get());
    server_.lobby().set_default_clock(clock_spec(clock.value_or(ClockConfig{})));
    server_.lobby().set_ban_list(&bans_);
    admission_ = std::make_unique<Admission>(server_config_.max_clients, config_.max_per_ip, config_.cap_loopback);
    server_.set_admission(
        [this](const std::string& ip) {
            auto v = admission_->admit(ip, bans_);
            return v == Admission::Verdict::Admit ? std::string() : std::string(admission_message(v));
        },
        [this](const std::string& ip) { admission_->release(ip); });
    if (storage_) server_.lobby().set_archive(layer_.get());
    if (int n = layer_->restore(); n > 0) spdlog::info("{} unfinished game(s) restored", n);

    if (config_.discovery_port != 0) {
        discovery_ = std::make_unique<DiscoveryResponder>(io_, [this] {
            DiscoveryStatus s;
            s.name = server_config_.name;
            s.tcp_port = server_.port();
            s.protocol = proto::PROTOCOL_VERSION;
            s.server_version = XQ_VERSION;
            s.tables = std::int64_t(server_.lobby().table_count());
            s.players = std::int64_t(server_.lobby().user_count());
            s.password = !server_config_.password.empty();
            return s;
        });
        if (auto err = discovery_->open(config_.discovery_bind, config_.discovery_port); !err.empty()) {
            spdlog::warn("{}; LAN discovery is off", err);
            discovery_.reset();
        } else {
            spdlog::info("answering LAN discovery on {}:{} (udp)", config_.discovery_bind, discovery_->port());
        }
    }
    if (config_.console && ::isatty(STDIN_FILENO) && ::tcgetpgrp(STDIN_FILENO) != ::getpgrp()) {
        // Started in the background of a shell: reading the terminal would stop the server.
        spdlog::info("operator console off (the server runs in the background of a terminal)");
    } else if (config_.console && ::isatty(STDIN_FILENO)) {
        console_ = std::make_unique<boost::asio::posix::stream_descriptor>(io_, ::dup(STDIN_FILENO));
        read_console();
        spdlog::info("operator console on stdin: type help");
    } else if (config_.console) {
        // Pipes work too (scripts, tests); files and /dev/null are not pollable.
        int fd = ::dup(STDIN_FILENO);
        boost::system::error_code ec;
        console_ = std::make_unique<boost::asio::posix::stream_descriptor>(io_);
        console_->assign(fd, ec);
        if (!ec) console_->non_blocking(true, ec);
        if (ec) {
            console_.reset();
            ::close(fd);
        } else {
            read_console();
        }
    }
    return true;
}

void DurabilityRuntime::stop() {
    boost::system::error_code ec;
    if (discovery_) discovery_->close();
    if (console_) console_->close(ec);
    // Running clocks hold timers; without them the I/O loop can finish.
    Lobby& lobby = server_.lobby();
    for (auto id : lobby.table_ids())
        if (Table* t = lobby.table(id))
            if (auto* c = dynamic_cast<TableGameClock*>(t->clock())) c->suspend();
}

std::uint16_t DurabilityRuntime::discovery_port() const { return discovery_ ? discovery_->port() : 0; }

void DurabilityRuntime::read_console() {
    boost::asio::async_read_until(
        *console_, console_buf_, '\n', [this, alive = alive_](const boost::system::error_code& ec, std::size_t n) {
            if (!*alive || !console_ || !console_->is_open()) return;
            if (ec) {
                if (ec != boost::asio::error::operation_aborted) console_->close();
                return;
            }
            std::string line(boost::asio::buffers_begin(console_buf_.data()),
                             boost::asio::buffers_begin(console_buf_.data()) + std::ptrdiff_t(n));
            console_buf_.consume(n);
            std::string err;
            auto cmd = parse_admin_command(line, &err);
            std::string reply = cmd ? execute(*cmd) : err + "\n";
            std::fwrite(reply.data(), 1, reply.size(), stdout);
            std::fflush(stdout);
            if (console_ && console_->is_open()) read_console();
        });
}

std::string DurabilityRuntime::execute(const AdminCommand& c) {
    using K = AdminCommand::Kind;
    Lobby& lobby = server_.lobby();
    std::ostringstream out;
    switch (c.kind) {
    case K::Help: return admin_help();
    case K::List: {
        auto users = lobby.admin_users();
        out << users.size() << " user(s)\n";
        for (const auto& u : users) out << "  " << u.name << (u.table ? "  table " + std::to_string(u.table) : "") << "\n";
        return out.str();
    }
    case K::Tables: {
        auto ids = lobby.table_ids();
        out << ids.size() << " table(s)\n";
        for (auto id : ids) {
            Table* t = lobby.table(id);
            if (!t) continue;
            auto info = t->info();
            out << "  " << id << "  " << info.name << "  " << status_word(info.status) << "  ply " << info.ply << "  "
                << (info.red ? info.red->name : "-") << " vs " << (info.black ? info.black->name : "-") << "  "
                << info.spectators << " spectator(s)\n";
        }
        return out.str();
    }
    case K::Kick:
        return lobby.admin_kick(c.target) ? "kicked " + c.target + "\n" : "no user " + c.target + "\n";
    case K::Ban: {
        if (c.target_is_ip) {
            bool added = bans_.ban(c.target, true);
            std::size_t closed = server_.close_address(c.target);
            return std::string(added ? "banned " : "already banned ") + c.target + " (" + std::to_string(closed) +
                   " connection(s) closed)\n";
        }
        bool added = bans_.ban(c.target, false);
        bool kicked = lobby.admin_kick(c.target);
        return std::string(added ? "banned " : "already banned ") + c.target + (kicked ? " (kicked)\n" : "\n");
    }
    case K::Unban: return bans_.unban(c.target) ? "unbanned " + c.target + "\n" : "no ban on " + c.target + "\n";
    case K::Bans: {
        auto list = bans_.list();
        out << list.size() << " ban(s)\n";
        for (const auto& b : list) out << "  " << b << "\n";
        return out.str();
    }
    case K::Broadcast:
        lobby.admin_notice(c.target);
        return "sent to " + std::to_string(lobby.user_count()) + " user(s)\n";
    case K::Shutdown:
        // The same path as Ctrl-C: main's signal handler stops everything in order.
        spdlog::info("shutdown requested on the console");
        ::raise(SIGTERM);
        return "shutting down\n";
    }
    return "?\n";
}

}  // namespace xq::server
