// The small bridge between SFML 2.5 and Dear ImGui 1.86: feeds window events to ImGui and
// renders its draw lists with the OpenGL2 backend that Debian's libimgui ships.
#pragma once

#include <SFML/Graphics/RenderTexture.hpp>
#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/Graphics/VertexArray.hpp>
#include <SFML/Window/Cursor.hpp>
#include <SFML/Window/Event.hpp>

#include <imgui.h>

#include <cstdint>
#include <string>

namespace xq::client {

class ImGuiGlue {
public:
    // Loads the UI font (CJK) at `pixel_size`; `extra_text` adds glyphs beyond the common set.
    // `symbol_font_path` (may be empty) fills in the symbols the CJK font lacks.
    bool init(sf::RenderWindow& window, const std::string& font_path, float pixel_size,
              const std::string& extra_text, const std::string& symbol_font_path, std::string& error);
    void shutdown();
    ~ImGuiGlue() { shutdown(); }

    void process_event(const sf::Event& event);
    void new_frame(sf::RenderWindow& window, float dt_seconds);
    // Draws this frame's widgets. When they are exactly what the last frame drew, the
    // pixels kept from then are copied instead: under software rendering, drawing the
    // panels costs several times more than copying them.
    void render(sf::RenderWindow& window);
    void set_cache(bool on) { cache_ = on; }
    // Frames drawn from the draw lists, and frames copied from the kept pixels.
    int frames_drawn() const { return drawn_; }
    int frames_reused() const { return reused_; }
    // ImGui wants the pointer/keyboard (a widget is under the mouse or has focus).
    bool wants_mouse() const;
    bool wants_keyboard() const;
    // A window other than the screen's own panels has the keyboard focus (an offer, a
    // confirmation, a lobby dialog, the file chooser): keys are the dialog's, not the board's.
    // The panels are the windows drawn with NoBringToFrontOnFocus (ui::PANEL_FLAGS).
    bool dialog_focused() const;
    ImFont* big_font() const { return big_font_; }
    // The cursor ImGui asks for over its widgets (text beam over inputs, hand over links).
    ImGuiMouseCursor wanted_cursor() const;

private:
    bool active_ = false;
    ImVector<ImWchar> ranges_;  // ImGui reads the glyph ranges until the atlas is built
    std::string clipboard_;     // keeps the text ImGui asked for alive until the next request
    ImFont* big_font_ = nullptr;

    // The widgets drawn last time (premultiplied alpha), a fingerprint of their draw lists,
    // and the quads that copy each window's rectangle onto the frame.
    bool cache_ = true;
    sf::RenderTexture layer_;
    bool layer_ok_ = false;
    std::uint64_t layer_hash_ = 0;
    sf::VertexArray composite_{sf::Triangles};
    int drawn_ = 0, reused_ = 0;
};

// What of this frame's interface does not fit (call after building it, before rendering):
// "" when every window lies inside `display` and no window's content runs past its right
// edge, nor past its bottom unless it scrolls. Names the offending windows otherwise.
std::string layout_overflow(ImVec2 display);

}  // namespace xq::client
