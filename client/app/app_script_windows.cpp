// The script's verbs for the lobby's windows and the review's controls: archive, dialog,
// tournament, editor, endgame, choose (the file chooser), copy, and locate (where a control
// is drawn, for a real mouse).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>

#include <imgui.h>

#include "app/app.h"
#include "core/move_text.h"

namespace xq::client {

namespace {
// The lobby's controls `locate NAME` finds only while the last frame drew them wholly in sight
// (App::mark_in_sight): the settings' Sound box, the Create table button, the create dialog's
// form, its clock choices (server's default, none, Fischer), the grace's server's-default box,
// its Watch choice, and its Create and Cancel buttons.
const std::set<std::string, std::less<>> IN_SIGHT_NAMES = {"sound",         "create_table",  "create_form",   "clock_default",
                                                           "clock_none",    "clock_fischer", "grace_default", "seat_watch",
                                                           "create_button", "create_cancel"};
}  // namespace

void App::mark_in_sight(const std::string& name) {
    // Inside the clip rectangle in force (the window's visible inside, narrowed by its
    // parents') and the client window: neither scrolled away nor cut by an edge.
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 clo = dl->GetClipRectMin(), chi = dl->GetClipRectMax(), screen = ImGui::GetIO().DisplaySize;
    constexpr float SLACK = 0.5f;
    if (lo.x >= std::max(clo.x, 0.f) - SLACK && lo.y >= std::max(clo.y, 0.f) - SLACK &&
        hi.x <= std::min(chi.x, screen.x) + SLACK && hi.y <= std::min(chi.y, screen.y) + SLACK)
        in_sight_[name] = PointF{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
    else
        in_sight_.erase(name);
}

std::optional<App::StepResult> App::step_window(const ScriptAction& a, float waited_ms) {
    const std::string& v = a.verb;
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
        else if (a.args[0] == "window") p = PointF{0, 0};  // the window's top left corner
        else if (a.args[0] == "invitee") p = invite_combo_;  // the table's invite list
        else if (a.args[0] == "invite_button") p = invite_button_;  // and its Invite button
        else if (a.args[0] == "pick" && a.args.size() == 2) {  // "locate pick NAME": NAME in the open invite list
            if (const auto it = invitee_rows_.find(a.args[1]); it != invitee_rows_.end()) p = it->second;
        }
        else if (a.args[0] == "row" && a.args.size() == 3) {
            // "locate row ID red|black|watch": that button of a listed table
            for (const RowButton& b : row_buttons_)
                if (std::to_string(b.table) == a.args[1] && b.slot == a.args[2]) p = PointF{(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2};
        }
        else if (a.args[0] == "offer" && a.args.size() == 2)  // "locate offer accept|decline": the offer dialog's
            p = a.args[1] == "accept" ? offer_accept_ : offer_decline_;
        else if (a.args[0] == "invitation" && a.args.size() == 2)  // "locate invitation accept|decline" (lobby)
            p = a.args[1] == "accept" ? invitation_accept_ : invitation_decline_;
        else if (a.args[0] == "square" && a.args.size() == 2 && square_from_string(a.args[1]) != SQ_NONE)
            p = board_geometry().center(square_from_string(a.args[1]));  // "locate square h2": a point of the table's board
        else if (const auto it = in_sight_.find(a.rest); it != in_sight_.end()) p = it->second;  // wholly in sight
        else if (!IN_SIGHT_NAMES.contains(a.rest)) {
            script_fail("locate: unknown control " + a.rest);
            return StepResult::Fail;
        }
        const Screen on = tourney                  ? Screen::Lobby
                          : a.args[0] == "hint" || a.args[0] == "square" || a.args[0] == "offer" || a.args[0] == "invitee" ||
                                    a.args[0] == "invite_button" || a.args[0] == "pick"
                              ? Screen::Table
                          : IN_SIGHT_NAMES.contains(a.args[0]) || a.args[0] == "row" || a.args[0] == "invitation" ? Screen::Lobby
                                                   : Screen::Review;
        if (!p || (screen_ != on && a.args[0] != "window")) {
            if (waited_ms > float(expect_grace_ms_)) script_fail("locate: " + a.rest + " is not shown");
            return script_active_ ? StepResult::Wait : StepResult::Fail;
        }
        const sf::Vector2i at = window_.getPosition();
        std::cout << "locate " << a.rest << " " << at.x + int(std::lround(p->x)) << " " << at.y + int(std::lround(p->y))
                  << "\n" << std::flush;
        return StepResult::Done;
    }
    return std::nullopt;
}

}  // namespace xq::client
