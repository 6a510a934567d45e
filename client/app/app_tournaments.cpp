// The Tournaments window (比赛) of the lobby: the server's tournaments, a new one, and one
// tournament whole: entering and withdrawing, the standings with their tie-breaks (Buchholz,
// Sonneborn-Berger, wins), the crosstable, the round's pairings with a click to watch a
// board, and the director's start, pause and resume.
#include <imgui.h>

#include <algorithm>

#include "app/app.h"

namespace xq::client {

namespace {

constexpr ImGuiTableFlags GRID = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersOuter |
                                 ImGuiTableFlags_SizingFixedFit;

}  // namespace

void App::open_tournaments() {
    tournaments_open_ = true;
    session_.list_tournaments();
    if (tourney_shown_ != 0) session_.get_tournament(tourney_shown_);
    send_outbox();
}

void App::tourney_text(const std::string& text, bool disabled) {
    if (disabled) ImGui::TextDisabled("%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
    tourney_drawn_ += text;
    tourney_drawn_ += '\n';
}

bool App::tourney_button(const std::string& control, const char* label, bool small) {
    ImGui::PushID(control.c_str());
    const bool clicked = small ? ImGui::SmallButton(label) : ImGui::Button(label);
    ImGui::PopID();
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    tourney_controls_[control] = PointF{(lo.x + hi.x) / 2, (lo.y + hi.y) / 2};
    tourney_drawn_ += std::string("[") + label + "]\n";
    return clicked;
}

bool App::board_paused(proto::TableId table) const {
    const auto p = state_.tournaments.paused.find(table);
    return p != state_.tournaments.paused.end() && p->second;
}

std::optional<PointF> App::tourney_control(const std::string& control) const {
    // Where a control stood in the last two frames alike (a window settles its layout first).
    const auto now = tourney_controls_drawn_.find(control);
    const auto before = tourney_controls_before_.find(control);
    if (now == tourney_controls_drawn_.end() || before == tourney_controls_before_.end()) return std::nullopt;
    if (now->second.x != before->second.x || now->second.y != before->second.y) return std::nullopt;
    return now->second;
}

void App::ui_tournaments() {
    if (!tournaments_open_ || screen_ != Screen::Lobby) {
        tourney_drawn_shown_.clear();
        tourney_controls_drawn_.clear();
        return;
    }
    tourney_drawn_.clear();
    tourney_controls_.clear();
    const sf::Vector2u size = window_.getSize();
    const float W = float(size.x), H = float(size.y);
    ImGui::SetNextWindowPos(ImVec2(W / 2, H / 2), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(W - 40, 980.f), std::min(H - 40, 700.f)), ImGuiCond_Always);
    ImGui::Begin("##tournaments", nullptr,
                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize);
    const proto::Tournament* shown = tourney_shown_ ? state_.tournaments.find(tourney_shown_) : nullptr;
    ImGui::BeginChild("tourney", ImVec2(0, -ImGui::GetFrameHeightWithSpacing() * 1.3f), false,
                      ImGuiWindowFlags_HorizontalScrollbar);
    if (shown) ui_tourney_detail(*shown);
    else ui_tourney_list();
    ImGui::EndChild();
    if (tourney_button("close", t(Str::Close))) tournaments_open_ = false;
    ImGui::End();
    tourney_drawn_shown_ = tourney_drawn_;
    tourney_controls_before_ = std::move(tourney_controls_drawn_);
    tourney_controls_drawn_ = tourney_controls_;
}

void App::ui_tourney_list() {
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    tourney_text(t(Str::TourneyTitle));
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::Separator();
    const auto& list = state_.tournaments.list;
    if (list.empty()) tourney_text(t(Str::TourneyNone), true);
    else if (ImGui::BeginTable("tlist", 6, GRID)) {
        ImGui::TableSetupColumn(t(Str::TourneyName), ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn(t(Str::TourneyFormatLabel));
        ImGui::TableSetupColumn(t(Str::TourneyStateLabel));
        ImGui::TableSetupColumn(t(Str::TourneyRounds));
        ImGui::TableSetupColumn(t(Str::Players));
        ImGui::TableSetupColumn("");
        ImGui::TableHeadersRow();
        for (const proto::TournamentSummary& s : list) {
            ImGui::PushID(int(s.id));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            tourney_text(s.name);
            tourney_text(t(Str::TourneyDirector, {s.director}), true);
            ImGui::TableNextColumn();
            tourney_text(format_words(lang_, s.format));
            ImGui::TableNextColumn();
            tourney_text(state_words(lang_, s.state));
            ImGui::TableNextColumn();
            tourney_text(std::to_string(s.round) + "/" + std::to_string(s.rounds));
            ImGui::TableNextColumn();
            tourney_text(std::to_string(s.entrants));
            ImGui::TableNextColumn();
            if (tourney_button("view " + std::to_string(s.id), t(Str::TourneyView), true)) {
                tourney_shown_ = s.id;
                tourney_tab_ = s.state == proto::TournamentState::Running ? 2 : 0;
                session_.get_tournament(s.id);
                send_outbox();
            }
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::Separator();
    tourney_text(t(Str::TourneyCreate));
    ImGui::SetNextItemWidth(std::min(260.f, ImGui::GetContentRegionAvail().x));
    // Named as a tournament's name (it said "Table name").
    ImGui::InputText("##tourneyname", tourney_name_, sizeof tourney_name_);
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    tourney_text(t(Str::TourneyName));
    ImGui::SetNextItemWidth(std::min(160.f, ImGui::GetContentRegionAvail().x));
    const std::string formats = std::string(t(Str::TourneyRoundRobin)) + '\0' + t(Str::TourneySwiss) + '\0' + '\0';
    ImGui::Combo(t(Str::TourneyFormatLabel), &tourney_format_, formats.c_str());
    if (tourney_format_ == 1) {
        ImGui::SetNextItemWidth(std::min(120.f, ImGui::GetContentRegionAvail().x));
        ImGui::SliderInt(t(Str::TourneyRounds), &tourney_rounds_, 1, proto::MAX_TOURNAMENT_ROUNDS);
    }
    ImGui::SetNextItemWidth(std::min(120.f, ImGui::GetContentRegionAvail().x));
    ImGui::SliderInt(t(Str::TourneyAiEntrants), &tourney_ai_, 0, 4);
    if (tourney_ai_ > 0) {
        ImGui::SetNextItemWidth(std::min(120.f, ImGui::GetContentRegionAvail().x));
        ImGui::SliderInt(t(Str::AiLevel), &tourney_ai_level_, proto::AI_LEVEL_MIN, proto::AI_LEVEL_MAX);
    }
    ImGui::SetNextItemWidth(std::min(140.f, ImGui::GetContentRegionAvail().x));
    ImGui::InputInt(t(Str::TourneyForfeitLabel), &tourney_forfeit_, 30, 300);
    ImGui::SetNextItemWidth(std::min(140.f, ImGui::GetContentRegionAvail().x));
    ImGui::InputInt(t(Str::TourneyDelayLabel), &tourney_delay_, 1, 4);
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%s", t(Str::TourneyDelayHint));
    const Str problem = tournament_form_problem(tourney_forfeit_, tourney_delay_);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.1f, 0.1f, 1));
    if (problem != Str::Ok) tourney_text(t(problem));
    else if (tourney_error_) tourney_text(tourney_error_(lang_));
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    const bool blocked = problem != Str::Ok || tourney_create_pending_;  // read once: the click sets pending
    if (blocked) ImGui::BeginDisabled();
    if (tourney_button("create", t(Str::Create))) create_tournament(tourney_name_);
    if (blocked) ImGui::EndDisabled();
}

void App::create_tournament(const std::string& name) {
    // The form's checks hold for a script's create too (the button is disabled meanwhile).
    if (const Str problem = tournament_form_problem(tourney_forfeit_, tourney_delay_); problem != Str::Ok) {
        toast(problem);
        return;
    }
    tourney_error_ = nullptr;
    session_.create_tournament(name, tourney_format_ == 1 ? proto::TournamentFormat::Swiss : proto::TournamentFormat::RoundRobin,
                               tourney_rounds_, std::vector<int>(std::size_t(tourney_ai_), tourney_ai_level_),
                               tourney_forfeit_, tourney_delay_);
    send_outbox();
    tourney_create_pending_ = true;
}

void App::save_tourney_pgn(const proto::Tournament& tn) {
    const proto::PgnNotation n = notation_ == MoveNotation::Chinese ? proto::PgnNotation::Chinese
                                 : notation_ == MoveNotation::Wxf   ? proto::PgnNotation::Wxf
                                                                    : proto::PgnNotation::Iccs;
    session_.get_tournament_pgn(tn.id, n);
    send_outbox();
    tourney_pgn_save_ = true;
    tourney_pgn_name_ = tournament_file_name(tn.name);
}

void App::tick_tournaments() {
    // Save PGN: once the text is whole, the chooser asks where (a refusal was shown as an error).
    const TournamentPgnFetch& pgn = state_.tournaments.pgn;
    if (tourney_pgn_save_ && pgn.status() != TournamentPgnFetch::Status::Fetching) {
        tourney_pgn_save_ = false;
        if (pgn.status() == TournamentPgnFetch::Status::Done && pgn.text().empty()) toast(Str::TourneyPgnEmpty);
        else if (pgn.status() == TournamentPgnFetch::Status::Done) {
            tourney_pgn_text_ = pgn.text();
            open_chooser(ChooserFor::SaveTourneyPgn, tourney_pgn_name_);
        } else if (pgn.error().empty()) toast(Str::TourneyPgnFailed);
    }
    // A tournament we asked to create shows itself once its first line names us director.
    if (!tourney_create_pending_) return;
    for (const auto& [id, tn] : state_.tournaments.known) {
        if (tn.director == state_.my_name && tn.state == proto::TournamentState::Open && id > tourney_last_created_) {
            tourney_last_created_ = id;
            tourney_shown_ = id;
            tourney_tab_ = 0;
            tourney_create_pending_ = false;
        }
    }
}

void App::ui_tourney_detail(const proto::Tournament& tn) {
    if (tourney_button("back", t(Str::TourneyBack))) {
        tourney_shown_ = 0;
        session_.list_tournaments();
        send_outbox();
    }
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    tourney_text(tn.name);
    if (gui_.big_font()) ImGui::PopFont();
    tourney_text(format_words(lang_, tn.format) + " · " + state_words(lang_, tn.state) + " · " +
                 t(Str::TourneyRoundOf, {std::to_string(tn.round), std::to_string(tn.rounds)}) + " · " +
                 t(Str::TourneyEntrants, {std::to_string(tn.entrants.size())}));
    tourney_text(t(Str::TourneyDirector, {tn.director}), true);
    tourney_text(t(Str::TourneyForfeitAfter, {std::to_string(tn.forfeit_seconds)}) + " · " +
                     (tn.spectator_delay > 0 ? t(Str::TourneyDelayShown, {std::to_string(tn.spectator_delay)})
                                             : std::string(t(Str::TourneyLive))),
                 true);
    const bool director = tn.director == state_.my_name;
    const bool mine = entered(tn, state_.my_name);
    if (tourney_pgn_save_ && state_.tournaments.pgn.tournament() == tn.id) {
        tourney_text(t(Str::TourneyPgnFetching, {std::to_string(state_.tournaments.pgn.text().size()),
                                                 std::to_string(state_.tournaments.pgn.total())}),
                     true);
    } else if (tn.round > 0 && tourney_button("save pgn", t(Str::TourneySavePgn))) {
        save_tourney_pgn(tn);
    }
    if (director) tourney_text(t(Str::TourneyYouDirect), true);
    if (mine) tourney_text(t(Str::TourneyYouEntered), true);
    if (tn.state != proto::TournamentState::Finished) {
        if (!mine && tn.state == proto::TournamentState::Open && tourney_button("join", t(Str::TourneyJoin))) {
            session_.join_tournament(tn.id);
            send_outbox();
        }
        if (mine && tourney_button("leave", t(Str::TourneyLeave))) {
            session_.leave_tournament(tn.id);
            send_outbox();
        }
        if (director && tn.state == proto::TournamentState::Open) {
            if (mine) ImGui::SameLine();
            if (tourney_button("start", t(Str::TourneyStart))) {
                session_.start_tournament(tn.id);
                send_outbox();
            }
        }
    }
    ImGui::Separator();
    const Str tabs[] = {Str::TourneyStandings, Str::TourneyCrosstable, Str::TourneyPairings};
    static const char* const TAB_NAMES[] = {"standings", "crosstable", "pairings"};
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ImGui::SameLine();
        const bool active = tourney_tab_ == i;
        if (active) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (tourney_button(std::string("tab ") + TAB_NAMES[i], t(tabs[i]))) tourney_tab_ = i;
        if (active) ImGui::PopStyleColor();
    }
    tourney_text(std::string("— ") + t(tabs[tourney_tab_]) + " —", true);
    if (tourney_tab_ == 0) ui_tourney_standings(tn);
    else if (tourney_tab_ == 1) ui_tourney_crosstable(tn);
    else ui_tourney_pairings(tn, director);
}

void App::ui_tourney_standings(const proto::Tournament& tn) {
    if (!ImGui::BeginTable("standings", 7, GRID)) return;
    const Str columns[] = {Str::TourneyPoints, Str::TourneyBuchholz, Str::TourneySb, Str::TourneyWins, Str::TourneyGames};
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn(t(Str::TourneyPlayer), ImGuiTableColumnFlags_WidthStretch);
    std::string header = t(Str::TourneyPlayer);
    for (Str c : columns) {
        ImGui::TableSetupColumn(t(c));
        header += std::string(" | ") + t(c);
    }
    ImGui::TableHeadersRow();
    tourney_drawn_ += header + "\n";
    for (const proto::TournamentStanding& s : tn.standings) {
        const bool withdrawn = s.entrant >= 0 && std::size_t(s.entrant) < tn.entrants.size() &&
                               tn.entrants[std::size_t(s.entrant)].withdrawn;
        const std::string cells[] = {std::to_string(s.rank),     entrant_name(lang_, tn, s.entrant),
                                     std::to_string(s.points),   std::to_string(s.buchholz),
                                     half_points(s.sb2),         std::to_string(s.wins),
                                     std::to_string(s.games)};
        ImGui::TableNextRow();
        std::string row;
        for (const std::string& c : cells) {
            ImGui::TableNextColumn();
            if (withdrawn) ImGui::TextDisabled("%s", c.c_str());
            else ImGui::TextUnformatted(c.c_str());
            row += (row.empty() ? "" : " | ") + c;
        }
        // One line per row for `expect tourney` (after the header "Player | Points | ..."):
        // "1 | alice | 4 | 2 | 3.5 | 2 | 2".
        tourney_drawn_ += row + "\n";
    }
    ImGui::EndTable();
}

void App::ui_tourney_crosstable(const proto::Tournament& tn) {
    const Crosstable x = crosstable(tn);
    const int n = int(x.order.size());
    if (n == 0 || !ImGui::BeginTable("crosstable", n + 4, GRID)) return;
    ImGui::TableSetupColumn("#");
    ImGui::TableSetupColumn(t(Str::TourneyPlayer));
    for (int j = 0; j < n; ++j) ImGui::TableSetupColumn(std::to_string(j + 1).c_str());
    ImGui::TableSetupColumn(t(Str::TourneyByes));
    ImGui::TableSetupColumn(t(Str::TourneyPoints));
    ImGui::TableHeadersRow();
    for (int i = 0; i < n; ++i) {
        const int e = x.order[std::size_t(i)];
        int points = 0;
        for (const auto& s : tn.standings)
            if (s.entrant == e) points = s.points;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        tourney_text(std::to_string(i + 1));
        ImGui::TableNextColumn();
        tourney_text(entrant_name(lang_, tn, e));
        std::string row;
        for (int j = 0; j < n; ++j) {
            ImGui::TableNextColumn();
            const std::string& c = x.cells[std::size_t(i)][std::size_t(j)];
            ImGui::TextUnformatted(c.c_str());
            row += (j ? " | " : "") + (c.empty() ? std::string(".") : c);
        }
        ImGui::TableNextColumn();
        ImGui::Text("%d", x.byes[std::size_t(i)]);
        ImGui::TableNextColumn();
        ImGui::Text("%d", points);
        // One line per row for `expect tourney`: "1 alice: x | 2 = 2".
        tourney_drawn_ += std::to_string(i + 1) + " " + entrant_name(lang_, tn, e) + ": " + row + " = " +
                          std::to_string(points) + "\n";
    }
    ImGui::EndTable();
}

void App::ui_tourney_pairings(const proto::Tournament& tn, bool director) {
    if (tn.round == 0 || tn.boards.empty()) {
        tourney_text(t(Str::TourneyNoRound), true);
        return;
    }
    tourney_text(t(Str::TourneyRoundOf, {std::to_string(tn.round), std::to_string(tn.rounds)}));
    if (!ImGui::BeginTable("pairings", 5, GRID)) return;
    ImGui::TableSetupColumn(t(Str::TourneyBoard));
    ImGui::TableSetupColumn(t(Str::Red), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(t(Str::Black), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(t(Str::TourneyResult));
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    for (const proto::TournamentBoard& b : tn.boards) {
        const std::string board = std::to_string(b.board);
        ImGui::PushID(b.board);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(board.c_str());
        ImGui::TableNextColumn();
        const std::string red = entrant_name(lang_, tn, b.red);
        const std::string black = b.black < 0 ? std::string(t(Str::TourneyBye)) : entrant_name(lang_, tn, b.black);
        ImGui::TextUnformatted(red.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(black.c_str());
        ImGui::TableNextColumn();
        std::string result = board_result_text(lang_, b.result);
        if (b.result == proto::BoardResult::Pending && board_paused(b.table))
            result += std::string(" (") + t(Str::ArbiterPausedMark) + ")";
        ImGui::TextUnformatted(result.c_str());
        tourney_drawn_ += t(Str::TourneyBoard) + (" " + board + ": ") + red + " - " + black + " " + result + "\n";
        ImGui::TableNextColumn();
        if (b.table != 0 && b.result == proto::BoardResult::Pending) {
            if (tourney_button("watch " + board, t(Str::TourneyWatch), true)) {
                session_.join(int(b.table), proto::Role::Spectator);
                send_outbox();
                tournaments_open_ = false;
            }
            if (director) {
                // One button: Pause while the game runs, Resume while it is paused.
                ImGui::SameLine();
                const bool paused = board_paused(b.table);
                if (tourney_button((paused ? "resume " : "pause ") + board, t(paused ? Str::TourneyResume : Str::TourneyPause),
                                   true)) {
                    session_.arbiter(int(b.table), paused ? proto::ArbiterKind::Resume : proto::ArbiterKind::Pause);
                    send_outbox();
                }
                ImGui::SameLine();
                if (tourney_button("arbiter " + board, t(Str::TourneyArbiter), true)) {
                    tourney_arbiter_board_ = b.board;
                    tourney_arbiter_problem_ = Str::Ok;
                    tourney_confirm_.reset();
                }
            }
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
    if (director && tourney_arbiter_board_ != 0) ui_tourney_arbiter(tn);
}

}  // namespace xq::client
