#include "app/file_chooser.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace xq::client {

namespace fs = std::filesystem;

namespace {

fs::path home_folder() {
    if (const char* h = std::getenv("HOME"); h && *h) return h;
    std::error_code ec;
    return fs::current_path(ec);
}

// Case-insensitive "ends with .ext".
bool has_extension(const std::string& name, const std::string& ext) {
    if (name.size() <= ext.size() + 1 || name[name.size() - ext.size() - 1] != '.') return false;
    for (std::size_t i = 0; i < ext.size(); ++i) {
        const char a = name[name.size() - ext.size() + i];
        if (char(std::tolower(static_cast<unsigned char>(a))) != ext[i]) return false;
    }
    return true;
}

}  // namespace

void FileChooser::open(Mode mode, fs::path folder, std::string extension, std::string name) {
    mode_ = mode;
    extension_ = std::move(extension);
    std::snprintf(name_, sizeof name_, "%s", name.c_str());
    error_.clear();
    replace_pending_.clear();
    std::error_code ec;
    if (folder.empty() || !fs::is_directory(folder, ec)) folder = home_folder();
    folder_.clear();
    list(folder);
    open_ = true;
}

void FileChooser::list(const fs::path& folder) {
    std::vector<Entry> found;
    std::error_code ec;
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        error_ = folder.string() + ": " + ec.message();
        return;
    }
    // A folder of a million files must not stall the frame: list the first few thousand.
    constexpr std::size_t MAX_ENTRIES = 5000;
    for (; it != fs::directory_iterator() && found.size() < MAX_ENTRIES; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.empty() || name.front() == '.') continue;
        std::error_code ec2;
        const bool dir = it->is_directory(ec2);
        if (dir || has_extension(name, extension_)) found.push_back({name, dir});
    }
    std::sort(found.begin(), found.end(), [](const Entry& a, const Entry& b) {
        return a.folder != b.folder ? a.folder : a.name < b.name;
    });
    entries_ = std::move(found);
    folder_ = folder;
    error_.clear();
}

fs::path FileChooser::resolve(const std::string& typed) const {
    if (typed == "~") return home_folder();
    if (typed.starts_with("~/")) return home_folder() / typed.substr(2);
    const fs::path p(typed);
    return p.is_absolute() ? p : folder_ / p;
}

std::optional<fs::path> FileChooser::confirm(const std::string& typed) {
    if (typed.empty()) return std::nullopt;
    fs::path p = resolve(typed).lexically_normal();
    std::error_code ec;
    if (fs::is_directory(p, ec)) {  // a folder typed or picked: go there
        list(p);
        name_[0] = '\0';
        return std::nullopt;
    }
    if (mode_ == Mode::Open) {
        if (!fs::is_regular_file(p, ec)) {
            error_ = p.string();
            return std::nullopt;
        }
    } else {
        if (!has_extension(p.filename().string(), extension_)) p += "." + extension_;
        if (fs::exists(p, ec) && replace_pending_ != p) {
            replace_pending_ = p;
            return std::nullopt;
        }
    }
    open_ = false;
    return p;
}

std::optional<fs::path> FileChooser::draw(Lang lang, float cx, float cy, float max_w, float max_h) {
    if (!open_) return std::nullopt;
    const auto t = [&](Str id) { return tr(lang, id); };
    const float w = std::min(max_w, 560.f), h = std::min(max_h, 420.f);
    ImGui::SetNextWindowPos(ImVec2(cx, cy), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_Always);
    const char* title = mode_ == Mode::Open ? t(Str::OpenPgnTitle) : t(Str::SaveFileTitle);
    std::optional<fs::path> chosen;
    ImGui::Begin((std::string(title) + "###file_chooser").c_str(), nullptr,
                 ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoMove);
    if (ImGui::Button(t(Str::FolderUp))) list(folder_.has_parent_path() ? folder_.parent_path() : folder_);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::FolderHome))) list(home_folder());
    ImGui::SameLine();
    ImGui::TextDisabled("%s", folder_.string().c_str());
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float rows_below = 2 + (error_.empty() && replace_pending_.empty() ? 0 : 1);
    ImGui::BeginChild("files", ImVec2(0, -line * rows_below), true);
    std::optional<fs::path> enter;
    for (const Entry& e : entries_) {
        const std::string label = e.folder ? "[" + e.name + "]" : e.name;
        const bool selected = !e.folder && e.name == name_;
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            if (e.folder) enter = folder_ / e.name;
            else {
                std::snprintf(name_, sizeof name_, "%s", e.name.c_str());
                replace_pending_.clear();
                if (ImGui::IsMouseDoubleClicked(0)) chosen = confirm(name_);
            }
        }
    }
    if (entries_.empty()) ImGui::TextDisabled("%s", t(Str::FolderEmpty));
    ImGui::EndChild();
    if (enter) list(*enter);
    if (!error_.empty()) ImGui::TextColored(ImVec4(0.8f, 0.1f, 0.1f, 1), "%s", tr(lang, Str::CannotOpen, {error_}).c_str());
    else if (!replace_pending_.empty())
        ImGui::TextColored(ImVec4(0.7f, 0.4f, 0.0f, 1), "%s", tr(lang, Str::ReplaceFile, {replace_pending_.filename().string()}).c_str());
    const char* ok = mode_ == Mode::Open ? t(Str::OpenButton) : t(Str::SaveButton);
    const float bw = std::max(ImGui::CalcTextSize(ok).x, ImGui::CalcTextSize(t(Str::Cancel)).x) + 24;
    ImGui::SetNextItemWidth(-2 * bw - 2 * ImGui::GetStyle().ItemSpacing.x);
    const bool typed_enter = ImGui::InputTextWithHint("##file_name", t(Str::FileName), name_, sizeof name_,
                                                      ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemEdited()) replace_pending_.clear();
    ImGui::SameLine();
    if (ImGui::Button(ok, ImVec2(bw, 0)) || typed_enter) chosen = confirm(name_);
    ImGui::SameLine();
    if (ImGui::Button(t(Str::Cancel), ImVec2(bw, 0))) open_ = false;
    ImGui::End();
    return chosen;
}

}  // namespace xq::client
