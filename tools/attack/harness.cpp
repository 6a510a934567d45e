#include "harness.h"

#include <arpa/inet.h>
#include <poll.h>

#include <algorithm>
#include <cmath>

namespace xq::attack {

namespace {

constexpr std::size_t MAX_SERVER_LINE = 4 * proto::MAX_LINE_BYTES;
// A client's unread lines beyond this are dropped oldest first (counters keep counting).
constexpr std::size_t MAX_INBOX = 20000;
constexpr int CONNECT_TIMEOUT_MS = 5000;

}  // namespace

bool is_loopback(const std::string& host) {
    if (host == "localhost") return true;
    in_addr a{};
    if (::inet_pton(AF_INET, host.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
    return host == "::1";
}

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

bool Client::connect(const Target& t, const std::string& source, int rcvbuf) {
    if (rcvbuf > 0) sock_.set_receive_buffer(rcvbuf);
    eof_ = false;
    return sock_.connect(t.host, t.port, CONNECT_TIMEOUT_MS, source).empty();
}

bool Client::read_now() {
    if (!sock_.is_open()) return false;
    std::vector<std::string> lines;
    const bool alive = sock_.read_available(lines, MAX_SERVER_LINE);
    for (auto& text : lines) {
        Line l;
        auto d = proto::decode_server(text);
        if (d.ok()) {
            l.type = std::string(proto::type_name(d.value()));
            if (const auto* e = std::get_if<proto::Error>(&d.value()))
                ++errors_[std::string(proto::error_code_name(e->code))];
            // Bots answer the server's idle ping, as every real client does.
            if (const auto* p = std::get_if<proto::Ping>(&d.value())) send(proto::Pong{p->id});
            l.msg = std::move(d.value());
        } else {
            l.type = "?";
            ++undecodable_;
        }
        ++types_[l.type];
        l.text = std::move(text);
        if (observer) observer(l);
        inbox_.push_back(std::move(l));
        if (inbox_.size() > MAX_INBOX) inbox_.pop_front();
    }
    if (!alive) eof_ = true;
    return alive;
}

std::optional<Line> Client::take(std::string_view type, const std::function<bool(const Line&)>& pred) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (it->type == type && (!pred || pred(*it))) {
            Line l = std::move(*it);
            inbox_.erase(inbox_.begin(), it + 1);
            return l;
        }
    }
    return std::nullopt;
}

int Client::count(std::string_view type) const {
    const auto it = types_.find(std::string(type));
    return it == types_.end() ? 0 : it->second;
}

int Client::error_count(std::string_view code) const {
    const auto it = errors_.find(std::string(code));
    return it == errors_.end() ? 0 : it->second;
}

Client& Hub::add(std::string name) {
    clients_.push_back(std::make_unique<Client>(std::move(name)));
    return *clients_.back();
}

void Hub::remove_closed() {
    std::erase_if(clients_, [](const auto& c) { return c->closed_locally(); });
}

void Hub::pump(int ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    std::vector<pollfd> fds;
    std::vector<Client*> who;
    for (bool first = true;; first = false) {
        fds.clear();
        who.clear();
        for (auto& c : clients_) {
            if (!c->reading || !c->open()) continue;
            fds.push_back({c->fd(), POLLIN, 0});
            who.push_back(c.get());
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (!first && left <= 0) return;
        if (fds.empty()) {
            if (left > 0) ::poll(nullptr, 0, int(std::min<long long>(left, 10)));
            if (ms == 0) return;
            continue;
        }
        const int r = ::poll(fds.data(), fds.size(), int(std::max<long long>(left, 0)));
        if (r <= 0) return;
        for (std::size_t i = 0; i < fds.size(); ++i)
            if (fds[i].revents != 0) who[i]->read_now();
        return;  // one batch; callers loop with their own predicate
    }
}

bool Hub::wait(int ms, const std::function<bool()>& pred) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    while (!pred()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return pred();
        pump(int(std::min<long long>(left, 50)));
    }
    return true;
}

std::optional<Line> Hub::expect(Client& c, std::string_view type, int ms,
                                const std::function<bool(const Line&)>& pred) {
    std::optional<Line> got;
    wait(ms, [&] {
        got = c.take(type, pred);
        return got.has_value() || !c.open();
    });
    if (!got) got = c.take(type, pred);
    return got;
}

Client* Hub::join(const Target& t, std::string name, std::string* why, const std::string& source) {
    Client& c = add(name);
    if (!c.connect(t, source)) {
        if (why) *why = "connect failed";
        return nullptr;
    }
    proto::Hello h;
    h.name = name;
    c.send(h);
    std::optional<Line> reply;
    wait(5000, [&] {
        for (const auto& l : c.inbox())
            if (l.type == "welcome" || l.type == "error") return true;
        return !c.open();
    });
    for (auto& l : c.inbox()) {
        if (l.type == "welcome") {
            c.session_token = std::get<proto::Welcome>(*l.msg).resume_token;
            return &c;
        }
        if (l.type == "error") {
            if (why) *why = "hello refused: " + l.text;
            return nullptr;
        }
    }
    if (why) *why = c.open() ? "no welcome within 5 s" : "closed during hello";
    return nullptr;
}

double Stats::pct(double p) const {
    if (us.empty()) return 0;
    std::vector<double> v = us;
    // Nearest rank: the smallest sample with at least p% of the samples at or below it.
    const auto rank = std::size_t(std::ceil(p / 100.0 * double(v.size())));
    const std::size_t k = std::min(v.size() - 1, rank > 0 ? rank - 1 : 0);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

ControlGame::ControlGame(Hub& hub, const Target& t, std::string prefix, std::uint32_t seed)
    : hub_(hub), target_(t), prefix_(std::move(prefix)), rng_(seed) {}

bool ControlGame::start(std::string* why) {
    red_ = hub_.join(target_, prefix_ + "r", why);
    black_ = hub_.join(target_, prefix_ + "b", why);
    if (!red_ || !black_) return false;
    if (!new_table()) {
        if (why) *why = why_;
        return false;
    }
    return true;
}

bool ControlGame::new_table() {
    if (table_ != 0) {
        red_->send(proto::Leave{table_});
        black_->send(proto::Leave{table_});
        hub_.expect(*red_, "left", 5000);
        hub_.expect(*black_, "left", 5000);
    }
    proto::CreateTable c;
    c.name = prefix_ + "game" + std::to_string(++tables_made_);
    c.as = proto::Role::Red;
    red_->send(c);
    auto snap = hub_.expect(*red_, "table_snapshot", 5000);
    if (!snap) {
        why_ = "no snapshot after create_table";
        return false;
    }
    table_ = std::get<proto::TableSnapshot>(*snap->msg).table.id;
    black_->send(proto::Join{table_, proto::Role::Black});
    if (!hub_.expect(*black_, "table_snapshot", 5000)) {
        why_ = "no snapshot after join";
        return false;
    }
    game_ = Game();
    ply_ = 0;
    return true;
}

bool ControlGame::step(Stats& stats, int timeout_ms) {
    const auto due = last_step_ + std::chrono::milliseconds(min_interval_ms);
    while (Clock::now() < due)
        hub_.pump(int(std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count()) + 1);
    last_step_ = Clock::now();
    if (game_.over()) return new_table();
    const MoveList legal = game_.legal_moves();
    const Move m = legal[int(rng_() % unsigned(legal.size()))];
    Client* mover = game_.side_to_move() == RED ? red_ : black_;
    proto::MoveRequest req;
    req.table = table_;
    req.ply = ply_;
    req.move = move_to_iccs(m);
    const int want = ply_ + 1;
    const auto t0 = Clock::now();
    mover->send(req);
    auto made = hub_.expect(*mover, "move_made", timeout_ms, [&](const Line& l) {
        const auto& mm = std::get<proto::MoveMade>(*l.msg);
        return mm.table == table_ && mm.ply == want;
    });
    if (!made) {
        std::string last;
        for (const auto& l : mover->inbox())
            if (l.type == "error") last = l.text;
        why_ = "no move_made for ply " + std::to_string(want) + (last.empty() ? "" : " (" + last + ")") +
               (mover->open() ? "" : " (connection closed)");
        return false;
    }
    stats.add(ms_since(t0) * 1000.0);
    game_.play(m);
    ply_ = want;
    ++moves_;
    // Keep the other side's inbox short: it saw the same move_made.
    Client* other = mover == red_ ? black_ : red_;
    other->take("move_made", [&](const Line& l) { return std::get<proto::MoveMade>(*l.msg).ply == want; });
    const auto& mm = std::get<proto::MoveMade>(*made->msg);
    if (mm.fen != game_.position().fen()) {
        why_ = "server FEN differs from the local board at ply " + std::to_string(want);
        return false;
    }
    // The local referee decides the end (its game_over line may not have arrived yet).
    if (game_.over() || ply_ >= 300) {
        hub_.pump(0);
        mover->take("game_over");
        other->take("game_over");
        return new_table();
    }
    return true;
}

}  // namespace xq::attack
