// The Dear ImGui parts of the screens: forms, lists, chat, buttons and dialogs.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/handicap.h"
#include "core/move_text.h"
#include "xiangqi/pgn.h"

namespace xq::client {

using ui::center_next_window;
using ui::DIALOG_FLAGS;
using ui::fit_text;
using ui::PANEL_FLAGS;
using ui::section;
using ui::status_label;
using ui::wide_button;

void App::ui_chat(std::deque<ChatLine>& lines, char* input, std::size_t input_size, bool table) {
    const float input_h = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild(table ? "tchat" : "lchat", ImVec2(0, -input_h), true);
    chat_room_lines_ = (ImGui::GetWindowSize().y - 2 * ImGui::GetStyle().WindowPadding.y) / ImGui::GetTextLineHeightWithSpacing();
    for (const ChatLine& c : lines) {
        if (c.notice) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.1f, 0.3f, 0.6f, 1));
            ImGui::TextWrapped("* %s", t(Str::ServerNotice, {c.shown_text}).c_str());
            ImGui::PopStyleColor();
            continue;
        }
        ImGui::TextColored(ImVec4(0.55f, 0.2f, 0.1f, 1), "%s:", c.shown_from.c_str());
        ImGui::SameLine();
        ImGui::TextWrapped("%s", c.shown_text.c_str());
    }
    if (scroll_chat_ || ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 4) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
    const float send_w = ImGui::CalcTextSize(t(Str::Send)).x + 24;
    ImGui::SetNextItemWidth(-send_w - 8);
    bool go = ImGui::InputText(table ? "##tmsg" : "##lmsg", input, input_size, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    go |= ImGui::Button(t(Str::Send), ImVec2(send_w, 0));
    if (go && input[0]) {
        if (table) session_.chat_table(input);
        else session_.chat_lobby(input);
        send_outbox();
        input[0] = '\0';
        ImGui::SetKeyboardFocusHere(-1);
    }
}

void App::ui_lobby() {
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    const float side_w = std::clamp(W * 0.28f, 220.f, 360.f);
    // Narrow windows (640x480): each table is one cell of name, seats and clock over two
    // lines, its buttons stacked beside it, instead of seven squeezed columns.
    const bool narrow = W - side_w < 760;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(W - side_w, H));
    ImGui::Begin("lobby", nullptr, PANEL_FLAGS);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::Text("%s · %s", t(Str::LobbyTitle), state_.server_name.c_str());
    if (gui_.big_font()) ImGui::PopFont();
    const float refresh_w = ImGui::CalcTextSize(t(Str::Refresh)).x + 2 * ImGui::GetStyle().FramePadding.x + 16;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowWidth() - refresh_w - ImGui::GetStyle().WindowPadding.x));
    if (ImGui::Button(t(Str::Refresh), ImVec2(refresh_w, 0))) {
        session_.list_tables();
        session_.list_users();
        send_outbox();
    }
    ImGui::Separator();

    // The lobby's dialogs, on one line while they fit (narrow windows wrap them).
    const auto dialog_button = [&](Str id, bool first) {
        const std::string label = std::string(t(id)) + " …";
        const ImGuiStyle& st = ImGui::GetStyle();
        const float w = ImGui::CalcTextSize(label.c_str()).x + 2 * st.FramePadding.x;
        if (!first && ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
            ImGui::SameLine();
        return ImGui::Button(label.c_str());
    };
    // Create a table: the dialog holds the name, the clock and the rules.
    if (dialog_button(Str::CreateTable, true)) {
        create_open_ = true;
        create_error_ = nullptr;
    }
    if (dialog_button(Str::GameArchive, false)) open_archive();
    if (dialog_button(Str::Endgames, false)) {
        load_endgame_progress();
        endgames_open_ = true;
    }
    if (dialog_button(Str::EditorButton, false)) editor_open_ = true;
    if (dialog_button(Str::Tourneys, false)) open_tournaments();
    ImGui::Spacing();

    section(t(Str::Tables));
    const float chat_h = std::max(160.f, H * 0.3f);
    ImGui::BeginChild("tables", ImVec2(0, -chat_h), false);
    if (state_.lobby.tables.empty()) ImGui::TextDisabled("%s", t(Str::NoTables));
    else if (narrow) ui_lobby_tables_narrow();
    else if (ImGui::BeginTable("tbl", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 36);
        ImGui::TableSetupColumn(t(Str::TableName));
        ImGui::TableSetupColumn(t(Str::Red));
        ImGui::TableSetupColumn(t(Str::Black));
        ImGui::TableSetupColumn(t(Str::TimeControl));
        ImGui::TableSetupColumn(t(Str::Spectators), ImGuiTableColumnFlags_WidthFixed, 90);
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, 250);
        ImGui::TableHeadersRow();
        for (const TableSummary& tb : state_.lobby.tables) {
            ImGui::PushID(tb.id);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", tb.id);
            ImGui::TableNextColumn();
            ImGui::Text("%s", table_title(lang_, tb.name, tb.default_of).c_str());
            ImGui::TextDisabled("%s", status_label(lang_, tb.status).c_str());
            for (Color c : {RED, BLACK}) {
                ImGui::TableNextColumn();
                const SeatInfo& s = tb.seats[c];
                if (s.name.empty()) ImGui::TextDisabled("%s", t(Str::EmptySeat));
                else ImGui::TextUnformatted(seat_label(lang_, s, state_.my_name).c_str());
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(clock_words(lang_, tb.rules.clock).c_str());
            if (ImGui::IsItemHovered()) {
                // The rest of the table's rules on hover.
                const TableRules& r = tb.rules;
                std::string abandon = t(r.abandon == AbandonRule::Ai ? Str::AbandonAi : Str::AbandonClaim);
                if (r.abandon == AbandonRule::Ai) abandon += " (" + t(Str::AiName, {std::to_string(r.hold_level)}) + ")";
                ImGui::SetTooltip("%s: %d\n%s %s\n%s: %s", t(Str::GraceSeconds), r.grace_s, t(Str::WhenNoReturn), abandon.c_str(),
                                  t(Str::TakebacksAllowed), t(r.takebacks ? Str::Yes : Str::No));
            }
            if (!tb.rules.takebacks) ImGui::TextDisabled("%s", t(Str::NoTakebacks));
            if (tb.rules.hints) ImGui::TextDisabled("%s", t(Str::HintsMark));
            ImGui::TableNextColumn();
            ImGui::Text("%d", tb.spectators);
            ImGui::TableNextColumn();
            if (tb.seats[RED].name.empty()) {
                if (ImGui::SmallButton(t(Str::SitRed))) { session_.join(tb.id, proto::Role::Red); send_outbox(); }
                ImGui::SameLine();
            }
            if (tb.seats[BLACK].name.empty()) {
                if (ImGui::SmallButton(t(Str::SitBlack))) { session_.join(tb.id, proto::Role::Black); send_outbox(); }
                ImGui::SameLine();
            }
            if (ImGui::SmallButton(t(Str::Spectate))) { session_.join(tb.id, proto::Role::Spectator); send_outbox(); }
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::EndChild();
    section(t(Str::LobbyChat));
    ui_chat(state_.lobby.chat, lobby_chat_, sizeof lobby_chat_, false);
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(W - side_w, 0));
    ImGui::SetNextWindowSize(ImVec2(side_w, H));
    ImGui::Begin("people", nullptr, PANEL_FLAGS);
    section(t(Str::Players));
    ImGui::BeginChild("users", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 6), true);
    for (const UserEntry& u : state_.lobby.users) {
        const std::string name = user_label(lang_, u.name, u.rating);
        if (u.table > 0) ImGui::Text("%s  · %s", name.c_str(), t(Str::Table, {std::to_string(u.table)}).c_str());
        else ImGui::TextUnformatted(name.c_str());
    }
    ImGui::EndChild();
    ui_import_pgn();
    section(t(Str::Settings));
    ui_settings();
    ImGui::End();
}

void App::ui_lobby_tables_narrow() {
    const ImGuiStyle& st = ImGui::GetStyle();
    float buttons_w = 0;
    for (Str id : {Str::SitRed, Str::SitBlack, Str::Spectate})
        buttons_w = std::max(buttons_w, ImGui::CalcTextSize(t(id)).x + 2 * st.FramePadding.x);
    if (!ImGui::BeginTable("tbln", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH)) return;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999").x);
    ImGui::TableSetupColumn(t(Str::TableName), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, buttons_w);
    ImGui::TableHeadersRow();
    for (const TableSummary& tb : state_.lobby.tables) {
        ImGui::PushID(tb.id);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d", tb.id);
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(table_title(lang_, tb.name, tb.default_of).c_str());
        std::string seats;
        for (Color c : {RED, BLACK}) {
            const SeatInfo& s = tb.seats[c];
            seats.append(t(c == RED ? Str::Red : Str::Black)).append(" ");
            seats.append(s.name.empty() ? std::string(t(Str::EmptySeat)) : seat_label(lang_, s, state_.my_name));
            if (c == RED) seats.append(" · ");
        }
        ImGui::TextUnformatted(seats.c_str());
        std::string more = status_label(lang_, tb.status);
        more.append(" · ").append(clock_words(lang_, tb.rules.clock));
        more.append(" · ").append(t(Str::Watchers, {std::to_string(tb.spectators)}));
        if (!tb.rules.takebacks) more.append(" · ").append(t(Str::NoTakebacks));
        if (tb.rules.hints) more.append(" · ").append(t(Str::HintsMark));
        ImGui::TextDisabled("%s", more.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        if (tb.seats[RED].name.empty() && ImGui::SmallButton(t(Str::SitRed))) {
            session_.join(tb.id, proto::Role::Red);
            send_outbox();
        }
        if (tb.seats[BLACK].name.empty() && ImGui::SmallButton(t(Str::SitBlack))) {
            session_.join(tb.id, proto::Role::Black);
            send_outbox();
        }
        if (ImGui::SmallButton(t(Str::Spectate))) {
            session_.join(tb.id, proto::Role::Spectator);
            send_outbox();
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void App::ui_move_list(const std::vector<MoveEntry>& moves, int highlight_ply, bool clickable) {
    if (!ImGui::BeginTable("moves", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("n", ImGuiTableColumnFlags_WidthFixed, 34);
    ImGui::TableSetupColumn("r");
    ImGui::TableSetupColumn("b");
    // The start position may have Black to move: then the first row's Red cell is empty.
    const Position& start =
        screen_ == Screen::Review ? review_game_.start_position() : state_.table.board.game().start_position();
    const bool black_first = !moves.empty() && start.side_to_move() == BLACK;
    const int offset = black_first ? 1 : 0;
    const int rows = (int(moves.size()) + offset + 1) / 2;
    for (int row = 0; row < rows; ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%d.", row + 1);
        for (int col = 0; col < 2; ++col) {
            ImGui::TableNextColumn();
            const int i = row * 2 + col - offset;
            if (i < 0 || i >= int(moves.size())) continue;
            const std::string& text = moves[std::size_t(i)].text(notation_);
            const bool current = i + 1 == highlight_ply;
            ImGui::PushID(i);
            if (clickable) {
                if (ImGui::Selectable(text.c_str(), current)) {
                    // From the table, a click opens the review at that move.
                    if (screen_ == Screen::Table) open_review_from_table();
                    set_review_ply(i + 1);
                }
            } else if (current) {
                ImGui::TextColored(col == 0 ? ImVec4(0.75f, 0.1f, 0.1f, 1) : ImVec4(0.1f, 0.1f, 0.1f, 1), "%s", text.c_str());
            } else {
                ImGui::TextUnformatted(text.c_str());
            }
            ImGui::PopID();
        }
    }
    if (scroll_moves_) {
        ImGui::SetScrollHereY(1.0f);
        scroll_moves_ = false;
    }
    ImGui::EndTable();
}

void App::ui_table() {
    const Layout L = layout();
    TableState& tb = state_.table;
    const float H = float(window_.getSize().y);
    ImGui::SetNextWindowPos(ImVec2(L.panel_x, 0));
    ImGui::SetNextWindowSize(ImVec2(L.panel_w, H));
    ImGui::Begin("table", nullptr, PANEL_FLAGS);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::Table, {std::to_string(tb.id)}).c_str());
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::SameLine();
    {
        const float room = ImGui::GetContentRegionAvail().x - export_button_width() - ImGui::GetStyle().ItemSpacing.x;
        ImGui::TextDisabled("%s", fit_text(table_title(lang_, tb.name, tb.default_of), room).c_str());
    }
    ui_export_button(table_record(), tb.board.position());

    // Whose move, in words.
    const BoardModel& bm = tb.board;
    Str status = Str::WaitingForOpponent;
    if (bm.game().over() || !tb.result_text.empty()) status = Str::GameOver;
    else if (!bm.seat()) status = Str::Spectating;
    else if (bm.in_progress()) status = bm.my_turn() ? Str::YourTurn : Str::TheirTurn;
    // A finished game shows its result in the place of "Game over" (one line less for the chat).
    if (!tb.result_text.empty()) ImGui::TextWrapped("%s", result_words(lang_, tb.outcome, tb.result_reason).c_str());
    else ImGui::TextColored(status == Str::YourTurn ? ImVec4(0.1f, 0.5f, 0.1f, 1) : ImVec4(0.3f, 0.3f, 0.3f, 1), "%s", t(status));
    if (bm.checked_king() != SQ_NONE && bm.in_progress()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.85f, 0.1f, 0.1f, 1), "%s", t(Str::InCheck));
    }
    if (const Offer& o = tb.outgoing_offer; o.kind != Offer::Kind::None) {
        const Str id = o.kind == Offer::Kind::Draw       ? Str::WaitingDrawAnswer
                       : o.kind == Offer::Kind::Takeback ? Str::WaitingTakebackAnswer
                                                         : Str::WaitingNewGameAnswer;
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.05f, 1), "%s", t(id, {player_name(lang_, o.from)}).c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton(t(Str::Withdraw))) {
            session_.withdraw_offer();
            send_outbox();
        }
    }
    {
        std::string rules = t(Str::ClockSettings, {clock_words(lang_, tb.rules.clock)});
        if (!tb.rules.takebacks) rules += std::string(" · ") + t(Str::NoTakebacks);
        if (tb.rules.hints) rules += std::string(" · ") + t(Str::HintsMark);
        rules += std::string(" · ") + t(Str::Watchers, {std::to_string(tb.spectators)});
        // A handicap or set-up start is named, so a player who sits down knows what game it is.
        const Position& start = state_.table.board.game().start_position();
        if (start.key() != Position().key()) {
            const HandicapInfo* h = handicap_of(start);
            rules += std::string(" · ") + t(h ? h->name : Str::SetUpStart);
        }
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", rules.c_str());
        ImGui::PopStyleColor();
    }
    ui_endgame_goal();
    ui_seat_notices();
    ImGui::Separator();

    // Game actions.
    const bool seated = bm.seat().has_value();
    const bool playing = seated && bm.in_progress() && !bm.game().over();
    const bool over = bm.game().over() || !tb.result_text.empty();
    const bool can_new = seated && !playing && over;
    if (can_new) ui_after_game(tb);
    else if (seated) {
        // During the game: four buttons in a row when they fit, else two rows of two. A
        // spectator has no game actions, so it sees none (not four greyed-out buttons).
        const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
        float widest = 0;
        for (Str id : {Str::Takeback, Str::OfferDraw, Str::Resign, Str::NewGame})
            widest = std::max(widest, ImGui::CalcTextSize(t(id)).x + 2 * ImGui::GetStyle().FramePadding.x);
        const int per_row = (avail - 3 * gap) / 4 >= widest ? 4 : 2;
        const float bw = (avail - float(per_row - 1) * gap) / float(per_row);
        if (!playing) ImGui::BeginDisabled();
        if (!tb.rules.takebacks && playing) ImGui::BeginDisabled();
        if (ImGui::Button(t(Str::Takeback), ImVec2(bw, 0))) { session_.request_takeback(); send_outbox(); }
        if (!tb.rules.takebacks && playing) ImGui::EndDisabled();
        ImGui::SameLine();
        if (ImGui::Button(t(Str::OfferDraw), ImVec2(bw, 0))) { session_.offer_draw(); send_outbox(); }
        if (per_row == 4) ImGui::SameLine();
        if (ImGui::Button(t(Str::Resign), ImVec2(bw, 0))) confirm_resign_ = true;
        if (!playing) ImGui::EndDisabled();
        ImGui::SameLine();
        if (!ui_hint(playing, bw)) {
            ImGui::BeginDisabled();
            ImGui::Button(t(Str::NewGame), ImVec2(bw, 0));
            ImGui::EndDisabled();
        }
    }

    // The AI for an empty seat.
    std::optional<Color> empty;
    for (Color c : {RED, BLACK})
        if (tb.seats[c].name.empty()) empty = c;
    if (empty) ui_ai_request(L, *empty);
    const float bw3 = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
    if (ImGui::Button(t(Str::Flip), ImVec2(bw3, 0))) tb.board.toggle_flip();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Review), ImVec2(bw3, 0))) open_review_from_table();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Leave), ImVec2(bw3, 0))) {
        if (playing) confirm_leave_ = true;
        else { session_.leave(); send_outbox(); }
    }

    // Invite someone from the lobby.
    std::vector<const UserEntry*> idle;
    for (const UserEntry& u : state_.lobby.users)
        if (u.table == 0 && u.name != state_.my_name) idle.push_back(&u);
    if (!idle.empty()) {
        invite_index_ = std::clamp(invite_index_, 0, int(idle.size()) - 1);
        ImGui::SetNextItemWidth(L.panel_w * 0.5f);
        if (ImGui::BeginCombo("##invitee", idle[std::size_t(invite_index_)]->name.c_str())) {
            for (int i = 0; i < int(idle.size()); ++i)
                if (ImGui::Selectable(idle[std::size_t(i)]->name.c_str(), i == invite_index_)) invite_index_ = i;
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        if (ImGui::Button(t(Str::Invite))) { session_.invite(idle[std::size_t(invite_index_)]->name); send_outbox(); }
    }

    // Moves.
    // The notation choice sits on the heading's line.
    ImGui::Spacing();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", t(Str::MoveList));
    ImGui::SameLine();
    int n = int(notation_);
    ImGui::RadioButton(t(Str::NotationChinese), &n, 0);
    ImGui::SameLine();
    ImGui::RadioButton("WXF", &n, 1);
    ImGui::SameLine();
    ImGui::RadioButton("ICCS", &n, 2);
    notation_ = MoveNotation(n);
    ImGui::Separator();
    const float rest = ImGui::GetContentRegionAvail().y;
    // Short windows (640x480, 1300x480): the chat keeps a few lines and its input row; the
    // settings (also in the lobby) step aside and the move list takes what is left.
    const float line_h = ImGui::GetFrameHeightWithSpacing();
    const bool short_panel = rest < line_h * 14;
    const float settings_h = short_panel ? 0.f : line_h * 2 + 8;
    const float chat_min = line_h * 5;
    const float moves_h = std::max(line_h * 2, std::min(rest * 0.42f, rest - settings_h - chat_min - line_h));
    if (!seated && ImGui::BeginTabBar("stabs")) {
        // Spectators: the moves and the opening explorer of the position shown.
        const float tab_h = moves_h - ImGui::GetFrameHeightWithSpacing();
        if (ImGui::BeginTabItem((std::string(t(Str::MoveList)) + "###smovestab").c_str())) {
            ImGui::BeginChild("movelist", ImVec2(0, tab_h), true);
            ui_move_list(tb.moves, bm.ply(), true);
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        ui_spectator_explorer(tab_h);
        ImGui::EndTabBar();
    } else {
        ImGui::BeginChild("movelist", ImVec2(0, moves_h), true);
        ui_move_list(tb.moves, bm.ply(), true);
        ImGui::EndChild();
    }

    section(t(Str::TableChat));
    ImGui::BeginChild("chatarea", ImVec2(0, -settings_h), false);
    ui_chat(tb.chat, table_chat_, sizeof table_chat_, true);
    ImGui::EndChild();
    scroll_chat_ = false;
    if (!short_panel) {
        ImGui::Separator();
        ui_settings();
    }
    ImGui::End();
}

void App::ui_after_game(const TableState& tb) {
    // The in-game buttons have nothing to do now: New game takes their place, and against the
    // AI the colour of the next game beside it (by default the other one), so the panel
    // grows no taller than during the game and the chat keeps its room.
    const BoardModel& bm = tb.board;
    const bool vs_ai = tb.seats[~*bm.seat()].ai;
    const int next_as = next_as_ >= 0 ? next_as_ : (*bm.seat() == RED ? 1 : 0);
    if (ImGui::Button(t(Str::NewGame))) {
        std::optional<Color> as;
        if (vs_ai) as = next_as == 0 ? RED : next_as == 1 ? BLACK : (std::random_device{}() & 1) ? RED : BLACK;
        session_.new_game(as);
        send_outbox();
    }
    if (!vs_ai) return;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    // Each piece on the same line while it fits (narrow panels wrap).
    const auto same_line_if_fits = [&](float w) {
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
    };
    const Str names[3] = {Str::Red, Str::Black, Str::ColourRandom};
    float combo_w = 0;
    for (Str n : names) combo_w = std::max(combo_w, ImGui::CalcTextSize(t(n)).x);
    combo_w += ImGui::GetFrameHeight() + 2 * st.FramePadding.x;
    same_line_if_fits(ImGui::CalcTextSize(t(Str::NextGameAs)).x);
    ImGui::TextUnformatted(t(Str::NextGameAs));
    same_line_if_fits(combo_w);
    ImGui::SetNextItemWidth(combo_w);
    if (ImGui::BeginCombo("##next_as", t(names[next_as]))) {
        for (int i = 0; i < 3; ++i)
            if (ImGui::Selectable(t(names[i]), i == next_as)) next_as_ = i;
        ImGui::EndCombo();
    }
}

void App::ui_seat_notices() {
    const TableState& tb = state_.table;
    const auto now = std::chrono::steady_clock::now();
    for (Color c : {RED, BLACK}) {
        const std::string line = seat_notice(lang_, tb.seats[c], now);
        if (!line.empty()) ImGui::TextColored(ImVec4(0.8f, 0.35f, 0.0f, 1), "%s", line.c_str());
    }
    // "Keep waiting" closed the question; the win can still be claimed from here.
    if (tb.claim_possible && !tb.claim_open) {
        if (ImGui::Button(t(Str::ClaimWin))) {
            session_.claim_win();
            send_outbox();
        }
    }
}

void App::ui_ai_request(const Layout& L, Color empty) {
    // The built-in AI, or one of the host's engines when it offers any.
    const std::vector<std::string>& engines = state_.engines;
    ai_engine_ = std::clamp(ai_engine_, 0, int(engines.size()));
    if (!engines.empty()) {
        const std::string current = ai_engine_ == 0 ? t(Str::BuiltinAi) : engines[std::size_t(ai_engine_ - 1)];
        ImGui::SetNextItemWidth(L.panel_w * 0.5f);
        if (ImGui::BeginCombo(t(Str::Engine), current.c_str())) {
            if (ImGui::Selectable(t(Str::BuiltinAi), ai_engine_ == 0)) ai_engine_ = 0;
            for (int i = 0; i < int(engines.size()); ++i)
                if (ImGui::Selectable(engines[std::size_t(i)].c_str(), ai_engine_ == i + 1)) ai_engine_ = i + 1;
            ImGui::EndCombo();
        }
    }
    ImGui::SetNextItemWidth(L.panel_w * 0.32f);
    if (ImGui::InputInt(t(Str::AiLevel), &ai_level_)) ai_level_ = std::clamp(ai_level_, 1, 10);
    // The built-in level's rating sits between the level and the button when both fit on the
    // line, else on a line of its own below (narrow windows, longer Chinese labels).
    const std::string rating = ai_engine_ == 0 ? ai_rating_text(lang_, state_.ai_ratings, ai_level_) : std::string();
    const std::string ask = t(Str::AskAiSeat, {t(empty == RED ? Str::Red : Str::Black)});
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::SameLine();
    const float needed = ImGui::CalcTextSize(rating.c_str()).x + style.ItemSpacing.x +
                         ImGui::CalcTextSize(ask.c_str()).x + 2 * style.FramePadding.x;
    const bool rating_inline = !rating.empty() && ImGui::GetContentRegionAvail().x >= needed;
    if (rating_inline) {
        ImGui::TextDisabled("%s", rating.c_str());
        ImGui::SameLine();
    }
    if (ImGui::Button(ask.c_str())) {
        session_.request_ai(empty, ai_level_, ai_engine_ == 0 ? std::string() : engines[std::size_t(ai_engine_ - 1)]);
        send_outbox();
    }
    if (!rating.empty() && !rating_inline) ImGui::TextDisabled("%s", rating.c_str());
}

void App::send_create_table(const std::string& name, CreateSeat seat, bool with_rules) {
    const proto::Role as = seat == CreateSeat::Red ? proto::Role::Red : seat == CreateSeat::Black ? proto::Role::Black : proto::Role::Spectator;
    const TableRules rules = create_form_.rules();
    session_.create_table(name, as, with_rules ? &rules : nullptr, with_rules ? create_form_.start_fen() : std::string());
    send_outbox();
    create_sent_ = true;
    create_error_ = nullptr;
}

void App::ui_create_table() {
    if (!create_open_ || screen_ != Screen::Lobby) return;
    CreateTableForm& f = create_form_;
    const sf::Vector2u size = window_.getSize();
    center_next_window(float(size.x) / 2, float(size.y) / 2);
    ImGui::SetNextWindowSizeConstraints(ImVec2(420, 0), ImVec2(float(size.x) - 40, float(size.y) - 40));
    ImGui::Begin("##create", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::CreateTable));
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::SetNextItemWidth(300);
    ImGui::InputTextWithHint("##tname", t(Str::TableName), &f.name);

    section(t(Str::TimeControl));
    int kind = int(f.clock_kind);
    bool kind_changed = ImGui::RadioButton(t(Str::NoClock), &kind, int(ClockSpec::Kind::None));
    kind_changed |= ImGui::RadioButton(t(Str::ClockKindFischer), &kind, int(ClockSpec::Kind::Fischer));
    kind_changed |= ImGui::RadioButton(t(Str::ClockKindAsian), &kind, int(ClockSpec::Kind::Asian));
    if (kind_changed && kind != int(f.clock_kind)) {
        f.clock_kind = ClockSpec::Kind(kind);
        f.preset = f.clock_kind == ClockSpec::Kind::Fischer ? 2 : 1;  // 10+5, or 10 min/60 s/30 s
    }
    if (f.clock_kind != ClockSpec::Kind::None) {
        const auto presets = f.presets();
        const std::string current = f.custom() ? t(Str::Custom) : clock_words(lang_, presets[std::size_t(f.preset)].spec);
        ImGui::SetNextItemWidth(300);
        if (ImGui::BeginCombo(t(Str::Preset), current.c_str())) {
            for (int i = 0; i < int(presets.size()); ++i)
                if (ImGui::Selectable(clock_words(lang_, presets[std::size_t(i)].spec).c_str(), i == f.preset)) f.preset = i;
            if (ImGui::Selectable(t(Str::Custom), f.custom())) {
                // Start the custom entry from the preset that was chosen.
                const ClockSpec c = f.clock();
                f.custom_base_min = c.base_s / 60;
                if (c.kind == ClockSpec::Kind::Fischer) f.custom_increment_s = c.increment_s;
                else {
                    f.custom_move_limit_s = c.move_limit_s;
                    f.custom_countdown_s = c.countdown_s;
                }
                f.preset = int(presets.size());
            }
            ImGui::EndCombo();
        }
        if (f.custom()) {
            ImGui::SetNextItemWidth(140);
            ImGui::InputInt(t(Str::BaseMinutes), &f.custom_base_min);
            if (f.clock_kind == ClockSpec::Kind::Fischer) {
                ImGui::SetNextItemWidth(140);
                ImGui::InputInt(t(Str::Increment), &f.custom_increment_s);
            } else {
                ImGui::SetNextItemWidth(140);
                ImGui::InputInt(t(Str::MoveLimitSeconds), &f.custom_move_limit_s);
                ImGui::SetNextItemWidth(140);
                ImGui::InputInt(t(Str::CountdownSeconds), &f.custom_countdown_s);
            }
            ImGui::TextDisabled("%s", clock_words(lang_, f.clock()).c_str());
        }
    }

    section(t(Str::RulesOptions));
    ImGui::SetNextItemWidth(140);
    ImGui::InputInt(t(Str::GraceSeconds), &f.grace_s, 10, 60);
    ImGui::TextUnformatted(t(Str::WhenNoReturn));
    int abandon = int(f.abandon);
    ImGui::RadioButton(t(Str::AbandonClaim), &abandon, int(AbandonRule::Claim));
    ImGui::RadioButton(t(Str::AbandonAi), &abandon, int(AbandonRule::Ai));
    f.abandon = AbandonRule(abandon);
    if (f.abandon == AbandonRule::Ai) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(120);
        ImGui::SliderInt(t(Str::Level), &f.hold_level, 1, 10);
    }
    ImGui::Checkbox(t(Str::TakebacksAllowed), &f.takebacks);
    ImGui::Checkbox(t(Str::HintsAllowed), &f.hints);

    section(t(Str::Handicap));
    const auto all_handicaps = handicaps();
    f.handicap = std::clamp(f.handicap, 0, int(all_handicaps.size()) - 1);
    ImGui::SetNextItemWidth(300);
    if (ImGui::BeginCombo("##handicap", t(all_handicaps[std::size_t(f.handicap)].name))) {
        for (int i = 0; i < int(all_handicaps.size()); ++i)
            if (ImGui::Selectable(t(all_handicaps[std::size_t(i)].name), i == f.handicap)) f.handicap = i;
        ImGui::EndCombo();
    }
    ImGui::TextDisabled("%s", t(all_handicaps[std::size_t(f.handicap)].detail));

    section(t(Str::StartAs));
    int seat = int(f.seat);
    ImGui::RadioButton(t(Str::Red), &seat, int(CreateSeat::Red));
    ImGui::SameLine();
    ImGui::RadioButton(t(Str::Black), &seat, int(CreateSeat::Black));
    ImGui::SameLine();
    ImGui::RadioButton(t(Str::Spectate), &seat, int(CreateSeat::Spectator));
    f.seat = CreateSeat(seat);

    ImGui::Spacing();
    const auto problem = f.problem();
    if (problem) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", t(*problem));
    if (create_error_) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.1f, 0.1f, 1));
        ImGui::TextWrapped("%s", create_error_(lang_).c_str());
        ImGui::PopStyleColor();
    }
    const bool blocked = problem.has_value() || create_sent_;
    if (blocked) ImGui::BeginDisabled();
    if (ImGui::Button(t(Str::Create), ImVec2(120, 0))) send_create_table(f.name, f.seat, true);
    if (blocked) ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Cancel), ImVec2(120, 0))) {
        create_open_ = create_sent_ = false;
        create_error_ = nullptr;
    }
    ImGui::End();
}

void App::open_review_from_table() {
    review_title_ = t(Str::Table, {std::to_string(state_.table.id)});
    review_game_ = state_.table.board.game();
    review_moves_ = state_.table.moves;
    review_branch_ply_ = -1;
    review_record_ = table_record();
    review_flipped_ = state_.table.board.flipped();
    review_return_ = Screen::Table;
    review_game_id_ = 0;
    set_review_ply(int(review_moves_.size()));
    screen_ = Screen::Review;
}

bool App::review_analysed() const {
    return AnalysisPanel::of_game(state_.analysis, review_branch_ply_ < 0 ? review_game_id_ : 0,
                                  review_game_.start_position(), review_moves_);
}

void App::set_review_ply(int ply) {
    review_ply_ = std::clamp(ply, 0, int(review_moves_.size()));
    review_pos_ = review_game_.start_position();
    for (int i = 0; i < review_ply_; ++i) {
        UndoInfo u;
        review_pos_.do_move(review_moves_[std::size_t(i)].move, u);
    }
    dirty_frames_ = 3;
}

void App::ui_review() {
    const Layout L = layout();
    const float H = float(window_.getSize().y);
    ImGui::SetNextWindowPos(ImVec2(L.panel_x, 0));
    ImGui::SetNextWindowSize(ImVec2(L.panel_w, H));
    ImGui::Begin("review", nullptr, PANEL_FLAGS);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::ReviewTitle));
    if (gui_.big_font()) ImGui::PopFont();
    ui_export_button(review_record_, review_pos_);
    if (!review_title_.empty()) ImGui::TextWrapped("%s", review_title_.c_str());
    // The game's result (also of an imported game: its Result tag).
    if (review_record_.outcome != Outcome::Ongoing)
        ImGui::TextWrapped("%s", result_words(lang_, review_record_.outcome, review_record_.reason).c_str());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(review_ply_ == 0 ? t(Str::Start) : t(Str::Ply, {std::to_string(review_ply_)}).c_str());
    {
        // Flip at the right end of the ply line (F does the same).
        const float fw = ImGui::CalcTextSize(t(Str::Flip)).x + 2 * ImGui::GetStyle().FramePadding.x;
        ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - fw);
        if (ImGui::Button(t(Str::Flip))) review_flipped_ = !review_flipped_;
    }
    const float bw = (ImGui::GetContentRegionAvail().x - 3 * ImGui::GetStyle().ItemSpacing.x) / 4;
    if (ImGui::Button(t(Str::First), ImVec2(bw, 0))) set_review_ply(0);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Prev), ImVec2(bw, 0))) set_review_ply(review_ply_ - 1);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Next), ImVec2(bw, 0))) set_review_ply(review_ply_ + 1);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Last), ImVec2(bw, 0))) set_review_ply(int(review_moves_.size()));
    // The keys' hint only where there is room: a short window keeps its lines for the tabs.
    if (H >= 600) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", t(Str::StepHint));
        ImGui::PopStyleColor();
    }
    int n = int(notation_);
    ImGui::RadioButton(t(Str::NotationChinese), &n, 0);
    ImGui::SameLine();
    ImGui::RadioButton("WXF", &n, 1);
    ImGui::SameLine();
    ImGui::RadioButton("ICCS", &n, 2);
    notation_ = MoveNotation(n);
    const AnalysisPanel::View view{lang_, notation_, &review_game_.start_position(), &review_moves_, review_ply_,
                                   review_game_id_, review_analysed(), &state_.analysis,
                                   state_.connection == Connection::Ready};
    analysis_panel_.ui_opening(view);
    // The move list and the analysis share the space above the import and Back rows.
    const float list_h = -ImGui::GetFrameHeightWithSpacing() * 4;
    analysis_tab_.reset();
    if (ImGui::BeginTabBar("rtabs")) {
        if (ImGui::BeginTabItem((std::string(t(Str::MoveList)) + "###rmovestab").c_str())) {
            ImGui::BeginChild("rmoves", ImVec2(0, list_h), true);
            ui_move_list(review_moves_, review_ply_, true);
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        const bool open = ImGui::BeginTabItem((std::string(AnalysisPanel::tab_label(lang_)) + "###ranalysistab").c_str());
        // A tab bar lays its tabs out a frame after it appears (before that the item's rectangle
        // is another item's): the tab is located once it stood at the same place two frames.
        const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
        const PointF at{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
        if (hi.x > lo.x && at.x == analysis_tab_before_.x && at.y == analysis_tab_before_.y) analysis_tab_ = at;
        analysis_tab_before_ = at;
        if (open) {
            ImGui::BeginChild("ranalysis", ImVec2(0, list_h), true);
            const AnalysisPanel::Answer panel = analysis_panel_.ui(view);
            ImGui::EndChild();
            ImGui::EndTabItem();
            if (panel.jump_to >= 0) set_review_ply(panel.jump_to);
            if (panel.ask == AnalysisPanel::Ask::Analyse) {
                // An archived game by its id; any other (a PGN file, a table's game) with its moves.
                if (review_game_id_ != 0 && review_branch_ply_ < 0) session_.analyse_game(review_game_id_);
                else {
                    std::vector<Move> moves;
                    for (const MoveEntry& m : review_moves_) moves.push_back(m.move);
                    session_.analyse_moves(review_game_.start_position(), moves);
                }
            }
            if (panel.ask == AnalysisPanel::Ask::Cancel) session_.cancel_analysis();
            if (panel.ask != AnalysisPanel::Ask::Nothing) send_outbox();
        } else {
            analysis_panel_.hidden();
        }
        ui_review_explorer(list_h);
        ImGui::EndTabBar();
    }
    ui_import_pgn();
    if (wide_button(t(Str::Back))) screen_ = review_return_;
    ImGui::End();
}

void App::ui_dialogs() {
    const Layout L = layout();
    const float cx = L.board_x + L.board_w / 2, cy = L.board_y + L.board_h / 2;
    TableState& tb = state_.table;
    if (chooser_.is_open()) {
        const sf::Vector2u size = window_.getSize();
        if (const auto path = chooser_.draw(lang_, float(size.x) / 2, float(size.y) / 2, float(size.x) - 16, float(size.y) - 16))
            chooser_done(*path);
    }

    if (screen_ == Screen::Table && tb.incoming_offer.kind != Offer::Kind::None) {
        center_next_window(cx, cy);
        ImGui::Begin("##offer", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        const Offer o = tb.incoming_offer;
        const Str what = o.kind == Offer::Kind::Draw ? Str::DrawOffered : o.kind == Offer::Kind::Takeback ? Str::TakebackRequested : Str::NewGameOffered;
        ImGui::TextUnformatted(t(what, {player_name(lang_, o.from)}).c_str());
        const bool yes = ImGui::Button(t(Str::Accept), ImVec2(110, 0));
        ImGui::SameLine();
        const bool no = ImGui::Button(t(Str::Decline), ImVec2(110, 0));
        if (yes || no) {
            if (o.kind == Offer::Kind::Draw) session_.answer_draw(yes);
            else if (o.kind == Offer::Kind::Takeback) session_.answer_takeback(yes);
            else if (yes) session_.new_game();
            tb.incoming_offer = {};
            send_outbox();
        }
        ImGui::End();
    }
    if (state_.lobby.invitation && (screen_ == Screen::Lobby || screen_ == Screen::Table)) {
        center_next_window(float(window_.getSize().x) / 2, cy);
        ImGui::Begin("##invite", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        const Invitation& inv = *state_.lobby.invitation;
        ImGui::TextUnformatted(t(Str::InviteFrom, {inv.from, std::to_string(inv.table)}).c_str());
        if (!inv.table_name.empty())
            ImGui::TextDisabled("%s", table_title(lang_, inv.table_name, inv.default_name ? inv.from : std::string()).c_str());
        const bool yes = ImGui::Button(t(Str::Accept), ImVec2(110, 0));
        ImGui::SameLine();
        const bool no = ImGui::Button(t(Str::Decline), ImVec2(110, 0));
        if (yes || no) {
            session_.answer_invite(yes);
            send_outbox();
        }
        ImGui::End();
    }
    ui_create_table();
    ui_archive();
    ui_endgames();
    tick_endgame();
    ui_tournaments();
    tick_tournaments();
    ui_editor();
    tick_editor();
    if (screen_ == Screen::Table && tb.claim_open) {
        // The opponent's seat was abandoned: take the win, or keep waiting for them.
        center_next_window(cx, cy);
        ImGui::Begin("##claim", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        std::string who;
        if (const auto me = tb.board.seat()) who = player_name(lang_, tb.seats[~*me].name);
        ImGui::TextUnformatted(t(Str::ClaimQuestion, {who}).c_str());
        if (ImGui::Button(t(Str::ClaimWin), ImVec2(150, 0))) {
            session_.claim_win();
            send_outbox();
        }
        ImGui::SameLine();
        if (ImGui::Button(t(Str::KeepWaiting), ImVec2(150, 0))) session_.keep_waiting();
        ImGui::End();
    }
    auto confirm = [&](bool& flag, const char* id, Str title, Str text) {
        if (!flag) return false;
        center_next_window(cx, cy);
        ImGui::Begin(id, nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
        ImGui::TextUnformatted(t(title));
        if (gui_.big_font()) ImGui::PopFont();
        ImGui::TextUnformatted(t(text));
        const bool yes = ImGui::Button(t(Str::Yes), ImVec2(110, 0));
        ImGui::SameLine();
        if (ImGui::Button(t(Str::No), ImVec2(110, 0)) || yes) flag = false;
        ImGui::End();
        return yes;
    };
    if (confirm(confirm_resign_, "##resign", Str::Resign, Str::ResignConfirm)) {
        session_.resign();
        send_outbox();
    }
    if (confirm(confirm_leave_, "##leave", Str::ConfirmQuitTitle, Str::ConfirmQuitText)) {
        session_.leave();
        send_outbox();
    }
    if (confirm(confirm_quit_, "##quit", Str::ConfirmQuitTitle, Str::ConfirmQuitText)) {
        running_ = false;
        window_.close();
    }
}

}  // namespace xq::client
