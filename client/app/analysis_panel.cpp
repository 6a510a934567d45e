#include "app/analysis_panel.h"

#include <SFML/Graphics/ConvexShape.hpp>
#include <SFML/Graphics/RectangleShape.hpp>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "book/opening_book.h"
#include "book/opening_names.h"
#include "book/starter_openings.h"
#include "core/move_text.h"

namespace xq::client {

namespace {

// The panels' own words (English, Chinese): they live with the panels rather than in the
// client's string table, which the client's own screens own.
enum class W {
    Opening, NoOpening, BookMoves, NotInBook, Plays, Analyse, Cancel, Analysing,
    Offline, Evaluation, RedSummary, BlackSummary, BestMove, Inaccuracy, Mistake, Blunder, Tab, Count
};
constexpr std::array<std::array<const char*, 2>, std::size_t(W::Count)> WORDS{{
    {"Opening:", "开局："},
    {"Opening: not named", "开局：未命名"},
    {"Book moves (starter lines):", "开局库着法（入门谱）："},
    {"No book move here", "此局面不在开局库中"},
    {"%d line(s)", "%d 条变化"},
    {"Analyse", "分析"},
    {"Cancel", "取消"},
    {"Analysing %d / %d", "分析中 %d / %d"},
    {"Connect to analyse", "连接服务器后可分析"},
    {"Evaluation (Red's side), click to jump:", "局面评估（红方视角），点击跳转："},
    {"Red: average loss %d, ?! %d, ? %d, ?? %d", "红方：平均损失 %d，缓着 %d，错着 %d，败着 %d"},
    {"Black: average loss %d, ?! %d, ? %d, ?? %d", "黑方：平均损失 %d，缓着 %d，错着 %d，败着 %d"},
    {"Best: %s (%s)", "最佳：%s（%s）"},
    {"inaccuracy ?!", "缓着 ?!"},
    {"mistake ?", "错着 ?"},
    {"blunder ??", "败着 ??"},
    {"Analysis", "棋局分析"},
}};

const char* w(Lang lang, W id) { return WORDS[std::size_t(id)][lang == Lang::Chinese ? 1 : 0]; }

// The starter collection as a book (counts only: its lines carry no results), built once.
const book::Book& starter_book() {
    static const book::Book b = [] {
        book::Book built;
        for (const auto& f : book::starter_openings()) book::add_pgn(built, f.pgn);
        return built;
    }();
    return b;
}

// The graph's height follows the room left in the panel (lines stay for the shown position,
// the summary and the book). Its scale, -1..1: cp / (|cp| + 400), so that a pawn or two
// shows clearly, made 1 at +-10 pawns and flat beyond (a mate sits at the edge).
constexpr float GRAPH_CAP_CP = 1000.f;
float graph_scale(int cp) {
    const float c = std::clamp(float(cp), -GRAPH_CAP_CP, GRAPH_CAP_CP);
    return c / (std::abs(c) + 400.f) * ((GRAPH_CAP_CP + 400.f) / GRAPH_CAP_CP);
}
constexpr float GRAPH_MIN_HEIGHT = 48.f;
constexpr float GRAPH_MAX_HEIGHT = 140.f;

std::string pawns(int cp) {
    char buf[32];
    if (std::abs(cp) >= 29000) std::snprintf(buf, sizeof buf, "%s#%d", cp > 0 ? "+" : "-", 30000 - std::abs(cp));
    else std::snprintf(buf, sizeof buf, "%+.2f", cp / 100.0);
    return buf;
}

ImU32 mark_colour(book::Mark m) {
    switch (m) {
    case book::Mark::Inaccuracy: return IM_COL32(240, 210, 60, 255);
    case book::Mark::Mistake: return IM_COL32(245, 140, 40, 255);
    case book::Mark::Blunder: return IM_COL32(235, 50, 50, 255);
    case book::Mark::None: break;
    }
    return 0;
}

// The same marks as words on the panel's light background: darker, to stay readable.
ImU32 mark_text_colour(book::Mark m) {
    switch (m) {
    case book::Mark::Inaccuracy: return IM_COL32(150, 115, 0, 255);
    case book::Mark::Mistake: return IM_COL32(195, 95, 0, 255);
    case book::Mark::Blunder: return IM_COL32(200, 30, 30, 255);
    case book::Mark::None: break;
    }
    return 0;
}

W mark_word(book::Mark m) {
    return m == book::Mark::Blunder ? W::Blunder : m == book::Mark::Mistake ? W::Mistake : W::Inaccuracy;
}

// The starter book's moves in the shown position (at most four), after a separator.
void book_moves(const Position& pos, Lang L, MoveNotation notation) {
    ImGui::Separator();
    const auto candidates = starter_book().candidates(pos);
    if (candidates.empty()) {
        ImGui::TextDisabled("%s", w(L, W::NotInBook));
        return;
    }
    ImGui::TextUnformatted(w(L, W::BookMoves));
    // One move a line, its count in a column after the longest move's text.
    std::vector<std::string> texts;
    float column = 0;
    for (std::size_t i = 0; i < candidates.size() && i < 4; ++i) {
        texts.push_back(describe_move(pos, candidates[i].move).text(notation));
        column = std::max(column, ImGui::CalcTextSize(texts.back().c_str()).x);
    }
    const float indent = ImGui::GetFontSize();
    for (std::size_t i = 0; i < texts.size(); ++i) {
        char count[48];
        std::snprintf(count, sizeof count, w(L, W::Plays), int(candidates[i].stats.plays));
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + indent);
        ImGui::TextUnformatted(texts[i].c_str());
        ImGui::SameLine(indent + column + 2 * indent);
        ImGui::TextUnformatted(count);
    }
}

}  // namespace

bool AnalysisPanel::of_game(const AnalysisState& a, std::int64_t game_id, const Position& start,
                            const std::vector<MoveEntry>& moves) {
    if (game_id != 0) return a.game_id == game_id;
    if (!a.given || a.moves.size() != moves.size() || a.start_fen != start.fen()) return false;
    return std::equal(moves.begin(), moves.end(), a.moves.begin(), [](const MoveEntry& e, Move m) { return e.move == m; });
}

Move AnalysisPanel::best_move(const AnalysisState& a, bool of_shown_game, int ply) {
    if (!of_shown_game || ply < 0 || std::size_t(ply) >= a.best.size()) return Move::none();
    return a.best[std::size_t(ply)];
}

std::optional<PointF> AnalysisPanel::graph_point(int ply) const {
    if (ply < 0 || std::size_t(ply) >= graph_points_.size()) return std::nullopt;
    return graph_points_[std::size_t(ply)];
}

book::Mark AnalysisPanel::mark_of_move(int ply) const {
    if (ply < 0 || std::size_t(ply) + 1 >= plies_.size() || !plies_[std::size_t(ply)].played) return book::Mark::None;
    return book::mark_of(plies_[std::size_t(ply)].loss_cp);
}

std::optional<book::PlayerSummary> AnalysisPanel::summary(Color side) const {
    if (plies_.empty()) return std::nullopt;
    return summary_[side];
}

void AnalysisPanel::hidden() {
    analyse_button_.reset();
    graph_points_.clear();
    plies_.clear();
}

const char* AnalysisPanel::tab_label(Lang lang) { return w(lang, W::Tab); }

void AnalysisPanel::ui_opening(const View& v) {
    std::vector<Move> played;
    for (int i = 0; i < v.ply && std::size_t(i) < v.moves->size(); ++i)
        played.push_back((*v.moves)[std::size_t(i)].move);
    if (const auto name = book::OpeningIndex::starter().classify(*v.start, played)) {
        std::string line = w(v.lang, W::Opening);
        line += ' ';
        line += v.lang == Lang::Chinese ? name->name : name->english;
        if (!name->ecco.empty()) line += "  ECCO " + name->ecco;
        ImGui::TextWrapped("%s", line.c_str());
    } else {
        ImGui::TextDisabled("%s", w(v.lang, W::NoOpening));
    }
}

AnalysisPanel::Answer AnalysisPanel::ui(const View& v) {
    Answer out;
    hidden();
    const Lang L = v.lang;
    const auto& moves = *v.moves;
    Position pos = *v.start;
    std::vector<Move> game;
    for (const MoveEntry& m : moves) game.push_back(m.move);
    for (int i = 0; i < v.ply && std::size_t(i) < game.size(); ++i) {
        UndoInfo u;
        pos.do_move(game[std::size_t(i)], u);
    }

    // The analysis (asked for, running, or here) comes first, so that a short window shows it
    // without scrolling; the book's moves follow.
    const AnalysisState& a = *v.analysis;
    const bool ours = v.analysed;
    if (ours && a.running) {
        char buf[96];
        std::snprintf(buf, sizeof buf, w(L, W::Analysing), a.done, a.total);
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(buf);
        ImGui::SameLine();
        if (ImGui::Button(w(L, W::Cancel))) out.ask = Ask::Cancel;
        book_moves(pos, L, v.notation);
        return out;
    }
    if (!ours || a.evals.empty()) {
        if (!v.connected) {
            ImGui::TextDisabled("%s", w(L, W::Offline));
        } else if (a.running) {
            // Another game's analysis runs (one at a time): its progress, and a way to stop it.
            char buf[96];
            std::snprintf(buf, sizeof buf, w(L, W::Analysing), a.done, a.total);
            ImGui::AlignTextToFramePadding();
            if (a.game_id != 0) ImGui::Text("#%lld %s", static_cast<long long>(a.game_id), buf);
            else ImGui::TextUnformatted(buf);
            ImGui::SameLine();
            if (ImGui::Button(w(L, W::Cancel))) out.ask = Ask::Cancel;
        } else {
            if (ImGui::Button(w(L, W::Analyse))) out.ask = Ask::Analyse;
            const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
            analyse_button_ = PointF{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
        }
        if (ours && !a.error.empty())
            ImGui::TextWrapped("%s", server_error_text(L, a.error_code, "analyse_game", a.error, a.error_detail).c_str());
        book_moves(pos, L, v.notation);
        return out;
    }

    plies_ = book::stored_analysis(*v.start, game, a.evals, a.best, a.losses);
    summary_ = book::summarise(plies_, v.start->side_to_move());
    const std::size_t n = plies_.size();

    // The evaluation graph: a click jumps to that position.
    ImGui::TextUnformatted(w(L, W::Evaluation));
    const float gw = std::max(ImGui::GetContentRegionAvail().x, 1.f);
    const float gh = std::clamp(ImGui::GetContentRegionAvail().y - 5 * ImGui::GetTextLineHeightWithSpacing(),
                                GRAPH_MIN_HEIGHT, GRAPH_MAX_HEIGHT);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("##evalgraph", ImVec2(gw, gh));
    const auto x_of = [&](std::size_t i) { return p0.x + (n > 1 ? gw * float(i) / float(n - 1) : gw / 2); };
    const auto y_of = [&](int cp) { return p0.y + gh / 2 - graph_scale(cp) * (gh / 2 - 2); };
    for (std::size_t i = 0; i < n; ++i) graph_points_.push_back({x_of(i), y_of(plies_[i].eval_cp)});
    if (ImGui::IsItemClicked() && n > 0) {
        const float f = (ImGui::GetIO().MousePos.x - p0.x) / gw;
        out.jump_to = std::clamp(int(std::lround(f * float(n - 1))), 0, int(n - 1));
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float mid = p0.y + gh / 2;
    dl->AddRectFilled(p0, ImVec2(p0.x + gw, p0.y + gh), IM_COL32(40, 40, 40, 255));
    // Red's advantage above the middle line in red, Black's below in grey; a segment that
    // crosses the middle is filled in two parts, split where it crosses.
    const auto fill = [&](ImVec2 a, ImVec2 b) {
        const bool red = a.y + b.y <= 2 * mid;
        dl->AddQuadFilled(ImVec2(a.x, mid), a, b, ImVec2(b.x, mid), red ? IM_COL32(190, 60, 50, 200) : IM_COL32(150, 150, 150, 200));
    };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const ImVec2 a(x_of(i), graph_points_[i].y), b(x_of(i + 1), graph_points_[i + 1].y);
        if ((a.y - mid) * (b.y - mid) < 0) {
            const ImVec2 cross(a.x + (b.x - a.x) * (mid - a.y) / (b.y - a.y), mid);
            fill(a, cross);
            fill(cross, b);
        } else {
            fill(a, b);
        }
        dl->AddLine(a, b, IM_COL32(250, 250, 250, 255), 1.5f);
    }
    dl->AddLine(ImVec2(p0.x, mid), ImVec2(p0.x + gw, mid), IM_COL32(120, 120, 120, 255));
    if (std::size_t(v.ply) < n) {
        const float x = x_of(std::size_t(v.ply));
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p0.y + gh), IM_COL32(90, 160, 250, 255), 2.f);
    }
    // A move's mark sits on the point of the position it led to.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const book::Mark m = mark_of_move(int(i));
        const PointF at = graph_points_[i + 1];
        if (m != book::Mark::None) dl->AddCircleFilled(ImVec2(at.x, at.y), 4.f, mark_colour(m));
    }
    // The shown position: its evaluation and best move, and the mark of the move that led here.
    if (std::size_t(v.ply) < n) {
        const book::PlyEval& here = plies_[std::size_t(v.ply)];
        std::string line = pawns(here.eval_cp);
        if (here.best) {
            char buf[160];
            std::snprintf(buf, sizeof buf, w(L, W::BestMove), describe_move(pos, here.best).text(v.notation).c_str(),
                          pawns(here.eval_cp).c_str());
            line = buf;
        }
        const book::Mark m = mark_of_move(v.ply - 1);
        ImGui::TextUnformatted(line.c_str());
        if (m != book::Mark::None) {
            ImGui::SameLine();
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(mark_text_colour(m)));
            ImGui::TextUnformatted(w(L, mark_word(m)));
            ImGui::PopStyleColor();
        }
    }
    for (Color side : {RED, BLACK}) {
        char buf[160];
        const book::PlayerSummary& s = summary_[side];
        std::snprintf(buf, sizeof buf, w(L, side == RED ? W::RedSummary : W::BlackSummary), s.average_loss_cp,
                      s.inaccuracies, s.mistakes, s.blunders);
        ImGui::TextWrapped("%s", buf);
    }
    book_moves(pos, L, v.notation);
    return out;
}

void AnalysisPanel::draw_arrow(sf::RenderTarget& target, const BoardGeometry& geo, Move m) {
    if (!m) return;
    const PointF a = geo.center(m.from()), b = geo.center(m.to());
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1) return;
    const float ux = dx / len, uy = dy / len;
    const float head = geo.cell * 0.45f, thick = geo.cell * 0.14f;
    const sf::Color colour(40, 150, 60, 190);
    sf::RectangleShape shaft(sf::Vector2f(std::max(len - head, 0.f), thick));
    shaft.setOrigin(0, thick / 2);
    shaft.setPosition(a.x, a.y);
    shaft.setRotation(std::atan2(dy, dx) * 180.f / 3.14159265f);
    shaft.setFillColor(colour);
    target.draw(shaft);
    sf::ConvexShape tip(3);
    const float bx = b.x - ux * head, by = b.y - uy * head;
    tip.setPoint(0, sf::Vector2f(b.x, b.y));
    tip.setPoint(1, sf::Vector2f(bx - uy * head * 0.6f, by + ux * head * 0.6f));
    tip.setPoint(2, sf::Vector2f(bx + uy * head * 0.6f, by - ux * head * 0.6f));
    tip.setFillColor(colour);
    target.draw(tip);
}

std::string AnalysisPanel::analysis_text() {
    std::string s;
    for (const auto& pair : WORDS) s.append(pair[0]).append(pair[1]);
    for (const auto& f : book::starter_openings()) s.append(f.pgn);
    return s;
}

}  // namespace xq::client
