#include "cli_app.h"

#include <charconv>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <variant>

#include "cli_text.h"
#include "protocol/codec.h"

namespace xq::client {

namespace {

using json = nlohmann::json;

// A script that never waits must not grow memory without bound.
constexpr std::size_t MAX_LOG_LINES = 4096;

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

std::string seat_text(const std::optional<proto::SeatInfo>& seat) {
    if (!seat) return "-";
    std::string s = seat->name;
    if (seat->rating) s += cat(" [", std::to_string(*seat->rating), "]");
    if (seat->ai_level > 0) s += cat(" (AI ", std::to_string(seat->ai_level), ")");
    if (seat->hold_level > 0) s += cat(" (away; AI level ", std::to_string(seat->hold_level), " plays)");
    else if (seat->abandoned) s += " (away; abandoned)";
    else if (seat->grace_ms) s += cat(" (away; seat kept ", std::to_string((*seat->grace_ms + 999) / 1000), " s)");
    else if (!seat->connected) s += " (away)";
    return s;
}

// JSON field value as plain text for `wait key=value` comparisons.
std::string field_text(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

}  // namespace

std::string_view first_word(std::string_view line, std::string_view& rest) {
    line = trim(line);
    const std::size_t sp = line.find_first_of(" \t");
    if (sp == std::string_view::npos) {
        rest = {};
        return line;
    }
    rest = trim(line.substr(sp + 1));
    return line.substr(0, sp);
}

CliApp::CliApp(CliOptions options) : opt_(std::move(options)), my_name_(opt_.name) {}

std::string CliApp::hello_line(const std::string& resume_token) const {
    proto::Hello h;
    h.name = opt_.name;
    h.resume = resume_token;
    h.password = opt_.password;
    return proto::encode(proto::ClientMessage{h});
}

std::vector<std::string> CliApp::take_replies() {
    std::vector<std::string> r;
    r.swap(replies_);
    return r;
}

std::string CliApp::take_output() {
    std::string s;
    s.swap(out_);
    return s;
}

void CliApp::say(std::string_view text) {
    if (opt_.batch) {
        out_ += json{{"type", "cli_info"}, {"message", std::string(text)}}.dump(
            -1, ' ', false, json::error_handler_t::replace);
        out_ += '\n';
    } else {
        out_ += text;
        out_ += '\n';
    }
}

void CliApp::say_rest(std::string_view what, std::string_view command, int next, int total) {
    if (next >= total) return;
    say(cat(std::to_string(total - next), " more ", std::string(what), " (", std::to_string(total), " in all): ",
            std::string(command), " ", std::to_string(next)));
}

void CliApp::note_error(std::string_view message) {
    if (opt_.batch) {
        out_ += json{{"type", "cli_error"}, {"message", std::string(message)}}.dump(
            -1, ' ', false, json::error_handler_t::replace);
        out_ += '\n';
    } else {
        out_ += "! ";
        out_ += message;
        out_ += '\n';
    }
}

void CliApp::show_board() {
    BoardStyle style = opt_.style;
    if (opt_.batch) style.color = false;
    out_ += render_board(pos_, last_move_, style);
    out_ += describe_move_prompt();
}

std::string CliApp::describe_move_prompt() const {
    std::string s = cat("ply ", std::to_string(ply_), ", ", color_name(pos_.side_to_move()), " to move");
    if (pos_.in_check()) s += " (check)";
    if (game_over_)
        s = cat("ply ", std::to_string(ply_), ", game over");
    else if (role_ == proto::role_of(pos_.side_to_move()))
        s += " - your move";
    return s + "\n";
}

bool CliApp::try_satisfy(const WaitSpec& wait) {
    for (std::size_t i = consumed_; i < log_.size(); ++i) {
        if (log_[i].type != wait.type) continue;
        bool match = true;
        if (!wait.fields.empty()) {
            const json j = json::parse(log_[i].line, nullptr, false);
            for (const auto& [key, value] : wait.fields) {
                if (!j.is_object() || !j.contains(key) || field_text(j[key]) != value) {
                    match = false;
                    break;
                }
            }
        }
        if (match) {
            consumed_ = i + 1;
            return true;
        }
    }
    return false;
}

void CliApp::handle_server_line(const std::string& line) {
    auto decoded = proto::decode_server(line);
    std::string type = decoded.ok() ? std::string(proto::type_name(decoded.value())) : std::string("?");
    if (!decoded.ok()) {
        const json j = json::parse(line, nullptr, false);
        if (j.is_object() && j.contains("type") && j["type"].is_string()) type = j["type"].get<std::string>();
    }
    log_.push_back({type, line});
    if (log_.size() > MAX_LOG_LINES) {
        const std::size_t drop = MAX_LOG_LINES / 2;
        log_.erase(log_.begin(), log_.begin() + std::ptrdiff_t(drop));
        consumed_ = consumed_ > drop ? consumed_ - drop : 0;
    }
    if (opt_.batch) {
        out_ += line;
        out_ += '\n';
    }
    if (!decoded.ok()) {
        if (!opt_.batch) note_error(cat("unreadable server line (", decoded.error().message, "): ", line));
        return;
    }
    const bool human = !opt_.batch;

    auto set_position = [&](const std::string& fen, const std::string& last) {
        Position p;
        if (p.set_fen(fen) == FenError::None) pos_ = p;
        last_move_ = Move::none();
        if (last.size() == 4) {
            const Square f = square_from_string(last.substr(0, 2)), t = square_from_string(last.substr(2, 2));
            if (f != SQ_NONE && t != SQ_NONE) last_move_ = Move(f, t);
        }
    };

    std::visit(
        Overloaded{
            [&](const proto::Welcome& w) {
                welcomed_ = true;
                my_name_ = w.name;
                if (human) say(cat("connected to ", w.server, " as ", w.name, " (type help for commands)"));
                if (human && !w.engines.empty()) {
                    std::string list;
                    for (const auto& e : w.engines) list += (list.empty() ? "" : ", ") + e;
                    say(cat("engines for AI seats (ai red|black LEVEL ENGINE): ", list));
                }
            },
            [&](const proto::Error& e) {
                if (!welcomed_) refused_ = true;
                if (human) say(cat("error ", std::string(proto::error_code_name(e.code)), ": ", e.message));
            },
            [&](const proto::Pong&) {
                if (human) say("pong");
            },
            [&](const proto::Ping& p) {
                // The server checks the connection is alive: answered without a word.
                replies_.push_back(proto::encode(proto::ClientMessage{proto::Pong{p.id}}));
            },
            [&](const proto::Tables& t) {
                if (!human) return;
                if (t.tables.empty() && t.total == 0) say("no tables yet: create one");
                for (const auto& ti : t.tables) {
                    say(cat("#", std::to_string(ti.id), " ", ti.name, " red: ", seat_text(ti.red), " black: ",
                            seat_text(ti.black), " spectators: ", std::to_string(ti.spectators), " ",
                            std::string(proto::status_name(ti.status)), ", ply ", std::to_string(ti.ply)));
                }
                if (!t.more) say_rest("tables", "list", t.offset + int(t.tables.size()), t.total);
            },
            [&](const proto::Users& u) {
                if (!human) return;
                std::string s = "users:";
                for (const auto& ui : u.users) {
                    s += cat(" ", ui.name);
                    if (ui.rating) s += cat("[", std::to_string(*ui.rating), "]");
                    if (ui.table != 0) s += cat("@", std::to_string(ui.table));
                }
                say(s);
                if (!u.more) say_rest("users", "users", u.offset + int(u.users.size()), u.total);
            },
            [&](const proto::TableSnapshot& s) {
                table_ = s.table.id;
                role_ = s.you;
                ply_ = s.ply;
                game_over_ = s.result.has_value();
                const std::string last =
                    (!s.moves.empty() && int(s.moves.size()) == s.ply) ? s.moves.back() : std::string();
                set_position(s.fen, last);
                opt_.style.flipped = s.you == proto::Role::Black;
                offer_ = Offer::None;
                if (s.draw_offer && proto::role_of(*s.draw_offer) != role_) offer_ = Offer::Draw;
                if (s.takeback_offer && proto::role_of(*s.takeback_offer) != role_) offer_ = Offer::Takeback;
                if (!human) return;
                say(cat("table #", std::to_string(s.table.id), " ", s.table.name, ": you are ",
                        std::string(proto::role_name(s.you)), "; red: ", seat_text(s.table.red),
                        ", black: ", seat_text(s.table.black)));
                for (const auto& c : s.chat) say(cat("[table] ", c.from, ": ", c.text));
                show_board();
                if (s.result) say(cat("game over: ", s.result->text));
            },
            [&](const proto::MoveMade& m) {
                if (m.table != table_) return;
                ply_ = m.ply;
                set_position(m.fen, m.move);
                offer_ = offer_ == Offer::Invite ? offer_ : Offer::None;
                if (!human) return;
                show_board();
                const std::string shown = opt_.notation == Notation::Chinese ? m.chinese
                                          : opt_.notation == Notation::Wxf   ? m.wxf
                                                                             : m.move;
                say(cat(std::string(color_name(m.by)), " played ", shown, " (", m.chinese, " / ", m.wxf,
                        " / ", m.move, ")", (m.check ? " check!" : "")));
            },
            [&](const proto::GameOver& g) {
                if (g.table != table_) return;
                game_over_ = true;
                if (human)
                    say(cat("game over ", std::string(outcome_pgn(g.result.outcome)), ": ", g.result.text));
            },
            [&](const proto::ChatLine& c) {
                if (human) say(cat("[", std::string(proto::scope_name(c.scope)), "] ", c.from, ": ", c.text));
            },
            [&](const proto::Notice& n) {
                if (human) say(cat("*** server notice: ", n.text));
            },
            [&](const proto::AiProgress& a) {
                if (!human) return;
                if (a.depth == last_ai_depth_ && a.percent != 100) return;  // one line per depth
                last_ai_depth_ = a.depth;
                const int bars = a.percent / 10;
                say(cat("AI ", std::string(proto::color_wire_name(a.seat)), " thinking: depth ",
                        std::to_string(a.depth), " score ", std::to_string(a.score), " [",
                        std::string(std::size_t(bars), '#'), std::string(std::size_t(10 - bars), '.'), "] ",
                        std::to_string(a.percent), "%"));
                if (!a.pv.empty()) {
                    std::string line = "  line:";
                    // Only coordinate words reach the terminal (a server is not trusted with it).
                    for (const auto& m : a.pv) {
                        if (m.size() != 4 || m[0] < 'a' || m[0] > 'i' || m[1] < '0' || m[1] > '9' || m[2] < 'a' ||
                            m[2] > 'i' || m[3] < '0' || m[3] > '9')
                            break;
                        line += " " + m;
                    }
                    say(line);
                }
            },
            [&](const proto::DrawOffered& d) {
                if (proto::role_of(d.by) != role_) offer_ = Offer::Draw;
                if (human) say(cat(std::string(color_name(d.by)), " offers a draw (accept / decline)"));
            },
            [&](const proto::DrawAnswered& d) {
                if (human)
                    say(cat(std::string(color_name(d.by)), (d.accept ? " accepts" : " declines"),
                            " the draw"));
            },
            [&](const proto::TakebackRequested& t) {
                if (proto::role_of(t.by) != role_) offer_ = Offer::Takeback;
                if (human) say(cat(std::string(color_name(t.by)), " asks to take back (accept / decline)"));
            },
            [&](const proto::TakebackAnswered& t) {
                if (human)
                    say(cat(std::string(color_name(t.by)), (t.accept ? " accepts" : " declines"),
                            " the takeback"));
            },
            [&](const proto::TakebackDone& t) {
                if (t.table != table_) return;
                ply_ = t.ply;
                set_position(t.fen, "");
                game_over_ = false;
                if (human) {
                    say(cat(std::to_string(t.plies), " ply taken back"));
                    show_board();
                }
            },
            [&](const proto::NewGameOffered& n) {
                if (proto::role_of(n.by) != role_) offer_ = Offer::NewGame;
                if (human) say(cat(std::string(color_name(n.by)), " wants a new game (accept / decline)"));
            },
            [&](const proto::OfferWithdrawn& w) {
                if (w.table != table_) return;
                if (proto::role_of(w.by) != role_ && offer_ != Offer::Invite) offer_ = Offer::None;
                if (human) say(cat(std::string(color_name(w.by)), " withdraws the offer"));
            },
            [&](const proto::InviteReceived& i) {
                offer_ = Offer::Invite;
                invite_table_ = i.table;
                invite_from_ = i.from;
                if (human)
                    say(cat(i.from, " invites you to table #", std::to_string(i.table), " ", i.table_name,
                            " as ", std::string(proto::role_name(i.as)), " (accept / decline)"));
            },
            [&](const proto::PlayerJoined& p) {
                if (human) say(cat(p.name, " joined as ", std::string(proto::role_name(p.role))));
            },
            [&](const proto::PlayerLeft& p) {
                if (!human) return;
                std::string text = cat(p.name, " (", std::string(proto::role_name(p.role)),
                                       ") left: ", std::string(proto::leave_reason_name(p.reason)));
                if (p.grace_ms) text += cat("; the seat is kept for ", std::to_string((*p.grace_ms + 999) / 1000), " s");
                say(text);
            },
            [&](const proto::SeatAbandoned& a) {
                if (!human) return;
                if (a.hold_level > 0)
                    say(cat(a.name, " did not come back: the AI (level ", std::to_string(a.hold_level),
                            ") plays for them until they return"));
                else if (a.claimable && role_ == proto::role_of(~a.seat))
                    say(cat(a.name, " did not come back: type claim to take the win, or keep waiting"));
                else
                    say(cat(a.name, " did not come back; the seat is kept"));
            },
            [&](const proto::PlayerReturned& p) {
                if (human) say(cat(p.name, " is back"));
            },
            [&](const proto::Hint& h) {
                if (human && h.table == table_) say(cat("hint: ", h.move, " (score ", std::to_string(h.score), ", depth ", std::to_string(h.depth), ")"));
            },
            [&](const proto::HintUsed& h) {
                if (human && h.table == table_) say(cat(h.name, " (", proto::color_wire_name(h.side), ") took a hint"));
            },
            [&](const proto::ArbiterAction& a) {
                if (!human) return;
                std::string text = cat("arbiter ", a.by, ": ");
                switch (a.action) {
                case proto::ArbiterKind::Pause: text += "game paused"; break;
                case proto::ArbiterKind::Resume: text += "game resumed"; break;
                case proto::ArbiterKind::AddTime:
                    text += cat(std::to_string(a.seconds.value_or(0)), " s added for ",
                                std::string(color_name(a.side.value_or(RED))));
                    break;
                case proto::ArbiterKind::Adjudicate:
                    text += cat("adjudicated ", std::string(outcome_pgn(a.result.value_or(Outcome::Draw))));
                    break;
                case proto::ArbiterKind::Cancel: text += "game cancelled"; break;
                }
                if (!a.reason.empty()) text += cat(" (", a.reason, ")");
                say(text);
            },
            [&](const proto::LeftTable& l) {
                if (l.table == table_) table_ = 0;
                role_ = proto::Role::Spectator;
                if (human) say("back in the lobby");
            },
            [&](const auto&) {
                // Lobby notices (user_joined, table_update, ...) are shown raw and short.
                if (human) say(cat(type, ": ", line.substr(0, 160)));
            },
        },
        decoded.value());
}

}  // namespace xq::client
