#include "app/imgui_glue.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl2.h>

#include <cstring>

#include <SFML/OpenGL.hpp>
#include <SFML/Window/Clipboard.hpp>

namespace xq::client {

namespace {

int key_index(sf::Keyboard::Key k) { return k >= 0 && k < 512 ? int(k) : -1; }

void set_clipboard(void*, const char* text) { sf::Clipboard::setString(sf::String::fromUtf8(text, text + std::strlen(text))); }

}  // namespace

bool ImGuiGlue::init(sf::RenderWindow& window, const std::string& font_path, float pixel_size,
                     const std::string& extra_text, std::string& error) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is code-driven; no imgui.ini next to the binary
    io.BackendPlatformName = "xq_sfml";
    io.KeyMap[ImGuiKey_Tab] = sf::Keyboard::Tab;
    io.KeyMap[ImGuiKey_LeftArrow] = sf::Keyboard::Left;
    io.KeyMap[ImGuiKey_RightArrow] = sf::Keyboard::Right;
    io.KeyMap[ImGuiKey_UpArrow] = sf::Keyboard::Up;
    io.KeyMap[ImGuiKey_DownArrow] = sf::Keyboard::Down;
    io.KeyMap[ImGuiKey_PageUp] = sf::Keyboard::PageUp;
    io.KeyMap[ImGuiKey_PageDown] = sf::Keyboard::PageDown;
    io.KeyMap[ImGuiKey_Home] = sf::Keyboard::Home;
    io.KeyMap[ImGuiKey_End] = sf::Keyboard::End;
    io.KeyMap[ImGuiKey_Insert] = sf::Keyboard::Insert;
    io.KeyMap[ImGuiKey_Delete] = sf::Keyboard::Delete;
    io.KeyMap[ImGuiKey_Backspace] = sf::Keyboard::Backspace;
    io.KeyMap[ImGuiKey_Space] = sf::Keyboard::Space;
    io.KeyMap[ImGuiKey_Enter] = sf::Keyboard::Enter;
    io.KeyMap[ImGuiKey_Escape] = sf::Keyboard::Escape;
    io.KeyMap[ImGuiKey_KeyPadEnter] = sf::Keyboard::Enter;
    io.KeyMap[ImGuiKey_A] = sf::Keyboard::A;
    io.KeyMap[ImGuiKey_C] = sf::Keyboard::C;
    io.KeyMap[ImGuiKey_V] = sf::Keyboard::V;
    io.KeyMap[ImGuiKey_X] = sf::Keyboard::X;
    io.KeyMap[ImGuiKey_Y] = sf::Keyboard::Y;
    io.KeyMap[ImGuiKey_Z] = sf::Keyboard::Z;
    io.ClipboardUserData = this;
    io.SetClipboardTextFn = set_clipboard;
    io.GetClipboardTextFn = [](void* self) -> const char* {
        auto* glue = static_cast<ImGuiGlue*>(self);
        const sf::String s = sf::Clipboard::getString();
        glue->clipboard_.clear();
        for (const auto b : s.toUtf8()) glue->clipboard_.push_back(char(b));
        return glue->clipboard_.c_str();
    };

    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
    builder.AddText(extra_text.c_str());
    ranges_.clear();
    builder.BuildRanges(&ranges_);
    ImFontConfig cfg;
    cfg.OversampleH = 1;  // CJK glyphs are dense; 1x keeps the atlas small and build fast
    cfg.OversampleV = 1;
    cfg.PixelSnapH = true;
    ImFont* font = io.Fonts->AddFontFromFileTTF(font_path.c_str(), pixel_size, &cfg, ranges_.Data);
    if (!font) {
        error = "Dear ImGui could not load the font " + font_path;
        ImGui::DestroyContext();
        return false;
    }
    big_font_ = io.Fonts->AddFontFromFileTTF(font_path.c_str(), pixel_size * 1.4f, &cfg, ranges_.Data);
    ImGui::StyleColorsLight();
    ImGuiStyle& style = ImGui::GetStyle();
    // Warm paper and wood, to sit beside the board rather than look like a debug panel.
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = ImVec4(0.96f, 0.93f, 0.87f, 1.f);
    c[ImGuiCol_ChildBg] = ImVec4(0.99f, 0.97f, 0.93f, 1.f);
    c[ImGuiCol_PopupBg] = ImVec4(0.99f, 0.97f, 0.93f, 1.f);
    c[ImGuiCol_Border] = ImVec4(0.62f, 0.48f, 0.34f, 0.55f);
    c[ImGuiCol_FrameBg] = ImVec4(1.f, 1.f, 0.99f, 1.f);
    c[ImGuiCol_FrameBgHovered] = ImVec4(0.98f, 0.92f, 0.82f, 1.f);
    c[ImGuiCol_FrameBgActive] = ImVec4(0.95f, 0.86f, 0.72f, 1.f);
    c[ImGuiCol_Button] = ImVec4(0.84f, 0.68f, 0.48f, 1.f);
    c[ImGuiCol_ButtonHovered] = ImVec4(0.90f, 0.74f, 0.52f, 1.f);
    c[ImGuiCol_ButtonActive] = ImVec4(0.74f, 0.55f, 0.34f, 1.f);
    c[ImGuiCol_Header] = ImVec4(0.88f, 0.76f, 0.60f, 1.f);
    c[ImGuiCol_HeaderHovered] = ImVec4(0.92f, 0.80f, 0.62f, 1.f);
    c[ImGuiCol_HeaderActive] = ImVec4(0.80f, 0.64f, 0.44f, 1.f);
    c[ImGuiCol_CheckMark] = ImVec4(0.72f, 0.12f, 0.10f, 1.f);
    c[ImGuiCol_SliderGrab] = ImVec4(0.72f, 0.12f, 0.10f, 1.f);
    c[ImGuiCol_SliderGrabActive] = ImVec4(0.85f, 0.20f, 0.15f, 1.f);
    c[ImGuiCol_TableHeaderBg] = ImVec4(0.88f, 0.78f, 0.62f, 1.f);
    c[ImGuiCol_TableRowBgAlt] = ImVec4(0.95f, 0.90f, 0.82f, 0.6f);
    c[ImGuiCol_Separator] = ImVec4(0.62f, 0.48f, 0.34f, 0.5f);
    c[ImGuiCol_TextDisabled] = ImVec4(0.50f, 0.42f, 0.35f, 1.f);
    style.WindowRounding = 6;
    style.FrameRounding = 4;
    style.GrabRounding = 4;
    style.ChildRounding = 4;
    style.PopupRounding = 4;
    style.WindowBorderSize = 1;
    style.FrameBorderSize = 1;
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(8, 6);
    window.setActive(true);
    ImGui_ImplOpenGL2_Init();
    active_ = true;
    return true;
}

void ImGuiGlue::shutdown() {
    if (!active_) return;
    ImGui_ImplOpenGL2_Shutdown();
    ImGui::DestroyContext();
    active_ = false;
}

void ImGuiGlue::process_event(const sf::Event& e) {
    ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
    case sf::Event::MouseMoved: io.MousePos = ImVec2(float(e.mouseMove.x), float(e.mouseMove.y)); break;
    case sf::Event::MouseButtonPressed:
    case sf::Event::MouseButtonReleased: {
        const int b = e.mouseButton.button;
        if (b >= 0 && b < 3) io.MouseDown[b] = e.type == sf::Event::MouseButtonPressed;
        io.MousePos = ImVec2(float(e.mouseButton.x), float(e.mouseButton.y));
        break;
    }
    case sf::Event::MouseWheelScrolled:
        if (e.mouseWheelScroll.wheel == sf::Mouse::VerticalWheel) io.MouseWheel += e.mouseWheelScroll.delta;
        else io.MouseWheelH += e.mouseWheelScroll.delta;
        break;
    case sf::Event::MouseLeft: io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX); break;
    case sf::Event::KeyPressed:
    case sf::Event::KeyReleased: {
        const int k = key_index(e.key.code);
        if (k >= 0) io.KeysDown[k] = e.type == sf::Event::KeyPressed;
        io.KeyCtrl = e.key.control;
        io.KeyShift = e.key.shift;
        io.KeyAlt = e.key.alt;
        io.KeySuper = e.key.system;
        break;
    }
    case sf::Event::TextEntered:
        // Control characters come through KeysDown; only printable text goes here.
        if (e.text.unicode >= 32 && e.text.unicode != 127) io.AddInputCharacter(e.text.unicode);
        break;
    case sf::Event::LostFocus:
        for (bool& k : io.KeysDown) k = false;
        io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
        break;
    default: break;
    }
}

void ImGuiGlue::new_frame(sf::RenderWindow& window, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    const auto size = window.getSize();
    io.DisplaySize = ImVec2(float(size.x), float(size.y));
    io.DeltaTime = dt > 0 ? dt : 1.f / 60.f;
    ImGui_ImplOpenGL2_NewFrame();
    ImGui::NewFrame();
}

void ImGuiGlue::render(sf::RenderWindow& window) {
    ImGui::Render();
    // SFML caches GL state; hand ImGui a clean slate and tell SFML afterwards.
    window.pushGLStates();
    ImGui_ImplOpenGL2_RenderDrawData(ImGui::GetDrawData());
    window.popGLStates();
}

ImGuiMouseCursor ImGuiGlue::wanted_cursor() const { return active_ ? ImGui::GetMouseCursor() : ImGuiMouseCursor_Arrow; }

bool ImGuiGlue::wants_mouse() const { return active_ && ImGui::GetIO().WantCaptureMouse; }
bool ImGuiGlue::wants_keyboard() const { return active_ && ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace xq::client
