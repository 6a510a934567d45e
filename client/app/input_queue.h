// Window events held until the frame that may see them: Dear ImGui 1.86 reads the mouse and
// keys as per-frame state, so a press and release in one frame would cancel out.
#pragma once

#include <SFML/Window/Event.hpp>

#include <deque>
#include <vector>

struct ImGuiIO;

namespace xq::client {

// Splits the queued events into frames the way later Dear ImGui versions "trickle" input:
// a frame takes events in order until one would undo what this frame already saw (a second
// change of the same mouse button or key, the pointer moving after a button change), or a
// button goes down after the pointer moved (the hover must be known first), and that event
// waits for the next frame. Nothing is dropped and the order is kept.
class InputQueue {
public:
    void push(const sf::Event& e) { pending_.push_back(e); }
    bool empty() const { return pending_.empty(); }
    std::size_t size() const { return pending_.size(); }
    // The events of the next frame, in order (empty when nothing waits).
    std::vector<sf::Event> next_frame();

private:
    std::deque<sf::Event> pending_;
};

// Applies one window event to Dear ImGui's per-frame input state (mouse, keys, modifiers,
// text). Needs a current ImGui context and nothing else, so tests can drive it headless.
void apply_to_imgui(ImGuiIO& io, const sf::Event& e);

// Points Dear ImGui's key map at SFML's key codes (navigation, editing, Ctrl+A/C/V/X/Y/Z).
void map_imgui_keys(ImGuiIO& io);

}  // namespace xq::client
