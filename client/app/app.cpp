// The application object: start-up and the main loop, window events and the input
// controller, the network pump and its cues, automatic reconnects, toasts.
#include "app/app.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "app/font_finder.h"
#include "core/move_text.h"

namespace xq::client {

namespace {

constexpr float TOAST_SECONDS = 3.5f;

sf::String utf8(std::string_view s) { return sf::String::fromUtf8(s.begin(), s.end()); }

// Everything the UI font must render beyond the common Chinese set: both string tables.
std::string all_ui_text() {
    std::string s;
    for (int i = 0; i < STRING_COUNT; ++i) {
        s += tr(Lang::Chinese, Str(i));
        s += tr(Lang::English, Str(i));
    }
    s += "帥仕相俥傌炮兵將士象車馬砲卒进退平前后中一二三四五六七八九１２３４５６７８９简体中文·…";
    return s;
}

}  // namespace

App::App(AppOptions options) : opt_(std::move(options)), lang_(opt_.lang) {
    std::snprintf(nick_, sizeof nick_, "%s", opt_.name.c_str());
    if (!opt_.connect.empty()) std::snprintf(address_, sizeof address_, "%s", opt_.connect.c_str());
    else if (!opt_.last_server.empty()) std::snprintf(address_, sizeof address_, "%s", opt_.last_server.c_str());
    std::snprintf(password_, sizeof password_, "%s", opt_.password.c_str());
}

bool App::init(std::string& error) {
    FontFile font;
    if (!find_cjk_font(font, error)) return false;
    font_path_ = font.path;
    if (!view_.load_font(font.path, error)) return false;
    view_.set_theme(opt_.theme);

    // No multisampling on the window: pieces and markers come antialiased from the atlas,
    // and MSAA triples the frame time under software rendering.
    sf::ContextSettings ctx;
    window_.create(sf::VideoMode(opt_.width, opt_.height), utf8(tr(lang_, Str::AppTitle)),
                   sf::Style::Default, ctx);
    // Centred on the screen: SFML 2.5 places a new window's top at (screen width - height) / 2,
    // so on a 1920x1080 screen a 1280x800 window hung 280 px below the screen's bottom edge
    // (where no window manager places it otherwise).
    {
        const sf::VideoMode desk = sf::VideoMode::getDesktopMode();
        window_.setPosition({std::max(0, (int(desk.width) - int(opt_.width)) / 2),
                             std::max(0, (int(desk.height) - int(opt_.height)) / 2)});
    }
    window_.setVerticalSyncEnabled(false);
    if (opt_.bench_frames <= 0) window_.setFramerateLimit(60);
    FontFile symbols;
    if (std::string why; !find_symbol_font(symbols, why)) std::cerr << "xiangqi-client: " << why << "\n";
    if (!gui_.init(window_, font.path, 17.f, all_ui_text() + AnalysisPanel::analysis_text(), symbols.path, error))
        return false;
    cursors_ok_ = hand_cursor_.loadFromSystem(sf::Cursor::Hand) && arrow_cursor_.loadFromSystem(sf::Cursor::Arrow) &&
                  text_cursor_.loadFromSystem(sf::Cursor::Text);
    sounds_.init(!opt_.mute && opt_.bench_frames <= 0);
    if (const auto dir = config_dir(); !dir.empty()) config_file_ = dir / "client.conf";
    if (opt_.notation) notation_ = *opt_.notation;
    load_recent();
    return true;
}

int App::run() {
    std::string error;
    if (!init(error)) {
        std::cerr << "xiangqi-client: " << error << "\n";
        return 2;
    }
    if (opt_.bench_frames > 0) return bench();
    if (!opt_.script.empty() || opt_.play_ai > 0) {
        if (!load_script(error)) {
            std::cerr << "xiangqi-client: " << error << "\n";
            return 2;
        }
    }
    if (!opt_.connect.empty()) start_connect(opt_.connect);
    if (!opt_.review.empty()) {
        std::snprintf(pgn_path_, sizeof pgn_path_, "%s", opt_.review.c_str());
        if (!import_pgn(opt_.review, error)) {
            std::cerr << "xiangqi-client: " << error << "\n";
            return 2;
        }
    }

    while (running_ && window_.isOpen()) {
        frame_events();
        pump_network();
        low_time_tick();
        reconnect_tick();
        // Never a lobby or table without a connection behind it (e.g. back from Review).
        if ((screen_ == Screen::Lobby || screen_ == Screen::Table) && state_.connection == Connection::Disconnected &&
            !reconnecting_)
            screen_ = Screen::Connect;
        save_prefs_if_changed();
        if (script_active_) run_script();
        if (!needs_redraw()) {
            // Nothing changed: sleep instead of drawing, so an idle client costs ~no CPU.
            std::this_thread::sleep_for(std::chrono::milliseconds(8));
            continue;
        }
        render();
    }
    net_.close();
    return exit_code_;
}

bool App::needs_redraw() const {
    const float t = now();
    if (dirty_frames_ > 0 || script_active_ || !input_.empty() || reconnecting_) return true;
    if (t - last_render_at_ >= 1.f) return true;  // repaint what an uncovering left behind
#if XQ_HAVE_LAN_DISCOVERY
    if (lan_probe_.valid()) return true;  // poll the probe's result
#endif
    if (view_.animating(t) || ctl_.selected() != SQ_NONE || ctl_.dragging()) return true;
    if (toast_make_ && t < toast_until_ + 0.5f) return true;
    if (screen_ == Screen::Table && state_.table.clock_running) {
        const auto ms = state_.table.clock_now(*state_.table.clock_running, std::chrono::steady_clock::now());
        if (int(ms / 1000) != last_clock_second_) return true;
    }
    if (screen_ == Screen::Table && grace_second_now() != last_grace_second_) return true;
    return false;
}

void App::schedule_reconnect(const std::string& why) {
    if (!reconnecting_) {
        kept_table_chat_ = state_.table.chat;
        kept_table_id_ = state_.table.id;
        reconnecting_ = true;
        reconnect_attempt_ = 0;
    }
    ++reconnect_attempt_;
    reconnect_why_ = why;
    reconnect_at_ = now() + std::min(8.f, 0.5f * float(1 << std::min(reconnect_attempt_ - 1, 5)));
    state_.connection = Connection::Disconnected;
    ctl_.reset();
}

void App::reconnect_tick() {
    if (!reconnecting_ || state_.connection != Connection::Disconnected || now() < reconnect_at_) return;
    start_connect(pending_address_);
}

void App::ui_reconnect_banner() {
    banner_rect_ = {};
    if (!reconnecting_) return;
    const auto size = window_.getSize();
    // At a table: over the board, below the opponent's plate, so that both plates (names,
    // clocks) and the side panel stay in sight; elsewhere at the window's top.
    const bool table = screen_ == Screen::Table;
    const Layout L = layout();
    const float centre = table ? L.board_x + L.board_w / 2 : float(size.x) / 2;
    const float room = table ? L.board_w : float(size.x);
    ImGui::SetNextWindowPos(ImVec2(centre, table ? L.plate_h + 8 : 8), ImGuiCond_Always, ImVec2(0.5f, 0));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(room - 16, float(size.y)));
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin("##reconnect", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                     ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
    banner_rect_ = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y};
    ImGui::PushTextWrapPos(std::min(room - 40.f, 560.f));
    const int wait_s = std::max(0, int(std::ceil(reconnect_at_ - now())));
    ImGui::TextColored(ImVec4(0.75f, 0.2f, 0.1f, 1.f), "%s",
                       t(Str::Reconnecting, {pending_address_, std::to_string(reconnect_attempt_), std::to_string(wait_s)}).c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::Button(t(Str::StopReconnecting))) {
        reconnecting_ = false;
        net_.close();
        state_.connection = Connection::Disconnected;
        if (screen_ != Screen::Review) screen_ = Screen::Connect;
        else review_return_ = Screen::Connect;
    }
    ImGui::End();
}

void App::low_time_tick() {
    const TableState& tb = state_.table;
    const auto me = state_.table.board.seat();
    if (screen_ != Screen::Table || !me || tb.clock_running != *me) {
        last_tick_second_ = -1;
        return;
    }
    const std::int64_t ms = tb.clock_now(*me, std::chrono::steady_clock::now());
    if (ms <= 0 || ms >= 10000) return;
    const int second = int((ms + 999) / 1000);
    if (second != last_tick_second_) {
        last_tick_second_ = second;
        sounds_.play(SoundKind::Tick);
    }
}

std::int64_t App::grace_second_now() const {
    const auto now = std::chrono::steady_clock::now();
    std::int64_t out = -1;
    for (const SeatInfo& s : state_.table.seats)
        if (const std::int64_t ms = s.grace_left_ms(now); ms >= 0) out = std::max(out, (ms + 999) / 1000);
    return out;
}

// ---------------------------------------------------------------- events and network

void App::frame_events() {
    sf::Event e;
    while (window_.pollEvent(e)) input_.push(e);
    // One frame's share of the queue: a click or key chord that came within one frame is
    // spread over frames so the widgets see the press before the release.
    for (const sf::Event& ev : input_.next_frame()) {
        dirty_frames_ = 3;  // ImGui settles within a couple of frames after input
        handle_event(ev);
    }
}

void App::handle_event(const sf::Event& e) {
    gui_.process_event(e);
    if (e.type == sf::Event::Closed) {
        request_close();
        return;
    }
    if (e.type == sf::Event::Resized) {
        window_.setView(sf::View(sf::FloatRect(0, 0, float(e.size.width), float(e.size.height))));
        return;
    }
    const bool on_board = screen_ == Screen::Table && !gui_.wants_mouse();
    const BoardGeometry geo = board_geometry();
    switch (e.type) {
    case sf::Event::MouseButtonPressed:
        if (on_board && e.mouseButton.button == sf::Mouse::Left) {
            if (state_.table.result_shown) {
                state_.table.result_shown = false;  // a click dismisses the banner
                break;
            }
            apply_intent(ctl_.press(state_.table.board, geo, float(e.mouseButton.x), float(e.mouseButton.y)));
        }
        break;
    case sf::Event::MouseButtonReleased:
        if (screen_ == Screen::Table && e.mouseButton.button == sf::Mouse::Left)
            apply_intent(ctl_.release(state_.table.board, geo, float(e.mouseButton.x), float(e.mouseButton.y)));
        break;
    case sf::Event::MouseMoved: {
        if (screen_ != Screen::Table) break;
        ctl_.motion(float(e.mouseMove.x), float(e.mouseMove.y));
        const Square sq = geo.square_at(float(e.mouseMove.x), float(e.mouseMove.y));
        board_hand_ = !gui_.wants_mouse() && (ctl_.dragging() || state_.table.board.is_movable(sq) ||
                                              (ctl_.selected() != SQ_NONE && ctl_.targets().contains(Move(ctl_.selected(), sq))));
        break;
    }
    case sf::Event::KeyPressed:
        // Keys typed into a field or while a dialog has the focus are not the board's (F
        // under the takeback question flipped the board).
        if (gui_.wants_keyboard() || gui_.dialog_focused()) break;
        if (screen_ == Screen::Review) {
            if (e.key.code == sf::Keyboard::Left) set_review_ply(review_ply_ - 1);
            if (e.key.code == sf::Keyboard::Right) set_review_ply(review_ply_ + 1);
            if (e.key.code == sf::Keyboard::Home) set_review_ply(0);
            if (e.key.code == sf::Keyboard::End) set_review_ply(int(review_moves_.size()));
            if (e.key.code == sf::Keyboard::Escape) screen_ = review_return_;
            if (e.key.code == sf::Keyboard::F) review_flipped_ = !review_flipped_;
        } else if (screen_ == Screen::Table && e.key.code == sf::Keyboard::Escape) {
            ctl_.reset();
        } else if (screen_ == Screen::Table && e.key.code == sf::Keyboard::F) {
            state_.table.board.toggle_flip();
        }
        break;
    default: break;
    }
}

void App::apply_intent(const Intent& i) {
    if (i.kind == Intent::Kind::Move) {
        session_.move(i.move);
        send_outbox();
    } else if (i.kind == Intent::Kind::Refused) {
        toast([r = i.reason](Lang l) { return refusal_text(l, r); });
    }
}

void App::send_outbox() {
    for (std::string& line : session_.take_outbox()) {
        if (!line.empty() && line.back() == '\n') line.pop_back();
        net_.send_line(std::move(line));
    }
}

void App::start_connect(const std::string& address) {
    std::string host;
    std::uint16_t port = 0;
    if (!parse_host_port(address, host, port)) {
        connect_status_ = t(Str::BadAddress);
        return;
    }
    if (std::string_view(nick_).empty()) {
        connect_status_ = t(Str::BadNickname);
        return;
    }
    // While reconnecting the table and the lobby stay on screen as they were until the server
    // answers, and so does our name: the own plate keeps its "(you)" (the lists are replaced
    // by the first pages after the welcome).
    ClientState kept;
    if (reconnecting_) {
        kept.table = std::move(state_.table);
        kept.lobby = std::move(state_.lobby);
        kept.my_name = std::move(state_.my_name);
    }
    state_ = std::move(kept);
    state_.connection = Connection::Connecting;
    connect_status_ = t(Str::Connecting, {address});
    pending_address_ = address;
    net_.connect(host, port);
}

void App::pump_network() {
    for (NetEvent& ev : net_.drain()) {
        dirty_frames_ = 3;
        switch (ev.kind) {
        case NetEvent::Kind::Connected: {
            // The seat token of this name at this server: the one of this run, else the one
            // a previous run stored (the client crashed or was closed mid-game).
            std::string token = pending_address_ == resume_address_ && resume_name_ == nick_ ? resume_token_ : "";
            if (token.empty() && !config_file_.empty()) {
                std::vector<std::string> problems;
                token = load_config_file(config_file_, problems).token_for(pending_address_, nick_);
            }
            session_.hello(nick_, token, password_);
            break;
        }
        case NetEvent::Kind::Line:
            session_.handle_line(ev.text, ev.at);
            break;
        case NetEvent::Kind::Closed: {
            const bool was_ready = state_.connection == Connection::Ready;
            // A lost connection (the server restarted, the network blinked): try again
            // in the background, on whatever screen the player is. Refusals that another
            // try would only repeat (password, name, version) end at the connect screen.
            const std::string& code = state_.last_error_code;
            const bool refused = code == "bad_password" || code == "bad_name" || code == "name_taken" ||
                                 code == "bad_version" || code == "server_full";
            if ((was_ready || reconnecting_) && !refused) {
                schedule_reconnect(ev.text);
                break;
            }
            state_.connection = Connection::Disconnected;
            connect_status_ = was_ready ? t(Str::Disconnected, {ev.text}) : t(Str::ConnectFailed, {ev.text});
            // The server's last word before it closed (bad_password, idle_timeout, ...).
            // The server's reason replaces the socket's ("the server closed the connection").
            if (!state_.last_error_code.empty() && (!was_ready || state_.last_error_code == "idle_timeout"))
                connect_status_ = server_error_text(lang_, state_.last_error_code, {}, state_.last_error);
            if (state_.last_error_code == "bad_password") focus_password_ = true;
            if (screen_ != Screen::Review) screen_ = Screen::Connect;
            // A script expecting the refusal (expect error bad_password) goes on to check it.
            const bool expected = script_active_ && script_pc_ < script_.size() && script_[script_pc_].verb == "expect" &&
                                  !script_[script_pc_].args.empty() &&
                                  (script_[script_pc_].args[0] == "error" || script_[script_pc_].args[0] == "screen");
            if (script_active_ && !expected) script_fail(connect_status_);
            break;
        }
        }
    }
    for (const Cue& c : session_.take_cues()) handle_cue(c);
    send_outbox();
}

void App::handle_cue(const Cue& c) {
    switch (c.kind) {
    case Cue::Kind::Welcome:
        connect_status_ = t(Str::Connected, {state_.server_name});
        if (reconnecting_) {
            reconnecting_ = false;
            toast(Str::Reconnected);
            // No seat came back (the game ended meanwhile, or the server forgot it): the
            // lobby, not a table screen with nothing behind it.
            if (!state_.resumed) {
                // A spectator is not resumed by the server: watch the same table again.
                const bool watched = state_.table.joined() && !state_.table.board.seat();
                const int table = state_.table.id;
                state_.table = TableState{};
                if (screen_ == Screen::Table) screen_ = Screen::Lobby;  // the snapshot brings it back
                if (review_return_ == Screen::Table) review_return_ = Screen::Lobby;
                if (watched) session_.join(table, proto::Role::Spectator);
            }
        }
        save_recent(pending_address_);
        resume_token_ = state_.resume_token;
        resume_address_ = pending_address_;
        resume_name_ = state_.my_name;
        if (screen_ == Screen::Connect) screen_ = Screen::Lobby;
        break;
    case Cue::Kind::TableJoined:
        // Back at the table we had before the connection was lost: its chat stays when
        // the server has none to give (it restarted).
        if (state_.table.id == kept_table_id_ && state_.table.chat.empty()) state_.table.chat = kept_table_chat_;
        create_open_ = create_sent_ = false;
        create_error_ = nullptr;
        ctl_.reset();
        view_.stop_animation();
        if (screen_ != Screen::Review) screen_ = Screen::Table;
        scroll_moves_ = scroll_chat_ = true;
        break;
    case Cue::Kind::TableLeft:
        ctl_.reset();
        if (screen_ == Screen::Table) screen_ = Screen::Lobby;
        break;
    case Cue::Kind::MovePlayed:
        ctl_.reset();
        if (c.move) view_.animate(c.move, c.piece, c.captured, now());
        sounds_.play(c.check ? SoundKind::Check : c.captured != NO_PIECE ? SoundKind::Capture : SoundKind::Move);
        scroll_moves_ = true;
        break;
    case Cue::Kind::TakenBack:
        ctl_.reset();
        view_.stop_animation();
        sounds_.play(SoundKind::Notify);
        break;
    case Cue::Kind::GameOver:
        ctl_.reset();
        sounds_.play(SoundKind::GameEnd);
        break;
    case Cue::Kind::Offer:
    case Cue::Kind::Invitation:
        sounds_.play(SoundKind::Notify);
        break;
    case Cue::Kind::Notice:
        toast(c.str, c.text, c.arg2);
        break;
    case Cue::Kind::Error: {
        if (c.request == "move") ctl_.reset();
        Wording text = [c](Lang l) {
            return c.code.empty() ? tr(l, c.str, {c.text}) : server_error_text(l, c.code, c.request, c.text, c.detail);
        };
        if (c.request == "list_games" || c.request == "get_game") archive_error_ = text;
        if (c.request == "create_tournament") {
            tourney_error_ = text;
            tourney_create_pending_ = false;
        }
        if (c.request == "create_table") {
            // Shown in the dialog, which stays open so the settings can be fixed.
            create_error_ = text;
            create_sent_ = false;
            create_open_ = true;
        }
        toast(std::move(text));
        break;
    }
    case Cue::Kind::ArchiveGame:
        if (screen_ == Screen::Lobby) open_review_from_archive();
        break;
    case Cue::Kind::Resync:
        ctl_.reset();
        view_.stop_animation();
        toast(Str::Resynced);
        break;
    }
}

void App::toast(Str id, std::string arg, std::string arg2) {
        // Arguments naming the built-in AI are worded in the language shown.
    toast([id, arg = std::move(arg), arg2 = std::move(arg2)](Lang l) {
        return tr(l, id, {player_name(l, arg), player_name(l, arg2)});
    });
}

void App::toast(Wording make) {
    toast_make_ = std::move(make);
    toast_until_ = now() + TOAST_SECONDS;
    dirty_frames_ = 3;
}

bool App::game_in_progress_for_me() const {
    return state_.table.joined() && state_.table.board.seat() && state_.table.board.in_progress() &&
           !state_.table.board.game().over();
}

void App::request_close() {
    if (game_in_progress_for_me() && !script_active_) {
        confirm_quit_ = true;
        return;
    }
    running_ = false;
    window_.close();
}

void App::set_cursor(CursorKind k) {
    if (!cursors_ok_ || k == cursor_) return;
    window_.setMouseCursor(k == CursorKind::Hand ? hand_cursor_ : k == CursorKind::Text ? text_cursor_ : arrow_cursor_);
    cursor_ = k;
}

}  // namespace xq::client
