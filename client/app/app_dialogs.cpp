// The dialogs drawn over the screens each frame: an opponent's offer, an invitation, the
// claim of an abandoned seat, the confirmations (resign, leave, quit), and the windows
// opened from the lobby (create table, archive, endgames, tournaments, editor).
#include <imgui.h>

#include <string>

#include "app/app.h"
#include "app/ui_common.h"

namespace xq::client {

using ui::center_next_window;
using ui::DIALOG_FLAGS;

void App::ui_dialogs() {
    const Layout L = layout();
    const float cx = L.board_x + L.board_w / 2, cy = L.board_y + L.board_h / 2;
    TableState& tb = state_.table;
    if (chooser_.is_open()) {
        const sf::Vector2u size = window_.getSize();
        if (const auto path = chooser_.draw(lang_, float(size.x) / 2, float(size.y) / 2, float(size.x) - 16, float(size.y) - 16))
            chooser_done(*path);
    }

    const auto item_centre = [] {
        return PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                      (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
    };
    offer_accept_.reset();
    offer_decline_.reset();
    offer_rect_ = {};
    if (screen_ == Screen::Table && tb.incoming_offer.kind != Offer::Kind::None) {
        // Under the result band while it is shown (a new-game request right after the end),
        // so the result stays readable; over the board's centre otherwise.
        const bool band = tb.result_shown && !tb.result_text.empty();
        center_next_window(cx, band ? L.board_y + L.board_h * 0.8f : cy);
        ImGui::Begin("##offer", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        offer_rect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y};
        const Offer o = tb.incoming_offer;
        const Str what = o.kind == Offer::Kind::Draw ? Str::DrawOffered : o.kind == Offer::Kind::Takeback ? Str::TakebackRequested : Str::NewGameOffered;
        ImGui::TextUnformatted(t(what, {player_name(lang_, o.from)}).c_str());
        const bool yes = ImGui::Button(t(Str::Accept), ImVec2(110, 0));
        offer_accept_ = item_centre();
        ImGui::SameLine();
        const bool no = ImGui::Button(t(Str::Decline), ImVec2(110, 0));
        offer_decline_ = item_centre();
        if (yes || no) {
            if (o.kind == Offer::Kind::Draw) session_.answer_draw(yes);
            else if (o.kind == Offer::Kind::Takeback) session_.answer_takeback(yes);
            else if (yes) session_.new_game();
            tb.incoming_offer = {};
            send_outbox();
        }
        ImGui::End();
    }
    // The newest invitation, in the lobby (at a table it waits: we could not join from there).
    invitation_accept_.reset();
    invitation_decline_.reset();
    invitation_shown_ = "none";
    if (const auto& invs = state_.lobby.invitations; !invs.empty() && screen_ == Screen::Lobby) {
        center_next_window(float(window_.getSize().x) / 2, cy);
        ImGui::Begin("##invite", nullptr, DIALOG_FLAGS | ImGuiWindowFlags_NoTitleBar);
        const Invitation& inv = invs.back();
        ImGui::TextUnformatted(t(Str::InviteFrom, {inv.from, std::to_string(inv.table)}).c_str());
        if (!inv.table_name.empty())
            ImGui::TextDisabled("%s", table_title(lang_, inv.table_name, inv.default_name ? inv.from : std::string()).c_str());
        invitation_shown_ = inv.from + " " + std::to_string(inv.table);
        if (invs.size() > 1) {
            ImGui::TextDisabled("%s", t(Str::MoreInvitations, {std::to_string(invs.size() - 1)}).c_str());
            invitation_shown_ += " (+" + std::to_string(invs.size() - 1) + ")";
        }
        const bool yes = ImGui::Button(t(Str::Accept), ImVec2(110, 0));
        invitation_accept_ = item_centre();
        ImGui::SameLine();
        const bool no = ImGui::Button(t(Str::Decline), ImVec2(110, 0));
        invitation_decline_ = item_centre();
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
        // Escape answers No, as it does in any dialog.
        const bool esc = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
        if (ImGui::Button(t(Str::No), ImVec2(110, 0)) || yes || esc) flag = false;
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
