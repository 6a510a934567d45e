#include "app/input_queue.h"

#include "core/bmp_text.h"

#include <imgui.h>

#include <cfloat>
#include <cstdint>
#include <set>
#include <string>

namespace xq::client {

namespace {

int key_index(sf::Keyboard::Key k) { return k >= 0 && k < 512 ? int(k) : -1; }

bool is_ctrl(sf::Keyboard::Key k) { return k == sf::Keyboard::LControl || k == sf::Keyboard::RControl; }
bool is_shift(sf::Keyboard::Key k) { return k == sf::Keyboard::LShift || k == sf::Keyboard::RShift; }
bool is_alt(sf::Keyboard::Key k) { return k == sf::Keyboard::LAlt || k == sf::Keyboard::RAlt; }
bool is_system(sf::Keyboard::Key k) { return k == sf::Keyboard::LSystem || k == sf::Keyboard::RSystem; }

std::string utf8_of(std::uint32_t c) {
    std::string s;
    if (c > 0x10FFFF) return s;
    s += char(0xF0 | (c >> 18));
    s += char(0x80 | ((c >> 12) & 0x3F));
    s += char(0x80 | ((c >> 6) & 0x3F));
    s += char(0x80 | (c & 0x3F));
    return s;  // only called above U+FFFF: always four bytes
}

}  // namespace

std::vector<sf::Event> InputQueue::next_frame() {
    std::vector<sf::Event> out;
    std::set<int> buttons, keys;  // changed in this frame
    bool text = false, moved = false;
    while (!pending_.empty()) {
        const sf::Event& e = pending_.front();
        bool conflict = false;
        switch (e.type) {
        case sf::Event::MouseButtonPressed:
            // A press where the pointer only just arrived waits a frame: whether it lands on a
            // widget or on the board is read from Dear ImGui's hover of the last frame, which
            // must already know the pointer's new place (a tap on a touch screen, xdotool).
            conflict = !buttons.insert(int(e.mouseButton.button)).second || moved;
            break;
        case sf::Event::MouseButtonReleased:
            conflict = !buttons.insert(int(e.mouseButton.button)).second;
            break;
        case sf::Event::MouseMoved:
        case sf::Event::MouseLeft:
            // The pointer must stay where the button went down or up for that frame.
            conflict = !buttons.empty();
            moved = true;
            break;
        case sf::Event::KeyPressed:
        case sf::Event::KeyReleased:
            // A key after typed text waits too: the widget reads the text before the keys.
            conflict = !keys.insert(int(e.key.code)).second || text;
            break;
        case sf::Event::TextEntered: text = true; break;
        default: break;
        }
        if (conflict && !out.empty()) break;
        out.push_back(e);
        pending_.pop_front();
    }
    return out;
}

void apply_to_imgui(ImGuiIO& io, const sf::Event& e) {
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
        const bool down = e.type == sf::Event::KeyPressed;
        const int k = key_index(e.key.code);
        if (k >= 0) io.KeysDown[k] = down;
        // The modifier flags of a modifier's own event describe the moment before it, so
        // a modifier key sets its flag from the event itself.
        io.KeyCtrl = is_ctrl(e.key.code) ? down : e.key.control;
        io.KeyShift = is_shift(e.key.code) ? down : e.key.shift;
        io.KeyAlt = is_alt(e.key.code) ? down : e.key.alt;
        io.KeySuper = is_system(e.key.code) ? down : e.key.system;
        break;
    }
    case sf::Event::TextEntered:
        // Control characters come through KeysDown; only printable text goes here.
        if (e.text.unicode > 0xFFFF) {
            // Dear ImGui's 16-bit text fields would keep U+FFFD: an emoji goes in by the
            // name it is shown by anyway (":+1:", "[U+1F996]").
            io.AddInputCharactersUTF8(bmp_text(utf8_of(e.text.unicode)).c_str());
        } else if (e.text.unicode >= 32 && e.text.unicode != 127) {
            io.AddInputCharacter(e.text.unicode);
        }
        break;
    case sf::Event::LostFocus:
        for (bool& k : io.KeysDown) k = false;
        for (bool& b : io.MouseDown) b = false;
        io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
        break;
    default: break;
    }
}

void map_imgui_keys(ImGuiIO& io) {
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
}

}  // namespace xq::client
