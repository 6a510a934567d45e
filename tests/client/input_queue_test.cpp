// The input path from window events to Dear ImGui widgets, headless: a real ImGui context
// with a built font atlas and no renderer. Quick clicks and key chords must not be lost.
#include <gtest/gtest.h>

#include <imgui.h>

#include <cstring>
#include <string>
#include <vector>

#include "app/input_queue.h"
#include "app/ui_common.h"

namespace xq::client {
namespace {

sf::Event mouse(sf::Event::EventType type, int x, int y, sf::Mouse::Button b = sf::Mouse::Left) {
    sf::Event e{};
    e.type = type;
    if (type == sf::Event::MouseMoved) {
        e.mouseMove.x = x;
        e.mouseMove.y = y;
    } else {
        e.mouseButton.button = b;
        e.mouseButton.x = x;
        e.mouseButton.y = y;
    }
    return e;
}

sf::Event key(sf::Event::EventType type, sf::Keyboard::Key code, bool ctrl = false) {
    sf::Event e{};
    e.type = type;
    e.key.code = code;
    e.key.control = ctrl;
    return e;
}

sf::Event text(char32_t c) {
    sf::Event e{};
    e.type = sf::Event::TextEntered;
    e.text.unicode = c;
    return e;
}

// A window with a button at a known place and a text field, drawn frame after frame.
class Harness {
public:
    Harness() {
        ctx_ = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(400, 300);
        io.DeltaTime = 1.f / 60.f;
        map_imgui_keys(io);
        io.ClipboardUserData = this;
        io.SetClipboardTextFn = [](void* self, const char* t) { static_cast<Harness*>(self)->clipboard_ = t; };
        io.GetClipboardTextFn = [](void* self) { return static_cast<Harness*>(self)->clipboard_.c_str(); };
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        std::snprintf(field_, sizeof field_, "hello");
        frame();  // lay the window out once
    }
    ~Harness() { ImGui::DestroyContext(ctx_); }

    // One frame: the queue's next batch, then the widgets.
    void frame() {
        for (const sf::Event& e : queue_.next_frame()) apply_to_imgui(ImGui::GetIO(), e);
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(400, 300));
        ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
        ImGui::SetCursorPos(ImVec2(10, 10));
        if (ImGui::Button("OK", ImVec2(100, 40))) ++clicks_;
        ImGui::SetCursorPos(ImVec2(10, 100));
        ImGui::SetNextItemWidth(300);
        ImGui::InputText("##field", field_, sizeof field_);
        ImGui::End();
        ImGui::Render();
    }
    // Frames until every queued event was seen, plus one to settle.
    int run() {
        int n = 0;
        while (!queue_.empty()) frame(), ++n;
        frame();
        return n;
    }

    InputQueue queue_;
    int clicks_ = 0;
    char field_[64] = {};
    std::string clipboard_;

private:
    ImGuiContext* ctx_ = nullptr;
};

TEST(InputQueue, PressAndReleaseInOneFrameIsAClick) {
    Harness h;
    h.queue_.push(mouse(sf::Event::MouseMoved, 50, 30));
    h.queue_.push(mouse(sf::Event::MouseButtonPressed, 50, 30));
    h.queue_.push(mouse(sf::Event::MouseButtonReleased, 50, 30));
    EXPECT_GE(h.run(), 2);  // the release waited for the next frame
    EXPECT_EQ(h.clicks_, 1);
}

TEST(InputQueue, ThreeQuickClicksAreThreeClicks) {
    Harness h;
    for (int i = 0; i < 3; ++i) {
        h.queue_.push(mouse(sf::Event::MouseButtonPressed, 60, 25));
        h.queue_.push(mouse(sf::Event::MouseButtonReleased, 60, 25));
    }
    h.run();
    EXPECT_EQ(h.clicks_, 3);
}

TEST(InputQueue, ClickThenMoveAwayStillClicksWhereItWas) {
    Harness h;
    h.queue_.push(mouse(sf::Event::MouseButtonPressed, 50, 30));
    h.queue_.push(mouse(sf::Event::MouseButtonReleased, 50, 30));
    h.queue_.push(mouse(sf::Event::MouseMoved, 300, 250));
    h.run();
    EXPECT_EQ(h.clicks_, 1);
}

// A pointer that jumps from a widget to a free part of the window and clicks there within one
// frame (xdotool, a tap on a touch screen): the app asks Dear ImGui whether the press is its
// own before handing it to the board, and the answer must already be about the new place.
TEST(InputQueue, PressWhereThePointerJustArrivedSeesTheNewHover) {
    Harness h;
    h.queue_.push(mouse(sf::Event::MouseMoved, 50, 30));  // over the window's button
    h.run();
    ASSERT_TRUE(ImGui::GetIO().WantCaptureMouse);
    h.queue_.push(mouse(sf::Event::MouseMoved, 390, 295));  // still inside: the window covers all
    h.queue_.push(mouse(sf::Event::MouseMoved, 500, 400));  // off the window
    h.queue_.push(mouse(sf::Event::MouseButtonPressed, 500, 400));
    h.queue_.push(mouse(sf::Event::MouseButtonReleased, 500, 400));
    bool pressed = false, captured_at_press = true;
    for (int i = 0; i < 5 && !pressed; ++i) {
        for (const sf::Event& e : h.queue_.next_frame()) {
            if (e.type == sf::Event::MouseButtonPressed) {
                pressed = true;
                captured_at_press = ImGui::GetIO().WantCaptureMouse;  // what the app reads
            }
            apply_to_imgui(ImGui::GetIO(), e);
        }
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(400, 300));
        ImGui::Begin("w", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
        ImGui::End();
        ImGui::Render();
    }
    ASSERT_TRUE(pressed);
    EXPECT_FALSE(captured_at_press);
    EXPECT_EQ(h.clicks_, 0);
}

TEST(InputQueue, OrderIsKeptAndNothingDropped) {
    InputQueue q;
    q.push(mouse(sf::Event::MouseMoved, 1, 1));
    q.push(mouse(sf::Event::MouseButtonPressed, 1, 1));
    q.push(mouse(sf::Event::MouseButtonReleased, 1, 1));
    q.push(mouse(sf::Event::MouseMoved, 2, 2));
    q.push(key(sf::Event::KeyPressed, sf::Keyboard::A));
    q.push(key(sf::Event::KeyReleased, sf::Keyboard::A));
    std::vector<sf::Event::EventType> seen;
    std::vector<std::size_t> sizes;
    while (!q.empty()) {
        const auto batch = q.next_frame();
        ASSERT_FALSE(batch.empty());
        sizes.push_back(batch.size());
        for (const auto& e : batch) seen.push_back(e.type);
    }
    const std::vector<sf::Event::EventType> want{sf::Event::MouseMoved,  sf::Event::MouseButtonPressed,
                                                 sf::Event::MouseButtonReleased, sf::Event::MouseMoved,
                                                 sf::Event::KeyPressed, sf::Event::KeyReleased};
    EXPECT_EQ(seen, want);
    EXPECT_EQ(sizes, (std::vector<std::size_t>{1, 1, 1, 2, 1}));
}

// Clicks the field, then runs a key chord typed within one frame: Ctrl down, key down,
// key up, Ctrl up.
void chord(Harness& h, sf::Keyboard::Key k) {
    h.queue_.push(key(sf::Event::KeyPressed, sf::Keyboard::LControl));
    h.queue_.push(key(sf::Event::KeyPressed, k, true));
    h.queue_.push(key(sf::Event::KeyReleased, k, true));
    h.queue_.push(key(sf::Event::KeyReleased, sf::Keyboard::LControl, false));
}

void focus_field(Harness& h) {
    h.queue_.push(mouse(sf::Event::MouseButtonPressed, 100, 110));
    h.queue_.push(mouse(sf::Event::MouseButtonReleased, 100, 110));
    h.run();
    ASSERT_TRUE(ImGui::GetIO().WantTextInput);
}

TEST(InputQueue, TypingIntoAFieldKeepsEveryCharacter) {
    Harness h;
    focus_field(h);
    for (char c : std::string("abc")) {
        const auto k = sf::Keyboard::Key(sf::Keyboard::A + (c - 'a'));
        h.queue_.push(key(sf::Event::KeyPressed, k));
        h.queue_.push(text(char32_t(c)));
        h.queue_.push(key(sf::Event::KeyReleased, k));
    }
    h.queue_.push(key(sf::Event::KeyPressed, sf::Keyboard::Backspace));
    h.queue_.push(key(sf::Event::KeyReleased, sf::Keyboard::Backspace));
    h.run();
    EXPECT_STREQ(h.field_, "helloab");
}

// Typed emoji (above U+FFFF, which Dear ImGui 1.86's 16-bit fields cannot hold) go into the
// field by the names the chat shows them by, never as U+FFFD.
TEST(InputQueue, TypedEmojiGoInByTheirNames) {
    Harness h;
    focus_field(h);
    h.queue_.push(text(U'\U0001F44D'));  // thumbs up
    h.queue_.push(text(U' '));
    h.queue_.push(text(U'\U0001F996'));  // T. rex: no short name
    h.queue_.push(text(U'\u4F60'));      // 你 stays itself
    h.run();
    EXPECT_STREQ(h.field_, "hello:+1: [U+1F996]\xE4\xBD\xA0");
}

TEST(InputQueue, CtrlAThenTypingReplacesTheText) {
    Harness h;
    focus_field(h);
    chord(h, sf::Keyboard::A);
    h.queue_.push(key(sf::Event::KeyPressed, sf::Keyboard::X));
    h.queue_.push(text(U'x'));
    h.queue_.push(key(sf::Event::KeyReleased, sf::Keyboard::X));
    h.run();
    EXPECT_STREQ(h.field_, "x");
}

TEST(InputQueue, CtrlCAndCtrlVCopyAndPaste) {
    Harness h;
    focus_field(h);
    chord(h, sf::Keyboard::A);
    chord(h, sf::Keyboard::C);
    h.run();
    EXPECT_EQ(h.clipboard_, "hello");
    h.queue_.push(key(sf::Event::KeyPressed, sf::Keyboard::End));
    h.queue_.push(key(sf::Event::KeyReleased, sf::Keyboard::End));
    chord(h, sf::Keyboard::V);
    h.run();
    EXPECT_STREQ(h.field_, "hellohello");
}

// The chats' field: Enter sends the line and leaves the keyboard in the field, so a second
// line typed at once is sent too (the focus used to go to the Send button after the first).
TEST(InputQueue, ChatFieldKeepsTheKeyboardAfterEnter) {
    ImGuiContext* ctx = ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(400, 300);
    io.DeltaTime = 1.f / 60.f;
    map_imgui_keys(io);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    InputQueue q;
    char buf[64] = {};
    std::vector<std::string> sent;
    auto frame = [&] {
        for (const sf::Event& e : q.next_frame()) apply_to_imgui(io, e);
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(400, 300));
        ImGui::Begin("chat", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
        ImGui::SetCursorPos(ImVec2(10, 100));
        if (ui::send_field("##msg", buf, sizeof buf, "Send")) {
            sent.emplace_back(buf);
            buf[0] = '\0';
        }
        ImGui::End();
        ImGui::Render();
    };
    auto run = [&] {
        while (!q.empty()) frame();
        frame();
        frame();
    };
    frame();
    q.push(mouse(sf::Event::MouseButtonPressed, 60, 110));  // into the field
    q.push(mouse(sf::Event::MouseButtonReleased, 60, 110));
    run();
    for (const char* line : {"hi", "yo"}) {
        for (const char* c = line; *c; ++c) q.push(text(char32_t(*c)));
        q.push(key(sf::Event::KeyPressed, sf::Keyboard::Enter));
        q.push(key(sf::Event::KeyReleased, sf::Keyboard::Enter));
        run();
    }
    EXPECT_EQ(sent, (std::vector<std::string>{"hi", "yo"}));
    EXPECT_TRUE(io.WantTextInput) << "the field still has the keyboard";
    ImGui::DestroyContext(ctx);
}

}  // namespace
}  // namespace xq::client
