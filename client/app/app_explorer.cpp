// The opening explorer on the screens: a tab of the review (moves clicked are played on the
// review board) and a tab beside the spectators' move list (shown, not played); and the
// table's Hint button (the hint itself is an arrow on the board, app.cpp).
#include <imgui.h>

#include "app/app.h"
#include "core/move_text.h"

namespace xq::client {

namespace {

// A tab item that records where it stood once it stayed there two frames (a tab bar lays its
// tabs out a frame after they appear), for scripts and a real mouse.
bool located_tab(const std::string& label, std::optional<PointF>& at, PointF& before) {
    const bool open = ImGui::BeginTabItem(label.c_str());
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    const PointF p{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
    if (hi.x > lo.x && p.x == before.x && p.y == before.y) at = p;
    before = p;
    return open;
}

}  // namespace

bool App::ui_hint(bool playing, float width) {
    hint_button_.reset();
    const TableState& tb = state_.table;
    const auto me = tb.board.seat();
    // Against an AI seat always; between players where the table allows it (the server
    // refuses rated and tournament games anyway).
    if (!me || !(tb.rules.hints || tb.seats[~*me].ai)) return false;
    const bool can = playing && tb.board.position().side_to_move() == *me && !tb.hint_pending &&
                     state_.connection == Connection::Ready;
    std::string label = t(Str::HintButton);
    if (!tb.hint_move.empty() && tb.hint_ply == tb.board.ply()) {
        const Square f = square_from_string(std::string_view(tb.hint_move).substr(0, 2));
        const Square to = square_from_string(std::string_view(tb.hint_move).substr(2, 2));
        if (tb.hint_move.size() == 4 && f != SQ_NONE && to != SQ_NONE) {
            const auto words = pv_texts(tb.board.position(), {Move(f, to)}, notation_);
            // "Hint: 炮二平五", or the move alone where that does not fit the button.
            if (!words.empty()) label = t(Str::HintShown, {words[0]});
            if (!words.empty() && ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x > width)
                label = words[0];
        }
    } else if (tb.hint_pending) {
        label = t(Str::HintThinking);
    }
    if (!can) ImGui::BeginDisabled();
    if (ImGui::Button((label + "###hint").c_str(), ImVec2(width, 0))) {
        session_.request_hint();
        send_outbox();
    }
    if (!can) ImGui::EndDisabled();
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    hint_button_ = PointF{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", t(Str::HintTip));
    return true;
}

void App::ui_review_explorer(float height) {
    explorer_tab_.reset();
    if (!located_tab(std::string(t(Str::ExplorerTab)) + "###rexplorertab", explorer_tab_, explorer_tab_before_)) {
        explorer_panel_.hidden();
        return;
    }
    ImGui::BeginChild("rexplorer", ImVec2(0, height), true);
    if (review_branch_ply_ >= 0) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", t(Str::ExplorerVariation, {std::to_string(review_branch_ply_)}).c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton(t(Str::ExplorerBackToGame))) end_review_variation();
    }
    const ExplorerPanel::View view{lang_, notation_, &review_pos_, &state_.explorer,
                                   state_.connection == Connection::Ready, true};
    const ExplorerPanel::Answer a = explorer_panel_.ui(view);
    ImGui::EndChild();
    ImGui::EndTabItem();
    if (a.ask) {
        session_.explore(review_pos_);
        send_outbox();
    }
    if (a.play) review_play(a.play);
}

void App::ui_spectator_explorer(float height) {
    if (!ImGui::BeginTabItem((std::string(t(Str::ExplorerTab)) + "###sexplorertab").c_str())) return;
    ImGui::BeginChild("sexplorer", ImVec2(0, height), true);
    const Position& pos = state_.table.board.position();
    const ExplorerPanel::View view{lang_, notation_, &pos, &state_.explorer, state_.connection == Connection::Ready,
                                   false};
    const ExplorerPanel::Answer a = explorer_panel_.ui(view);
    ImGui::EndChild();
    ImGui::EndTabItem();
    if (a.ask) {
        session_.explore(pos);
        send_outbox();
    }
}

void App::review_play(Move m) {
    const std::size_t ply = std::size_t(review_ply_);
    if (ply < review_moves_.size() && review_moves_[ply].move == m) {
        set_review_ply(review_ply_ + 1);  // the game's own move: step on
        return;
    }
    if (review_branch_ply_ < 0) {
        review_set_aside_ = review_moves_;
        review_branch_ply_ = review_ply_;
    }
    review_moves_.resize(ply);
    review_moves_.push_back(describe_move(review_pos_, m));
    set_review_ply(review_ply_ + 1);
}

void App::end_review_variation() {
    if (review_branch_ply_ < 0) return;
    review_moves_ = std::move(review_set_aside_);
    review_set_aside_.clear();
    const int back = review_branch_ply_;
    review_branch_ply_ = -1;
    set_review_ply(back);
}

}  // namespace xq::client
