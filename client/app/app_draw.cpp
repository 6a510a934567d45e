// Drawing a frame: the layout, the board with the players' plates (names, clocks, captured
// pieces, the AI's thinking), the result and pause bands, the toast, the ImGui screens in
// turn; the benchmark's stage timing and screenshots.
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include <SFML/OpenGL.hpp>

#include "app/app.h"
#include "core/move_text.h"
#include "core/text_wrap.h"

namespace xq::client {

namespace {

constexpr float PANEL_MIN_W = 320.f, PANEL_MAX_W = 420.f;
// The fewest text lines a shown chat may have room for (the layout self-check).
constexpr float CHAT_MIN_LINES = 3.f;

sf::String utf8(std::string_view s) { return sf::String::fromUtf8(s.begin(), s.end()); }

std::string clock_text(std::int64_t ms) {
    if (ms < 0) return "";
    const std::int64_t s = (ms + 999) / 1000;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02d:%02d", int(s / 60), int(s % 60));
    return buf;
}

std::string score_text(int cp) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f", cp / 100.0);
    return buf;
}

}  // namespace

App::Layout App::layout() const {
    const sf::Vector2u size = window_.getSize();
    const float w = float(size.x), h = float(size.y);
    Layout L;
    L.panel_w = std::clamp(w * 0.32f, PANEL_MIN_W, PANEL_MAX_W);
    L.panel_x = w - L.panel_w;
    L.plate_h = std::clamp(h * 0.055f, 36.f, 52.f);
    L.board_x = 0;
    L.board_y = L.plate_h;
    L.board_w = L.panel_x;
    L.board_h = h - 2 * L.plate_h;
    return L;
}

BoardGeometry App::board_geometry() const {
    const Layout L = layout();
    return BoardGeometry::fit(L.board_x, L.board_y, L.board_w, L.board_h, state_.table.board.flipped());
}

void App::draw_plate(Color side, float x, float y, float w, float h) {
    const Theme& th = theme(view_.theme_index());
    const TableState& tb = state_.table;
    const SeatInfo& seat = tb.seats[side];
    const bool to_move = tb.board.in_progress() && !tb.board.game().over() && tb.board.position().side_to_move() == side;
    sf::RectangleShape bg({w, h});
    bg.setPosition(x, y);
    bg.setFillColor(to_move ? th.plate_active : th.plate);
    window_.draw(bg);
    const float r = h * 0.36f;
    view_.draw_piece_quad(window_, make_piece(side, KING), {x + h * 0.6f, y + h / 2}, r);

    sf::Text label(utf8(seat_label(lang_, seat, state_.my_name)), view_.font(), unsigned(h * 0.4f));
    label.setFillColor(th.plate_text);
    label.setPosition(std::round(x + h * 1.2f), std::round(y + h * 0.22f));
    window_.draw(label);
    float label_end = label.getPosition().x + label.getLocalBounds().width;
    // A dropped player: the countdown (or who holds the seat) beside the name.
    if (const std::string notice = seat_notice(lang_, seat, std::chrono::steady_clock::now()); !notice.empty()) {
        sf::Text warn(utf8(notice), view_.font(), unsigned(h * 0.3f));
        warn.setFillColor(sf::Color(255, 170, 90));
        warn.setPosition(std::round(label.getPosition().x + label.getLocalBounds().width + h * 0.4f),
                         std::round(y + h * 0.3f));
        window_.draw(warn);
        label_end = warn.getPosition().x + warn.getLocalBounds().width;
    }
    // The AI's thinking area (from its first moment to its move, progress or not yet): between
    // the name and the clock, wide enough for a few moves of its line.
    const bool clocked = !seat.name.empty() && tb.clock_now(side, std::chrono::steady_clock::now()) >= 0;
    const bool thinking = (tb.ai.active && tb.ai.side == side) || (to_move && (seat.ai || seat.hold_level > 0));
    const float think_right = x + w - h * 0.4f - (clocked ? h * 2.4f : 0.f);
    const float think_w = std::clamp(think_right - label_end - h * 0.5f, 0.f, std::max(std::min(w * 0.35f, 220.f), w * 0.5f));
    // The pieces this side has taken, small, between the name and the clock (or AI bar).
    if (const auto taken = captured_by(tb.board.game().start_position(), tb.board.position(), side); !taken.empty()) {
        float right = x + w - h * 0.4f - (clocked ? h * 2.4f : 0.f);
        if (thinking) right -= think_w + h * 0.3f;
        const float pr = h * 0.28f, left = label_end + h * 0.5f;
        // Overlapping a little when many are taken on a narrow plate.
        const float step = std::min(2 * pr + 2, (right - left - 2 * pr) / float(std::max<std::size_t>(1, taken.size() - 1)));
        if (step > pr * 0.6f)
            for (std::size_t i = 0; i < taken.size(); ++i)
                view_.draw_piece_quad(window_, taken[i], {left + pr + float(i) * step, y + h / 2}, pr);
    }

    // A free seat has no time to show (the last player's would be stale).
    const std::int64_t ms = seat.name.empty() ? -1 : tb.clock_now(side, std::chrono::steady_clock::now());
    if (ms >= 0) {
        sf::Text clk(clock_text(ms), view_.font(), unsigned(h * 0.5f));
        // Low time: amber under 30 s, red under 10 s (with a tick a second for our own).
        const bool low = ms < 10000 && (to_move || tb.clock_running == side);
        clk.setFillColor(low ? sf::Color(235, 40, 30) : ms < 30000 && to_move ? sf::Color(255, 150, 60) : th.plate_text);
        if (low) clk.setStyle(sf::Text::Bold);
        const auto b = clk.getLocalBounds();
        clk.setPosition(std::round(x + w - b.width - h * 0.4f), std::round(y + h * 0.16f));
        window_.draw(clk);
        if (to_move) last_clock_second_ = int(ms / 1000);
    }
    if (thinking && think_w > h) {
        // The thinking area, three rows: depth and score; as much of the expected line as fits,
        // in the chosen notation; the bar (share of root moves searched at the current depth).
        const bool reported = tb.ai.active && tb.ai.side == side;
        const float bx = think_right - think_w, bar_y = y + h * 0.8f, bar_h = h * 0.12f;
        sf::RectangleShape track({think_w, bar_h});
        track.setPosition(bx, bar_y);
        track.setFillColor(sf::Color(0, 0, 0, 90));
        window_.draw(track);
        // Before the first report (a search's first moments, a book move) the track stays empty
        // under "AI thinking…": still, so an idle window needs no redraws for it.
        sf::RectangleShape fill({reported ? think_w * float(tb.ai.percent) / 100.f : 0.f, bar_h});
        fill.setPosition(bx, bar_y);
        fill.setFillColor(th.select);
        window_.draw(fill);
        const unsigned text_px = unsigned(h * 0.3f);
        const std::string head = reported ? t(Str::ScoreFmt, {std::to_string(tb.ai.depth), score_text(tb.ai.score_cp)})
                                          : t(Str::AiThinking);
        sf::Text info(utf8(head), view_.font(), text_px);
        info.setFillColor(th.plate_text);
        info.setPosition(std::round(bx), std::round(y + h * 0.02f));
        window_.draw(info);
        thinking_shown_ = head;
        if (reported && !tb.ai.pv.empty()) {
            sf::Text probe(sf::String(), view_.font(), text_px);
            const std::string line = fit_parts(pv_texts(tb.board.position(), tb.ai.pv, notation_), think_w,
                                               [&probe](const std::string& s) {
                                                   probe.setString(utf8(s));
                                                   return probe.getLocalBounds().width;
                                               });
            if (!line.empty()) {
                thinking_shown_ += " | " + line;
                thinking_moves_shown_ = int(std::count(line.begin(), line.end(), ' ')) + 1 -
                                        (line.size() >= 3 && line.ends_with("…") ? 1 : 0);
                sf::Text pv(utf8(line), view_.font(), text_px);
                pv.setFillColor(th.plate_text);
                pv.setPosition(std::round(bx), std::round(y + h * 0.4f));
                window_.draw(pv);
            }
        }
    }
}

void App::draw_table_board(const Layout& L) {
    const TableState& tb = state_.table;
    const BoardGeometry geo = board_geometry();
    view_.draw(window_, geo, tb.board.position(), tb.board.last_move(), tb.board.checked_king(), &ctl_, now());
    stage_mark(Stage::Board);
    thinking_shown_.clear();
    thinking_moves_shown_ = 0;
    const Color bottom = tb.board.flipped() ? BLACK : RED;
    draw_plate(~bottom, L.board_x, 0, L.board_w, L.plate_h);
    draw_plate(bottom, L.board_x, L.board_y + L.board_h, L.board_w, L.plate_h);
    // Our hint, until the position changes (a green arrow, as Review's best move).
    table_arrow_ = Move::none();
    if (!tb.hint_move.empty() && tb.hint_ply == tb.board.ply()) {
        const Square f = square_from_string(std::string_view(tb.hint_move).substr(0, 2));
        const Square to = square_from_string(std::string_view(tb.hint_move).substr(2, 2));
        if (tb.hint_move.size() == 4 && f != SQ_NONE && to != SQ_NONE) table_arrow_ = Move(f, to);
        AnalysisPanel::draw_arrow(window_, geo, table_arrow_);
    }
    band_rect_ = {};
    if (tb.result_shown && !tb.result_text.empty()) draw_banner(geo);
    else if (tb.paused && tb.board.in_progress() && !tb.board.game().over()) draw_paused(geo);
}

namespace {

// A band across the river with a headline and a line below it: the result of a game, or the
// arbiter's pause.
struct RiverBand {
    float height_cells;  // the band's height, in board cells
    sf::Uint8 alpha;
    sf::Color outline;
    std::string head;
    float head_cells;  // the headline's character size, in board cells
    sf::Color head_color;
    float head_top;  // the headline's top, as a fraction of the band's height
    std::string line;
    float line_cells;
    float line_min_px;
};

// Returns where the band was drawn.
sf::FloatRect draw_river_band(sf::RenderWindow& window, const sf::Font& font, const BoardGeometry& g, const RiverBand& band) {
    const float w = g.cell * 8.6f, h = g.cell * band.height_cells;
    const float x = g.left + 4 * g.cell - w / 2, y = g.top + 4.5f * g.cell - h / 2;
    sf::RectangleShape box({w, h});
    box.setPosition(x, y);
    box.setFillColor(sf::Color(20, 14, 10, band.alpha));
    box.setOutlineThickness(2);
    box.setOutlineColor(band.outline);
    window.draw(box);
    auto centred = [&](sf::Text& text, float top) {
        const auto b = text.getLocalBounds();
        text.setPosition(std::round(x + (w - b.width) / 2 - b.left), std::round(y + h * top));
        window.draw(text);
    };
    sf::Text big(utf8(band.head), font, unsigned(g.cell * band.head_cells));
    big.setStyle(sf::Text::Bold);
    big.setFillColor(band.head_color);
    centred(big, band.head_top);
    sf::Text small(utf8(band.line), font, unsigned(std::max(band.line_min_px, g.cell * band.line_cells)));
    small.setFillColor(sf::Color(235, 225, 210));
    centred(small, 0.62f);
    return {x, y, w, h};
}

}  // namespace

void App::draw_paused(const BoardGeometry& g) {
    // Across the river, so no one takes the stopped clocks for a frozen client.
    draw_river_band(window_, view_.font(), g,
                    {1.6f, 200, sf::Color(255, 170, 90), std::string(t(Str::PausedByArbiter)), 0.55f,
                     sf::Color(255, 190, 110), 0.12f, std::string(t(Str::PausedClocksStopped)), 0.26f, 11.f});
}

void App::draw_banner(const BoardGeometry& g) {
    const TableState& tb = state_.table;
    const Str head = tb.outcome == Outcome::RedWins ? Str::RedWins : tb.outcome == Outcome::BlackWins ? Str::BlackWins : Str::DrawResult;
    // The reason in the player's language, from its code (the server's text is English).
    const Str r = end_reason_string(tb.result_reason);
    std::string why = r != Str::Ok ? std::string(t(r)) : lang_ == Lang::English ? tb.result_text : std::string();
    band_rect_ = draw_river_band(window_, view_.font(), g,
                    {2.4f, 215, theme(view_.theme_index()).select, std::string(t(head)), 0.8f,
                     tb.outcome == Outcome::RedWins ? sf::Color(240, 80, 70) : sf::Color(245, 235, 220), 0.14f,
                     std::move(why), 0.32f, 12.f});
}

void App::draw_toast(const Layout& L) {
    const float t_now = now();
    if (!toast_make_ || t_now > toast_until_) return;
    const float alpha = std::clamp((toast_until_ - t_now) / 0.6f, 0.f, 1.f);
    // Lines no wider than the board (a long refusal at 640x480 ran off the window's edge).
    const sf::String whole = utf8(toast_text());
    const std::u32string chars(whole.begin(), whole.end());
    sf::Text measure("", view_.font(), 17);
    const auto lines = wrap_lines(chars, std::max(120.f, L.board_w - 48), [&](const std::u32string& s) {
        measure.setString(sf::String(std::basic_string<sf::Uint32>(s.begin(), s.end())));
        return measure.getLocalBounds().width;
    });
    std::basic_string<sf::Uint32> shown;
    for (const std::u32string& line : lines) {
        if (!shown.empty()) shown += sf::Uint32('\n');
        shown.append(line.begin(), line.end());
    }
    sf::Text text(sf::String(shown), view_.font(), 17);
    const auto b = text.getLocalBounds();
    const float w = b.width + 36, h = std::max(38.f, b.height + 22);
    const float x = std::max(2.f, std::round(L.board_x + (L.board_w - w) / 2));
    const float y = std::round(L.board_y + L.board_h - h - 14);
    sf::RectangleShape box({w, h});
    box.setPosition(x, y);
    box.setFillColor(sf::Color(25, 25, 25, sf::Uint8(220 * alpha)));
    window_.draw(box);
    text.setFillColor(sf::Color(255, 245, 230, sf::Uint8(255 * alpha)));
    text.setPosition(std::round(x + 18 - b.left), std::round(y + (h - b.height) / 2 - b.top));
    window_.draw(text);
}

void App::render() {
    const float dt = frame_clock_.restart().asSeconds();
    if (dirty_frames_ > 0) --dirty_frames_;
    last_render_at_ = now();
    last_grace_second_ = grace_second_now();
    const Theme& th = theme(view_.theme_index());
    stage_start();
    window_.clear(th.window_bg);
    stage_mark(Stage::Clear);
    const Layout L = layout();

    if (screen_ == Screen::Table) {
        if (!std::getenv("XQ_NOBOARD")) draw_table_board(L);
    } else if (screen_ == Screen::Review) {
        const BoardGeometry geo = BoardGeometry::fit(L.board_x, L.board_y, L.board_w, L.board_h, review_flipped_);
        const Move last = review_ply_ > 0 ? review_moves_[std::size_t(review_ply_ - 1)].move : Move::none();
        const Square king = review_pos_.in_check() ? review_pos_.king_square(review_pos_.side_to_move()) : SQ_NONE;
        view_.draw(window_, geo, review_pos_, last, king, nullptr, now());
        review_arrow_ = AnalysisPanel::best_move(state_.analysis, review_analysed(), review_ply_);
        AnalysisPanel::draw_arrow(window_, geo, review_arrow_);
    } else {
        // Connect and lobby: the start position as a backdrop on the left.
        const BoardGeometry geo = BoardGeometry::fit(0, 0, L.panel_x, float(window_.getSize().y), false);
        view_.draw(window_, geo, Position(), Move::none(), SQ_NONE, nullptr, now());
    }

    stage_mark(Stage::Plates);
    gui_.new_frame(window_, dt);
    chat_room_lines_ = -1;
    in_sight_.clear();
    switch (screen_) {
    case Screen::Connect: ui_connect(); break;
    case Screen::Lobby: ui_lobby(); break;
    case Screen::Table: ui_table(); break;
    case Screen::Review: ui_review(); break;
    }
    ui_dialogs();
    ui_reconnect_banner();
    layout_problems_ = layout_overflow(ImVec2(float(window_.getSize().x), float(window_.getSize().y)));
    if (chat_room_lines_ >= 0 && chat_room_lines_ < CHAT_MIN_LINES) {
        if (!layout_problems_.empty()) layout_problems_ += "; ";
        layout_problems_ += "chat: room for " + std::to_string(int(chat_room_lines_)) + " lines";
    }
    stage_mark(Stage::GuiBuild);
    if (std::getenv("XQ_NOGUI")) ImGui::EndFrame(); else gui_.render(window_);
    stage_mark(Stage::GuiRender);
    draw_toast(L);
    // A piece being dragged stays in sight over the side panel, the dialogs and the toast.
    if (screen_ == Screen::Table) view_.draw_drag(window_, state_.table.board.position(), ctl_);
    stage_mark(Stage::Toast);

    if (!pending_screenshot_.empty()) {
        save_screenshot(pending_screenshot_);
        pending_screenshot_.clear();
    }
    window_.display();
    stage_mark(Stage::Present);
}

void App::stage_start() {
    if (stage_timing_) stage_t_ = std::chrono::steady_clock::now();
}

void App::stage_mark(Stage s) {
    if (!stage_timing_) return;
    glFinish();  // the software renderer works lazily: make each stage pay for its pixels
    const auto t = std::chrono::steady_clock::now();
    stage_ms_[std::size_t(s)] += std::chrono::duration<double, std::milli>(t - stage_t_).count();
    stage_t_ = t;
}

void App::save_screenshot(const std::string& path) {
    sf::Texture tex;
    const sf::Vector2u size = window_.getSize();
    if (!tex.create(size.x, size.y)) {
        script_fail("screenshot: could not create a texture");
        return;
    }
    tex.update(window_);
    if (!tex.copyToImage().saveToFile(path)) script_fail("screenshot: could not write " + path);
    else std::cout << "screenshot " << path << "\n" << std::flush;
}

}  // namespace xq::client
