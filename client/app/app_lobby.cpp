// The lobby screen: the table list (seven columns, or one cell a table in narrow windows),
// the buttons that open the lobby's dialogs, the lobby chat, and the side panel of players,
// PGN import and settings.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/text_wrap.h"

namespace xq::client {

using ui::PANEL_FLAGS;
using ui::section;
using ui::status_label;

void App::ui_lobby() {
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    const float side_w = std::clamp(W * 0.28f, 220.f, 360.f);
    // Narrow windows (640x480, 1100x700): each table is one cell of name, seats and the rest
    // over three lines, its buttons stacked beside it, instead of eight squeezed columns.
    const bool narrow = W - side_w < lobby_wide_min_width();
    narrow_lobby_ = narrow;
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
    mark_in_sight("create_table");
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
    row_buttons_.clear();
    lobby_rows_.clear();
    lobby_cut_.clear();
    {
        const ImVec2 lo = ImGui::GetWindowPos(), hi = ImGui::GetWindowContentRegionMax();
        tables_rect_ = {lo.x, lo.y, lo.x + hi.x, lo.y + ImGui::GetWindowSize().y};
    }
    if (state_.lobby.tables.empty()) ImGui::TextDisabled("%s", t(Str::NoTables));
    else if (narrow) ui_lobby_tables_narrow();
    else ui_lobby_tables_wide();
    // The server lists a page of tables at a time (PROTOCOL.md, Lobby lists).
    if (const LobbyState& l = state_.lobby; l.tables_next < l.tables_total &&
        ImGui::SmallButton(t(Str::MoreTables, {std::to_string(l.tables_total - l.tables_next)}).c_str())) {
        session_.more_tables();
        send_outbox();
    }
    ImGui::EndChild();
    section(t(Str::LobbyChat));
    ui_chat(state_.lobby.chat, lobby_chat_, sizeof lobby_chat_, false);
    ImGui::End();

    ImGui::SetNextWindowPos(ImVec2(W - side_w, 0));
    ImGui::SetNextWindowSize(ImVec2(side_w, H));
    ImGui::Begin("people", nullptr, PANEL_FLAGS);
    ui::keyboard_scroll();
    section(t(Str::Players));
    // The list takes what the import and settings below it leave (as the last frame measured
    // them; at 640x480 a fixed share cut the Sound box), at least three lines.
    if (people_below_h_ <= 0) people_below_h_ = ImGui::GetFrameHeightWithSpacing() * 6;
    const float list_h = std::max(ImGui::GetContentRegionAvail().y - people_below_h_, ImGui::GetTextLineHeightWithSpacing() * 3 + 16);
    ImGui::BeginChild("users", ImVec2(0, list_h), true);
    for (const UserEntry& u : state_.lobby.users) {
        std::string name = user_label(lang_, u.name, u.rating);
        if (u.name == state_.my_name) name += std::string(" (") + t(Str::You) + ")";  // as on the plates
        if (u.table > 0) ImGui::Text("%s  · %s", name.c_str(), t(Str::Table, {std::to_string(u.table)}).c_str());
        else ImGui::TextUnformatted(name.c_str());
    }
    if (const LobbyState& l = state_.lobby; l.users_next < l.users_total &&
        ImGui::SmallButton(t(Str::MorePlayers, {std::to_string(l.users_total - l.users_next)}).c_str())) {
        session_.more_users();
        send_outbox();
    }
    ImGui::EndChild();
    const float below_from = ImGui::GetCursorPosY();
    ui_import_pgn();
    section(t(Str::Settings));
    ui_settings();
    people_below_h_ = ImGui::GetCursorPosY() - below_from;
    ImGui::End();
}

namespace {
// The fixed columns of the wide list; the stretching ones (name, seats, clock) share the rest.
struct WideColumns {
    float id, status, spectators, buttons;
};
WideColumns wide_columns(Lang lang, float buttons) {
    WideColumns c{ImGui::CalcTextSize("999").x, 0, 0, buttons};
    for (Str s : {Str::Status, Str::StatusWaiting, Str::StatusPlaying, Str::StatusFinished})
        c.status = std::max(c.status, ImGui::CalcTextSize(tr(lang, s)).x);
    c.spectators = std::max(ImGui::CalcTextSize(tr(lang, Str::Spectators)).x, ImGui::CalcTextSize("999").x);
    return c;
}
// The least the four stretching columns need together to say something in each.
constexpr float WIDE_STRETCH_MIN = 330;
}  // namespace

float App::lobby_wide_min_width() const {
    const WideColumns c = wide_columns(lang_, 3 * row_button_width() + 2 * ImGui::GetStyle().ItemSpacing.x);
    const ImGuiStyle& st = ImGui::GetStyle();
    // Each of the eight columns has its cell padding; the list its window padding.
    return c.id + c.status + c.spectators + c.buttons + WIDE_STRETCH_MIN + 8 * 2 * st.CellPadding.x +
           2 * st.WindowPadding.x + st.ScrollbarSize;
}

void App::lobby_cell_text(const std::string& text, bool disabled) {
    const float avail = std::max(0.f, ImGui::GetContentRegionAvail().x);
    const std::string shown = elide_text(text, avail, [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; });
    if (disabled) ImGui::TextDisabled("%s", shown.c_str());
    else ImGui::TextUnformatted(shown.c_str());
    if (shown != text && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.c_str());
    if (ImGui::GetItemRectSize().x > avail + 0.5f) lobby_cut_ += "\"" + shown + "\" wider than its cell; ";
    lobby_row_item();
}

void App::ui_lobby_tables_wide() {
    const WideColumns c = wide_columns(lang_, 3 * row_button_width() + 2 * ImGui::GetStyle().ItemSpacing.x);
    if (!ImGui::BeginTable("tbl", 8, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_PadOuterX))
        return;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, c.id);
    ImGui::TableSetupColumn(t(Str::TableName), ImGuiTableColumnFlags_WidthStretch, 3.f);
    ImGui::TableSetupColumn(t(Str::Status), ImGuiTableColumnFlags_WidthFixed, c.status);
    ImGui::TableSetupColumn(t(Str::Red), ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn(t(Str::Black), ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn(t(Str::TimeControl), ImGuiTableColumnFlags_WidthStretch, 2.f);
    ImGui::TableSetupColumn(t(Str::Spectators), ImGuiTableColumnFlags_WidthFixed, c.spectators);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, c.buttons);
    ImGui::TableHeadersRow();
    for (const TableSummary& tb : state_.lobby.tables) {
        ImGui::PushID(tb.id);
        lobby_row_start(tb.id);
        lobby_cell_text(table_title(lang_, tb.name, tb.default_of), false);
        ImGui::TableNextColumn();
        lobby_cell_text(status_label(lang_, tb.status), true);
        for (Color col : {RED, BLACK}) {
            ImGui::TableNextColumn();
            const SeatInfo& s = tb.seats[col];
            if (s.name.empty()) lobby_cell_text(t(Str::EmptySeat), true);
            else lobby_cell_text(seat_label(lang_, s, state_.my_name), false);
        }
        ImGui::TableNextColumn();
        // The clock in words with the table's marks after it; the rest of its rules on hover.
        std::string clock = clock_words(lang_, tb.rules.clock);
        if (!tb.rules.takebacks) clock.append(" · ").append(t(Str::NoTakebacks));
        if (tb.rules.hints) clock.append(" · ").append(t(Str::HintsMark));
        lobby_cell_text(clock, false);
        if (ImGui::IsItemHovered()) {
            const TableRules& r = tb.rules;
            std::string abandon = t(r.abandon == AbandonRule::Ai ? Str::AbandonAi : Str::AbandonClaim);
            if (r.abandon == AbandonRule::Ai) abandon += " (" + t(Str::AiName, {std::to_string(r.hold_level)}) + ")";
            ImGui::SetTooltip("%s\n%s: %d\n%s %s\n%s: %s", clock.c_str(), t(Str::GraceSeconds), r.grace_s, t(Str::WhenNoReturn),
                              abandon.c_str(), t(Str::TakebacksAllowed), t(r.takebacks ? Str::Yes : Str::No));
        }
        ImGui::TableNextColumn();
        lobby_cell_text(std::to_string(tb.spectators), false);
        ImGui::TableNextColumn();
        ui_row_buttons(tb, true);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

void App::ui_lobby_tables_narrow() {
    if (!ImGui::BeginTable("tbln", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_PadOuterX)) return;
    ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("999").x);
    ImGui::TableSetupColumn(t(Str::TableName), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthFixed, row_button_width());
    ImGui::TableHeadersRow();
    for (const TableSummary& tb : state_.lobby.tables) {
        ImGui::PushID(tb.id);
        lobby_row_start(tb.id);
        // Three lines beside the three button slots, each cut to the cell (whole on hover).
        lobby_cell_text(table_title(lang_, tb.name, tb.default_of), false);
        std::string seats;
        for (Color c : {RED, BLACK}) {
            const SeatInfo& s = tb.seats[c];
            seats.append(t(c == RED ? Str::Red : Str::Black)).append(" ");
            seats.append(s.name.empty() ? std::string(t(Str::EmptySeat)) : seat_label(lang_, s, state_.my_name));
            if (c == RED) seats.append(" · ");
        }
        lobby_cell_text(seats, false);
        std::string more = status_label(lang_, tb.status);
        more.append(" · ").append(clock_words(lang_, tb.rules.clock));
        more.append(" · ").append(t(Str::Watchers, {std::to_string(tb.spectators)}));
        if (!tb.rules.takebacks) more.append(" · ").append(t(Str::NoTakebacks));
        if (tb.rules.hints) more.append(" · ").append(t(Str::HintsMark));
        lobby_cell_text(more, true);
        ImGui::TableNextColumn();
        ui_row_buttons(tb, false);
        ImGui::PopID();
    }
    ImGui::EndTable();
}

float App::row_button_width() const {
    float w = 0;
    for (Str id : {Str::SitRed, Str::SitBlack, Str::Spectate})
        w = std::max(w, ImGui::CalcTextSize(t(id)).x + 2 * ImGui::GetStyle().FramePadding.x);
    return w;
}

void App::ui_row_buttons(const TableSummary& tb, bool one_line) {
    // Three slots of one width, always in the same places (side by side, or one a line
    // beside the table's three lines): a seat taken leaves its slot empty, so Watch never
    // moves under the pointer when a table fills.
    const float w = row_button_width();
    const struct {
        Str label;
        proto::Role role;
        bool shown;
        const char* name;
    } slots[] = {{Str::SitRed, proto::Role::Red, tb.seats[RED].name.empty(), "red"},
                 {Str::SitBlack, proto::Role::Black, tb.seats[BLACK].name.empty(), "black"},
                 {Str::Spectate, proto::Role::Spectator, true, "watch"}};
    bool first = true;
    for (const auto& sl : slots) {
        if (one_line && !first) ImGui::SameLine();
        first = false;
        if (!sl.shown) {
            ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight()));
            continue;
        }
        ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0));  // as SmallButton
        const bool clicked = ImGui::Button(t(sl.label), ImVec2(w, 0));
        ImGui::PopStyleVar();
        const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
        row_buttons_.push_back({tb.id, sl.name, lo.x, lo.y, hi.x, hi.y});
        lobby_row_item();
        if (clicked) {
            session_.join(tb.id, sl.role);
            send_outbox();
        }
    }
}

void App::lobby_row_start(int table) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float y = ImGui::GetCursorScreenPos().y;
    lobby_rows_.push_back({table, y, y});
    lobby_line_h_ = ImGui::GetTextLineHeight();
    lobby_spacing_ = ImGui::GetStyle().ItemSpacing.y;
    lobby_cell_text(std::to_string(table), false);
    ImGui::TableNextColumn();
}

void App::lobby_row_item() {
    if (!lobby_rows_.empty()) lobby_rows_.back().bottom = std::max(lobby_rows_.back().bottom, ImGui::GetItemRectMax().y);
}

std::string App::lobby_rows_problems() const {
    // One line a table in the wide list (its columns side by side), three in the narrow one
    // (name, seats, the rest), and no text wider than its cell.
    std::string out;
    const int want = narrow_lobby_ ? 3 : 1;
    for (const LobbyRow& r : lobby_rows_) {
        const int lines = int(std::lround((r.bottom - r.top + lobby_spacing_) / (lobby_line_h_ + lobby_spacing_)));
        if (lines != want) out += "table " + std::to_string(r.table) + ": " + std::to_string(lines) + " lines; ";
    }
    return out + lobby_cut_;
}

std::string App::row_buttons_problems() const {
    // Every button inside the list (not touching its right edge), all of one width, and each
    // kind in one column down the list.
    std::string out;
    std::map<std::string, float> column;
    for (const RowButton& b : row_buttons_) {
        const std::string at = "table " + std::to_string(b.table) + " " + b.slot;
        if (b.x1 > tables_rect_[2] - 2 || b.x0 < tables_rect_[0]) out += at + ": at the list's edge; ";
        if (std::abs((b.x1 - b.x0) - (row_buttons_[0].x1 - row_buttons_[0].x0)) > 0.5f) out += at + ": another width; ";
        // The narrow list stacks the three slots: one column for all.
        const std::string col = narrow_lobby_ ? std::string("all") : b.slot;
        if (const auto it = column.find(col); it != column.end() && std::abs(it->second - b.x0) > 0.5f)
            out += at + ": out of its column; ";
        column.emplace(col, b.x0);
    }
    return out;
}

}  // namespace xq::client
