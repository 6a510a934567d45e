#include "app/imgui_glue.h"

#include "app/input_queue.h"

#define GL_GLEXT_PROTOTYPES 1
#include <imgui.h>
#include <imgui_internal.h>
#include <backends/imgui_impl_opengl2.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <SFML/OpenGL.hpp>
#include <GL/glext.h>
#include <SFML/Window/Clipboard.hpp>

namespace xq::client {

namespace {

void set_clipboard(void*, const char* text) { sf::Clipboard::setString(sf::String::fromUtf8(text, text + std::strlen(text))); }

// Runs first in every UI draw (from the background draw list): blend so the layer ends up
// with premultiplied colour and a true coverage alpha, which composites exactly with
// (One, OneMinusSrcAlpha). Over an opaque target the colour result is the same as ImGui's.
void premultiplied_blend(const ImDrawList*, const ImDrawCmd*) {
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
}

// A 64-bit fingerprint of everything the draw lists would put on screen.
struct Fingerprint {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void add(const void* data, std::size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (; n >= 8; p += 8, n -= 8) {
            std::uint64_t w;
            std::memcpy(&w, p, 8);
            h = (h ^ w) * 0x100000001b3ull;
            h ^= h >> 31;
        }
        for (; n > 0; ++p, --n) h = (h ^ *p) * 0x100000001b3ull;
    }
    template <class T>
    void add_value(const T& v) { add(&v, sizeof v); }
};

std::uint64_t fingerprint(const ImDrawData* dd, sf::Vector2u size) {
    Fingerprint f;
    f.add_value(size.x);
    f.add_value(size.y);
    f.add_value(dd->DisplayPos);
    for (int i = 0; i < dd->CmdListsCount; ++i) {
        const ImDrawList* l = dd->CmdLists[i];
        f.add(l->VtxBuffer.Data, std::size_t(l->VtxBuffer.Size) * sizeof(ImDrawVert));
        f.add(l->IdxBuffer.Data, std::size_t(l->IdxBuffer.Size) * sizeof(ImDrawIdx));
        for (const ImDrawCmd& c : l->CmdBuffer) {
            f.add_value(c.ClipRect);
            f.add_value(c.TextureId);
            f.add_value(c.VtxOffset);
            f.add_value(c.IdxOffset);
            f.add_value(c.ElemCount);
            f.add_value(c.UserCallback);
        }
        f.add_value(i);
    }
    return f.h;
}

}  // namespace

bool ImGuiGlue::init(sf::RenderWindow& window, const std::string& font_path, float pixel_size,
                     const std::string& extra_text, const std::string& symbol_font_path, std::string& error) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is code-driven; no imgui.ini next to the binary
    io.BackendPlatformName = "xq_sfml";
    map_imgui_keys(io);
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
    // Symbols merged into a font: only those the CJK font has no glyph for (ImGui keeps the
    // first font's glyph). Punctuation, arrows, maths, technical, enclosed, box and shapes,
    // miscellaneous symbols, dingbats, and U+FFFD.
    static constexpr ImWchar SYMBOL_RANGES[] = {0x2000, 0x2BFF, 0xFFFD, 0xFFFD, 0};
    auto merge_symbols = [&](float px) {
        if (symbol_font_path.empty()) return;
        ImFontConfig merge = cfg;
        merge.MergeMode = true;
        io.Fonts->AddFontFromFileTTF(symbol_font_path.c_str(), px, &merge, SYMBOL_RANGES);
    };
    merge_symbols(pixel_size);
    big_font_ = io.Fonts->AddFontFromFileTTF(font_path.c_str(), pixel_size * 1.4f, &cfg, ranges_.Data);
    merge_symbols(pixel_size * 1.4f);
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

void ImGuiGlue::process_event(const sf::Event& e) { apply_to_imgui(ImGui::GetIO(), e); }

void ImGuiGlue::new_frame(sf::RenderWindow& window, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    const auto size = window.getSize();
    io.DisplaySize = ImVec2(float(size.x), float(size.y));
    io.DeltaTime = dt > 0 ? dt : 1.f / 60.f;
    ImGui_ImplOpenGL2_NewFrame();
    ImGui::NewFrame();
    ImGui::GetBackgroundDrawList()->AddCallback(premultiplied_blend, nullptr);
}

void ImGuiGlue::render(sf::RenderWindow& window) {
    ImGui::Render();
    ImDrawData* dd = ImGui::GetDrawData();
    const sf::Vector2u size = window.getSize();
    auto draw_direct = [&] {
        // SFML caches GL state; hand ImGui a clean slate and tell SFML afterwards.
        window.pushGLStates();
        ImGui_ImplOpenGL2_RenderDrawData(dd);
        window.popGLStates();
        ++drawn_;
    };
    if (!cache_) return draw_direct();
    const std::uint64_t hash = fingerprint(dd, size);
    if (!layer_ok_ || layer_.getSize() != size || hash != layer_hash_) {
        if (!layer_ok_ || layer_.getSize() != size) layer_ok_ = layer_.create(size.x, size.y);
        if (!layer_ok_) return draw_direct();
        layer_.setActive(true);
        layer_.clear(sf::Color::Transparent);
        layer_.pushGLStates();
        ImGui_ImplOpenGL2_RenderDrawData(dd);
        layer_.popGLStates();
        layer_.display();
        window.setActive(true);
        layer_hash_ = hash;
        ++drawn_;
        // One quad per window (draw list) over what it really drew: the bounding box of each
        // command's vertices inside its clip rectangle (a window's first clip rectangle is
        // the whole screen, so clip rectangles alone would copy everything).
        std::vector<sf::FloatRect> rects;
        const float W = float(size.x), H = float(size.y);
        for (int i = 0; i < dd->CmdListsCount; ++i) {
            const ImDrawList* l = dd->CmdLists[i];
            float x0 = W, y0 = H, x1 = 0, y1 = 0;
            for (const ImDrawCmd& c : l->CmdBuffer) {
                if (c.UserCallback || c.ElemCount == 0) continue;
                float cx0 = W, cy0 = H, cx1 = 0, cy1 = 0;
                for (unsigned e = 0; e < c.ElemCount; ++e) {
                    const ImVec2 p = l->VtxBuffer[int(c.VtxOffset + l->IdxBuffer[int(c.IdxOffset + e)])].pos;
                    cx0 = std::min(cx0, p.x), cy0 = std::min(cy0, p.y), cx1 = std::max(cx1, p.x), cy1 = std::max(cy1, p.y);
                }
                x0 = std::min(x0, std::max(cx0, c.ClipRect.x) - dd->DisplayPos.x);
                y0 = std::min(y0, std::max(cy0, c.ClipRect.y) - dd->DisplayPos.y);
                x1 = std::max(x1, std::min(cx1, c.ClipRect.z) - dd->DisplayPos.x);
                y1 = std::max(y1, std::min(cy1, c.ClipRect.w) - dd->DisplayPos.y);
            }
            x0 = std::floor(std::max(x0, 0.f)), y0 = std::floor(std::max(y0, 0.f));
            x1 = std::ceil(std::min(x1, W)), y1 = std::ceil(std::min(y1, H));
            if (x1 <= x0 || y1 <= y0) continue;
            // A window inside one already copied (a child) is in those pixels already.
            const sf::FloatRect r(x0, y0, x1 - x0, y1 - y0);
            if (std::any_of(rects.begin(), rects.end(), [&](const sf::FloatRect& o) {
                    return o.left <= r.left && o.top <= r.top && o.left + o.width >= r.left + r.width &&
                           o.top + o.height >= r.top + r.height;
                }))
                continue;
            rects.push_back(r);
        }
        composite_.clear();
        for (const sf::FloatRect& r : rects) {
            const sf::Vector2f q[4] = {{r.left, r.top}, {r.left + r.width, r.top}, {r.left + r.width, r.top + r.height},
                                       {r.left, r.top + r.height}};
            for (int k : {0, 1, 2, 0, 2, 3}) composite_.append(sf::Vertex(q[k], sf::Color::White, q[k]));
        }
    } else {
        ++reused_;
    }
    // The layer holds premultiplied colour: (One, OneMinusSrcAlpha) puts it over the frame.
    sf::RenderStates st(&layer_.getTexture());
    st.blendMode = sf::BlendMode(sf::BlendMode::One, sf::BlendMode::OneMinusSrcAlpha);
    window.draw(composite_, st);
}

ImGuiMouseCursor ImGuiGlue::wanted_cursor() const { return active_ ? ImGui::GetMouseCursor() : ImGuiMouseCursor_Arrow; }

bool ImGuiGlue::wants_mouse() const { return active_ && ImGui::GetIO().WantCaptureMouse; }
bool ImGuiGlue::wants_keyboard() const { return active_ && ImGui::GetIO().WantCaptureKeyboard; }

bool ImGuiGlue::dialog_focused() const {
    if (!active_) return false;
    const ImGuiWindow* w = ImGui::GetCurrentContext()->NavWindow;
    if (!w || !w->WasActive || !w->RootWindow) return false;
    return !(w->RootWindow->Flags & ImGuiWindowFlags_NoBringToFrontOnFocus);
}

std::string layout_overflow(ImVec2 display) {
    std::string out;
    constexpr float SLACK = 1.0f;  // rounding of fractional layouts
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->WasActive || w->Hidden || (w->Flags & ImGuiWindowFlags_Tooltip)) continue;
        std::string why;
        if (w->Pos.x < -SLACK || w->Pos.y < -SLACK || w->Pos.x + w->Size.x > display.x + SLACK ||
            w->Pos.y + w->Size.y > display.y + SLACK)
            why = "outside the window";
        else if (w->DC.CursorMaxPos.x > w->InnerClipRect.Max.x + w->WindowPadding.x + SLACK)
            why = "content cut at the right";
        else if (!(w->Flags & ImGuiWindowFlags_ChildWindow) && w->ScrollMax.y <= 0 &&
                 w->DC.CursorMaxPos.y > w->InnerClipRect.Max.y + w->WindowPadding.y + SLACK)
            why = "content cut at the bottom";
        if (why.empty()) continue;
        if (!out.empty()) out += "; ";
        out.append(w->Name).append(": ").append(why);
    }
    return out;
}

}  // namespace xq::client
