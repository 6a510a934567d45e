// The position editor window (摆棋): a board drawn with Dear ImGui, a tray of the pieces
// still in each set, an eraser, the side to move, FEN paste and copy, and what the rules
// code says of the board at every step; a legal position is played against the AI or opened
// at a table for two players.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>

#include "app/app.h"
#include "app/board_view.h"
#include "app/ui_common.h"
#include "protocol/errors.h"

namespace xq::client {

namespace {

constexpr PieceType TRAY_TYPES[] = {KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN};

ImU32 piece_ink(Piece p) { return color_of(p) == RED ? IM_COL32(190, 30, 25, 255) : IM_COL32(30, 30, 30, 255); }

// One disc with its character at `c`.
void draw_disc(ImDrawList* dl, ImVec2 c, float r, Piece p, float alpha = 1.f) {
    const auto a = static_cast<int>(255 * alpha);
    dl->AddCircleFilled(c, r, IM_COL32(245, 228, 196, a), 32);
    dl->AddCircle(c, r, (piece_ink(p) & 0x00FFFFFF) | (ImU32(a) << 24), 32, 2.f);
    const char* glyph = piece_glyph(p);
    ImFont* font = ImGui::GetFont();
    const float size = r * 1.2f;
    const ImVec2 ts = font->CalcTextSizeA(size, 1e9f, 0, glyph);
    dl->AddText(font, size, ImVec2(c.x - ts.x / 2, c.y - ts.y / 2), (piece_ink(p) & 0x00FFFFFF) | (ImU32(a) << 24), glyph);
}

}  // namespace

std::string App::editor_reason(FenError e) const {
    // The words of the server's bad_fen detail for the same refusal, so the editor and a
    // refused create_table say the same thing in the language shown.
    return tr(lang_, error_detail_string("bad_fen", proto::fen_error_detail(e)));
}

void App::editor_apply(FenError e) {
    editor_message_ = e == FenError::None ? std::string() : editor_reason(e);
}

void App::editor_start_game(bool against_ai) {
    const auto pos = editor_.position();
    if (!pos || state_.connection != Connection::Ready || state_.table.joined()) return;
    const Color side = pos->side_to_move();
    const std::string name = t(Str::EditorTableName);
    session_.create_table(name, side == RED ? proto::Role::Red : proto::Role::Black, nullptr, editor_.fen());
    send_outbox();
    editor_ai_pending_ = against_ai;
    editor_ai_side_ = ~side;
    editor_open_ = false;
}

void App::tick_editor() {
    // After "Play against the AI": once seated at the new table, ask the AI for the other seat.
    if (!editor_ai_pending_ || !state_.table.joined() || state_.table.board.ply() != 0) return;
    if (state_.table.seats[editor_ai_side_].name.empty()) {
        session_.request_ai(editor_ai_side_, ai_level_);
        send_outbox();
    }
    editor_ai_pending_ = false;
}

void App::ui_editor() {
    if (!editor_open_ || screen_ != Screen::Lobby) return;
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    ImGui::SetNextWindowPos(ImVec2(W / 2, H / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(W - 20, H - 20), ImGuiCond_Always);
    ImGui::Begin("##editor", nullptr,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::EditorTitle));
    if (gui_.big_font()) ImGui::PopFont();

    // The board takes the left part: as large as fits beside a 260-pixel panel.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float panel_w = std::min(300.f, avail.x * 0.42f);
    const float cell = std::max(14.f, std::min((avail.x - panel_w - 24) / 9.f, (avail.y - 8) / 10.f));
    const float r = cell * 0.43f;
    ImGui::BeginChild("##eboard", ImVec2(cell * 9, cell * 10), false, ImGuiWindowFlags_NoScrollbar);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const bool flipped = editor_flipped_;
    auto point_pos = [&](Square s) {
        const int f = flipped ? 8 - file_of(s) : file_of(s);
        const int rk = flipped ? rank_of(s) : 9 - rank_of(s);
        return ImVec2(origin.x + cell * (f + 0.5f), origin.y + cell * (rk + 0.5f));
    };
    dl->AddRectFilled(origin, ImVec2(origin.x + cell * 9, origin.y + cell * 10), IM_COL32(222, 184, 135, 255));
    const ImU32 line = IM_COL32(90, 55, 25, 255);
    for (int rk = 0; rk < 10; ++rk)
        dl->AddLine(point_pos(make_square(0, rk)), point_pos(make_square(8, rk)), line, 1.2f);
    for (int f = 0; f < 9; ++f) {
        if (f == 0 || f == 8) {
            dl->AddLine(point_pos(make_square(f, 0)), point_pos(make_square(f, 9)), line, 1.2f);
        } else {
            dl->AddLine(point_pos(make_square(f, 0)), point_pos(make_square(f, 4)), line, 1.2f);
            dl->AddLine(point_pos(make_square(f, 5)), point_pos(make_square(f, 9)), line, 1.2f);
        }
    }
    for (int base : {0, 7}) {
        dl->AddLine(point_pos(make_square(3, base)), point_pos(make_square(5, base + 2)), line, 1.2f);
        dl->AddLine(point_pos(make_square(5, base)), point_pos(make_square(3, base + 2)), line, 1.2f);
    }
    // Input: a click places the tray's piece (or erases); a drag moves a piece on the board.
    ImGui::InvisibleButton("##epoints", ImVec2(cell * 9, cell * 10));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    auto square_at = [&](ImVec2 p) -> Square {
        const int f = int(std::floor((p.x - origin.x) / cell)), rk = int(std::floor((p.y - origin.y) / cell));
        if (f < 0 || f > 8 || rk < 0 || rk > 9) return SQ_NONE;
        return flipped ? make_square(8 - f, rk) : make_square(f, 9 - rk);
    };
    const Square hover = ImGui::IsItemHovered() ? square_at(mouse) : SQ_NONE;
    if (ImGui::IsItemActivated() && hover != SQ_NONE) editor_drag_from_ = hover;
    if (ImGui::IsItemDeactivated() && editor_drag_from_ != SQ_NONE) {
        const Square to = square_at(mouse);
        const Square from = editor_drag_from_;
        editor_drag_from_ = SQ_NONE;
        if (to != SQ_NONE && to != from && editor_.at(from) != NO_PIECE) {
            editor_apply(editor_.move(from, to));
        } else if (to == from) {
            if (editor_tool_ == NO_PIECE) {
                editor_.remove(from);
                editor_message_.clear();
            } else {
                editor_apply(editor_.place(editor_tool_, from));
            }
        }
    }
    for (int i = 0; i < SQ_NB; ++i) {
        const Square s = Square(i);
        const Piece p = editor_.at(s);
        if (p == NO_PIECE) continue;
        const bool dragging = editor_drag_from_ == s && ImGui::IsMouseDragging(ImGuiMouseButton_Left);
        draw_disc(dl, point_pos(s), r, p, dragging ? 0.35f : 1.f);
    }
    if (editor_drag_from_ != SQ_NONE && ImGui::IsMouseDragging(ImGuiMouseButton_Left) &&
        editor_.at(editor_drag_from_) != NO_PIECE)
        draw_disc(ImGui::GetForegroundDrawList(), mouse, r, editor_.at(editor_drag_from_));
    if (hover != SQ_NONE) dl->AddCircle(point_pos(hover), r + 2, IM_COL32(40, 120, 40, 200), 32, 2.f);
    ImGui::EndChild();

    ImGui::SameLine();
    ImGui::BeginChild("##epanel", ImVec2(0, 0), false);
    ui::keyboard_scroll();
    // Buttons share a row while they fit the panel, else the next one starts a new row.
    auto same_line_if_fits = [](const char* next) {
        const ImGuiStyle& st = ImGui::GetStyle();
        const float w = ImGui::CalcTextSize(next).x + 2 * st.FramePadding.x;
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <=
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
            ImGui::SameLine();
    };
    // The tray: each piece with how many of its set are not on the board yet.
    const float tray_r = 15.f;
    for (Color c : {RED, BLACK}) {
        for (PieceType pt : TRAY_TYPES) {
            const Piece p = make_piece(c, pt);
            ImGui::PushID(int(p));
            const ImVec2 at = ImGui::GetCursorScreenPos();
            if (ImGui::InvisibleButton("##tray", ImVec2(tray_r * 2 + 4, tray_r * 2 + 16))) editor_tool_ = p;
            ImDrawList* pdl = ImGui::GetWindowDrawList();
            const ImVec2 centre(at.x + tray_r + 2, at.y + tray_r + 2);
            if (editor_tool_ == p) pdl->AddCircleFilled(centre, tray_r + 3, IM_COL32(60, 150, 60, 200), 32);
            draw_disc(pdl, centre, tray_r, p, editor_.left_in_set(p) > 0 ? 1.f : 0.35f);
            const std::string left = std::to_string(editor_.left_in_set(p));
            pdl->AddText(ImVec2(centre.x - 4, at.y + tray_r * 2 + 2), IM_COL32(80, 60, 40, 255), left.c_str());
            ImGui::PopID();
            if (pt != PAWN) ImGui::SameLine(0, 2);
        }
    }
    ImGui::PushTextWrapPos(0);
    if (ImGui::RadioButton(t(Str::EditorEraser), editor_tool_ == NO_PIECE)) editor_tool_ = NO_PIECE;
    ImGui::TextDisabled("%s", t(Str::EditorHint));
    ImGui::PopTextWrapPos();

    ImGui::Separator();
    ImGui::TextUnformatted(t(Str::EditorSideToMove));
    int side = int(editor_.side_to_move());
    ImGui::SameLine();
    if (ImGui::RadioButton(t(Str::Red), &side, int(RED))) editor_.set_side_to_move(RED);
    ImGui::SameLine();
    if (ImGui::RadioButton(t(Str::Black), &side, int(BLACK))) editor_.set_side_to_move(BLACK);
    if (ImGui::Button(t(Str::EditorStart))) { editor_.set_start(); editor_message_.clear(); }
    same_line_if_fits(t(Str::EditorClear));
    if (ImGui::Button(t(Str::EditorClear))) { editor_.clear(); editor_message_.clear(); }
    same_line_if_fits(t(Str::Flip));
    if (ImGui::Button(t(Str::Flip))) editor_flipped_ = !editor_flipped_;

    ImGui::SetNextItemWidth(-1);
    ImGui::InputTextWithHint("##efen", "FEN", &editor_fen_input_);
    if (ImGui::Button(t(Str::EditorLoadFen))) editor_apply(editor_.load_fen(editor_fen_input_));
    same_line_if_fits(t(Str::EditorCopyFen));
    if (ImGui::Button(t(Str::EditorCopyFen))) {
        ImGui::SetClipboardText(editor_.fen().c_str());
        toast(Str::EditorFenCopied);
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", editor_.fen().c_str());
    if (!editor_message_.empty()) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", editor_message_.c_str());
    const FenError check = editor_.check();
    if (check == FenError::None)
        ImGui::TextColored(ImVec4(0.1f, 0.5f, 0.15f, 1), "%s", t(Str::EditorLegal));
    else
        ImGui::TextColored(ImVec4(0.7f, 0.35f, 0.05f, 1), "%s", editor_reason(check).c_str());
    ImGui::PopTextWrapPos();

    ImGui::Separator();
    const bool ready = check == FenError::None && state_.connection == Connection::Ready && !state_.table.joined();
    if (!ready) ImGui::BeginDisabled();
    ImGui::SetNextItemWidth(120);
    if (ImGui::InputInt(t(Str::AiLevel), &ai_level_)) ai_level_ = std::clamp(ai_level_, 1, 10);
    if (const std::string r = ai_rating_text(lang_, state_.ai_ratings, ai_level_); !r.empty()) {
        // Beside the level when it fits, else on its own line.
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(r.c_str()).x) ImGui::NewLine();
        ImGui::TextDisabled("%s", r.c_str());
    }
    if (ImGui::Button(t(Str::EditorPlayAi))) editor_start_game(true);
    if (ImGui::Button(t(Str::EditorOpenTable))) editor_start_game(false);
    if (!ready) ImGui::EndDisabled();
    ImGui::Spacing();
    if (ImGui::Button(t(Str::Close), ImVec2(120, 0))) editor_open_ = false;
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace xq::client
