// The connect screen: the address form, recent servers, LAN search, and the settings panel
// (language, theme, notation, sound) with the preferences saved between runs.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "app/app.h"
#include "app/ui_common.h"
#include "core/handicap.h"
#include "core/move_text.h"
#include "xiangqi/pgn.h"

namespace xq::client {

using ui::center_next_window;
using ui::DIALOG_FLAGS;
using ui::fit_text;
using ui::PANEL_FLAGS;
using ui::section;
using ui::status_label;
using ui::wide_button;

void App::ui_settings() {
    const ImGuiStyle& st = ImGui::GetStyle();
    // A combo box is 130 px wide, narrower when its label would not fit beside it (the
    // English "Language" in a 640x480 window's panel).
    auto combo_width = [&](const char* label) {
        const float room = ImGui::GetContentRegionAvail().x - st.ItemInnerSpacing.x - ImGui::CalcTextSize(label).x;
        return std::clamp(room, 60.0f, 130.0f);
    };
    int lang = lang_ == Lang::Chinese ? 0 : 1;
    ImGui::SetNextItemWidth(combo_width(t(Str::Language)));
    if (ImGui::Combo(t(Str::Language), &lang, "简体中文\0English\0\0")) {
        lang_ = lang == 0 ? Lang::Chinese : Lang::English;
        window_.setTitle(sf::String::fromUtf8(std::string_view(t(Str::AppTitle)).begin(), std::string_view(t(Str::AppTitle)).end()));
    }
    int th = view_.theme_index();
    const std::string themes = std::string(t(Str::ThemeWood)) + '\0' + t(Str::ThemeJade) + '\0' + '\0';
    ImGui::SetNextItemWidth(combo_width(t(Str::Theme)));
    if (ImGui::Combo(t(Str::Theme), &th, themes.c_str())) view_.set_theme(th);
    // The sound box goes beside the theme when it fits, else below it (narrow panels).
    const float box_w = ImGui::GetFrameHeight() + st.ItemInnerSpacing.x + ImGui::CalcTextSize(t(Str::Sound)).x;
    if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + box_w <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine();
    bool snd = sounds_.enabled();
    // No audio device: nothing to switch on. Read once: the click that finds no device
    // makes it unavailable, and ending a disabled block never begun aborts Dear ImGui.
    const bool no_audio = !sounds_.available();
    if (no_audio) ImGui::BeginDisabled();
    if (ImGui::Checkbox(t(Str::Sound), &snd)) {
        sounds_.set_enabled(snd);
        sound_pref_ = snd;
    }
    mark_in_sight("sound");
    if (no_audio) ImGui::EndDisabled();
}

void App::ui_connect() {
    const Layout L = layout();
    ImGui::SetNextWindowPos(ImVec2(L.panel_x, 0));
    ImGui::SetNextWindowSize(ImVec2(L.panel_w, float(window_.getSize().y)));
    ImGui::Begin("connect", nullptr, PANEL_FLAGS);
    if (gui_.big_font()) ImGui::PushFont(gui_.big_font());
    ImGui::TextUnformatted(t(Str::AppTitle));
    if (gui_.big_font()) ImGui::PopFont();
    ImGui::Separator();
    ImGui::TextUnformatted(t(Str::ConnectTitle));
    ImGui::Spacing();
    ImGui::TextUnformatted(t(Str::Nickname));
    ImGui::SetNextItemWidth(-1);
    // Enter in any field of the form connects.
    bool nick_enter = ImGui::InputText("##nick", nick_, sizeof nick_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::TextUnformatted(t(Str::ServerAddress));
    ImGui::SetNextItemWidth(-1);
    bool enter = nick_enter;
    enter |= ImGui::InputText("##addr", address_, sizeof address_, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::TextUnformatted(t(Str::Password));
    ImGui::SetNextItemWidth(-1);
    if (focus_password_) {
        ImGui::SetKeyboardFocusHere();
        focus_password_ = false;
    }
    enter |= ImGui::InputText("##password", password_, sizeof password_,
                              ImGuiInputTextFlags_Password | ImGuiInputTextFlags_EnterReturnsTrue);
    const bool busy = state_.connection == Connection::Connecting || state_.connection == Connection::Handshake;
    if (busy) ImGui::BeginDisabled();
    if (wide_button(t(Str::ConnectButton)) || (enter && !busy)) start_connect(address_);
    if (busy) ImGui::EndDisabled();
    if (!connect_status_.empty()) {
        // A refusal (wrong password, name taken) in red so it is not missed.
        const bool refused = !state_.last_error_code.empty() && state_.connection == Connection::Disconnected;
        if (refused) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.8f, 0.1f, 0.1f, 1));
        ImGui::TextWrapped("%s", connect_status_.c_str());
        if (refused) ImGui::PopStyleColor();
    }

    ImGui::Spacing();
    section(t(Str::RecentServers));
    for (const std::string& r : recent_)
        if (ImGui::Selectable(r.c_str())) std::snprintf(address_, sizeof address_, "%s", r.c_str());

    ImGui::Spacing();
    section(t(Str::LanServers));
    ui_lan();

    ui_import_pgn();
    ImGui::Spacing();
    section(t(Str::Settings));
    ui_settings();
    ImGui::End();
}

#if XQ_HAVE_LAN_DISCOVERY
void App::start_lan_search() {
    constexpr std::chrono::milliseconds LAN_WAIT{1500};
    if (lan_probe_.valid()) return;
    std::string err;
    const auto target = proto::choose_discovery_target(
        opt_.discovery_address.empty() ? std::nullopt : std::optional<std::string_view>(opt_.discovery_address),
        std::getenv(std::string(proto::DISCOVERY_ENV_VAR).c_str()), &err);
    if (!target) {
        lan_status_ = err;
        return;
    }
    lan_status_ = t(Str::Connecting, {target->address});
    lan_probe_ = std::async(std::launch::async, probe_lan, *target, LAN_WAIT);
}

bool App::lan_searching() const { return lan_probe_.valid(); }
int App::lan_server_count() const { return int(lan_servers_.size()); }

void App::ui_lan() {
    if (lan_probe_.valid() && lan_probe_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
        ProbeResult r = lan_probe_.get();
        lan_servers_ = std::move(r.servers);
        lan_status_ = !r.error.empty() ? r.error : lan_servers_.empty() ? t(Str::LanNone) : "";
    }
    const bool probing = lan_probe_.valid();
    if (probing) ImGui::BeginDisabled();
    if (wide_button(t(Str::LanRefresh))) start_lan_search();
    if (probing) ImGui::EndDisabled();
    ImGui::BeginChild("lan", ImVec2(0, 110), true);
    for (const FoundServer& f : lan_servers_) {
        const std::string addr = f.address + ":" + std::to_string(f.info.port);
        const std::string label = f.info.name + "  " + addr + "  (" +
                                  t(Str::LanEntry, {std::to_string(f.info.players), std::to_string(f.info.tables)}) + ")";
        if (ImGui::Selectable(label.c_str())) std::snprintf(address_, sizeof address_, "%s", addr.c_str());
    }
    if (!lan_status_.empty()) ImGui::TextDisabled("%s", lan_status_.c_str());
    ImGui::EndChild();
}
#else
void App::start_lan_search() { toast(Str::LanNotAvailable); }
bool App::lan_searching() const { return false; }
int App::lan_server_count() const { return 0; }

void App::ui_lan() {
    // Built without the discovery library: say so rather than pretend to search.
    if (wide_button(t(Str::LanRefresh))) start_lan_search();
    ImGui::BeginChild("lan", ImVec2(0, 90), true);
    ImGui::TextDisabled("%s", t(Str::LanNotAvailable));
    ImGui::EndChild();
}
#endif

void App::load_recent() {
    if (config_file_.empty()) return;
    std::vector<std::string> problems;
    const ClientConfig c = load_config_file(config_file_, problems);
    for (const std::string& p : problems) std::cerr << "xiangqi-client: " << config_file_.string() << " " << p << " (skipped)\n";
    recent_ = c.recent;
    if (c.sound) sound_pref_ = *c.sound;
    if (!sound_pref_) sounds_.set_enabled(false);
    saved_prefs_ = current_prefs();
}

void App::save_recent(const std::string& address) {
    if (address.empty()) return;
    std::erase(recent_, address);
    recent_.insert(recent_.begin(), address);
    if (recent_.size() > CONFIG_MAX_RECENT) recent_.resize(CONFIG_MAX_RECENT);
    if (config_file_.empty()) return;
    // The seat token goes to disk at once: a crash from here on can come back to the seat.
    std::string error;
    const std::string name = state_.my_name, token = state_.resume_token;
    if (!update_config_file(config_file_, [&](ClientConfig& c) {
            c.add_recent(address);
            c.server = address;
            c.nickname = name;
            c.set_token(address, name, token);
        }, error))
        std::cerr << "xiangqi-client: " << error << "\n";
}

App::Prefs App::current_prefs() const { return {lang_, view_.theme_index(), notation_, sound_pref_}; }

void App::save_prefs_if_changed() {
    const Prefs p = current_prefs();
    if (p == saved_prefs_ || config_file_.empty()) return;
    saved_prefs_ = p;
    std::string error;
    if (!update_config_file(config_file_, [&](ClientConfig& c) {
            c.lang = p.lang;
            c.theme = p.theme;
            c.notation = p.notation;
            c.sound = p.sound;
        }, error))
        std::cerr << "xiangqi-client: " << error << "\n";
}

}  // namespace xq::client
