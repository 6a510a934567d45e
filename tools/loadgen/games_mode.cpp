// The games mode: one Bot per connection (players keep their own board from move_made lines
// and move on their turn; spectators only count lines), the phases and their report. The bots
// are spread over --threads shards, each an io_context on its own thread with its own
// counters; a game's players and spectators share a shard, so a bot never touches another
// shard's state, and the main thread switches the phases by posting to every shard.
#include "games_mode.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "games_stats.h"
#include "protocol/codec.h"
#include "protocol/framing.h"
#include "xiangqi/position.h"

namespace xq::loadgen {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using namespace xq;

class Bot;

// What the bots of one shard share; touched only on the shard's thread, except the two
// connection counts the main thread reads while it waits for the setup.
struct Shared {
    asio::io_context& io;
    GamesOptions opt;
    tcp::endpoint endpoint;
    std::mt19937_64 rng{20261129};
    Stats* stats = nullptr;  // the phase being measured (null while warming up)
    std::atomic<int> connected{0};
    std::atomic<int> failed{0};
    std::uint64_t all_errors = 0;
    Setup setup;  // the bots' logins and tables, timed
};

// The bots a game's index (or a probe's, a director's) falls to: one of opt.threads shards.
struct Shard {
    Shard(const GamesOptions& opt, const tcp::endpoint& endpoint, int index) : s{io, opt, endpoint} {
        s.rng.seed(20261129 + static_cast<std::uint64_t>(index));
    }
    asio::io_context io{1};
    Shared s;
    std::thread thread;
};

using Shards = std::vector<std::unique_ptr<Shard>>;

// Runs f on every shard's thread and returns when all have run it.
void on_each(Shards& shards, const std::function<void(Shard&, std::size_t)>& f) {
    std::vector<std::promise<void>> done(shards.size());
    for (std::size_t i = 0; i < shards.size(); ++i)
        asio::post(shards[i]->io, [&, i] {
            f(*shards[i], i);
            done[i].set_value();
        });
    for (auto& d : done) d.get_future().wait();
}

// Whether `line` is one of the welcome's table or user pages, which no bot reads: players
// skip decoding them (at thousands of tables and users each login's pages are most of the
// bytes a bot receives). "type" is a key of the top-level object only, and a quote inside a
// string value is escaped, so the unescaped text cannot occur elsewhere in the line.
bool is_list_page(std::string_view line) {
    return line.find(R"("type":"users")") != std::string_view::npos ||
           line.find(R"("type":"tables")") != std::string_view::npos;
}

enum class Kind { Red, Black, Spectator, Director, Prober, Analyst };

// One connection. Movers keep their own board from move_made lines and play on their turn.
class Bot : public std::enable_shared_from_this<Bot> {
public:
    Bot(Shared& s, Kind kind, std::string name, int game)
        : s_(s), kind_(kind), name_(std::move(name)), game_(game), socket_(s.io), timer_(s.io) {}
    // A prober that plays the AI at `level`; `long_search` files its replies apart.
    Bot(Shared& s, std::string name, int game, int level, bool long_search)
        : Bot(s, Kind::Prober, std::move(name), game) {
        ai_level_ = level;
        long_search_ = long_search;
    }

    std::function<void(proto::TableId)> on_table;  // the creator reports its table id
    Kind kind() const { return kind_; }
    proto::TableId table = 0;
    bool alive = false;

    void start() {
        socket_.async_connect(s_.endpoint, [self = shared_from_this()](const boost::system::error_code& ec) {
            if (ec) {
                ++self->s_.failed;
                return;
            }
            self->alive = true;
            ++self->s_.connected;
            self->hello_at_ = Clock::now();
            self->socket_.set_option(tcp::no_delay(true));
            // Hello goes first, ahead of anything queued before the connection was up.
            self->out_.push_front(proto::encode_line(proto::ClientMessage{proto::Hello{self->name_, proto::PROTOCOL_VERSION, ""}}));
            self->write();
            self->read();
        });
    }

    // Connects, and joins the table right after hello (requests are handled in order).
    void connect_then_join(proto::TableId t, proto::Role as) {
        table = t;
        start();
        send(proto::Join{t, as});
    }

    void send(const proto::ClientMessage& m) {
        out_.push_back(proto::encode_line(m));
        if (alive && !writing_) write();
    }

private:
    void write() {
        writing_ = true;
        asio::async_write(socket_, asio::buffer(out_.front()),
                          [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                              self->out_.pop_front();
                              self->writing_ = false;
                              if (ec) return self->fail();
                              if (!self->out_.empty()) self->write();
                          });
    }

    void read() {
        socket_.async_read_some(asio::buffer(buf_), [self = shared_from_this()](const boost::system::error_code& ec,
                                                                                 std::size_t n) {
            if (ec) return self->fail();
            self->frames_.feed(
                std::string_view(self->buf_.data(), n), [&](std::string_view line) { self->on_line(line); },
                [&] { ++self->s_.all_errors; });
            self->read();
        });
    }

    void fail() {
        if (!alive) return;
        alive = false;
        --s_.connected;
        boost::system::error_code ignored;
        socket_.close(ignored);
        timer_.cancel();
    }

    void on_line(std::string_view line) {
        // Spectators only count: decoding every broadcast would measure the tool, not the server.
        if (kind_ == Kind::Spectator) {
            if (s_.stats) ++s_.stats->spectator_lines;
            if (!welcomed_ && line.find(R"("type":"welcome")") != std::string_view::npos) welcomed();
            return;
        }
        if (is_list_page(line)) return;
        auto d = proto::decode_server(line);
        if (!d) {
            ++s_.all_errors;
            return;
        }
        std::visit([this](const auto& m) { handle(m); }, d.value());
    }

    template <class T>
    void handle(const T&) {}

    // The server pings a connection it has not heard from (spectating directors go quiet).
    void handle(const proto::Ping& p) { send(proto::Pong{p.id}); }

    // hello sent -> welcome received (the time the tool reads it: its own load is in it).
    void welcomed() {
        welcomed_ = true;
        welcome_at_ = Clock::now();
        s_.setup.welcome_us.push_back(std::chrono::duration<double, std::micro>(welcome_at_ - hello_at_).count());
    }

    void handle(const proto::Welcome&) {
        welcomed();
        if (kind_ == Kind::Red) send(proto::CreateTable{"load " + std::to_string(game_), proto::Role::Red, ""});
        if (kind_ == Kind::Director)
            send(proto::CreateTable{"ai " + std::to_string(game_), proto::Role::Spectator, ""});
        if (kind_ == Kind::Prober) send(proto::CreateTable{"probe " + std::to_string(game_), proto::Role::Red, ""});
        if (kind_ == Kind::Analyst) ask_analysis();
    }

    // An analyst keeps one analysis running: a game of random legal moves, asked again when done.
    void ask_analysis() {
        Position p;
        proto::AnalyseGame a;
        for (int i = 0; i < s_.opt.analysis_plies; ++i) {
            MoveList legal;
            p.generate_legal(legal);
            if (legal.empty()) break;
            const Move m = legal[static_cast<int>(s_.rng() % static_cast<unsigned>(legal.size()))];
            UndoInfo u;
            p.do_move(m, u);
            a.moves.push_back(move_to_iccs(m));
        }
        send(a);
    }

    void handle(const proto::Analysis&) {
        if (s_.stats) ++s_.stats->analyses_done;
        ask_analysis();
    }

    void handle(const proto::Error& e) {
        ++s_.all_errors;
        if (s_.stats) ++s_.stats->errors;
        if (s_.all_errors < 10)
            std::fprintf(stderr, "%s: error %s: %s\n", name_.c_str(), std::string(proto::error_code_name(e.code)).c_str(),
                         e.message.c_str());
    }

    void handle(const proto::TableSnapshot& snap) {
        if (table == 0 && kind_ == Kind::Red)  // welcome (create_table sent) -> the table's snapshot
            s_.setup.table_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - welcome_at_).count());
        table = snap.table.id;
        if (kind_ == Kind::Director) {
            if (on_table) on_table(table);
            send(proto::RequestAi{table, RED, s_.opt.ai_level});
            send(proto::RequestAi{table, BLACK, s_.opt.ai_level});
            return;
        }
        if (on_table) {
            on_table(table);
            on_table = nullptr;
        }
        if (kind_ == Kind::Prober && !asked_ai_) {
            asked_ai_ = true;
            send(proto::RequestAi{table, BLACK, ai_level_});
        }
        color_ = snap.you == proto::Role::Red ? RED : BLACK;
        acked_ = false;
        pos_.set_fen(snap.fen);
        ply_ = snap.ply;
        pending_ = false;
        maybe_move(snap.table.status == proto::TableStatus::Playing);
    }

    void handle(const proto::TableUpdate& u) {
        if (u.table.id != table || u.table.status != proto::TableStatus::Playing) return;
        started_ = true;
        maybe_move(true);
    }

    void handle(const proto::MoveMade& mm) {
        if (kind_ == Kind::Director) return;
        const Move m(square_from_string(mm.move.substr(0, 2)), square_from_string(mm.move.substr(2, 2)));
        UndoInfo u;
        pos_.do_move(m, u);
        ply_ = mm.ply;
        if (mm.by == color_ && pending_) {
            pending_ = false;
            acked_ = true;
            acked_at_ = Clock::now();
            if (s_.stats && kind_ != Kind::Prober) {
                s_.stats->rtt_us.push_back(std::chrono::duration<double, std::micro>(acked_at_ - sent_).count());
                ++s_.stats->moves;
            }
        } else if (mm.by != color_ && kind_ == Kind::Prober && acked_) {
            acked_ = false;
            if (s_.stats)
                (long_search_ ? s_.stats->long_reply_us : s_.stats->ai_reply_us)
                    .push_back(std::chrono::duration<double, std::micro>(Clock::now() - acked_at_).count());
        }
        maybe_move(true);
    }

    void handle(const proto::GameOver&) {
        if (kind_ == Kind::Director) return;
        timer_.cancel();
        pending_ = false;
        if (kind_ == Kind::Red && s_.stats) ++s_.stats->games_ended;
        acked_ = false;
        send(proto::NewGame{table});  // both players ask: a rematch with colours swapped
    }

    void maybe_move(bool playing) {
        if (kind_ != Kind::Red && kind_ != Kind::Black && kind_ != Kind::Prober) return;
        if (!playing || pending_ || pos_.side_to_move() != color_) return;
        MoveList legal;
        pos_.generate_legal(legal);
        if (legal.empty()) return;
        // The prober answers at once: its reply time is the AI's alone.
        const int think = kind_ == Kind::Prober ? 0
                                                : s_.opt.think_ms / 2 +
                                                      static_cast<int>(s_.rng() % static_cast<unsigned>(s_.opt.think_ms + 1));
        pending_ = true;
        timer_.expires_after(std::chrono::milliseconds(think));
        const int ply = ply_;
        timer_.async_wait([self = shared_from_this(), ply](const boost::system::error_code& ec) {
            if (ec || !self->alive || self->ply_ != ply) {
                if (!ec) self->pending_ = false;
                return;
            }
            MoveList l;
            self->pos_.generate_legal(l);
            if (l.empty()) return;
            const Move m = l[static_cast<int>(self->s_.rng() % static_cast<unsigned>(l.size()))];
            self->sent_ = Clock::now();
            self->send(proto::MoveRequest{self->table, ply, move_to_iccs(m)});
        });
    }

    Shared& s_;
    Kind kind_;
    std::string name_;
    int game_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    std::array<char, 16384> buf_{};
    proto::FrameReader frames_;
    std::deque<std::string> out_;
    bool writing_ = false;
    bool started_ = false;
    Color color_ = RED;
    Position pos_;
    int ply_ = 0;
    bool pending_ = false;
    Clock::time_point sent_{};
    Clock::time_point hello_at_{}, welcome_at_{};
    bool welcomed_ = false;
    bool asked_ai_ = false;          // prober: the AI seat was requested
    int ai_level_ = 1;               // prober: the AI's level
    bool long_search_ = false;       // prober: a long-search table
    bool acked_ = false;             // prober: own move acknowledged, the AI is to answer
    Clock::time_point acked_at_{};
};

int connected(const Shards& shards) {
    int n = 0;
    for (const auto& sh : shards) n += sh->s.connected;
    return n;
}

int failed(const Shards& shards) {
    int n = 0;
    for (const auto& sh : shards) n += sh->s.failed;
    return n;
}

void sleep_s(double seconds) {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Measures one phase of `seconds` on every shard; prints its line.
void measure(const char* label, double seconds, const GamesOptions& opt, Shards& shards) {
    std::vector<Stats> parts(shards.size());
    on_each(shards, [&](Shard& sh, std::size_t i) { sh.s.stats = &parts[i]; });
    const double cpu0 = cpu_seconds(opt.server_pid), own0 = cpu_seconds(static_cast<int>(getpid()));
    sleep_s(seconds);
    on_each(shards, [](Shard& sh, std::size_t) { sh.s.stats = nullptr; });
    report(label, merged(parts), seconds, opt, shards.size(), connected(shards), failed(shards),
           cpu_seconds(opt.server_pid) - cpu0, cpu_seconds(static_cast<int>(getpid())) - own0);
}

}  // namespace

int run_games(const GamesOptions& opt) {
    boost::system::error_code ec;
    const auto addr = asio::ip::make_address(opt.host, ec);
    const tcp::endpoint endpoint(addr, opt.port);
    // Declared before the bots: a bot's socket must go before its io_context.
    Shards shards;
    for (int i = 0; i < std::max(1, opt.threads); ++i) shards.push_back(std::make_unique<Shard>(opt, endpoint, i));
    std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
    for (auto& sh : shards) {
        guards.push_back(asio::make_work_guard(sh->io));
        sh->thread = std::thread([&io = sh->io] { io.run(); });
    }
    auto shard_of = [&](int index) -> Shared& {
        return shards[static_cast<std::size_t>(index) % shards.size()]->s;
    };
    auto start = [&](const std::shared_ptr<Bot>& b, int index) {
        asio::post(shard_of(index).io, [b] { b->start(); });
    };
    std::vector<std::shared_ptr<Bot>> bots;
    std::vector<std::shared_ptr<Bot>> directors;
    std::vector<int> bot_shard;  // the index each bot's shard was chosen by
    std::vector<std::vector<std::shared_ptr<Bot>>> waiting(static_cast<std::size_t>(opt.games));

    // Names unique to this run: seats of an earlier run may still be held for their owners.
    const std::string run = std::to_string(std::random_device{}() % 100000) + "-";
    // Each game: Red connects and creates the table; Black and the game's spectators connect
    // once its id is known, so the lobby (which hears of every login) stays small. A game's
    // bots share the shard of the game's index.
    for (int g = 0; g < opt.games; ++g) {
        auto red = std::make_shared<Bot>(shard_of(g), Kind::Red, run + "r" + std::to_string(g), g);
        auto black = std::make_shared<Bot>(shard_of(g), Kind::Black, run + "b" + std::to_string(g), g);
        waiting[static_cast<std::size_t>(g)].push_back(black);
        red->on_table = [&waiting, g](proto::TableId t) {
            auto& w = waiting[static_cast<std::size_t>(g)];
            for (std::size_t i = 0; i < w.size(); ++i)
                w[i]->connect_then_join(t, i == 0 ? proto::Role::Black : proto::Role::Spectator);
        };
        bots.push_back(red);
        bot_shard.push_back(g);
    }
    for (int k = 0; k < opt.spectators; ++k) {
        const int g = k % opt.games;
        waiting[static_cast<std::size_t>(g)].push_back(
            std::make_shared<Bot>(shard_of(g), Kind::Spectator, run + "s" + std::to_string(k), g));
    }
    for (int p = 0; p < opt.probes; ++p) {
        bots.push_back(std::make_shared<Bot>(shard_of(p), run + "p" + std::to_string(p), p, opt.probe_level, false));
        bot_shard.push_back(p);
    }
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < bots.size(); ++i) {
        start(bots[i], bot_shard[i]);
        if ((i + 1) % 50 == 0) sleep_s(0.02);  // the listen backlog is finite
    }
    // Wait until every bot is connected (bounded), then give the last games a moment.
    const int expected = 2 * opt.games + opt.spectators + opt.probes;
    for (int i = 0; i < opt.setup_s * 10 && connected(shards) + failed(shards) < expected; ++i) sleep_s(0.1);
    sleep_s(1.0);
    std::printf("setup: %d games, %d connections up (%d failed) in %.1fs, %zu thread(s)\n", opt.games,
                connected(shards), failed(shards), std::chrono::duration<double>(Clock::now() - t0).count(),
                shards.size());
    std::vector<Setup> setups(shards.size());
    on_each(shards, [&](Shard& sh, std::size_t i) { setups[i] = sh.s.setup; });
    report_setup(setups);

    sleep_s(opt.warmup_s);
    measure("no-ai", opt.duration_s, opt, shards);

    if (opt.ai_tables > 0 || opt.analyses > 0 || opt.long_searches > 0) {
        for (int i = 0; i < opt.ai_tables; ++i) {
            directors.push_back(std::make_shared<Bot>(shard_of(i), Kind::Director, run + "director" + std::to_string(i), i));
            start(directors.back(), i);
        }
        // The long searches a player waits for join the AI load.
        for (int p = 0; p < opt.long_searches; ++p) {
            directors.push_back(std::make_shared<Bot>(shard_of(p), run + "l" + std::to_string(p), p, opt.long_level, true));
            start(directors.back(), p);
        }
        for (int a = 0; a < opt.analyses; ++a) {
            directors.push_back(std::make_shared<Bot>(shard_of(a), Kind::Analyst, run + "analyst" + std::to_string(a), a));
            start(directors.back(), a);
        }
        sleep_s(1.0);  // let the searches start
        measure("with-ai", opt.ai_duration_s, opt, shards);
    }
    // The threads end here; the bots held here go before the shards (declared first), and
    // those held by pending handlers go with their io_context.
    for (auto& g : guards) g.reset();
    for (auto& sh : shards) sh->io.stop();
    for (auto& sh : shards) sh->thread.join();
    return 0;
}

}  // namespace xq::loadgen
