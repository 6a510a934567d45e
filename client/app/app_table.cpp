// The table screen's panel: whose move, the rules line, the game's buttons, the AI for an
// empty seat, invitations, the move list and the table chat (the move list and the chat are
// also the review's and the lobby's).
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/handicap.h"

namespace xq::client {

using ui::fit_text;
using ui::PANEL_FLAGS;
using ui::section;

namespace {
// Windows lower than this (640x480, 1300x480) leave out what a full table can do without.
constexpr float SHORT_WINDOW_H = 600.f;
}  // namespace

void App::ui_chat(std::deque<ChatLine>& lines, char* input, std::size_t input_size, bool table) {
    const float input_h = ImGui::GetFrameHeightWithSpacing();
    ImGui::BeginChild(table ? "tchat" : "lchat", ImVec2(0, -input_h), true);
    chat_room_lines_ = (ImGui::GetWindowSize().y - 2 * ImGui::GetStyle().WindowPadding.y) / ImGui::GetTextLineHeightWithSpacing();
    for (const ChatLine& c : lines) {
        if (c.notice) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.1f, 0.3f, 0.6f, 1));
            ImGui::TextWrapped("* %s", t(Str::ServerNotice, {c.shown_text}).c_str());
            ImGui::PopStyleColor();
            continue;
        }
        ImGui::TextColored(ImVec4(0.55f, 0.2f, 0.1f, 1), "%s:", c.shown_from.c_str());
        ImGui::SameLine();
        ImGui::TextWrapped("%s", c.shown_text.c_str());
    }
    if (scroll_chat_ || ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 4) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
    if (ui::send_field(table ? "##tmsg" : "##lmsg", input, input_size, t(Str::Send))) {
        if (table) session_.chat_table(input);
        else session_.chat_lobby(input);
        send_outbox();
        input[0] = '\0';
    }
}

void App::ui_move_list(const std::vector<MoveEntry>& moves, int highlight_ply, bool clickable) {
    if (!ImGui::BeginTable("moves", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) return;
    ImGui::TableSetupColumn("n", ImGuiTableColumnFlags_WidthFixed, 34);
    ImGui::TableSetupColumn("r");
    ImGui::TableSetupColumn("b");
    // The start position may have Black to move: then the first row's Red cell is empty.
    const Position& start =
        screen_ == Screen::Review ? review_game_.start_position() : state_.table.board.game().start_position();
    const bool black_first = !moves.empty() && start.side_to_move() == BLACK;
    const int offset = black_first ? 1 : 0;
    const int rows = (int(moves.size()) + offset + 1) / 2;
    for (int row = 0; row < rows; ++row) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("%d.", row + 1);
        for (int col = 0; col < 2; ++col) {
            ImGui::TableNextColumn();
            const int i = row * 2 + col - offset;
            if (i < 0 || i >= int(moves.size())) continue;
            const std::string& text = moves[std::size_t(i)].text(notation_);
            const bool current = i + 1 == highlight_ply;
            ImGui::PushID(i);
            if (clickable) {
                if (ImGui::Selectable(text.c_str(), current)) {
                    // From the table, a click opens the review at that move.
                    if (screen_ == Screen::Table) open_review_from_table();
                    set_review_ply(i + 1);
                }
            } else if (current) {
                ImGui::TextColored(col == 0 ? ImVec4(0.75f, 0.1f, 0.1f, 1) : ImVec4(0.1f, 0.1f, 0.1f, 1), "%s", text.c_str());
            } else {
                ImGui::TextUnformatted(text.c_str());
            }
            ImGui::PopID();
        }
    }
    if (scroll_moves_) {
        ImGui::SetScrollHereY(1.0f);
        scroll_moves_ = false;
    }
    ImGui::EndTable();
}

void App::ui_table() {
    const Layout L = layout();
    TableState& tb = state_.table;
    const float H = float(window_.getSize().y);
    ImGui::SetNextWindowPos(ImVec2(L.panel_x, 0));
    ImGui::SetNextWindowSize(ImVec2(L.panel_w, H));
    ImGui::Begin("table", nullptr, PANEL_FLAGS);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::Table, {std::to_string(tb.id)}).c_str());
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::SameLine();
    {
        const float room = ImGui::GetContentRegionAvail().x - export_button_width() - ImGui::GetStyle().ItemSpacing.x;
        ImGui::TextDisabled("%s", fit_text(table_title(lang_, tb.name, tb.default_of), room).c_str());
    }
    ui_export_button(table_record(), tb.board.position());

    // Whose move, in words.
    const BoardModel& bm = tb.board;
    Str status = Str::WaitingForOpponent;
    if (bm.game().over() || !tb.result_text.empty()) status = Str::GameOver;
    else if (!bm.seat()) status = Str::Spectating;
    else if (bm.in_progress()) status = bm.my_turn() ? Str::YourTurn : Str::TheirTurn;
    // A finished game shows its result in the place of "Game over" (one line less for the chat).
    if (!tb.result_text.empty()) ImGui::TextWrapped("%s", result_words(lang_, tb.outcome, tb.result_reason).c_str());
    else ImGui::TextColored(status == Str::YourTurn ? ImVec4(0.1f, 0.5f, 0.1f, 1) : ImVec4(0.3f, 0.3f, 0.3f, 1), "%s", t(status));
    if (bm.checked_king() != SQ_NONE && bm.in_progress()) {
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(0.85f, 0.1f, 0.1f, 1), "%s", t(Str::InCheck));
    }
    {
        std::string rules = t(Str::ClockSettings, {clock_words(lang_, tb.rules.clock)});
        if (!tb.rules.takebacks) rules += std::string(" · ") + t(Str::NoTakebacks);
        if (tb.rules.hints) rules += std::string(" · ") + t(Str::HintsMark);
        rules += std::string(" · ") + t(Str::Watchers, {std::to_string(tb.spectators)});
        // A handicap or set-up start is named, so a player who sits down knows what game it is.
        const Position& start = state_.table.board.game().start_position();
        if (start.key() != Position().key()) {
            const HandicapInfo* h = handicap_of(start);
            rules += std::string(" · ") + t(h ? h->name : Str::SetUpStart);
        }
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", rules.c_str());
        ImGui::PopStyleColor();
    }
    ui_endgame_goal();
    ui_seat_notices();
    ImGui::Separator();

    // Game actions.
    const bool seated = bm.seat().has_value();
    const bool playing = seated && bm.in_progress() && !bm.game().over();
    const bool over = bm.game().over() || !tb.result_text.empty();
    const bool can_new = seated && !playing && over;
    if (can_new) ui_after_game(tb);
    else if (seated && bm.in_progress()) {
        // During the game: four buttons in a row when they fit, else two rows of two. A
        // spectator has no game actions, so it sees none (not four greyed-out buttons), nor
        // does a player waiting for an opponent: at 640x480 they squeezed the chat to a sliver
        // once the invite list was shown too.
        const float avail = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
        float widest = 0;
        for (Str id : {Str::Takeback, Str::OfferDraw, Str::Resign, Str::NewGame})
            widest = std::max(widest, ImGui::CalcTextSize(t(id)).x + 2 * ImGui::GetStyle().FramePadding.x);
        const int per_row = (avail - 3 * gap) / 4 >= widest ? 4 : 2;
        const float bw = (avail - float(per_row - 1) * gap) / float(per_row);
        // An offer of ours that waits for its answer greys its button: a second click (a
        // double click) would only be refused as still open.
        const Offer::Kind waiting = tb.outgoing_offer.kind;
        if (!playing) ImGui::BeginDisabled();
        // Nothing of ours to take back before our first move (the server would refuse it):
        // greyed, so that a double click on New game, whose place Take back takes when the
        // game starts, does not ask for one.
        const bool no_takeback =
            playing && (!tb.rules.takebacks || waiting == Offer::Kind::Takeback || !bm.seat_has_moved());
        if (no_takeback) ImGui::BeginDisabled();
        if (ImGui::Button(t(Str::Takeback), ImVec2(bw, 0))) { session_.request_takeback(); send_outbox(); }
        if (no_takeback) ImGui::EndDisabled();
        ImGui::SameLine();
        const bool no_draw = playing && waiting == Offer::Kind::Draw;
        if (no_draw) ImGui::BeginDisabled();
        if (ImGui::Button(t(Str::OfferDraw), ImVec2(bw, 0))) { session_.offer_draw(); send_outbox(); }
        if (no_draw) ImGui::EndDisabled();
        if (per_row == 4) ImGui::SameLine();
        if (ImGui::Button(t(Str::Resign), ImVec2(bw, 0))) confirm_resign_ = true;
        if (!playing) ImGui::EndDisabled();
        ImGui::SameLine();
        if (!ui_hint(playing, bw)) {
            ImGui::BeginDisabled();
            ImGui::Button(t(Str::NewGame), ImVec2(bw, 0));
            ImGui::EndDisabled();
        }
    }

    // Our offer waiting for its answer, under the buttons: shown above them it would push
    // them down at the click, and a double click's second half would withdraw it at once.
    if (const Offer& o = tb.outgoing_offer; o.kind != Offer::Kind::None) {
        const Str id = o.kind == Offer::Kind::Draw       ? Str::WaitingDrawAnswer
                       : o.kind == Offer::Kind::Takeback ? Str::WaitingTakebackAnswer
                                                         : Str::WaitingNewGameAnswer;
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.05f, 1), "%s", t(id, {player_name(lang_, o.from)}).c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::SmallButton(t(Str::Withdraw))) {
            session_.withdraw_offer();
            send_outbox();
        }
    }

    // The AI for an empty seat.
    std::optional<Color> empty;
    for (Color c : {RED, BLACK})
        if (tb.seats[c].name.empty()) empty = c;
    if (empty) ui_ai_request(L, *empty);
    const float bw3 = (ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().ItemSpacing.x) / 3;
    if (ImGui::Button(t(Str::Flip), ImVec2(bw3, 0))) tb.board.toggle_flip();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Review), ImVec2(bw3, 0))) open_review_from_table();
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Leave), ImVec2(bw3, 0))) {
        if (playing) confirm_leave_ = true;
        else { session_.leave(); send_outbox(); }
    }

    // Invite someone from the lobby.
    std::vector<const UserEntry*> idle;
    for (const UserEntry& u : state_.lobby.users)
        if (u.table == 0 && u.name != state_.my_name) idle.push_back(&u);
    // Shown also when we know of nobody free while a seat is empty: at a table we hear of no
    // arrivals (the server tells the lobby only), so an open list asks the server who is there
    // (keep_invitees_fresh). A full table in a short window (640x480), or one where we know of nobody
    // free, leaves the row to the chat: its invitations (to watch) are a button on the chat's
    // heading line instead (ui_invite_to_watch).
    invite_combo_.reset();
    invite_button_.reset();
    invite_preview_.clear();
    invitees_shown_.clear();
    invitees_open_ = false;
    const bool invite_row = empty || (!idle.empty() && H >= SHORT_WINDOW_H);
    if (invite_row) {
        invitee_rows_.clear();
        // The choice is kept by name: the list changes under it while open (keep_invitees_fresh),
        // and Invite must ask the one shown, not whoever moved to the same place.
        // A choice no longer free (sat down, left) is dropped when a fresh list lacks it, so the
        // closed list names the first one free instead, never someone who cannot be invited.
        int invite_index = -1;
        for (int i = 0; i < int(idle.size()); ++i)
            if (idle[std::size_t(i)]->name == invite_pick_) invite_index = i;
        if (invite_index < 0) {
            invite_pick_.clear();
            invite_index = 0;
        }
        invite_preview_ = idle.empty() ? std::string() : idle[std::size_t(invite_index)]->name;
        ImGui::SetNextItemWidth(L.panel_w * 0.5f);
        const bool open = ImGui::BeginCombo("##invitee", idle.empty() ? t(Str::InviteToTable) : invite_preview_.c_str());
        invite_combo_ = PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                               (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
        // The closed list names someone: it too is kept fresh, less often.
        if (!open && !idle.empty()) keep_invitees_fresh(false, INVITEES_CLOSED_REFRESH_S);
        if (open) {
            keep_invitees_fresh(ImGui::IsWindowAppearing());
            invitees_open_ = true;
            if (idle.empty()) ImGui::TextDisabled("%s", t(Str::NobodyIdle));
            for (int i = 0; i < int(idle.size()); ++i) {
                invitees_shown_.push_back(idle[std::size_t(i)]->name);
                if (ImGui::Selectable(idle[std::size_t(i)]->name.c_str(), i == invite_index)) invite_pick_ = idle[std::size_t(i)]->name;
                invitee_rows_[idle[std::size_t(i)]->name] = PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                                                                (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        if (idle.empty()) ImGui::BeginDisabled();
        const bool invite = ImGui::Button(t(Str::Invite));
        invite_button_ = PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                                (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
        if (invite && !idle.empty()) {
            session_.invite(idle[std::size_t(invite_index)]->name);
            send_outbox();
        }
        if (idle.empty()) ImGui::EndDisabled();
    }

    // Moves.
    // The notation choice sits on the heading's line.
    ImGui::Spacing();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", t(Str::MoveList));
    ImGui::SameLine();
    ui_notation_choice();
    ImGui::Separator();
    const float rest = ImGui::GetContentRegionAvail().y;
    // Short windows (640x480, 1300x480): the chat keeps a few lines and its input row; the
    // settings (also in the lobby) step aside and the move list takes what is left.
    const float line_h = ImGui::GetFrameHeightWithSpacing();
    const bool short_panel = rest < line_h * 14;
    const float settings_h = short_panel ? 0.f : line_h * 2 + 8;
    const float chat_min = line_h * 5;
    const float moves_h = std::max(line_h * 2, std::min(rest * 0.42f, rest - settings_h - chat_min - line_h));
    if (!seated && ImGui::BeginTabBar("stabs")) {
        // Spectators: the moves and the opening explorer of the position shown.
        const float tab_h = moves_h - ImGui::GetFrameHeightWithSpacing();
        if (ImGui::BeginTabItem((std::string(t(Str::MoveList)) + "###smovestab").c_str())) {
            ImGui::BeginChild("movelist", ImVec2(0, tab_h), true);
            ui_move_list(tb.moves, bm.ply(), true);
            ImGui::EndChild();
            ImGui::EndTabItem();
        }
        ui_spectator_explorer(tab_h);
        ImGui::EndTabBar();
    } else if (!short_panel || !tb.moves.empty()) {
        // (A short panel gives a player's empty list's lines to the chat until the first move.)
        ImGui::BeginChild("movelist", ImVec2(0, moves_h), true);
        ui_move_list(tb.moves, bm.ply(), true);
        ImGui::EndChild();
    }

    if (invite_row) section(t(Str::TableChat));
    else ui_invite_to_watch(idle);
    ImGui::BeginChild("chatarea", ImVec2(0, -settings_h), false);
    ui_chat(tb.chat, table_chat_, sizeof table_chat_, true);
    ImGui::EndChild();
    scroll_chat_ = false;
    if (!short_panel) {
        ImGui::Separator();
        ui_settings();
    }
    ImGui::End();
}

void App::keep_invitees_fresh(bool opening, float every_s) {
    // A player at a table hears nothing of the lobby (PROTOCOL.md: the server tells its members
    // only), so an open invite list asks the server for the users as it opens and again every
    // INVITEES_REFRESH_S while it stays open: who logs in, leaves or sits down shows (or goes)
    // without closing and opening it. A closed list that names someone asks every
    // INVITEES_CLOSED_REFRESH_S, so the name it shows is still free. The window repaints at
    // least once a second.
    const float t = now();
    if (!opening && t - invitees_asked_at_ < every_s) return;
    invitees_asked_at_ = t;
    session_.list_users();
    send_outbox();
}

void App::ui_invite_to_watch(const std::vector<const UserEntry*>& idle) {
    // The table chat's heading with a small "Invite to watch" button at its right end (the
    // line grows no taller): it opens the users free in the lobby, asked of the server as it
    // opens, and says why they can only watch; a click on a name invites them.
    ImGui::Spacing();
    ImGui::TextDisabled("%s", t(Str::TableChat));
    const std::string label = std::string(t(Str::InviteToWatch)) + " …";
    const float w = ImGui::CalcTextSize(label.c_str()).x + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowContentRegionMax().x - w));
    if (ImGui::SmallButton(label.c_str())) ImGui::OpenPopup("##invite_watch");
    invite_combo_ = PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                           (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
    ImGui::Separator();
    invitee_rows_.clear();
    if (!ImGui::BeginPopup("##invite_watch")) return;
    keep_invitees_fresh(ImGui::IsWindowAppearing());
    invitees_open_ = true;
    ImGui::TextDisabled("%s", t(Str::InviteWatchWhy));
    if (idle.empty()) ImGui::TextDisabled("%s", t(Str::NobodyIdle));
    for (const UserEntry* u : idle) {
        invitees_shown_.push_back(u->name);
        if (ImGui::Selectable(u->name.c_str())) {
            session_.invite(u->name);
            send_outbox();
        }
        invitee_rows_[u->name] = PointF{(ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) / 2,
                                        (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
    }
    ImGui::EndPopup();
}

void App::ui_after_game(const TableState& tb) {
    // The in-game buttons have nothing to do now: New game takes their place, and against the
    // AI the colour of the next game beside it (by default the other one), so the panel
    // grows no taller than during the game and the chat keeps its room.
    const BoardModel& bm = tb.board;
    const bool vs_ai = tb.seats[~*bm.seat()].ai;
    const int next_as = next_as_ >= 0 ? next_as_ : (*bm.seat() == RED ? 1 : 0);
    // Greyed while our request waits for the opponent (a second click would only be refused
    // as still open; the request's line offers to withdraw it).
    const bool asked = tb.outgoing_offer.kind == Offer::Kind::NewGame;
    if (asked) ImGui::BeginDisabled();
    if (ImGui::Button(t(Str::NewGame))) {
        std::optional<Color> as;
        if (vs_ai) as = next_as == 0 ? RED : next_as == 1 ? BLACK : (std::random_device{}() & 1) ? RED : BLACK;
        session_.new_game(as);
        send_outbox();
    }
    if (asked) ImGui::EndDisabled();
    if (!vs_ai) return;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    // Each piece on the same line while it fits (narrow panels wrap).
    const auto same_line_if_fits = [&](float w) {
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
    };
    const Str names[3] = {Str::Red, Str::Black, Str::ColourRandom};
    float combo_w = 0;
    for (Str n : names) combo_w = std::max(combo_w, ImGui::CalcTextSize(t(n)).x);
    combo_w += ImGui::GetFrameHeight() + 2 * st.FramePadding.x;
    same_line_if_fits(ImGui::CalcTextSize(t(Str::NextGameAs)).x);
    ImGui::TextUnformatted(t(Str::NextGameAs));
    same_line_if_fits(combo_w);
    ImGui::SetNextItemWidth(combo_w);
    if (ImGui::BeginCombo("##next_as", t(names[next_as]))) {
        for (int i = 0; i < 3; ++i)
            if (ImGui::Selectable(t(names[i]), i == next_as)) next_as_ = i;
        ImGui::EndCombo();
    }
}

void App::ui_seat_notices() {
    const TableState& tb = state_.table;
    const auto now = std::chrono::steady_clock::now();
    for (Color c : {RED, BLACK}) {
        const std::string line = seat_notice(lang_, tb.seats[c], now);
        if (!line.empty()) ImGui::TextColored(ImVec4(0.8f, 0.35f, 0.0f, 1), "%s", line.c_str());
    }
    // "Keep waiting" closed the question; the win can still be claimed from here.
    if (tb.claim_possible && !tb.claim_open) {
        if (ImGui::Button(t(Str::ClaimWin))) {
            session_.claim_win();
            send_outbox();
        }
    }
}

void App::ui_ai_request(const Layout& L, Color empty) {
    // The built-in AI, or one of the host's engines when it offers any.
    const std::vector<std::string>& engines = state_.engines;
    ai_engine_ = std::clamp(ai_engine_, 0, int(engines.size()));
    if (!engines.empty()) {
        const std::string current = ai_engine_ == 0 ? t(Str::BuiltinAi) : engines[std::size_t(ai_engine_ - 1)];
        ImGui::SetNextItemWidth(L.panel_w * 0.5f);
        if (ImGui::BeginCombo(t(Str::Engine), current.c_str())) {
            if (ImGui::Selectable(t(Str::BuiltinAi), ai_engine_ == 0)) ai_engine_ = 0;
            for (int i = 0; i < int(engines.size()); ++i)
                if (ImGui::Selectable(engines[std::size_t(i)].c_str(), ai_engine_ == i + 1)) ai_engine_ = i + 1;
            ImGui::EndCombo();
        }
    }
    ImGui::SetNextItemWidth(L.panel_w * 0.32f);
    if (ImGui::InputInt(t(Str::AiLevel), &ai_level_)) ai_level_ = std::clamp(ai_level_, 1, 10);
    // The built-in level's rating sits between the level and the button when both fit on the
    // line, else on a line of its own below (narrow windows, longer Chinese labels).
    const std::string rating = ai_engine_ == 0 ? ai_rating_text(lang_, state_.ai_ratings, ai_level_) : std::string();
    const std::string ask = t(Str::AskAiSeat, {t(empty == RED ? Str::Red : Str::Black)});
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::SameLine();
    const float needed = ImGui::CalcTextSize(rating.c_str()).x + style.ItemSpacing.x +
                         ImGui::CalcTextSize(ask.c_str()).x + 2 * style.FramePadding.x;
    const bool rating_inline = !rating.empty() && ImGui::GetContentRegionAvail().x >= needed;
    if (rating_inline) {
        ImGui::TextDisabled("%s", rating.c_str());
        ImGui::SameLine();
    }
    if (ImGui::Button(ask.c_str())) {
        session_.request_ai(empty, ai_level_, ai_engine_ == 0 ? std::string() : engines[std::size_t(ai_engine_ - 1)]);
        send_outbox();
    }
    if (!rating.empty() && !rating_inline) ImGui::TextDisabled("%s", rating.c_str());
}

// The move list's notation (Chinese, WXF, ICCS), at the table and in Review.
void App::ui_notation_choice() {
    int n = int(notation_);
    ImGui::RadioButton(t(Str::NotationChinese), &n, 0);
    ImGui::SameLine();
    ImGui::RadioButton("WXF", &n, 1);
    ImGui::SameLine();
    ImGui::RadioButton("ICCS", &n, 2);
    notation_ = MoveNotation(n);
}

}  // namespace xq::client
