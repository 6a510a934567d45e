#include "app/explorer_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "core/move_text.h"

namespace xq::client {

namespace {

// The bar's colours: won, drawn and lost by the side that played the move.
constexpr ImU32 WON = IM_COL32(70, 150, 70, 255);
constexpr ImU32 DRAWN = IM_COL32(160, 160, 160, 255);
constexpr ImU32 LOST = IM_COL32(200, 60, 50, 255);
constexpr ImU32 NONE = IM_COL32(215, 205, 190, 255);

// A won / drawn / lost bar of `w` x `h` at the cursor; the counts with a result set the
// shares (none: an empty bar).
void results_bar(const ExplorerCounts& c, float w, float h) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - h) / 2;
    if (c.wins + c.draws + c.losses == 0) {
        dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + w, y + h), NONE);
    } else {
        const float ww = w * float(c.win_pct()) / 100.f, dw = w * float(c.draw_pct()) / 100.f;
        dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + ww, y + h), WON);
        dl->AddRectFilled(ImVec2(p.x + ww, y), ImVec2(p.x + ww + dw, y + h), DRAWN);
        dl->AddRectFilled(ImVec2(p.x + ww + dw, y), ImVec2(p.x + w, y + h), LOST);
    }
    ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight()));
}

std::string count_text(int n) { return n > 0 ? std::to_string(n) : std::string("-"); }

}  // namespace

std::optional<PointF> ExplorerPanel::row_point(std::size_t i) const {
    if (i >= rows_.size()) return std::nullopt;
    return rows_[i];
}

ExplorerPanel::Answer ExplorerPanel::ui(const View& v) {
    Answer out;
    rows_.clear();
    const ExplorerState& e = *v.state;
    const std::string fen = v.pos->fen();
    if (!v.connected) {
        ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerOffline));
        return out;
    }
    if (!e.answered(fen)) {
        out.ask = e.asked != fen;
        ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerLoading));
        return out;
    }
    if (!e.error.empty()) {
        ImGui::PushTextWrapPos(0);
        if (e.error_code == "not_allowed") ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerClosed));
        else ImGui::TextDisabled("%s", e.error.c_str());
        ImGui::PopTextWrapPos();
        return out;
    }
    if (e.rows.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerEmpty));
        ImGui::PopTextWrapPos();
        return out;
    }
    // Columns: the move, its games, the bar, its book count.
    const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const float num_w = ImGui::CalcTextSize("00000").x;
    float move_w = ImGui::CalcTextSize(tr(v.lang, Str::ExplorerMove)).x;
    std::vector<std::string> texts;
    for (const ExplorerRow& r : e.rows) {
        texts.push_back(describe_move(*v.pos, r.move).text(v.notation));
        move_w = std::max(move_w, ImGui::CalcTextSize(texts.back().c_str()).x);
    }
    const float games_w = std::max(num_w, ImGui::CalcTextSize(tr(v.lang, Str::ExplorerGames)).x);
    const float games_x = move_w + gap * 2, bar_x = games_x + games_w + gap * 2;
    const float book_w = std::max(num_w, ImGui::CalcTextSize(tr(v.lang, Str::ExplorerBook)).x);
    const float bar_w = std::max(24.f, avail - bar_x - book_w - gap * 2);
    const float book_x = bar_x + bar_w + gap;
    const float x0 = ImGui::GetCursorPosX();
    ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerMove));
    ImGui::SameLine(x0 + games_x);
    ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerGames));
    ImGui::SameLine(x0 + bar_x);
    // The bar's heading in full where it fits above the bar (a narrow panel: the short one).
    const char* results = tr(v.lang, Str::ExplorerResults);
    if (ImGui::CalcTextSize(results).x > bar_w) results = tr(v.lang, Str::ExplorerResultsShort);
    ImGui::TextDisabled("%s", results);
    ImGui::SameLine(x0 + book_x);
    ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerBook));
    for (std::size_t i = 0; i < e.rows.size(); ++i) {
        const ExplorerRow& r = e.rows[i];
        ImGui::PushID(int(i));
        // ImGui's screen coordinates are the client window's (one viewport), as the tabs' are.
        const ImVec2 at = ImGui::GetCursorScreenPos();
        rows_.push_back(PointF{at.x + move_w / 2, at.y + ImGui::GetTextLineHeight() / 2});
        if (v.clickable) {
            if (ImGui::Selectable(texts[i].c_str(), false)) out.play = r.move;
        } else {
            ImGui::TextUnformatted(texts[i].c_str());
        }
        // The bar shows the archive's results, or the book's when the archive has none.
        const ExplorerCounts& shown = r.games.plays > 0 ? r.games : r.book;
        const bool hovered = ImGui::IsItemHovered();
        ImGui::SameLine(x0 + games_x);
        ImGui::TextUnformatted(count_text(r.games.plays).c_str());
        ImGui::SameLine(x0 + bar_x);
        results_bar(shown, bar_w, ImGui::GetTextLineHeight() * 0.6f);
        if (hovered || ImGui::IsItemHovered()) {
            const int decided = shown.wins + shown.draws + shown.losses;
            if (decided == 0) ImGui::SetTooltip("%s", tr(v.lang, Str::ExplorerNoResult));
            else
                ImGui::SetTooltip("%s", tr(v.lang, Str::ExplorerTip,
                                           {std::to_string(decided), std::to_string(shown.win_pct()),
                                            std::to_string(shown.draw_pct()), std::to_string(shown.loss_pct())})
                                            .c_str());
        }
        ImGui::SameLine(x0 + book_x);
        ImGui::TextUnformatted(count_text(r.book.plays).c_str());
        ImGui::PopID();
    }
    if (e.more) ImGui::TextDisabled("%s", tr(v.lang, Str::ExplorerMore));
    return out;
}

}  // namespace xq::client
