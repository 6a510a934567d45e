#include "core/tournament_view.h"

#include <utility>

#include "core/client_state.h"

namespace xq::client {

std::string entrant_name(Lang lang, const proto::Tournament& t, int index) {
    if (index < 0 || std::size_t(index) >= t.entrants.size()) return "?";
    const proto::TournamentEntrant& e = t.entrants[std::size_t(index)];
    if (e.ai_level <= 0) return e.name;
    // "AI level 4" or "AI level 4 #2": the level's words, then the server's count.
    std::string shown = tr(lang, Str::AiName, {std::to_string(e.ai_level)});
    if (const auto hash = e.name.find(" #"); hash != std::string::npos) shown += e.name.substr(hash);
    return shown;
}

bool entered(const proto::Tournament& t, const std::string& name) {
    for (const auto& e : t.entrants)
        if (e.ai_level == 0 && e.name == name && !e.withdrawn) return true;
    return false;
}

std::string half_points(int doubled) {
    std::string s = std::to_string(doubled / 2);
    if (doubled % 2 != 0) s += ".5";
    return s;
}

std::string format_words(Lang lang, proto::TournamentFormat f) {
    return tr(lang, f == proto::TournamentFormat::Swiss ? Str::TourneySwiss : Str::TourneyRoundRobin);
}

std::string state_words(Lang lang, proto::TournamentState s) {
    return tr(lang, s == proto::TournamentState::Open      ? Str::TourneyOpen
                    : s == proto::TournamentState::Running ? Str::TourneyRunning
                                                           : Str::TourneyFinished);
}

std::string board_result_text(Lang lang, proto::BoardResult r) {
    using R = proto::BoardResult;
    switch (r) {
    case R::Pending: return "…";
    case R::RedWin: return "1-0";
    case R::Draw: return "½-½";
    case R::BlackWin: return "0-1";
    case R::RedForfeit: return "-/+";
    case R::BlackForfeit: return "+/-";
    case R::DoubleForfeit: return "-/-";
    case R::Bye: return tr(lang, Str::TourneyBye);
    }
    return "?";
}

proto::GetTournamentPgn TournamentPgnFetch::start(std::uint32_t tournament, proto::PgnNotation notation) {
    *this = TournamentPgnFetch{};
    status_ = Status::Fetching;
    tournament_ = tournament;
    notation_ = notation;
    return request(0);
}

proto::GetTournamentPgn TournamentPgnFetch::request(std::int64_t offset) const {
    proto::GetTournamentPgn r;
    r.tournament = tournament_;
    r.notation = notation_;
    r.offset = offset;
    r.limit = int(proto::TOURNAMENT_PGN_PAGE_BYTES);
    return r;
}

void TournamentPgnFetch::failed(std::string code) {
    status_ = Status::Failed;
    error_ = std::move(code);
    text_.clear();
}

void TournamentPgnFetch::fail(std::string code) {
    if (status_ == Status::Fetching) failed(std::move(code));
}

std::optional<proto::GetTournamentPgn> TournamentPgnFetch::take(const proto::TournamentPgn& page) {
    if (status_ != Status::Fetching || page.tournament != tournament_ || page.notation != notation_ ||
        page.offset != std::int64_t(text_.size()))
        return std::nullopt;
    if (page.offset == 0) {
        digest_ = page.digest;
        total_ = page.total;
    } else if (page.digest != digest_ || page.total != total_) {
        // The text changed under us: its earlier pages belong to another text.
        if (++restarts_ > MAX_RESTARTS) {
            failed("");
            return std::nullopt;
        }
        text_.clear();
        return request(0);
    }
    text_ += page.text;
    if (std::int64_t(text_.size()) > total_ || (page.more && page.text.empty()) ||
        (!page.more && std::int64_t(text_.size()) != total_)) {
        failed("");
        return std::nullopt;
    }
    if (!page.more) {
        status_ = Status::Done;
        return std::nullopt;
    }
    return request(std::int64_t(text_.size()));
}

std::string tournament_file_name(const std::string& name) {
    std::string file = name.empty() ? std::string("tournament") : name;
    for (char& c : file)
        if (c == '/' || c == '\\' || (static_cast<unsigned char>(c) < 0x20) || c == ':') c = '_';
    if (file.front() == '.') file.front() = '_';
    return file + ".pgn";
}

namespace {
std::string trimmed(const std::string& s) {
    const auto a = s.find_first_not_of(" \t\r\n");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}
}  // namespace

Str arbiter_problem(proto::ArbiterKind action, const ArbiterForm& f) {
    if (action == proto::ArbiterKind::AddTime && (f.seconds < 1 || f.seconds > proto::MAX_ARBITER_ADD_SECONDS))
        return Str::ArbiterProblemSeconds;
    if (action == proto::ArbiterKind::Adjudicate && trimmed(f.reason).empty()) return Str::ArbiterProblemReason;
    return Str::Ok;
}

proto::ArbiterRequest arbiter_request(std::uint32_t table, proto::ArbiterKind action, const ArbiterForm& f) {
    proto::ArbiterRequest r;
    r.table = proto::TableId(table);
    r.action = action;
    if (action == proto::ArbiterKind::AddTime) {
        r.side = f.side;
        r.seconds = f.seconds;
    }
    if (action == proto::ArbiterKind::Adjudicate) r.result = f.result;
    if (action == proto::ArbiterKind::Adjudicate || action == proto::ArbiterKind::Cancel) r.reason = trimmed(f.reason);
    return r;
}

Str tournament_form_problem(int forfeit_seconds, int spectator_delay) {
    if (forfeit_seconds < 1 || forfeit_seconds > proto::MAX_FORFEIT_SECONDS) return Str::TourneyProblemForfeit;
    if (spectator_delay < 0 || spectator_delay > proto::MAX_SPECTATOR_DELAY) return Str::TourneyProblemDelay;
    return Str::Ok;
}

Crosstable crosstable(const proto::Tournament& t) {
    Crosstable x;
    const std::size_t n = t.entrants.size();
    std::vector<int> row_of(n, -1);
    for (const auto& s : t.standings)
        if (s.entrant >= 0 && std::size_t(s.entrant) < n && row_of[std::size_t(s.entrant)] < 0) {
            row_of[std::size_t(s.entrant)] = int(x.order.size());
            x.order.push_back(s.entrant);
        }
    for (std::size_t e = 0; e < n; ++e)  // entrants the standings do not list yet, in entry order
        if (row_of[e] < 0) {
            row_of[e] = int(x.order.size());
            x.order.push_back(int(e));
        }
    x.cells.assign(n, std::vector<std::string>(n));
    x.byes.assign(n, 0);
    for (std::size_t i = 0; i < n; ++i) x.cells[i][i].push_back('x');
    auto put = [&](int a, int b, const char* text) {
        std::string& c = x.cells[std::size_t(row_of[std::size_t(a)])][std::size_t(row_of[std::size_t(b)])];
        if (!c.empty()) c += ' ';
        c += text;
    };
    using R = proto::BoardResult;
    for (const auto& g : t.games) {
        if (g.red < 0 || std::size_t(g.red) >= n) continue;
        if (g.result == R::Bye || g.black < 0 || std::size_t(g.black) >= n) {
            ++x.byes[std::size_t(row_of[std::size_t(g.red)])];
            continue;
        }
        switch (g.result) {
        case R::RedWin: put(g.red, g.black, "2"), put(g.black, g.red, "0"); break;
        case R::Draw: put(g.red, g.black, "1"), put(g.black, g.red, "1"); break;
        case R::BlackWin: put(g.red, g.black, "0"), put(g.black, g.red, "2"); break;
        case R::RedForfeit: put(g.red, g.black, "-"), put(g.black, g.red, "+"); break;
        case R::BlackForfeit: put(g.red, g.black, "+"), put(g.black, g.red, "-"); break;
        case R::DoubleForfeit: put(g.red, g.black, "-"), put(g.black, g.red, "-"); break;
        default: break;
        }
    }
    return x;
}

}  // namespace xq::client
