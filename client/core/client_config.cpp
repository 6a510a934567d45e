#include "core/client_config.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace xq::client {

namespace {

bool one_line(std::string_view s) { return s.find_first_of("\r\n") == std::string_view::npos; }

}  // namespace

std::string ClientConfig::token_for(std::string_view srv, std::string_view name) const {
    for (const Resume& r : resume)
        if (r.server == srv && r.name == name) return r.token;
    return {};
}

void ClientConfig::set_token(const std::string& srv, const std::string& name, const std::string& token) {
    std::erase_if(resume, [&](const Resume& r) { return r.server == srv && r.name == name; });
    if (token.empty() || srv.empty() || name.empty()) return;
    resume.insert(resume.begin(), Resume{token, srv, name});
    if (resume.size() > CONFIG_MAX_TOKENS) resume.resize(CONFIG_MAX_TOKENS);
}

void ClientConfig::add_recent(const std::string& srv) {
    if (srv.empty()) return;
    std::erase(recent, srv);
    recent.insert(recent.begin(), srv);
    if (recent.size() > CONFIG_MAX_RECENT) recent.resize(CONFIG_MAX_RECENT);
}

std::filesystem::path config_dir() {
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return std::filesystem::path(x) / "xiangqi";
    if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".config" / "xiangqi";
    return {};
}

ClientConfig parse_config(std::string_view text, std::vector<std::string>& problems) {
    ClientConfig c;
    std::istringstream in{std::string(text)};
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto eq = line.find('=');
        auto bad = [&] { problems.push_back("line " + std::to_string(n) + ": " + line); };
        if (eq == std::string::npos) {
            bad();
            continue;
        }
        const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
        if (key == "nickname") c.nickname = value;
        else if (key == "server") c.server = value;
        else if (key == "recent") {
            if (!value.empty() && c.recent.size() < CONFIG_MAX_RECENT) c.recent.push_back(value);
        } else if (key == "lang" && (value == "zh" || value == "en")) c.lang = value == "en" ? Lang::English : Lang::Chinese;
        else if (key == "theme" && (value == "0" || value == "1")) c.theme = value[0] - '0';
        else if (key == "notation" && (value == "chinese" || value == "wxf" || value == "iccs"))
            c.notation = value == "wxf" ? MoveNotation::Wxf : value == "iccs" ? MoveNotation::Iccs : MoveNotation::Chinese;
        else if (key == "sound" && (value == "0" || value == "1")) c.sound = value == "1";
        else if (key == "resume") {
            std::istringstream w(value);
            ClientConfig::Resume r;
            if (!(w >> r.token >> r.server) || !std::getline(w >> std::ws, r.name) || r.name.empty()) {
                bad();
                continue;
            }
            if (c.resume.size() < CONFIG_MAX_TOKENS) c.resume.push_back(std::move(r));
        } else if (key == "endgame") {
            std::istringstream w(value);
            std::string id, rest;
            int tried = -1, solved = -1;
            if (!(w >> id >> tried >> solved) || (w >> rest) || id.size() > 32 || tried < 0 ||
                (solved != 0 && solved != 1) || c.endgames.size() >= CONFIG_MAX_ENDGAMES) {
                bad();
                continue;
            }
            c.endgames[id] = {tried, solved == 1};
        } else {
            bad();
        }
    }
    return c;
}

std::string format_config(const ClientConfig& c) {
    std::ostringstream out;
    out << "# xiangqi-client settings, written by the client (README: Desktop client)\n";
    if (!c.nickname.empty() && one_line(c.nickname)) out << "nickname=" << c.nickname << "\n";
    if (!c.server.empty() && one_line(c.server)) out << "server=" << c.server << "\n";
    for (const std::string& r : c.recent)
        if (one_line(r)) out << "recent=" << r << "\n";
    if (c.lang) out << "lang=" << (*c.lang == Lang::English ? "en" : "zh") << "\n";
    if (c.theme) out << "theme=" << *c.theme << "\n";
    if (c.notation)
        out << "notation="
            << (*c.notation == MoveNotation::Wxf ? "wxf" : *c.notation == MoveNotation::Iccs ? "iccs" : "chinese") << "\n";
    if (c.sound) out << "sound=" << (*c.sound ? 1 : 0) << "\n";
    for (const auto& r : c.resume)
        if (one_line(r.name) && r.token.find(' ') == std::string::npos && r.server.find(' ') == std::string::npos)
            out << "resume=" << r.token << " " << r.server << " " << r.name << "\n";
    for (const auto& [id, e] : c.endgames)
        if (!id.empty() && id.find_first_of(" \t\r\n") == std::string::npos)
            out << "endgame=" << id << " " << e.tried << " " << (e.solved ? 1 : 0) << "\n";
    return out.str();
}

ClientConfig load_config_file(const std::filesystem::path& file, std::vector<std::string>& problems) {
    std::ifstream in(file);
    if (!in) return {};
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_config(ss.str(), problems);
}

namespace {

// An exclusive lock on "<file>.lock" for one read-change-write: two clients sharing one
// config folder each see the other's last write instead of overwriting it.
class ConfigLock {
public:
    explicit ConfigLock(const std::filesystem::path& file)
        : fd_(::open((file.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600)) {
        if (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0) {
            ::close(fd_);
            fd_ = -1;
        }
    }
    ~ConfigLock() {
        if (fd_ >= 0) ::close(fd_);  // closing releases the lock
    }
    ConfigLock(const ConfigLock&) = delete;
    ConfigLock& operator=(const ConfigLock&) = delete;
    bool held() const { return fd_ >= 0; }

private:
    int fd_;
};

}  // namespace

bool update_config_file(const std::filesystem::path& file, const std::function<void(ClientConfig&)>& change,
                        std::string& error) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec) {
        error = "cannot create " + file.parent_path().string() + ": " + ec.message();
        return false;
    }
    const ConfigLock lock(file);
    if (!lock.held()) {
        error = "cannot lock " + file.string() + ".lock";
        return false;
    }
    std::vector<std::string> problems;
    ClientConfig c = load_config_file(file, problems);
    change(c);
    // A name of our own for the temporary file: two clients may save at once.
    const std::filesystem::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << format_config(c);
        out.flush();
        if (!out) {
            error = "cannot write " + tmp.string();
            std::filesystem::remove(tmp, ec);
            return false;
        }
    }
    std::filesystem::rename(tmp, file, ec);
    if (ec) {
        error = "cannot replace " + file.string() + ": " + ec.message();
        std::filesystem::remove(tmp, ec);
        return false;
    }
    return true;
}

}  // namespace xq::client
