#include "server/app/server_runtime.h"

#include <CLI/CLI.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "protocol/limits.h"
#include "server/app/book_command.h"
#include "server/discovery/discovery_responder.h"
#include "server/identity/account_service.h"
#include "server/net/server.h"
#include "server/store/archive.h"
#include "server/store/book_learner.h"
#include "server/store/game_recorder.h"
#include "server/store/storage.h"
#include "server/store/store_writer.h"
#include "server/table/table_game_clock.h"

namespace xq::server {

namespace {

std::filesystem::path data_dir_of(const RuntimeConfig& c) {
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

void add_runtime_options(CLI::App& app, RuntimeConfig& c) {
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
    app.add_option("--advertise-port", c.advertise_port,
                   "TCP port that discovery answers name (0 = the listening port; set it when the host "
                   "publishes another port, e.g. docker -p 6000:5050 --advertise-port 6000)")
        ->capture_default_str();
    app.add_flag("--no-console", [&c](std::int64_t) { c.console = false; }, "do not read operator commands from stdin");
    app.add_option("--max-per-ip", c.max_per_ip,
                   "most simultaneous connections from one address (loopback is exempt unless --cap-loopback)")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    app.add_flag("--cap-loopback", c.cap_loopback, "apply --max-per-ip to loopback addresses too");
    app.add_option("--book", c.book_files,
                   "opening book of the built-in AI: a PGN collection or a book file from `xiangqi-server book "
                   "build` (repeatable; default: the starter collection built into the program)");
    app.add_flag("--no-book", c.no_book, "the built-in AI plays without an opening book");
}

ServerRuntime::ServerRuntime(boost::asio::io_context& io, Server& server, const ServerConfig& server_config,
                                     const RuntimeConfig& config)
    : io_(io), server_(server), server_config_(server_config), config_(config) {
    if (config_.data_dir.empty()) config_.data_dir = server_config.data_dir;
}

ServerRuntime::~ServerRuntime() {
    *alive_ = false;
    stop();
}

bool ServerRuntime::start(std::string* error) {
    if (!config_.no_persist) {
        std::string err;
        storage_ = Storage::open(data_dir_of(config_), &err,
                                 config_.sync_full ? Storage::Sync::Full : Storage::Sync::Normal);
        if (!storage_) {
            if (error) *error = err + " (use --data-dir to choose another place, or --no-persist)";
            return false;
        }
        // The writer's own connection to the same file (no second checkpointer).
        auto writes = Storage::open(data_dir_of(config_), &err,
                                    config_.sync_full ? Storage::Sync::Full : Storage::Sync::Normal, false);
        if (!writes) {
            if (error) *error = err + " (use --data-dir to choose another place, or --no-persist)";
            return false;
        }
        Server* server = &server_;
        boost::asio::io_context* io = &io_;
        // Queued writes are held for by the recorder, with the table each one concerns.
        writer_ = std::make_unique<StoreWriter>(
            std::move(writes), nullptr, [server, io, alive = alive_](std::uint64_t ticket) {
                boost::asio::post(*io, [server, alive, ticket] {
                    if (*alive) server->release(ticket);
                });
            });
        spdlog::info("game database: {}", storage_->path().string());
    }
    if (!config_.no_book) {
        std::string err;
        if (!load_book(config_.book_files, book_, &err)) {
            if (error) *error = err;
            return false;
        }
        std::size_t learned = 0;
        if (storage_) {
            const auto lessons = storage_->learned_book();
            learned = lessons.size();
            apply_lessons(book_, lessons);
        }
        server_.lobby().set_book(&book_);
        learner_ = std::make_unique<BookLearner>(book_, storage_.get(), writer_.get());
        server_.lobby().add_observer(learner_.get());
        spdlog::info("opening book: {} positions, {} moves ({} learned from the AI's games)", book_.positions(),
                     book_.moves(), learned);
    }
    explorer_ = std::make_unique<ExplorerIndex>();
    if (storage_) {
        const int games = explorer_->load(*storage_);
        spdlog::info("opening explorer: {} archived games, {} positions", games, explorer_->games().positions());
    }
    server_.lobby().set_explorer_games(&explorer_->games());
    server_.lobby().add_observer(explorer_.get());
    auto clock = parse_clock_spec(config_.clock);
    recorder_ = std::make_unique<GameRecorder>(io_, server_.lobby(), storage_.get(), clock.value_or(ClockConfig{}),
                                               server_config_.seat_grace, writer_.get());
    recorder_->set_hold([server = &server_](proto::TableId table, std::uint64_t ticket) {
        if (table == GameRecorder::EVERY_LINE) server->hold_all(ticket);
        else server->hold_table(table, ticket);
    });
    server_.lobby().add_observer(recorder_.get());
    server_.lobby().set_default_clock(clock_spec(clock.value_or(ClockConfig{})));
    server_.lobby().set_ban_list(&bans_);
    admission_ = std::make_unique<Admission>(server_config_.max_clients, config_.max_per_ip, config_.cap_loopback);
    server_.set_admission(
        [this](const std::string& ip) {
            const auto v = admission_->admit(ip, bans_);
            if (v == Admission::Verdict::Admit) return std::optional<proto::Error>();
            return std::optional<proto::Error>(proto::Error{
                v == Admission::Verdict::Banned ? proto::ErrorCode::Banned : proto::ErrorCode::ServerFull,
                std::string(admission_message(v)), "", 0});
        },
        [this](const std::string& ip) { admission_->release(ip); });
    if (storage_) {
        server_.lobby().set_archive(recorder_.get());
        server_.lobby().set_tournament_store(recorder_.get());
    }
    if (server_config_.accounts != AccountsMode::Off) {
        // Beside the games in the same file; without a database, for this run only.
        const std::filesystem::path file = storage_ ? storage_->path() : std::filesystem::path(":memory:");
        std::string err;
        accounts_ = AccountService::open(file, &err);
        if (!accounts_) {
            if (error) *error = err + " (or run with --accounts off)";
            return false;
        }
        server_.lobby().set_accounts(accounts_);
        spdlog::info("accounts {}{}", server_config_.accounts == AccountsMode::Required ? "required" : "optional",
                     storage_ ? "" : " (kept in memory for this run only: --no-persist)");
    }
    if (int n = recorder_->restore(); n > 0) spdlog::info("{} unfinished game(s) restored", n);
    if (int n = server_.lobby().restore_tournaments(); n > 0) spdlog::info("{} tournament(s) restored", n);

    if (config_.discovery_port != 0) {
        discovery_ = std::make_unique<DiscoveryResponder>(io_, [this] {
            DiscoveryStatus s;
            s.name = server_config_.name;
            s.tcp_port = config_.advertise_port != 0 ? config_.advertise_port : server_.port();
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
            spdlog::info("answering LAN discovery on {}:{} (udp), advertising tcp port {}", config_.discovery_bind,
                         discovery_->port(), config_.advertise_port != 0 ? config_.advertise_port : server_.port());
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

void ServerRuntime::stop() {
    // What waits for a commit goes out before the server says goodbye.
    if (writer_ && *alive_) server_.release(writer_->drain());
    boost::system::error_code ec;
    if (discovery_) discovery_->close();
    if (console_) console_->close(ec);
    // Running clocks hold timers; without them the I/O loop can finish.
    Lobby& lobby = server_.lobby();
    for (auto id : lobby.table_ids())
        if (Table* t = lobby.table(id))
            if (auto* c = dynamic_cast<TableGameClock*>(t->clock())) c->suspend();
}

std::uint16_t ServerRuntime::discovery_port() const { return discovery_ ? discovery_->port() : 0; }

void ServerRuntime::read_console() {
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
            auto print = [](const std::string& text) {
                std::fwrite(text.data(), 1, text.size(), stdout);
                std::fflush(stdout);
            };
            print(cmd ? execute(*cmd, print) : err + "\n");
            if (console_ && console_->is_open()) read_console();
        });
}

std::string ServerRuntime::book_command(const AdminCommand& c) {
    using K = AdminCommand::Kind;
    if (!learner_) return "the AI plays without an opening book (--no-book)\n";
    std::ostringstream out;
    // The lessons are written by the store writer: its queue is drained before they are read,
    // and the reset runs there too, after the lessons queued before it.
    if (storage_ && writer_) writer_->drain();
    if (c.kind == K::Book) {
        out << "opening book: " << book_.positions() << " positions, " << book_.moves() << " moves; "
            << learner_->games_learned() << " game(s) learned since the start";
        if (storage_) out << ", " << storage_->learned_book().size() << " learned entries stored";
        out << "\n";
        return out.str();
    }
    if (!storage_) return "nothing learned is stored (--no-persist)\n";
    if (c.kind == K::BookExport) {
        const std::string text = lessons_book(storage_->learned_book()).serialize();
        std::ofstream f(c.target, std::ios::binary | std::ios::trunc);
        f << text;
        f.close();
        if (!f) return "cannot write " + c.target + "\n";
        out << "wrote what the AI learned to " << c.target << "\n";
        return out.str();
    }
    int forgotten = -1;
    std::string why;
    auto forget = [&forgotten, &why](Storage& s) {
        forgotten = s.forget_learned_book();
        if (forgotten < 0) why = s.last_error();
        return forgotten >= 0;
    };
    if (writer_) {
        writer_->post("forgetting the opening book's lessons", forget);
        writer_->drain();  // the console waits for the count (an operator's command, rare)
    } else {
        forget(*storage_);
    }
    if (forgotten < 0) return "could not reset: " + why + "\n";
    book::Book fresh;
    std::string err;
    if (!load_book(config_.book_files, fresh, &err)) return "reset, but the base book did not load again: " + err + "\n";
    book_ = std::move(fresh);  // the tables hold a pointer to book_: same object, new contents
    out << "forgot " << forgotten << " learned entries; the book is the base book again (" << book_.positions()
        << " positions)\n";
    return out.str();
}

std::string ServerRuntime::execute(const AdminCommand& c, std::function<void(std::string)> reply) {
    using K = AdminCommand::Kind;
    using A = Lobby::AccountCommand;
    Lobby& lobby = server_.lobby();
    std::ostringstream out;
    auto account = [&](A a) {
        lobby.admin_account(a, c.target, reply ? std::move(reply) : [](std::string) {});
        return std::string();
    };
    switch (c.kind) {
    case K::Accounts: return account(A::List);
    case K::AccountAdd: return account(A::Add);
    case K::AccountReset: return account(A::Reset);
    case K::AccountDelete: return account(A::Delete);
    case K::AccountBan: return account(A::Ban);
    case K::AccountUnban: return account(A::Unban);
    case K::AccountHistory: return account(A::History);
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
        bool kicked = lobby.admin_kick(c.target, true);
        return std::string(added ? "banned " : "already banned ") + c.target + (kicked ? " (kicked)\n" : "\n");
    }
    case K::Unban: return bans_.unban(c.target) ? "unbanned " + c.target + "\n" : "no ban on " + c.target + "\n";
    case K::Bans: {
        auto list = bans_.list();
        out << list.size() << " ban(s)\n";
        for (const auto& b : list) out << "  " << b << "\n";
        return out.str();
    }
    case K::Arbiter: {
        proto::ArbiterRequest m;
        m.table = c.table;
        static constexpr std::pair<std::string_view, proto::ArbiterKind> ACTIONS[] = {
            {"pause", proto::ArbiterKind::Pause},       {"resume", proto::ArbiterKind::Resume},
            {"add_time", proto::ArbiterKind::AddTime},  {"adjudicate", proto::ArbiterKind::Adjudicate},
            {"cancel", proto::ArbiterKind::Cancel}};
        for (const auto& [name, kind] : ACTIONS)
            if (c.action == name) m.action = kind;
        if (!c.side.empty()) m.side = c.side == "red" ? RED : BLACK;
        if (c.seconds > 0) m.seconds = c.seconds;
        if (!c.result.empty())
            m.result = c.result == "1-0" ? Outcome::RedWins : c.result == "0-1" ? Outcome::BlackWins : Outcome::Draw;
        m.reason = c.target;
        const Verdict v = lobby.admin_arbiter(m);
        return v ? "refused (" + std::string(proto::error_code_name(v->code)) + "): " + v->message + "\n"
                 : "table " + std::to_string(c.table) + ": " + c.action + " done\n";
    }
    case K::Broadcast:
        lobby.admin_notice(c.target);
        return "sent to " + std::to_string(lobby.user_count()) + " user(s)\n";
    case K::Book:
    case K::BookReset:
    case K::BookExport: return book_command(c);
    case K::Shutdown:
        // The same path as Ctrl-C: main's signal handler stops everything in order.
        spdlog::info("shutdown requested on the console");
        ::raise(SIGTERM);
        return "shutting down\n";
    }
    return "?\n";
}

}  // namespace xq::server
