// Scripted mode (automation and the GUI smoke test) and the frame-time benchmark.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <SFML/Window/Clipboard.hpp>

#include "app/app.h"
#include "core/move_text.h"
#include "xiangqi/notation.h"

namespace xq::client {

namespace {

std::optional<proto::Role> role_from(const std::string& s) {
    if (s == "red") return proto::Role::Red;
    if (s == "black") return proto::Role::Black;
    if (s == "spectator" || s == "watch") return proto::Role::Spectator;
    return std::nullopt;
}

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

bool App::load_script(std::string& error) {
    std::string text;
    if (!opt_.script.empty()) {
        std::ifstream in(opt_.script);
        if (!in) {
            error = "cannot read the script " + opt_.script;
            return false;
        }
        std::ostringstream ss;
        ss << in.rdbuf();
        text = ss.str();
    }
    if (opt_.play_ai > 0) {
        // The main job: sit as Red at a new table with the built-in AI as Black.
        text = "create red\nai black " + std::to_string(opt_.play_ai) + "\n" + text;
    }
    if (!parse_script(text, script_, error)) return false;
    script_active_ = true;
    script_pc_ = 0;
    step_started_ = now();
    baseline_ = session_.received_counts();
    return true;
}

void App::script_fail(const std::string& why) {
    if (!script_active_) return;
    const int line = script_pc_ < script_.size() ? script_[script_pc_].line : 0;
    std::cerr << "xiangqi-client: script failed at line " << line << ": " << why << "\n";
    script_error_ = why;
    script_active_ = false;
    exit_code_ = 1;
    running_ = false;
}

void App::run_script() {
    while (script_active_ && script_pc_ < script_.size()) {
        const StepResult r = step(script_[script_pc_]);
        if (r == StepResult::Wait) return;
        if (r == StepResult::Fail) return;
        ++script_pc_;
        step_started_ = now();
        // Waits look for messages that arrive after the previous action.
        baseline_ = session_.received_counts();
        // One action per frame keeps screenshots and animations honest.
        return;
    }
    if (script_active_ && script_pc_ >= script_.size()) {
        script_active_ = false;
        if (!opt_.screenshot.empty()) {
            pending_screenshot_ = opt_.screenshot;
            render();
            running_ = false;
        }
    }
}

bool App::click_square(Square s, Intent& out) {
    const BoardGeometry geo = board_geometry();
    const PointF p = geo.center(s);
    out = ctl_.press(state_.table.board, geo, p.x, p.y);
    const Intent r = ctl_.release(state_.table.board, geo, p.x, p.y);
    if (out.kind == Intent::Kind::None) out = r;
    return true;
}

App::StepResult App::step(const ScriptAction& a) {
    const float waited_ms = (now() - step_started_) * 1000.f;
    auto timeout = [&](std::size_t idx) {
        return a.args.size() > idx ? std::atoi(a.args[idx].c_str()) : SCRIPT_DEFAULT_WAIT_MS;
    };
    auto joined_or_wait = [&]() -> StepResult {
        if (state_.connection != Connection::Ready) {
            if (waited_ms > float(std::max(SCRIPT_DEFAULT_WAIT_MS, expect_grace_ms_))) script_fail("not connected");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        return StepResult::Done;
    };
    const std::string& v = a.verb;

    if (v == "create" || v == "join") {
        // Both wait for the welcome first, then for the table's snapshot.
        if (joined_or_wait() != StepResult::Done) return script_active_ ? StepResult::Wait : StepResult::Fail;
        static constexpr const char* SENT = "__sent";
        if (baseline_.find(SENT) == baseline_.end()) {
            const auto role = role_from(v == "create" ? a.args[0] : a.args[1]);
            if (!role) { script_fail("unknown seat " + (v == "create" ? a.args[0] : a.args[1])); return StepResult::Fail; }
            if (v == "create") {
                // After `settings`, the table is created through the dialog's form.
                const auto sp = a.rest.find(' ');
                const std::string name = sp == std::string::npos ? std::string() : a.rest.substr(sp + 1);
                const CreateSeat seat = *role == proto::Role::Red ? CreateSeat::Red : *role == proto::Role::Black ? CreateSeat::Black : CreateSeat::Spectator;
                if (script_rules_ && create_form_.problem()) {
                    script_fail(std::string("settings refused by the form: ") + tr(Lang::English, *create_form_.problem()));
                    return StepResult::Fail;
                }
                send_create_table(name, seat, script_rules_);
                baseline_[SENT] = 1;
                return StepResult::Wait;
            } else {
                int id = a.args[0] == "last" ? (state_.lobby.tables.empty() ? 0 : state_.lobby.tables.back().id)
                                             : std::atoi(a.args[0].c_str());
                if (id <= 0) {
                    if (waited_ms > float(std::max(SCRIPT_DEFAULT_WAIT_MS, expect_grace_ms_))) script_fail("no table to join");
                    return script_active_ ? StepResult::Wait : StepResult::Fail;
                }
                session_.join(id, *role);
            }
            send_outbox();
            baseline_[SENT] = 1;
            return StepResult::Wait;
        }
        if (session_.received("table_snapshot") > (baseline_.count("table_snapshot") ? baseline_.at("table_snapshot") : 0) &&
            state_.table.joined())
            return StepResult::Done;
        if (session_.received("error") > (baseline_.count("error") ? baseline_.at("error") : 0)) {
            script_fail("server refused: " + state_.last_error);
            return StepResult::Fail;
        }
        if (waited_ms > float(std::max(SCRIPT_DEFAULT_WAIT_MS, expect_grace_ms_))) script_fail("no table_snapshot after " + v);
        return script_active_ ? StepResult::Wait : StepResult::Fail;
    }
    if (v == "move" || v == "drag" || v == "click") {
        if (view_.animating(now())) return StepResult::Wait;  // let the last move land first
        const std::string& txt = a.args[0];
        if (v == "click") {
            const Square s = square_from_string(txt);
            if (s == SQ_NONE) { script_fail("bad square " + txt); return StepResult::Fail; }
            Intent i;
            click_square(s, i);
            apply_intent(i);
            return StepResult::Done;
        }
        if (txt.size() != 4 || square_from_string(txt.substr(0, 2)) == SQ_NONE || square_from_string(txt.substr(2)) == SQ_NONE) {
            script_fail("bad move text " + txt);
            return StepResult::Fail;
        }
        if (!state_.table.board.my_turn()) {
            if (waited_ms > float(std::max(SCRIPT_DEFAULT_WAIT_MS, expect_grace_ms_))) script_fail("not our turn for " + txt);
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        const Square from = square_from_string(txt.substr(0, 2)), to = square_from_string(txt.substr(2));
        const BoardGeometry geo = board_geometry();
        Intent result;
        if (v == "move") {
            Intent first;
            click_square(from, first);
            if (first.kind == Intent::Kind::Refused) {
                script_fail(std::string("selecting ") + txt.substr(0, 2) + " refused: " + tr(Lang::English, reason_string(first.reason)));
                return StepResult::Fail;
            }
            click_square(to, result);
        } else {
            const PointF a0 = geo.center(from), b0 = geo.center(to);
            const Intent first = ctl_.press(state_.table.board, geo, a0.x, a0.y);
            if (first.kind == Intent::Kind::Refused) {
                script_fail(std::string("picking up ") + txt.substr(0, 2) + " refused: " + tr(Lang::English, reason_string(first.reason)));
                return StepResult::Fail;
            }
            ctl_.motion((a0.x + b0.x) / 2, (a0.y + b0.y) / 2);
            ctl_.motion(b0.x, b0.y);
            result = ctl_.release(state_.table.board, geo, b0.x, b0.y);
        }
        if (result.kind != Intent::Kind::Move) {
            script_fail("move " + txt + (result.kind == Intent::Kind::None ? std::string(" did nothing") : " refused: " + std::string(tr(Lang::English, reason_string(result.reason)))) +
                        " (position " + state_.table.board.position().fen() + ")");
            return StepResult::Fail;
        }
        apply_intent(result);
        return StepResult::Done;
    }
    if (v == "chat") {
        if (state_.table.joined()) session_.chat_table(a.rest);
        else session_.chat_lobby(a.rest);
        send_outbox();
        return StepResult::Done;
    }
    if (v == "ai") {
        const auto role = role_from(a.args[0]);
        if (!role || *role == proto::Role::Spectator) { script_fail("ai needs red or black"); return StepResult::Fail; }
        session_.request_ai(*role == proto::Role::Red ? RED : BLACK, std::atoi(a.args[1].c_str()),
                            a.args.size() > 2 ? a.args[2] : std::string());
        send_outbox();
        return StepResult::Done;
    }
    if (v == "settings") {
        std::string bad;
        if (!create_form_.apply(a.rest, bad)) {
            script_fail("settings: cannot use '" + bad + "'");
            return StepResult::Fail;
        }
        script_rules_ = true;
        return StepResult::Done;
    }
    if (v == "archive") {
        // Picks a game of the archive list (the newest with "first"), as a click on its row.
        if (state_.archive.loading || (a.args[0] == "first" && state_.archive.games.empty())) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("archive: no games listed");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        std::int64_t id = 0;
        if (a.args[0] == "first") id = state_.archive.games.front().id;
        else id = std::atoll(a.args[0].c_str());
        if (id <= 0) {
            script_fail("archive: bad game id " + a.args[0]);
            return StepResult::Fail;
        }
        session_.get_game(id);
        send_outbox();
        return StepResult::Done;
    }
    if (v == "dialog") {
        // Opens (or closes) a dialog so a screenshot shows it.
        if (a.args[0] == "create") {
            if (screen_ != Screen::Lobby) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("dialog create: not in the lobby");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            create_open_ = true;
        } else if (a.args[0] == "archive") {
            if (screen_ != Screen::Lobby) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("dialog archive: not in the lobby");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            open_archive();
        } else if (a.args[0] == "endgames") {
            if (screen_ != Screen::Lobby) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("dialog endgames: not in the lobby");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            load_endgame_progress();
            endgames_open_ = true;
        } else if (a.args[0] == "editor") {
            if (screen_ != Screen::Lobby) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("dialog editor: not in the lobby");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            editor_open_ = true;
        } else if (a.args[0] == "tournaments") {
            if (screen_ != Screen::Lobby) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("dialog tournaments: not in the lobby");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            open_tournaments();
        } else if (a.args[0] == "open_pgn") {
            open_chooser(ChooserFor::OpenPgn);
        } else if (a.args[0] == "save_pgn" || a.args[0] == "save_fen") {
            // What the Copy/Save menu saves: the table's game or the reviewed one.
            const bool review = screen_ == Screen::Review;
            const GameRecord record = review ? review_record_ : table_record();
            const bool pgn = a.args[0] == "save_pgn";
            if (pgn) export_record_ = record;
            else export_fen_ = (review ? review_pos_ : state_.table.board.position()).fen();
            open_chooser(pgn ? ChooserFor::SavePgn : ChooserFor::SaveFen, suggested_file_name(record, pgn ? "pgn" : "fen"));
        } else if (a.args[0] == "none") {
            create_open_ = false;
            archive_open_ = false;
            endgames_open_ = false;
            editor_open_ = false;
            tournaments_open_ = false;
            chooser_.close();
        } else {
            script_fail("unknown dialog " + a.args[0]);
            return StepResult::Fail;
        }
        return StepResult::Done;
    }
    if (v == "tournament") {
        // The Tournaments window's controls, as its buttons do: tournament create NAME...|
        // view ID|last|ai N LEVEL|forfeit SECONDS|delay PLIES|join|leave|start|tab standings|
        // crosstable|pairings|watch BOARD|arbiter BOARD|reason TEXT|save_pgn.
        const std::string& what = a.args[0];
        const proto::Tournament* shown = tourney_shown_ ? state_.tournaments.find(tourney_shown_) : nullptr;
        if (what == "create") {
            create_tournament(a.rest.size() > 7 ? a.rest.substr(7) : std::string());
        } else if (what == "view" && a.args.size() == 2) {
            std::uint32_t id = 0;
            if (a.args[1] == "last") {
                for (const auto& x : state_.tournaments.list) id = std::max(id, x.id);
            } else {
                id = std::uint32_t(std::strtoul(a.args[1].c_str(), nullptr, 10));
            }
            if (id == 0) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("tournament view: no tournament listed");
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            tourney_shown_ = id;
            session_.get_tournament(id);
            send_outbox();
        } else if (what == "ai" && a.args.size() == 3) {  // the form's AI entrants and their level
            tourney_ai_ = std::clamp(std::atoi(a.args[1].c_str()), 0, 4);
            tourney_ai_level_ = std::clamp(std::atoi(a.args[2].c_str()), proto::AI_LEVEL_MIN, proto::AI_LEVEL_MAX);
        } else if ((what == "forfeit" || what == "delay") && a.args.size() == 2) {  // the form's fields, as typed
            (what == "forfeit" ? tourney_forfeit_ : tourney_delay_) = std::atoi(a.args[1].c_str());
        } else if (what == "tab" && a.args.size() == 2) {
            tourney_tab_ = a.args[1] == "crosstable" ? 1 : a.args[1] == "pairings" ? 2 : 0;
        } else if (!shown) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("tournament " + what + ": no tournament shown");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        } else if (what == "reason") {  // the director's tools: the reason field, as typed
            std::snprintf(tourney_reason_, sizeof tourney_reason_, "%s", a.rest.size() > 7 ? a.rest.substr(7).c_str() : "");
        } else if (what == "arbiter" && a.args.size() == 2) {  // the Arbiter... button of a board
            tourney_arbiter_board_ = std::atoi(a.args[1].c_str());
        } else if (what == "save_pgn") {  // the Save PGN button: the chooser opens once fetched
            save_tourney_pgn(*shown);
        } else if (what == "join") {
            session_.join_tournament(shown->id);
            send_outbox();
        } else if (what == "leave") {
            session_.leave_tournament(shown->id);
            send_outbox();
        } else if (what == "start") {
            session_.start_tournament(shown->id);
            send_outbox();
        } else if (what == "watch" && a.args.size() == 2) {
            const int board = std::atoi(a.args[1].c_str());
            const auto b = std::find_if(shown->boards.begin(), shown->boards.end(),
                                        [&](const proto::TournamentBoard& x) { return x.board == board; });
            if (b == shown->boards.end() || b->table == 0) {
                if (waited_ms > float(expect_grace_ms_)) script_fail("tournament watch: no board " + a.args[1]);
                return script_active_ ? StepResult::Wait : StepResult::Fail;
            }
            session_.join(int(b->table), proto::Role::Spectator);
            send_outbox();
            tournaments_open_ = false;
        } else {
            script_fail("tournament: unknown control " + a.rest);
            return StepResult::Fail;
        }
        return StepResult::Done;
    }
    if (v == "editor") {
        // The position editor's controls: editor clear|start|side red|black|place P SQ|
        // remove SQ|fen FEN...|play|table (P a FEN letter, SQ a point such as e0).
        const std::string& what = a.args[0];
        auto point = [](const std::string& t) {
            return t.size() == 2 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9'
                       ? make_square(t[0] - 'a', t[1] - '0') : SQ_NONE;
        };
        if (what == "clear") { editor_.clear(); editor_message_.clear(); }
        else if (what == "start") { editor_.set_start(); editor_message_.clear(); }
        else if (what == "side" && a.args.size() == 2) editor_.set_side_to_move(a.args[1] == "black" ? BLACK : RED);
        else if (what == "place" && a.args.size() == 3 && a.args[1].size() == 1 && point(a.args[2]) != SQ_NONE)
            editor_apply(editor_.place(piece_from_char(a.args[1][0]), point(a.args[2])));
        else if (what == "remove" && a.args.size() == 2 && point(a.args[1]) != SQ_NONE) editor_.remove(point(a.args[1]));
        else if (what == "fen") editor_apply(editor_.load_fen(a.rest.substr(a.rest.find(' ') + 1)));
        else if (what == "play" || what == "table") {
            if (editor_.check() != FenError::None || state_.table.joined()) {
                script_fail("editor " + what + ": the position is not legal or we are at a table");
                return StepResult::Fail;
            }
            editor_start_game(what == "play");
        } else {
            script_fail("editor: unknown control " + what);
            return StepResult::Fail;
        }
        return StepResult::Done;
    }
    if (v == "endgame") {
        // As the Play button of the Endgames window: needs the lobby (no table).
        if (state_.connection != Connection::Ready || state_.table.joined()) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("endgame: not in the lobby");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        if (!start_endgame(a.args[0])) {
            script_fail("endgame: no challenge " + a.args[0]);
            return StepResult::Fail;
        }
        return StepResult::Done;
    }
    if (v == "claim") {
        if (!state_.table.claim_possible) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("claim: no abandoned seat to claim");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        session_.claim_win();
        send_outbox();
        return StepResult::Done;
    }
    if (v == "choose") {
        // The file chooser's name field typed and confirmed (Open or Save).
        if (!chooser_.is_open()) {
            script_fail("choose: no file chooser open");
            return StepResult::Fail;
        }
        if (const auto path = chooser_.confirm(a.rest)) chooser_done(*path);
        return StepResult::Done;
    }
    if (v == "copy") {
        const bool review = screen_ == Screen::Review;
        const Position& shown = review ? review_pos_ : state_.table.board.position();
        if (a.args[0] == "fen") copy_text(shown.fen(), Str::CopiedFen);
        else copy_text(record_pgn(review ? review_record_ : table_record(), notation_), Str::CopiedPgn);
        return StepResult::Done;
    }
    if (v == "locate") {
        // Prints where a control of the review is on the screen, once it is drawn, for a real
        // mouse (xdotool) to click: "locate tab X Y" (the Analysis tab), "locate analyse X Y"
        // (its Analyse button), "locate graph PLY X Y" (that position's point on the graph).
        std::optional<PointF> p;
        const bool tourney = a.args[0] == "tourney" && a.args.size() >= 2;
        if (tourney) p = tourney_control(a.rest.substr(8));
        else if (a.args[0] == "tab") p = analysis_tab_;
        else if (a.args[0] == "analyse") p = analysis_panel_.analyse_button();
        else if (a.args[0] == "explorer_tab") p = explorer_tab_;
        else if (a.args[0] == "hint") p = hint_button_;  // the table's Hint button  // "locate explorer N": its move N (from 0)
        else if (a.args[0] == "explorer" && a.args.size() == 2) p = explorer_panel_.row_point(std::size_t(std::atoi(a.args[1].c_str())));
        else if (a.args[0] == "graph" && a.args.size() == 2) p = analysis_panel_.graph_point(std::atoi(a.args[1].c_str()));
        else {
            script_fail("locate: unknown control " + a.rest);
            return StepResult::Fail;
        }
        const Screen on = tourney ? Screen::Lobby : a.args[0] == "hint" ? Screen::Table : Screen::Review;
        if (!p || screen_ != on) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("locate: " + a.rest + " is not shown");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        const sf::Vector2i at = window_.getPosition();
        std::cout << "locate " << a.rest << " " << at.x + int(std::lround(p->x)) << " " << at.y + int(std::lround(p->y))
                  << "\n" << std::flush;
        return StepResult::Done;
    }
    if (v == "keep_waiting") { session_.keep_waiting(); return StepResult::Done; }
    if (v == "drop") {
        // The connection dies under the player (no leave): the server keeps the seat.
        net_.close();
        running_ = false;
        script_active_ = false;
        return StepResult::Done;
    }
    if (v == "back") {  // the Review screen's Back button
        if (screen_ == Screen::Review) screen_ = review_return_;
        return StepResult::Done;
    }
    if (v == "clock_check") {
        static constexpr const char* SENT = "__probe";
        if (baseline_.find(SENT) == baseline_.end()) {
            session_.probe_clocks();
            send_outbox();
            baseline_[SENT] = 1;
            return StepResult::Wait;
        }
        const auto& d = session_.clock_drift();
        if (!d) {
            if (waited_ms > float(SCRIPT_DEFAULT_WAIT_MS)) script_fail("no snapshot with clocks came back");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        std::ostringstream msg;
        msg << "clocks shown red " << d->shown[RED] << " ms, black " << d->shown[BLACK] << " ms; server red "
            << d->server[RED] << " ms, black " << d->server[BLACK] << " ms (off by " << d->worst << " ms)";
        std::cerr << "xiangqi-client: clock_check: " << msg.str() << "\n";
        if (d->worst > std::atoi(a.args[0].c_str())) {
            script_fail(msg.str());
            return StepResult::Fail;
        }
        return StepResult::Done;
    }
    if (v == "wait") {
        const int base = baseline_.count(a.args[0]) ? baseline_.at(a.args[0]) : 0;
        if (session_.received(a.args[0]) > base) return StepResult::Done;
        if (waited_ms > float(timeout(1))) script_fail("timed out waiting for " + a.args[0]);
        return script_active_ ? StepResult::Wait : StepResult::Fail;
    }
    if (v == "wait_turn") {
        if (state_.table.board.my_turn() && !view_.animating(now())) return StepResult::Done;
        if (waited_ms > float(timeout(0))) script_fail("timed out waiting for our turn");
        return script_active_ ? StepResult::Wait : StepResult::Fail;
    }
    if (v == "sleep") return waited_ms >= float(std::atoi(a.args[0].c_str())) ? StepResult::Done : StepResult::Wait;
    if (v == "screenshot") {
        pending_screenshot_ = a.args[0];
        return StepResult::Done;
    }
    if (v == "expect") {
        const std::string& what = a.args[0];
        std::string want = a.rest.substr(a.rest.find(' ') + 1);
        std::string got;
        if (what == "ply") got = std::to_string(state_.table.board.ply());
        else if (what == "seat") {
            const auto s = state_.table.board.seat();
            got = !s ? "spectator" : *s == RED ? "red" : "black";
        } else if (what == "status") got = state_.table.status;
        else if (what == "screen")
            got = screen_ == Screen::Connect ? "connect" : screen_ == Screen::Lobby ? "lobby" : screen_ == Screen::Table ? "table" : "review";
        else if (what == "toast") got = toast_text().find(want) != std::string::npos ? want : toast_text();
        else if (what == "lan_servers") got = std::to_string(lan_server_count());
        else if (what == "spectators") got = std::to_string(state_.table.spectators);
        else if (what == "paused") got = state_.table.paused ? "yes" : "no";
        else if (what == "clipboard") {
            // expect clipboard TEXT: the clipboard (through SFML, as a paste would read it) holds TEXT
            const sf::String clip = sf::Clipboard::getString();
            const std::basic_string<sf::Uint8> bytes = clip.toUtf8();
            const std::string text(bytes.begin(), bytes.end());
            got = text.find(want) != std::string::npos ? want : text.substr(0, 200);
        } else if (what == "review_result") {
            got = review_record_.outcome == Outcome::Ongoing ? "none" : result_words(lang_, review_record_.outcome, review_record_.reason);
        } else if (what == "captured" && a.args.size() >= 3) {
            // expect captured red 2: Red has taken two pieces (shown on its plate)
            const Color c = a.args[1] == "red" ? RED : BLACK;
            want = a.args[2];
            got = std::to_string(captured_by(state_.table.board.game().start_position(), state_.table.board.position(), c).size());
        } else if (what == "review_flipped") got = review_flipped_ ? "yes" : "no";
        else if (what == "review_ply") got = std::to_string(review_ply_);
        else if (what == "explorer_rows") got = std::to_string(explorer_panel_.rows_shown());
        else if (what == "review_variation") got = review_branch_ply_ < 0 ? "no" : std::to_string(review_branch_ply_);
        else if (what == "analysis") {
            // none, running or done: the analysis of the reviewed game
            const AnalysisState& an = state_.analysis;
            got = !review_analysed() ? "none" : an.running ? "running" : an.evals.empty() ? "none" : "done";
        } else if (what == "best_move") got = review_arrow_ ? move_to_iccs(review_arrow_) : "none";  // the arrow drawn
        else if (what == "hint_arrow") {
            // expect hint_arrow legal: the table's board shows a hint, a legal move there (or none)
            const Position& pos = state_.table.board.position();
            got = !table_arrow_ ? "none" : parse_iccs(pos, move_to_iccs(table_arrow_)).ok() ? "legal" : "illegal";
        }
        else if (what == "mark") {
            // expect mark blunder: the mark of the move that led to the shown position
            got = review_ply_ > 0 ? book::mark_name(analysis_panel_.mark_of_move(review_ply_ - 1)) : "";
            if (got.empty()) got = "none";
        }
        else if (what == "file_chooser") got = chooser_.is_open() ? chooser_.folder().string() : "closed";
        else if (what == "clock_words") got = clock_words(lang_, state_.table.rules.clock);
        else if (what == "lobby_clock") {
            // expect lobby_clock Fischer 5+3: some listed table shows this time control
            got = "";
            for (const TableSummary& tbs : state_.lobby.tables)
                if (clock_words(lang_, tbs.rules.clock) == want) got = want;
        } else if (what == "rules") {
            const TableRules& r = state_.table.rules;
            got = r.clock + " grace=" + std::to_string(r.grace_s) + " abandon=" + (r.abandon == AbandonRule::Ai ? "ai" : "claim") +
                  " takebacks=" + (r.takebacks ? "1" : "0");
        } else if (what == "seat_notice") {
            got = "";
            const auto now_t = std::chrono::steady_clock::now();
            for (const SeatInfo& st : state_.table.seats) {
                const std::string n = seat_notice(lang_, st, now_t);
                if (!n.empty()) got = n.find(want) != std::string::npos ? want : n;
            }
        } else if (what == "claim") got = state_.table.claim_open ? "open" : state_.table.claim_possible ? "possible" : "none";
        else if (what == "result") got = state_.table.result_reason;
        else if (what == "fits") got = layout_problems_.empty() ? "yes" : layout_problems_;
        else if (what == "tourney") got = tourney_drawn_shown_.find(want) != std::string::npos ? want : tourney_drawn_shown_;
        else if (what == "thinking") got = thinking_shown_.find(want) != std::string::npos ? want : thinking_shown_;
        else if (what == "thinking_moves") {
            // expect thinking_moves 2: the plate shows at least that many moves of the AI's line
            const int n = std::atoi(want.c_str());
            got = thinking_moves_shown_ >= n && n > 0 ? want : std::to_string(thinking_moves_shown_);
        }
        else if (what == "seat_label" && a.args.size() >= 3) {
            // expect seat_label black fairy-stockfish (level 3)
            const Color c = a.args[1] == "red" ? RED : BLACK;
            want = a.rest.substr(a.rest.find(a.args[1]) + a.args[1].size() + 1);
            got = seat_label(lang_, state_.table.seats[c], state_.my_name);
        } else if (what == "endgame" && a.args.size() >= 3) {
            // expect endgame r-aa-1 tried=1 solved=0: the progress client.conf keeps
            want = a.rest.substr(a.rest.find(a.args[1]) + a.args[1].size() + 1);
            const auto it = endgame_progress_.find(a.args[1]);
            const ClientConfig::EndgameProgress p = it == endgame_progress_.end() ? ClientConfig::EndgameProgress{} : it->second;
            got = "tried=" + std::to_string(p.tried) + " solved=" + (p.solved ? "1" : "0");
        } else if (what == "error") got = state_.last_error_code;
        else if (what == "fen") got = state_.table.board.position().fen();
        else if (what == "editor_fen") got = editor_.fen();
        else if (what == "editor_check") {
            const FenError e = editor_.check();
            got = e == FenError::None ? "legal" : std::string(fen_error_message(e));
        } else if (what == "editor_message") got = editor_message_.find(want) != std::string::npos ? want : editor_message_;
        else if (what == "last_move") got = state_.table.moves.empty() ? "" : state_.table.moves.back().iccs;
        else if (what == "move" && a.args.size() == 3) {
            // expect move N h2e2: the N-th move of the game (1-based)
            const int n = std::atoi(a.args[1].c_str());
            want = a.args[2];
            got = n >= 1 && n <= int(state_.table.moves.size()) ? state_.table.moves[std::size_t(n - 1)].iccs : "";
        }
        else if (what == "chat" || what == "lobby_chat") {
            got = "";
            for (const ChatLine& c : what == "chat" ? state_.table.chat : state_.lobby.chat)
                if (c.text.find(want) != std::string::npos) got = want;
        } else if (what == "connection") {
            got = reconnecting_ ? "reconnecting"
                  : state_.connection == Connection::Ready ? "ready"
                  : state_.connection == Connection::Disconnected ? "disconnected" : "connecting";
        } else {
            script_fail("unknown expectation " + what);
            return StepResult::Fail;
        }
        if (got != want) {
            // State may still be arriving: expectations get a short grace period.
            if (waited_ms < float(expect_grace_ms_)) return StepResult::Wait;
            script_fail("expected " + what + " = '" + want + "', got '" + got + "'");
            return StepResult::Fail;
        }
        std::cout << "ok " << what << " = " << want << "\n" << std::flush;
        return StepResult::Done;
    }
    if (v == "lang") { lang_ = a.args[0] == "en" ? Lang::English : Lang::Chinese; return StepResult::Done; }
    if (v == "theme") { view_.set_theme(std::atoi(a.args[0].c_str())); return StepResult::Done; }
    if (v == "notation") {
        notation_ = a.args[0] == "wxf" ? MoveNotation::Wxf : a.args[0] == "iccs" ? MoveNotation::Iccs : MoveNotation::Chinese;
        return StepResult::Done;
    }
    if (v == "flip") {
        if (screen_ == Screen::Review) review_flipped_ = !review_flipped_;
        else state_.table.board.toggle_flip();
        return StepResult::Done;
    }
    if (v == "takeback") { session_.request_takeback(); send_outbox(); return StepResult::Done; }
    if (v == "draw") { session_.offer_draw(); send_outbox(); return StepResult::Done; }
    if (v == "resign") { session_.resign(); send_outbox(); return StepResult::Done; }
    if (v == "newgame") { session_.new_game(); send_outbox(); return StepResult::Done; }
    if (v == "leave") { session_.leave(); send_outbox(); return StepResult::Done; }
    if (v == "quit") { running_ = false; return StepResult::Done; }
    if (v == "grace") { expect_grace_ms_ = std::max(0, std::atoi(a.args[0].c_str())); return StepResult::Done; }
    if (v == "lan") {
        // Starts the search on the first call, then waits until it has finished (the
        // connect screen's list polls the result each frame).
        static constexpr const char* STARTED = "__lan";
        if (baseline_.find(STARTED) == baseline_.end()) {
            screen_ = Screen::Connect;
            start_lan_search();
            baseline_[STARTED] = 1;
            return StepResult::Wait;
        }
        return lan_searching() ? StepResult::Wait : StepResult::Done;
    }
    script_fail("unhandled action " + v);
    return StepResult::Fail;
}

// ---------------------------------------------------------------- benchmark

int App::bench() {
    // An offline table in a middle game with a piece selected: the busiest ordinary frame.
    static constexpr const char* MOVES[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5",
                                            "c3c4", "b7a7", "b2a2", "a9b9", "h0h4", "g6g5", "a2a6", "h7h5"};
    TableState& tb = state_.table;
    tb.id = 1;
    tb.name = "bench";
    tb.seats[RED].name = "Bench";
    tb.seats[BLACK].name = "AI";
    tb.seats[BLACK].ai = true;
    tb.seats[BLACK].ai_level = 6;
    tb.rules.clock = "fischer:300+5";
    tb.clock_ms = {287000, 301000};
    tb.clock_running = RED;
    tb.clock_stamp = std::chrono::steady_clock::now();
    std::vector<std::string> moves(std::begin(MOVES), std::end(MOVES));
    const std::string err = tb.board.load_snapshot({}, moves);
    if (!err.empty()) {
        std::cerr << "bench: " << err << "\n";
        return 2;
    }
    tb.board.set_seat(RED);
    tb.board.set_in_progress(true);
    tb.moves = describe_moves(tb.board.game().start_position(), tb.board.game().moves());
    tb.status = "playing";
    for (int i = 0; i < 12; ++i) push_chat(tb.chat, {"Bench", "chat line " + std::to_string(i)});
    tb.ai = {true, BLACK, 9, 35, 40};
    state_.my_name = "Bench";
    screen_ = Screen::Table;
    window_.setSize({opt_.width, opt_.height});
    window_.setView(sf::View(sf::FloatRect(0, 0, float(opt_.width), float(opt_.height))));
    const BoardGeometry geo = board_geometry();
    const PointF c = geo.center(make_square(6, 2));  // the horse on g2
    ctl_.press(tb.board, geo, c.x, c.y);
    ctl_.release(tb.board, geo, c.x, c.y);

    sf::Event e;
    // Baseline in the same run: a frame that only clears and presents the window, which
    // is what the (software) renderer costs before we draw anything.
    std::vector<double> base;
    for (int i = 0; i < opt_.bench_frames / 2 + 10; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        while (window_.pollEvent(e)) gui_.process_event(e);
        window_.clear(theme(view_.theme_index()).window_bg);
        window_.display();
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 10) base.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(base.begin(), base.end());
    std::vector<double> ms;
    ms.reserve(std::size_t(opt_.bench_frames));
    for (int i = 0; i < opt_.bench_frames + 10; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        while (window_.pollEvent(e)) gui_.process_event(e);
        // The last move's glide, as when it arrived from the server.
        if (i % 20 == 0) view_.animate(Move(make_square(7, 7), make_square(7, 5)), B_CANNON, NO_PIECE, now());
        render();
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 10) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());  // skip warm-up
    }
    // Where the time goes: a separate pass whose stages each wait for the renderer.
    const int stage_frames = std::max(20, opt_.bench_frames / 3);
    stage_timing_ = true;
    stage_ms_ = {};
    for (int i = 0; i < stage_frames; ++i) {
        while (window_.pollEvent(e)) gui_.process_event(e);
        render();
    }
    stage_timing_ = false;
    if (!opt_.screenshot.empty()) {
        pending_screenshot_ = opt_.screenshot;
        render();
    }
    std::sort(ms.begin(), ms.end());
    auto pct_of = [](const std::vector<double>& v, double p) { return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))]; };
    auto pct = [&](double p) { return pct_of(ms, p); };

    // Idle: nothing changes, so the loop should sleep rather than draw.
    ctl_.reset();
    tb.ai.active = false;
    view_.stop_animation();
    toast_make_ = nullptr;
    dirty_frames_ = 0;
    const double cpu0 = cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    int drawn = 0;
    while (std::chrono::steady_clock::now() - w0 < std::chrono::seconds(2)) {
        while (window_.pollEvent(e)) {
        }
        if (needs_redraw()) {
            render();
            ++drawn;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(8));
        }
    }
    const double idle_cpu = (cpu_seconds() - cpu0) / 2.0 * 100.0;
    const auto size = window_.getSize();
    std::printf("bench-frames: %zu frames at %ux%u  p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", ms.size(), size.x,
                size.y, pct(0.50), pct(0.99), ms.back());
    std::printf("baseline (clear + present only): p50 %.2f ms  p99 %.2f ms;  busy/baseline p50 ratio %.1f\n",
                pct_of(base, 0.5), pct_of(base, 0.99), pct(0.5) / std::max(0.01, pct_of(base, 0.5)));
    std::printf("idle: %d frames drawn in 2 s, CPU %.1f%% of one core\n", drawn, idle_cpu);
    static constexpr const char* STAGE_NAMES[] = {"clear", "board", "plates", "gui-build", "gui-render", "toast", "present"};
    std::printf("widgets: drawn %d times, reused %d times\n", gui_.frames_drawn(), gui_.frames_reused());
    std::printf("stages (mean ms, each ending in glFinish):");
    for (std::size_t i = 0; i < stage_ms_.size(); ++i) std::printf(" %s %.2f", STAGE_NAMES[i], stage_ms_[i] / stage_frames);
    std::printf("\n");
    return 0;
}

}  // namespace xq::client
