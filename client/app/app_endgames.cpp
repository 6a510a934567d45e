// The Endgames window (残局练习): the collection with the player's progress, and the
// challenge being played: a table from the challenge's position, the player on the side to
// move, the full-strength AI on the other seat, and the result recorded in client.conf.
#include <imgui.h>

#include <algorithm>
#include <iostream>

#include "app/app.h"
#include "core/endgame_play.h"

namespace xq::client {

namespace {
constexpr int ENDGAME_AI_LEVEL = 10;  // the defence is the full-strength AI
}

void App::load_endgame_progress() {
    if (config_file_.empty()) return;
    std::vector<std::string> problems;
    endgame_progress_ = load_config_file(config_file_, problems).endgames;
}

void App::save_endgame_progress(const std::string& id, bool tried, bool solved) {
    auto& p = endgame_progress_[id];
    if (tried) ++p.tried;
    if (solved) p.solved = true;
    if (config_file_.empty()) return;
    std::string error;
    const ClientConfig::EndgameProgress mine = p;
    // Another client sharing the folder may have written meanwhile: change only this entry.
    if (!update_config_file(config_file_, [&](ClientConfig& c) { c.endgames[id] = mine; }, error))
        std::cerr << "xiangqi-client: cannot save the endgame progress: " << error << "\n";
}

bool App::start_endgame(const std::string& id) {
    const endgames::Challenge* c = endgames::find_challenge(id);
    if (!c || state_.connection != Connection::Ready || state_.table.joined()) return false;
    const Color side = c->side_to_move;
    session_.create_table(tr(lang_, Str::EndgameTableName, {c->id}),
                          side == RED ? proto::Role::Red : proto::Role::Black, nullptr, c->fen);
    send_outbox();
    endgame_pending_ = id;
    endgame_active_.clear();
    endgames_open_ = false;
    save_endgame_progress(id, true, false);
    return true;
}

void App::tick_endgame() {
    const TableState& tb = state_.table;
    if (!endgame_pending_.empty() && tb.joined()) {
        // The table the challenge created: seated on its side to move at its first ply.
        const endgames::Challenge* c = endgames::find_challenge(endgame_pending_);
        if (c && tb.board.seat() == c->side_to_move && tb.board.ply() == 0) {
            endgame_active_ = endgame_pending_;
            endgame_table_ = tb.id;
            endgame_ai_asked_ = endgame_done_ = false;
        }
        endgame_pending_.clear();
    }
    if (endgame_active_.empty()) return;
    if (!tb.joined() || tb.id != endgame_table_) {
        endgame_active_.clear();  // left the table
        return;
    }
    const endgames::Challenge* c = endgames::find_challenge(endgame_active_);
    if (!c) return;
    const Color side = c->side_to_move;
    if (!endgame_ai_asked_ && tb.seats[~side].name.empty()) {
        session_.request_ai(~side, ENDGAME_AI_LEVEL);
        send_outbox();
        endgame_ai_asked_ = true;
    }
    if (!endgame_done_ && tb.outcome != Outcome::Ongoing) {
        endgame_done_ = true;
        const bool solved = endgame_solved(c->verdict, side, tb.outcome);
        if (solved) save_endgame_progress(c->id, false, true);
        toast(solved ? Str::EndgameSolvedToast : Str::EndgameNotSolvedToast);
    }
}

void App::ui_endgame_goal() {
    if (endgame_active_.empty() || state_.table.id != endgame_table_) return;
    const endgames::Challenge* c = endgames::find_challenge(endgame_active_);
    if (!c) return;
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(0.55f, 0.3f, 0.05f, 1), "%s: %s", endgame_name(lang_, *c).c_str(),
                       endgame_goal(lang_, *c).c_str());
    ImGui::PopTextWrapPos();
}

void App::ui_endgames() {
    if (!endgames_open_ || screen_ != Screen::Lobby) return;
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    ImGui::SetNextWindowPos(ImVec2(W / 2, H / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(W - 40, 760.f), std::min(H - 40, 560.f)), ImGuiCond_Always);
    ImGui::Begin("##endgames", nullptr,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::EndgamesTitle));
    if (gui_.big_font()) ImGui::PopFont();
    const auto& all = endgames::challenges();
    const auto solved = std::count_if(all.begin(), all.end(), [&](const endgames::Challenge& c) {
        const auto it = endgame_progress_.find(c.id);
        return it != endgame_progress_.end() && it->second.solved;
    });
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", t(Str::EndgameProgress, {std::to_string(solved), std::to_string(all.size())}).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    ImGui::BeginChild("eglist", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 1.3f), false);
    const float play_w = ImGui::CalcTextSize(t(Str::EndgamePlay)).x + 2 * ImGui::GetStyle().FramePadding.x;
    for (const endgames::Challenge& c : all) {
        ImGui::PushID(c.id.c_str());
        const auto it = endgame_progress_.find(c.id);
        const int tried = it == endgame_progress_.end() ? 0 : it->second.tried;
        const bool done = it != endgame_progress_.end() && it->second.solved;
        ImGui::PushTextWrapPos(ImGui::GetContentRegionAvail().x - play_w - 12);
        ImGui::TextUnformatted(endgame_name(lang_, c).c_str());
        ImGui::TextDisabled("%s", endgame_goal(lang_, c).c_str());
        if (done || tried > 0) {
            std::string line = done ? std::string(t(Str::EndgameSolved)) : std::string();
            if (tried > 0) line += (line.empty() ? "" : " · ") + t(Str::EndgameTried, {std::to_string(tried)});
            ImGui::TextColored(done ? ImVec4(0.1f, 0.55f, 0.2f, 1) : ImVec4(0.6f, 0.45f, 0.1f, 1), "%s", line.c_str());
        }
        ImGui::PopTextWrapPos();
        ImGui::SameLine(ImGui::GetContentRegionAvail().x - play_w + ImGui::GetCursorStartPos().x);
        if (ImGui::Button(t(Str::EndgamePlay))) start_endgame(c.id);
        ImGui::Separator();
        ImGui::PopID();
    }
    ImGui::EndChild();
    if (ImGui::Button(t(Str::Close), ImVec2(120, 0))) endgames_open_ = false;
    ImGui::End();
}

}  // namespace xq::client
