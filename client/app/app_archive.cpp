// The game archive and game files: the archive list, review of an archived game, PGN import
// and export, the current table's game as a record, the clipboard and the file chooser.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/handicap.h"
#include "core/move_text.h"
#include "xiangqi/pgn.h"

namespace xq::client {

using ui::center_next_window;
using ui::DIALOG_FLAGS;
using ui::fit_text;
using ui::PANEL_FLAGS;
using ui::section;
using ui::status_label;
using ui::wide_button;

void App::open_archive() {
    archive_open_ = true;
    archive_error_ = nullptr;
    session_.list_games(archive_filter_);
    send_outbox();
}

void App::open_review_from_archive() {
    if (!state_.archive.opened) return;
    const ArchivedGame& a = *state_.archive.opened;
    review_game_ = a.game;
    review_moves_ = a.moves;
    review_branch_ply_ = -1;
    review_record_ = GameRecord{a.game.start_position(), {}, a.entry.result, a.entry.reason, player_name(lang_, a.entry.red),
                                player_name(lang_, a.entry.black), {}, state_.server_name, {}};
    for (const MoveEntry& m : a.moves) review_record_.moves.push_back(m.move);
    review_flipped_ = false;
    // Appended piece by piece (g++ 12 warns falsely on chains of operator+ here).
    review_title_.clear();
    review_title_.append("#").append(std::to_string(a.entry.id)).append(" ").append(player_name(lang_, a.entry.red));
    review_title_.append(" - ").append(player_name(lang_, a.entry.black));
    review_return_ = Screen::Lobby;
    review_game_id_ = a.entry.id;
    archive_open_ = false;
    set_review_ply(0);
    screen_ = Screen::Review;
}

void App::ui_archive() {
    if (!archive_open_ || screen_ != Screen::Lobby) return;
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    center_next_window(W / 2, H / 2);
    ImGui::SetNextWindowSize(ImVec2(std::min(W - 40, 820.f), std::min(H - 40, 560.f)), ImGuiCond_Always);
    ImGui::Begin("##archive", nullptr, (DIALOG_FLAGS & ~ImGuiWindowFlags_AlwaysAutoResize) | ImGuiWindowFlags_NoTitleBar);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::GameArchive));
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::SetNextItemWidth(300);
    const bool enter = ImGui::InputTextWithHint("##afilter", t(Str::ArchiveFilter), &archive_filter_,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::ArchiveSearch)) || enter) open_archive();
    ImGui::SameLine();
    if (state_.archive.loading) ImGui::TextDisabled("%s", t(Str::ArchiveLoading));
    if (archive_error_) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.1f, 0.1f, 1));
        ImGui::TextWrapped("%s", archive_error_(lang_).c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
    ImGui::BeginChild("agames", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 1.3f), false);
    const ArchiveState& a = state_.archive;
    if (a.games.empty() && !a.loading) ImGui::TextDisabled("%s", t(Str::ArchiveEmpty));
    else if (ImGui::BeginTable("agt", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, 44);
        ImGui::TableSetupColumn(t(Str::Red));
        ImGui::TableSetupColumn(t(Str::Black));
        ImGui::TableSetupColumn(t(Str::ArchiveColResult), ImGuiTableColumnFlags_WidthStretch, 1.6f);
        ImGui::TableSetupColumn(t(Str::ArchiveColPlies), ImGuiTableColumnFlags_WidthFixed, 60);
        ImGui::TableSetupColumn(t(Str::ArchiveColDate), ImGuiTableColumnFlags_WidthFixed, 140);
        ImGui::TableHeadersRow();
        for (const ArchiveEntry& e : a.games) {
            ImGui::PushID(int(e.id));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The whole row picks the game: it opens in the review screen when it arrives.
            if (ImGui::Selectable(std::to_string(e.id).c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
                archive_error_ = nullptr;
                session_.get_game(e.id);
                send_outbox();
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(user_label(lang_, player_name(lang_, e.red), e.red_rating).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(user_label(lang_, player_name(lang_, e.black), e.black_rating).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(archive_result_text(lang_, e).c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%d", e.plies);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(archive_date_text(e.started_ms).c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::EndChild();
    const bool no_older = !a.more || a.loading;  // read once: the click sets loading
    if (no_older) ImGui::BeginDisabled();
    if (ImGui::Button(t(Str::ArchiveOlder))) {
        session_.list_older_games();
        send_outbox();
    }
    if (no_older) ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Close), ImVec2(120, 0))) archive_open_ = false;
    ImGui::End();
}

bool App::import_pgn(const std::string& path, std::string& error) {
    // A PGN file of a single game is a few KiB; refuse anything absurd before reading it.
    constexpr std::uintmax_t MAX_PGN_FILE_BYTES = 4u << 20;
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
        error = path + ": " + ec.message();
        return false;
    }
    if (size > MAX_PGN_FILE_BYTES) {
        error = path + ": file too large";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(std::size_t(size), '\0');
    if (!in.read(text.data(), std::streamsize(size))) {
        error = path + ": cannot read";
        return false;
    }
    const PgnReadResult r = read_pgn(text);
    if (!r.ok) {
        error = "line " + std::to_string(r.line) + ": " + r.error;
        return false;
    }
    review_game_ = Game(r.game.start);
    review_game_id_ = 0;
    review_moves_ = describe_moves(r.game.start, r.game.moves);
    review_branch_ply_ = -1;
    // Termination: the stable reason name this client writes (another program's words are
    // not shown: result_words() keeps only the outcome for a reason it does not know).
    review_record_ = GameRecord{r.game.start, r.game.moves, r.game.result, r.game.tag("Termination"), r.game.tag("Red"), r.game.tag("Black"),
                                r.game.tag("Event"), r.game.tag("Site"), r.game.tag("Date")};
    review_flipped_ = false;
    review_title_ = r.game.tag("Red") + " - " + r.game.tag("Black");
    if (const std::string ev = r.game.tag("Event"); !ev.empty() && ev != "?") review_title_ = ev + ": " + review_title_;
    review_return_ = screen_ == Screen::Review ? review_return_ : screen_;
    set_review_ply(0);
    screen_ = Screen::Review;
    return true;
}

void App::ui_import_pgn() {
    section(t(Str::ImportPgn));
    if (wide_button(t(Str::OpenPgn))) open_chooser(ChooserFor::OpenPgn);
}

float App::export_button_width() const {
    return ImGui::CalcTextSize(t(Str::ExportMenu)).x + 2 * ImGui::GetStyle().FramePadding.x;
}

void App::ui_export_button(const GameRecord& record, const Position& shown) {
    // At the right end of the heading's line: one button, the four actions in its menu.
    const float w = export_button_width();
    ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - w);
    if (ImGui::SmallButton(t(Str::ExportMenu))) ImGui::OpenPopup("export");
    if (ImGui::BeginPopup("export")) {
        if (ImGui::Selectable(t(Str::CopyFen))) copy_text(shown.fen(), Str::CopiedFen);
        if (ImGui::Selectable(t(Str::CopyPgn))) copy_text(record_pgn(record, notation_), Str::CopiedPgn);
        if (ImGui::Selectable(t(Str::SavePgn))) {
            export_record_ = record;
            open_chooser(ChooserFor::SavePgn, suggested_file_name(record, "pgn"));
        }
        if (ImGui::Selectable(t(Str::SaveFen))) {
            export_fen_ = shown.fen();
            open_chooser(ChooserFor::SaveFen, suggested_file_name(record, "fen"));
        }
        ImGui::EndPopup();
    }
}

GameRecord App::table_record() const {
    const TableState& tb = state_.table;
    GameRecord r;
    r.start = tb.board.game().start_position();
    r.moves = tb.board.game().moves();
    r.outcome = tb.outcome;
    r.reason = tb.result_reason;
    r.red = player_name(lang_, tb.seats[RED].name);
    r.black = player_name(lang_, tb.seats[BLACK].name);
    r.event = table_title(lang_, tb.name, tb.default_of);
    r.site = state_.server_name;
    r.date = pgn_date_today();
    return r;
}

void App::copy_text(const std::string& text, Str done) {
    ImGui::SetClipboardText(text.c_str());
    toast(done);
}

void App::open_chooser(ChooserFor what, std::string name) {
    chooser_for_ = what;
    chooser_.open(what == ChooserFor::OpenPgn ? FileChooser::Mode::Open : FileChooser::Mode::Save, last_folder_,
                  what == ChooserFor::SaveFen ? "fen" : "pgn", std::move(name));
}

void App::chooser_done(const std::filesystem::path& path) {
    last_folder_ = path.parent_path();
    std::string err;
    if (chooser_for_ == ChooserFor::OpenPgn) {
        if (!import_pgn(path.string(), err)) toast(Str::PgnLoadFailed, err);
        return;
    }
    const std::string text = chooser_for_ == ChooserFor::SavePgn          ? record_pgn(export_record_, notation_)
                             : chooser_for_ == ChooserFor::SaveTourneyPgn ? tourney_pgn_text_
                                                                          : export_fen_ + "\n";
    if (save_text_file(path, text, err)) toast(Str::SavedTo, path.string());
    else toast(Str::SaveFailed, err);
}

}  // namespace xq::client
