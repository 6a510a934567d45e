// The file chooser of the desktop client (Open PGN, Save PGN, Save FEN): a Dear ImGui window
// that lists a folder (folders first, then files of the wanted kind), goes up and into folders,
// and takes a typed name or path. Reading a folder that fails shows why and keeps the last one.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/strings.h"

namespace xq::client {

class FileChooser {
public:
    enum class Mode { Open, Save };

    // Opens the chooser in `folder` (the home folder when empty or unreadable) for files
    // ending in `extension` ("pgn"); Save starts with `name` in the name field.
    void open(Mode mode, std::filesystem::path folder, std::string extension, std::string name = {});
    void close() { open_ = false; }
    bool is_open() const { return open_; }
    Mode mode() const { return mode_; }
    const std::filesystem::path& folder() const { return folder_; }

    // Draws the window (centred at cx, cy, at most max_w x max_h) while open. Returns the
    // chosen path once, when the player confirms (Open: an existing file; Save: a new name, or
    // an existing one confirmed a second time).
    std::optional<std::filesystem::path> draw(Lang lang, float cx, float cy, float max_w, float max_h);
    // What a typed name means: relative names are inside the current folder, "~" is home.
    std::filesystem::path resolve(const std::string& typed) const;
    // The same confirmation a click on Open/Save gives, for scripts: the typed text as if entered.
    std::optional<std::filesystem::path> confirm(const std::string& typed);

private:
    struct Entry {
        std::string name;
        bool folder = false;
    };
    void list(const std::filesystem::path& folder);

    bool open_ = false;
    Mode mode_ = Mode::Open;
    std::filesystem::path folder_;
    std::string extension_;
    std::vector<Entry> entries_;
    char name_[512] = {};
    std::string error_;
    std::filesystem::path replace_pending_;  // Save: the existing file a second confirm replaces
};

}  // namespace xq::client
