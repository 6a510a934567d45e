// The director's tools at a board of their tournament (the pairings' "Arbiter..." button, under
// the pairings): pause and resume the clocks, add time to a side, adjudicate a result with a
// reason, cancel the game. Each sends the protocol's `arbiter` request (PROTOCOL.md, Arbiter);
// the form's problems are shown before sending, a refusal comes back as an error in words and
// the server's arbiter_action as a notice. Adjudicating and cancelling ask to be confirmed.
#include <imgui.h>

#include <algorithm>

#include "app/app.h"

namespace xq::client {

namespace {
const ImVec4 PROBLEM_COLOUR(0.8f, 0.1f, 0.1f, 1);
}  // namespace

bool App::tourney_radio(const std::string& control, const char* label, bool active) {
    ImGui::PushID(control.c_str());
    const bool clicked = ImGui::RadioButton(label, active);
    ImGui::PopID();
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    // The circle, at the left end of the item, is what a click must hit.
    const float r = (hi.y - lo.y) / 2;
    tourney_controls_[control] = PointF{lo.x + r, lo.y + r};
    tourney_drawn_ += std::string(active ? "(x) " : "( ) ") + label + "\n";
    return clicked;
}

void App::arbiter_act(const proto::TournamentBoard& b, proto::ArbiterKind action) {
    tourney_arbiter_.reason = tourney_reason_;
    tourney_arbiter_problem_ = arbiter_problem(action, tourney_arbiter_);
    if (tourney_arbiter_problem_ != Str::Ok) return;
    session_.arbiter(arbiter_request(b.table, action, tourney_arbiter_));
    send_outbox();
    tourney_confirm_.reset();
    if (action == proto::ArbiterKind::Adjudicate || action == proto::ArbiterKind::Cancel) tourney_reason_[0] = '\0';
}

void App::ui_tourney_arbiter(const proto::Tournament& tn) {
    const auto b = std::find_if(tn.boards.begin(), tn.boards.end(),
                                [&](const proto::TournamentBoard& x) { return x.board == tourney_arbiter_board_; });
    if (b == tn.boards.end() || b->table == 0 || b->result != proto::BoardResult::Pending) {
        tourney_arbiter_board_ = 0;  // the game is over (or the round moved on): nothing to act on
        tourney_confirm_.reset();
        return;
    }
    const std::string board = std::to_string(b->board);
    ImGui::Spacing();
    ImGui::Separator();
    tourney_text(t(Str::ArbiterPanelTitle, {board, entrant_name(lang_, tn, b->red), entrant_name(lang_, tn, b->black)}));
    ImGui::PushID("arbiter");
    using K = proto::ArbiterKind;
    if (board_paused(b->table)) {
        if (tourney_button("resume", t(Str::TourneyResume))) arbiter_act(*b, K::Resume);
    } else if (tourney_button("pause", t(Str::TourneyPause))) {
        arbiter_act(*b, K::Pause);
    }

    // Add time: to one side's main time (only where the boards have a clock).
    if (tn.settings.clock == "none" || tn.settings.clock.empty()) {
        tourney_text(t(Str::ArbiterNoClock), true);
    } else {
        if (tourney_radio("side red", t(Str::Red), tourney_arbiter_.side == RED)) tourney_arbiter_.side = RED;
        ImGui::SameLine();
        if (tourney_radio("side black", t(Str::Black), tourney_arbiter_.side == BLACK)) tourney_arbiter_.side = BLACK;
        ImGui::SameLine();
        ImGui::SetNextItemWidth(120);
        ImGui::InputInt(t(Str::ArbiterSeconds), &tourney_arbiter_.seconds, 10, 60);
        ImGui::SameLine();
        if (tourney_button("add time", t(Str::ArbiterAddTime))) arbiter_act(*b, K::AddTime);
    }

    // Adjudicate a result or cancel the game: both end it, so both are confirmed first.
    const Outcome results[] = {Outcome::RedWins, Outcome::Draw, Outcome::BlackWins};
    const Str result_words[] = {Str::RedWins, Str::DrawResult, Str::BlackWins};
    static const char* const RESULT_NAMES[] = {"result red", "result draw", "result black"};
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ImGui::SameLine();
        if (tourney_radio(RESULT_NAMES[i], t(result_words[i]), tourney_arbiter_.result == results[i]))
            tourney_arbiter_.result = results[i];
    }
    ImGui::SetNextItemWidth(std::min(360.f, ImGui::GetContentRegionAvail().x));
    ImGui::InputText(t(Str::ArbiterReason), tourney_reason_, sizeof tourney_reason_);
    if (tourney_button("adjudicate", t(Str::ArbiterAdjudicate))) {
        tourney_arbiter_.reason = tourney_reason_;
        tourney_arbiter_problem_ = arbiter_problem(K::Adjudicate, tourney_arbiter_);
        if (tourney_arbiter_problem_ == Str::Ok) tourney_confirm_ = K::Adjudicate;
    }
    ImGui::SameLine();
    if (tourney_button("cancel game", t(Str::ArbiterCancelGame))) {
        tourney_arbiter_problem_ = Str::Ok;
        tourney_confirm_ = K::Cancel;
    }
    if (tourney_confirm_) {
        const int r = tourney_arbiter_.result == Outcome::RedWins ? 0 : tourney_arbiter_.result == Outcome::Draw ? 1 : 2;
        ImGui::PushTextWrapPos(0);
        tourney_text(*tourney_confirm_ == K::Adjudicate
                         ? t(Str::ArbiterConfirmAdjudicate, {board, t(result_words[r]), tourney_reason_})
                         : t(Str::ArbiterConfirmCancel, {board}));
        ImGui::PopTextWrapPos();
        if (tourney_button("confirm", t(Str::Yes))) arbiter_act(*b, *tourney_confirm_);
        ImGui::SameLine();
        if (tourney_button("no", t(Str::No))) tourney_confirm_.reset();
    }
    if (tourney_arbiter_problem_ != Str::Ok) {
        ImGui::PushStyleColor(ImGuiCol_Text, PROBLEM_COLOUR);
        ImGui::PushTextWrapPos(0);
        tourney_text(t(tourney_arbiter_problem_));
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
    ImGui::PopID();
}

}  // namespace xq::client
