// The review screen: stepping through a game (from the table, the archive or a PGN file),
// its move list, the analysis and explorer tabs, and export.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/ui_common.h"

namespace xq::client {

using ui::PANEL_FLAGS;
using ui::wide_button;

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
    ui_notation_choice();
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

}  // namespace xq::client
