// Scripted mode (automation and the GUI tests): loading and running a script, and the
// verbs that play at a table, wait and set the client up (the lobby windows' verbs in
// app_script_windows.cpp, `expect` in app_script_expect.cpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

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
                // "last": the newest table (the highest id; the server lists waiting tables first).
                int id = 0;
                if (a.args[0] == "last")
                    for (const TableSummary& tb : state_.lobby.tables) id = std::max(id, tb.id);
                else
                    id = std::atoi(a.args[0].c_str());
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
    if (const auto r = step_window(a, waited_ms)) return *r;
    if (v == "claim") {
        if (!state_.table.claim_possible) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("claim: no abandoned seat to claim");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        session_.claim_win();
        send_outbox();
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
            << d->server[RED] << " ms, black " << d->server[BLACK] << " ms (off by " << d->worst << " ms; answered in "
            << d->round_trip_ms << " ms)";
        std::cerr << "xiangqi-client: clock_check: " << msg.str() << "\n";
        const std::int64_t limit = std::atoi(a.args[0].c_str());
        if (d->worst > limit) {
            // The snapshot's figures are older than its arrival by up to its round trip: when
            // that could explain the excess (a loaded machine held the answer back), measure
            // again, at most three probes in all. Only a probe within the limit passes.
            static constexpr const char* PROBES = "__probes";
            if (d->worst - limit <= d->round_trip_ms && ++baseline_[PROBES] < 3) {
                std::cerr << "xiangqi-client: clock_check: the answer took " << d->round_trip_ms << " ms: measured again\n";
                baseline_.erase(SENT);
                return StepResult::Wait;
            }
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
    if (v == "expect") return step_expect(a, waited_ms);
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

}  // namespace xq::client
