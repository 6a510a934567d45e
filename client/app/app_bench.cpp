// The frame-time benchmark (--bench-frames): a busy offline table drawn frame after frame
// against a clear-and-present baseline, each stage's share, and the idle loop's CPU.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "app/app.h"
#include "core/move_text.h"

namespace xq::client {

namespace {

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int App::bench() {
    // An offline table in a middle game with a piece selected: the busiest ordinary frame.
    static constexpr const char* MOVES[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5",
                                            "c3c4", "b7a7", "b2a2", "a9b9", "h0h4", "g6g5", "a2a6", "h7h5"};
    TableState& tb = state_.table;
    tb.id = 1;
    tb.name = "bench";
    tb.seats[RED].name = "Bench";
    tb.seats[BLACK].name = "AI";
    tb.seats[BLACK].ai = true;
    tb.seats[BLACK].ai_level = 6;
    tb.rules.clock = "fischer:300+5";
    tb.clock_ms = {287000, 301000};
    tb.clock_running = RED;
    tb.clock_stamp = std::chrono::steady_clock::now();
    std::vector<std::string> moves(std::begin(MOVES), std::end(MOVES));
    const std::string err = tb.board.load_snapshot({}, moves);
    if (!err.empty()) {
        std::cerr << "bench: " << err << "\n";
        return 2;
    }
    tb.board.set_seat(RED);
    tb.board.set_in_progress(true);
    tb.moves = describe_moves(tb.board.game().start_position(), tb.board.game().moves());
    tb.status = "playing";
    for (int i = 0; i < 12; ++i) push_chat(tb.chat, {"Bench", "chat line " + std::to_string(i)});
    tb.ai = {true, BLACK, 9, 35, 40};
    state_.my_name = "Bench";
    screen_ = Screen::Table;
    window_.setSize({opt_.width, opt_.height});
    window_.setView(sf::View(sf::FloatRect(0, 0, float(opt_.width), float(opt_.height))));
    const BoardGeometry geo = board_geometry();
    const PointF c = geo.center(make_square(6, 2));  // the horse on g2
    ctl_.press(tb.board, geo, c.x, c.y);
    ctl_.release(tb.board, geo, c.x, c.y);

    sf::Event e;
    // Baseline in the same run: a frame that only clears and presents the window, which
    // is what the (software) renderer costs before we draw anything.
    std::vector<double> base;
    for (int i = 0; i < opt_.bench_frames / 2 + 10; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        while (window_.pollEvent(e)) gui_.process_event(e);
        window_.clear(theme(view_.theme_index()).window_bg);
        window_.display();
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 10) base.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(base.begin(), base.end());
    std::vector<double> ms;
    ms.reserve(std::size_t(opt_.bench_frames));
    for (int i = 0; i < opt_.bench_frames + 10; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        while (window_.pollEvent(e)) gui_.process_event(e);
        // The last move's glide, as when it arrived from the server.
        if (i % 20 == 0) view_.animate(Move(make_square(7, 7), make_square(7, 5)), B_CANNON, NO_PIECE, now());
        render();
        const auto t1 = std::chrono::steady_clock::now();
        if (i >= 10) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());  // skip warm-up
    }
    // Where the time goes: a separate pass whose stages each wait for the renderer.
    const int stage_frames = std::max(20, opt_.bench_frames / 3);
    stage_timing_ = true;
    stage_ms_ = {};
    for (int i = 0; i < stage_frames; ++i) {
        while (window_.pollEvent(e)) gui_.process_event(e);
        render();
    }
    stage_timing_ = false;
    if (!opt_.screenshot.empty()) {
        pending_screenshot_ = opt_.screenshot;
        render();
    }
    std::sort(ms.begin(), ms.end());
    auto pct_of = [](const std::vector<double>& v, double p) { return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))]; };
    auto pct = [&](double p) { return pct_of(ms, p); };

    // Idle: nothing changes, so the loop should sleep rather than draw.
    ctl_.reset();
    tb.ai.active = false;
    view_.stop_animation();
    toast_make_ = nullptr;
    dirty_frames_ = 0;
    const double cpu0 = cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    int drawn = 0;
    while (std::chrono::steady_clock::now() - w0 < std::chrono::seconds(2)) {
        while (window_.pollEvent(e)) {
        }
        if (needs_redraw()) {
            render();
            ++drawn;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(8));
        }
    }
    const double idle_cpu = (cpu_seconds() - cpu0) / 2.0 * 100.0;
    const auto size = window_.getSize();
    std::printf("bench-frames: %zu frames at %ux%u  p50 %.2f ms  p99 %.2f ms  max %.2f ms\n", ms.size(), size.x,
                size.y, pct(0.50), pct(0.99), ms.back());
    std::printf("baseline (clear + present only): p50 %.2f ms  p99 %.2f ms;  busy/baseline p50 ratio %.1f\n",
                pct_of(base, 0.5), pct_of(base, 0.99), pct(0.5) / std::max(0.01, pct_of(base, 0.5)));
    std::printf("idle: %d frames drawn in 2 s, CPU %.1f%% of one core\n", drawn, idle_cpu);
    static constexpr const char* STAGE_NAMES[] = {"clear", "board", "plates", "gui-build", "gui-render", "toast", "present"};
    std::printf("widgets: drawn %d times, reused %d times\n", gui_.frames_drawn(), gui_.frames_reused());
    std::printf("stages (mean ms, each ending in glFinish):");
    for (std::size_t i = 0; i < stage_ms_.size(); ++i) std::printf(" %s %.2f", STAGE_NAMES[i], stage_ms_[i] / stage_frames);
    std::printf("\n");
    return 0;
}

}  // namespace xq::client
