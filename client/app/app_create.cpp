// The create-table dialog: the table's name, clock, rules, handicap and the seat to take,
// and the create_table request it sends.
#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <string>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/handicap.h"

namespace xq::client {

using ui::center_next_window;
using ui::DIALOG_FLAGS;
using ui::section;

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
    // The form scrolls (mouse wheel, Page Up/Down, arrows, Home, End) when the window is too
    // short for it (640x480), its size as the last frame measured it; Create and Cancel stay
    // in sight below it.
    const ImGuiStyle& st = ImGui::GetStyle();
    if (create_footer_h_ <= 0) create_footer_h_ = ImGui::GetFrameHeightWithSpacing() * 2;
    const float room_h = std::max(80.f, float(size.y) - 40 - 2 * st.WindowPadding.y - ImGui::GetCursorPosY() - create_footer_h_);
    const float form_w = create_form_size_.x > 0 ? std::min(create_form_size_.x + st.ScrollbarSize, float(size.x) - 40 - 2 * st.WindowPadding.x)
                                                 : 420.f;
    const float form_h = create_form_size_.y > 0 ? std::min(create_form_size_.y, room_h) : room_h;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0, 0, 0, 0));  // the dialog's own paper, not a panel's
    ImGui::BeginChild("##form", ImVec2(form_w, form_h), false);
    ImGui::PopStyleColor();
    ui::keyboard_scroll(true);
    in_sight_["create_form"] = PointF{ImGui::GetWindowPos().x + form_w / 2, ImGui::GetWindowPos().y + form_h / 2};
    create_form_at_ = ImGui::GetScrollMaxY() <= 0 ? "whole" : ImGui::GetScrollY() <= 0 ? "top" : ImGui::GetScrollY() >= ImGui::GetScrollMaxY() ? "end" : "middle";
    ImGui::SetNextItemWidth(300);
    ImGui::InputTextWithHint("##tname", t(Str::TableName), &f.name);

    section(t(Str::TimeControl));
    // First and chosen at the start: the server's default clock (no clock field sent).
    constexpr int SERVER_CLOCK = -1;
    int kind = f.server_clock ? SERVER_CLOCK : int(f.clock_kind);
    ImGui::RadioButton((std::string(t(Str::ServerDefault)) + "##clock").c_str(), &kind, SERVER_CLOCK);
    mark_in_sight("clock_default");
    bool kind_changed = ImGui::RadioButton(t(Str::NoClock), &kind, int(ClockSpec::Kind::None));
    mark_in_sight("clock_none");
    kind_changed |= ImGui::RadioButton(t(Str::ClockKindFischer), &kind, int(ClockSpec::Kind::Fischer));
    mark_in_sight("clock_fischer");
    kind_changed |= ImGui::RadioButton(t(Str::ClockKindAsian), &kind, int(ClockSpec::Kind::Asian));
    f.server_clock = kind == SERVER_CLOCK;
    if (kind_changed && !f.server_clock && kind != int(f.clock_kind)) {
        f.clock_kind = ClockSpec::Kind(kind);
        f.preset = f.clock_kind == ClockSpec::Kind::Fischer ? 2 : 1;  // 10+5, or 10 min/60 s/30 s
    }
    if (!f.server_clock && f.clock_kind != ClockSpec::Kind::None) {
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
    // The grace too is the server's (--seat-grace) until the box is cleared.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(t(Str::GraceSeconds));
    ImGui::SameLine();
    ImGui::Checkbox((std::string(t(Str::ServerDefault)) + "##grace").c_str(), &f.server_grace);
    mark_in_sight("grace_default");
    if (!f.server_grace) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(140);
        ImGui::InputInt("##grace_s", &f.grace_s, 10, 60);
    }
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
    ImGui::SetNextItemWidth(std::min(420.0f, ImGui::GetContentRegionAvail().x));
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
    mark_in_sight("seat_watch");
    f.seat = CreateSeat(seat);
    {
        // The form's natural size, for the next frame (the content's extent, not the child's).
        const ImGuiWindow* w = ImGui::GetCurrentWindow();
        create_form_size_ = ImVec2(w->DC.CursorMaxPos.x - w->DC.CursorStartPos.x, w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y);
    }
    ImGui::EndChild();

    const float footer_from = ImGui::GetCursorPosY();
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
    mark_in_sight("create_button");
    if (blocked) ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Cancel), ImVec2(120, 0))) {
        create_open_ = create_sent_ = false;
        create_error_ = nullptr;
    }
    mark_in_sight("create_cancel");
    create_footer_h_ = ImGui::GetCursorPosY() - footer_from;
    ImGui::End();
}

}  // namespace xq::client
