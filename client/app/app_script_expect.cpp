// The script's `expect WHAT WANT`: what the client shows (its state, its screen, what the
// last frame drew) compared with what the script wants, with a grace period for state
// still arriving.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include <SFML/Window/Clipboard.hpp>
#include <imgui.h>
#include <imgui_internal.h>

#include "app/app.h"
#include "core/move_text.h"
#include "xiangqi/notation.h"

namespace xq::client {

App::StepResult App::step_expect(const ScriptAction& a, float waited_ms) {
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
    else if (what == "offer") {
        // expect offer none|draw|takeback|new_game: the opponent's offer waiting for our answer
        const Offer::Kind k = state_.table.incoming_offer.kind;
        got = k == Offer::Kind::None ? "none" : k == Offer::Kind::Draw ? "draw" : k == Offer::Kind::Takeback ? "takeback" : "new_game";
    } else if (what == "row_buttons") {
        // expect row_buttons aligned: the lobby list's buttons in their columns, of one width
        const std::string problems = row_buttons_problems();
        got = row_buttons_.empty() ? "none shown" : problems.empty() ? "aligned" : problems;
    } else if (what == "lobby_rows") {
        // expect lobby_rows fit: each listed table's row as tall as its layout's lines (one wide,
        // three narrow: nothing wrapped) with no text wider than its cell
        const std::string problems = lobby_rows_problems();
        got = lobby_rows_.empty() ? "none shown" : problems.empty() ? "fit" : problems;
    } else if (what == "row" && a.args.size() == 4) {
        // expect row 1 black none: that button of listed table 1 is not shown (else "shown")
        want = a.args[3];
        got = "none";
        for (const RowButton& b : row_buttons_)
            if (std::to_string(b.table) == a.args[1] && b.slot == a.args[2]) got = "shown";
    } else if (what == "offer_clear") {
        // expect offer_clear yes: the offer dialog leaves the result band uncovered
        got = offer_rect_.intersects(band_rect_) ? "the offer covers the result band" : "yes";
    } else if (what == "banner_clear") {
        // expect banner_clear yes: the reconnect banner is shown and leaves the plates and the
        // side panel uncovered
        const Layout L = layout();
        const float w = float(window_.getSize().x), h = float(window_.getSize().y);
        const sf::FloatRect top{0, 0, L.panel_x, L.plate_h}, bottom{0, h - L.plate_h, L.panel_x, L.plate_h},
            panel{L.panel_x, 0, w - L.panel_x, h};
        got = banner_rect_.width <= 0                 ? "no banner"
              : banner_rect_.intersects(top)          ? "the banner covers the top plate"
              : banner_rect_.intersects(bottom)       ? "the banner covers the bottom plate"
              : banner_rect_.intersects(panel)        ? "the banner covers the side panel"
                                                      : "yes";
    } else if (what == "invitation") {
        // expect invitation FROM TABLE [(+N)]|none: what the invitation dialog showed last
        got = invitation_shown_;
    } else if (what == "invitees") {
        // expect invitees NAME: the open invite list shows NAME; expect invitees -NAME: an
        // invite list is open without NAME
        const bool absent = want.starts_with("-");
        const std::string name = absent ? want.substr(1) : want;
        const bool shown = std::find(invitees_shown_.begin(), invitees_shown_.end(), name) != invitees_shown_.end();
        got = "";
        for (const std::string& n : invitees_shown_) got += (got.empty() ? "" : ", ") + n;
        if (!invitees_open_) got = "(no open list)";
        else if (shown != absent) got = want;
        else if (got.empty()) got = "(nobody)";
    } else if (what == "invite_preview") {
        // expect invite_preview NAME|none: the name the invite row shows (open or closed)
        got = invite_preview_.empty() ? "none" : invite_preview_;
    } else if (what == "flipped") got = state_.table.board.flipped() ? "yes" : "no";  // the table's board
    else if (what == "dragging") got = ctl_.dragging() ? "yes" : "no";  // a piece held by the mouse
    else if (what == "drag_point") {
        // expect drag_point 500,300: a piece is held there (window pixels)
        const PointF d = ctl_.drag_point();
        got = ctl_.dragging() ? std::to_string(std::lround(d.x)) + "," + std::to_string(std::lround(d.y)) : "none";
    }
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
    else if (what == "scrolls" && a.args.size() == 3) {
        // expect scrolls people no: whether that window (the lobby's side panel "people") was
        // taller than it is shown in the last frame, so that it scrolls
        want = a.args[2];
        const ImGuiWindow* w = ImGui::FindWindowByName(a.args[1].c_str());
        got = !w || !w->WasActive ? "not shown" : w->ScrollMax.y > 0 ? "yes" : "no";
    } else if (what == "create_form") got = create_open_ ? create_form_at_ : "closed";  // top|middle|end|whole
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

}  // namespace xq::client
