// The terminal client's commands: what a line the user types sends to the server (or
// prints), and a move typed in any notation. The server's side of the conversation is in
// cli_app.cpp.
#include <charconv>
#include <optional>

#include "cli_app.h"
#include "cli_text.h"
#include "protocol/codec.h"

namespace xq::client {

namespace {

constexpr std::string_view HELP_TEXT =
    "commands:\n"
    "  list | users [OFFSET]             tables / users in the lobby (a page; OFFSET: from there on)\n"
    "  create [red|black|spectator] [key=value ...] [name]   new table, sitting where you say\n"
    "        (default red); keys: clock=none|fischer:300+5|asian:600/60/30, grace=SECONDS,\n"
    "        abandon=claim|ai, hold=LEVEL, takebacks=on|off, hints=on|off\n"
    "  join ID [red|black|spectator]     sit or watch (sit ID COLOR, watch ID)\n"
    "  leave | sync                      back to the lobby / fresh snapshot\n"
    "  MOVE | move MOVE                  h2e2, H2-E2, C2.5 or 炮二平五\n"
    "  say TEXT | lobby TEXT             table chat (lobby chat when not at a table)\n"
    "  ai red|black [LEVEL] [ENGINE]     an AI takes that seat (level 1-10; ENGINE: one of the server's)\n"
    "  draw | takeback | resign | new    offer a draw, ask a takeback, resign, rematch\n"
    "  hint                              the best move (against the AI, or where hints are on)\n"
    "  claim                             take the win when the opponent's seat is abandoned\n"
    "  arbiter [ID] pause|resume|cancel [REASON]|add_time red|black SECONDS|adjudicate 1-0|0-1|1/2-1/2 REASON\n"
    "                                    a director's tools at a board (ID: default your table)\n"
    "  accept | decline                  answer the latest offer or invitation\n"
    "  invite NAME [red|black|spectator] ask a lobby user to your table\n"
    "  board | flip | notation chinese|wxf|iccs\n"
    "  ping | raw JSON | wait TYPE [k=v ...] [timeout=S] | sleep MS | help | quit\n";

bool parse_int(std::string_view s, long long& out) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
    return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::optional<proto::Role> parse_role(std::string_view s) {
    if (s == "red" || s == "r") return proto::Role::Red;
    if (s == "black" || s == "b") return proto::Role::Black;
    if (s == "spectator" || s == "spectate" || s == "watch" || s == "s") return proto::Role::Spectator;
    return std::nullopt;
}

std::optional<Color> parse_color(std::string_view s) {
    if (s == "red" || s == "r") return RED;
    if (s == "black" || s == "b") return BLACK;
    return std::nullopt;
}

}  // namespace

CommandResult CliApp::move_command(std::string_view text) {
    CommandResult r;
    if (table_ == 0) {
        note_error("not at a table: join one first");
        return r;
    }
    const ParsedMove pm = parse_move(pos_, text);
    if (!pm.ok()) {
        note_error(cat("cannot read move '", std::string(text), "': ", pm.message));
        return r;
    }
    proto::MoveRequest m;
    m.table = table_;
    m.ply = ply_;
    m.move = to_iccs(pm.move);
    r.send.push_back(proto::encode(proto::ClientMessage{m}));
    return r;
}

CommandResult CliApp::handle_command(std::string_view line) {
    CommandResult r;
    line = trim(line);
    if (line.empty() || line.front() == '#') return r;
    std::string_view rest;
    const std::string_view cmd = first_word(line, rest);
    auto send = [&r](const proto::ClientMessage& m) { r.send.push_back(proto::encode(m)); };
    auto need_table = [&]() {
        if (table_ != 0) return true;
        note_error(cat(std::string(cmd), ": not at a table"));
        return false;
    };

    if (cmd == "help" || cmd == "?") {
        out_ += HELP_TEXT;
    } else if (cmd == "quit" || cmd == "exit") {
        r.quit = true;
    } else if (cmd == "list" || cmd == "tables" || cmd == "users" || cmd == "who") {
        // An optional offset: the page of the lobby's list from that place on.
        long long offset = 0;
        if (!rest.empty() && (!parse_int(rest, offset) || offset < 0 || offset > proto::MAX_LIST_OFFSET)) {
            note_error(cat(std::string(cmd), ": the offset must be a number 0-", std::to_string(proto::MAX_LIST_OFFSET)));
            return r;
        }
        if (cmd == "list" || cmd == "tables")
            send(proto::ListTables{int(offset), 0});
        else
            send(proto::ListUsers{int(offset), 0});
    } else if (cmd == "ping") {
        send(proto::Ping{});
    } else if (cmd == "create") {
        proto::CreateTable c;
        std::string_view name = rest;
        std::string_view after;
        const std::string_view w = first_word(rest, after);
        if (const auto role = parse_role(w)) {
            c.as = *role;
            name = after;
        }
        // Settings as key=value words before the name; the server checks the values.
        for (;;) {
            std::string_view more;
            const std::string_view word = first_word(name, more);
            const std::size_t eq = word.find('=');
            if (word.empty() || eq == std::string_view::npos) break;
            const std::string_view key = word.substr(0, eq), value = word.substr(eq + 1);
            auto number = [&](int lo, int hi) -> std::optional<int> {
                int v = 0;
                const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                if (ec != std::errc() || p != value.data() + value.size() || v < lo || v > hi) return std::nullopt;
                return v;
            };
            if (key == "clock") {
                c.settings.clock = std::string(value);
            } else if (key == "grace") {
                c.settings.grace = number(0, proto::MAX_GRACE_S);
                if (!c.settings.grace) {
                    note_error(cat("grace must be 0-", std::to_string(proto::MAX_GRACE_S), " seconds"));
                    return r;
                }
            } else if (key == "abandon" && (value == "claim" || value == "ai")) {
                c.settings.abandon = value == "ai" ? proto::AbandonPolicy::Ai : proto::AbandonPolicy::Claim;
            } else if (key == "hold") {
                c.settings.hold_level = number(proto::AI_LEVEL_MIN, proto::AI_LEVEL_MAX);
                if (!c.settings.hold_level) {
                    note_error("hold must be an AI level 1-10");
                    return r;
                }
            } else if (key == "takebacks" && (value == "on" || value == "off")) {
                c.settings.takebacks = value == "on";
            } else if (key == "hints" && (value == "on" || value == "off")) {
                if (value == "on") c.settings.hints = true;
            } else {
                note_error(cat("create: cannot read '", std::string(word),
                               "' (clock=, grace=, abandon=claim|ai, hold=, takebacks=on|off, hints=on|off)"));
                return r;
            }
            name = more;
        }
        c.name = std::string(name);
        send(c);
    } else if (cmd == "join" || cmd == "sit" || cmd == "watch") {
        std::string_view after;
        const std::string_view id_text = first_word(rest, after);
        long long id = 0;
        if (!parse_int(id_text, id) || id <= 0 || id > 0xFFFFFFFFLL) {
            note_error(cat(std::string(cmd), ": expected a table number"));
            return r;
        }
        proto::Join j;
        j.table = proto::TableId(id);
        j.as = cmd == "watch" ? proto::Role::Spectator : proto::Role::Spectator;
        if (cmd != "watch" && !after.empty()) {
            const auto role = parse_role(after);
            if (!role) {
                note_error("join: seat must be red, black or spectator");
                return r;
            }
            j.as = *role;
        } else if (cmd == "sit") {
            note_error("sit: say which seat, red or black");
            return r;
        }
        send(j);
    } else if (cmd == "leave") {
        if (!need_table()) return r;
        send(proto::Leave{table_});
    } else if (cmd == "sync") {
        if (!need_table()) return r;
        send(proto::Sync{table_});
    } else if (cmd == "move" || cmd == "m") {
        return move_command(rest);
    } else if (cmd == "say" || cmd == "chat") {
        proto::ChatSend c;
        c.scope = table_ != 0 ? proto::ChatScope::Table : proto::ChatScope::Lobby;
        c.table = table_;
        c.text = std::string(rest);
        send(c);
    } else if (cmd == "lobby") {
        proto::ChatSend c;
        c.scope = proto::ChatScope::Lobby;
        c.text = std::string(rest);
        send(c);
    } else if (cmd == "ai") {
        if (!need_table()) return r;
        std::string_view after;
        const auto seat = parse_color(first_word(rest, after));
        long long level = 5;
        std::string_view engine_part;
        const std::string_view level_text = after.empty() ? after : first_word(after, engine_part);
        if (!seat || (!level_text.empty() && (!parse_int(level_text, level) || level < proto::AI_LEVEL_MIN ||
                                              level > proto::AI_LEVEL_MAX))) {
            note_error("ai: usage ai red|black [level 1-10] [engine]");
            return r;
        }
        proto::RequestAi a;
        a.table = table_;
        a.seat = *seat;
        a.level = int(level);
        a.engine = std::string(engine_part);  // one of the server's engines (welcome.engines)
        send(a);
    } else if (cmd == "draw") {
        if (!need_table()) return r;
        send(proto::OfferDraw{table_});
    } else if (cmd == "takeback" || cmd == "undo") {
        if (!need_table()) return r;
        send(proto::RequestTakeback{table_});
    } else if (cmd == "hint") {
        if (!need_table()) return r;
        send(proto::RequestHint{table_});
    } else if (cmd == "resign") {
        if (!need_table()) return r;
        send(proto::Resign{table_});
    } else if (cmd == "claim") {
        if (!need_table()) return r;
        send(proto::ClaimWin{table_});
    } else if (cmd == "arbiter") {
        std::string_view after;
        std::string_view word = first_word(rest, after);
        proto::ArbiterRequest a;
        long long id = 0;
        if (parse_int(word, id)) {
            a.table = static_cast<proto::TableId>(id);
            word = first_word(after, after);
        } else {
            a.table = table_;
        }
        static constexpr std::pair<std::string_view, proto::ArbiterKind> ACTIONS[] = {
            {"pause", proto::ArbiterKind::Pause},      {"resume", proto::ArbiterKind::Resume},
            {"add_time", proto::ArbiterKind::AddTime}, {"adjudicate", proto::ArbiterKind::Adjudicate},
            {"cancel", proto::ArbiterKind::Cancel}};
        bool known = false;
        for (const auto& [name, kind] : ACTIONS)
            if (word == name) {
                a.action = kind;
                known = true;
            }
        bool ok = known && a.table != 0;
        if (ok && a.action == proto::ArbiterKind::AddTime) {
            std::string_view more;
            const std::string_view side = first_word(after, more);
            long long seconds = 0;
            ok = (side == "red" || side == "black") && parse_int(more, seconds) && seconds >= 1 &&
                 seconds <= proto::MAX_ARBITER_ADD_SECONDS;
            a.side = side == "red" ? RED : BLACK;
            a.seconds = int(seconds);
        } else if (ok && a.action == proto::ArbiterKind::Adjudicate) {
            std::string_view reason;
            const std::string_view result = first_word(after, reason);
            a.result = result == "1-0" ? Outcome::RedWins : result == "0-1" ? Outcome::BlackWins : Outcome::Draw;
            ok = (result == "1-0" || result == "0-1" || result == "1/2-1/2") && !reason.empty();
            a.reason = std::string(reason);
        } else if (ok && a.action == proto::ArbiterKind::Cancel) {
            a.reason = std::string(after);
        }
        if (!ok) {
            note_error("arbiter: usage arbiter [ID] pause|resume|cancel [REASON]|add_time red|black SECONDS|"
                       "adjudicate 1-0|0-1|1/2-1/2 REASON");
            return r;
        }
        send(a);
    } else if (cmd == "new" || cmd == "rematch") {
        if (!need_table()) return r;
        send(proto::NewGame{table_});
    } else if (cmd == "accept" || cmd == "decline" || cmd == "yes" || cmd == "no") {
        const bool yes = cmd == "accept" || cmd == "yes";
        switch (offer_) {
        case Offer::Draw:
            send(proto::AnswerDraw{table_, yes});
            break;
        case Offer::Takeback:
            send(proto::AnswerTakeback{table_, yes});
            break;
        case Offer::Invite:
            send(proto::AnswerInvite{invite_table_, invite_from_, yes});
            break;
        case Offer::NewGame:
            if (yes) send(proto::NewGame{table_});
            break;
        case Offer::None:
            note_error("nothing to answer");
            return r;
        }
        offer_ = Offer::None;
    } else if (cmd == "invite") {
        if (!need_table()) return r;
        std::string_view after;
        proto::Invite inv;
        inv.table = table_;
        inv.name = std::string(first_word(rest, after));
        if (inv.name.empty()) {
            note_error("invite: usage invite NAME [red|black|spectator]");
            return r;
        }
        if (!after.empty()) inv.as = parse_role(after);
        send(inv);
    } else if (cmd == "board") {
        show_board();
    } else if (cmd == "flip") {
        opt_.style.flipped = !opt_.style.flipped;
        show_board();
    } else if (cmd == "notation") {
        if (rest == "chinese" || rest == "zh")
            opt_.notation = Notation::Chinese;
        else if (rest == "wxf")
            opt_.notation = Notation::Wxf;
        else if (rest == "iccs")
            opt_.notation = Notation::Iccs;
        else
            note_error("notation: chinese, wxf or iccs");
    } else if (cmd == "raw") {
        r.send_raw = std::string(rest) + "\n";
    } else if (cmd == "wait") {
        WaitSpec w;
        w.timeout_ms = opt_.default_wait_ms;
        std::string_view after;
        w.type = std::string(first_word(rest, after));
        while (!after.empty()) {
            std::string_view more;
            const std::string_view kv = first_word(after, more);
            after = more;
            const std::size_t eq = kv.find('=');
            if (eq == std::string_view::npos) {
                note_error(cat("wait: expected key=value, got '", std::string(kv), "'"));
                return r;
            }
            const std::string_view key = kv.substr(0, eq), value = kv.substr(eq + 1);
            long long secs = 0;
            if (key == "timeout" && parse_int(value, secs) && secs > 0 && secs <= 3600) {
                w.timeout_ms = int(secs * 1000);
            } else {
                w.fields.emplace_back(std::string(key), std::string(value));
            }
        }
        if (w.type.empty()) {
            note_error("wait: usage wait TYPE [key=value ...] [timeout=S]");
            return r;
        }
        r.wait = std::move(w);
    } else if (cmd == "sleep") {
        long long ms = 0;
        if (!parse_int(rest, ms) || ms < 0 || ms > 600000) {
            note_error("sleep: milliseconds 0-600000");
            return r;
        }
        r.sleep_ms = int(ms);
    } else {
        // Anything else is a move in any notation: "h2e2", "C2.5", "炮二平五".
        return move_command(line);
    }
    return r;
}

}  // namespace xq::client
