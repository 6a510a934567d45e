// Small Dear ImGui helpers the client's screens share: window flags, centring, section
// headings, wide buttons, text cut to a width, and a table status in words.
#pragma once

#include <imgui.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "core/strings.h"

namespace xq::client::ui {

inline constexpr ImGuiWindowFlags PANEL_FLAGS = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                                ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                                ImGuiWindowFlags_NoSavedSettings |
                                                ImGuiWindowFlags_NoBringToFrontOnFocus;
inline constexpr ImGuiWindowFlags DIALOG_FLAGS = ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove;

inline void center_next_window(float cx, float cy) {
    ImGui::SetNextWindowPos(ImVec2(cx, cy), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
}

inline void section(const char* label) {
    ImGui::Spacing();
    ImGui::TextDisabled("%s", label);
    ImGui::Separator();
}

inline bool wide_button(const char* label, float w = -1) { return ImGui::Button(label, ImVec2(w, 0)); }

// A one-line field with a button beside it (the chats): true when Enter or the button sends
// a non-empty text. Enter leaves the keyboard in the field, so the next line can be typed at
// once (focusing "the last item" after the button had given it to the button).
inline bool send_field(const char* id, char* buf, std::size_t size, const char* button) {
    const float button_w = ImGui::CalcTextSize(button).x + 24;
    ImGui::SetNextItemWidth(-button_w - 8);
    const bool entered = ImGui::InputText(id, buf, size, ImGuiInputTextFlags_EnterReturnsTrue);
    if (entered) ImGui::SetKeyboardFocusHere(-1);
    ImGui::SameLine();
    const bool clicked = ImGui::Button(button, ImVec2(button_w, 0));
    return (entered || clicked) && buf[0] != '\0';
}

// Page Up/Down, Up/Down, Home and End scroll the current window (as the mouse wheel does)
// while the pointer is over it, or over no window while it has the focus, and no text field
// takes the keys: at 640x480 the create dialog's form and the editor's panel are taller than
// the window. `whole_root`: over any part of the window's root (a dialog around its form).
inline void keyboard_scroll(bool whole_root = false) {
    if (ImGui::GetIO().WantTextInput || ImGui::GetScrollMaxY() <= 0) return;
    const bool hovered = ImGui::IsWindowHovered(whole_root ? ImGuiHoveredFlags_RootAndChildWindows : ImGuiHoveredFlags_ChildWindows);
    const bool focused = ImGui::IsWindowFocused(whole_root ? ImGuiFocusedFlags_RootAndChildWindows : ImGuiFocusedFlags_ChildWindows) &&
                         !ImGui::IsWindowHovered(ImGuiHoveredFlags_AnyWindow);
    if (!hovered && !focused) return;
    const auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
    const float line = ImGui::GetTextLineHeightWithSpacing(), page = std::max(line, ImGui::GetWindowHeight() - 2 * line);
    float y = ImGui::GetScrollY();
    if (pressed(ImGuiKey_PageDown)) y += page;
    if (pressed(ImGuiKey_PageUp)) y -= page;
    if (pressed(ImGuiKey_DownArrow)) y += 2 * line;
    if (pressed(ImGuiKey_UpArrow)) y -= 2 * line;
    if (pressed(ImGuiKey_Home)) y = 0;
    if (pressed(ImGuiKey_End)) y = ImGui::GetScrollMaxY();
    if (y != ImGui::GetScrollY()) ImGui::SetScrollY(std::clamp(y, 0.f, ImGui::GetScrollMaxY()));
}

// `text` cut (at a code point) with an ellipsis so it is at most `width` wide.
inline std::string fit_text(const std::string& text, float width) {
    if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
    std::string cut = text;
    while (!cut.empty()) {
        // One code point off: its continuation bytes, then its lead byte.
        while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80) cut.pop_back();
        if (!cut.empty()) cut.pop_back();
        if (ImGui::CalcTextSize((cut + "...").c_str()).x <= width) return cut + "...";
    }
    return {};
}

inline std::string status_label(Lang lang, const std::string& s) {
    if (s == "playing") return tr(lang, Str::StatusPlaying);
    if (s == "over") return tr(lang, Str::StatusFinished);
    return tr(lang, Str::StatusWaiting);
}


}  // namespace xq::client::ui
