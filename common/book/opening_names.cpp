#include "book/opening_names.h"

#include <algorithm>

#include "book/starter_openings.h"

namespace xq::book {

void OpeningIndex::add_line(const PgnGame& line) {
    const std::string name = line.tag("Opening");
    if (name.empty()) return;
    const auto index = static_cast<std::uint32_t>(names_.size());
    names_.push_back(OpeningName{name, line.tag("OpeningEnglish"), line.tag("ECCO"), 0});
    Position pos = line.start;
    for (Move m : line.moves) {
        MoveList legal;
        pos.generate_legal(legal);
        if (!legal.contains(m)) break;
        UndoInfo u;
        pos.do_move(m, u);
        auto& list = at_[pos.key()];
        if (std::find(list.begin(), list.end(), index) == list.end()) list.push_back(index);
    }
}

const OpeningIndex& OpeningIndex::starter() {
    static const OpeningIndex index = [] {
        OpeningIndex idx;
        for (const auto& f : starter_openings())
            for (const auto& g : read_pgn_all(f.pgn))
                if (g.ok) idx.add_line(g.game);
        return idx;
    }();
    return index;
}

std::optional<OpeningName> OpeningIndex::classify(const Position& start, const std::vector<Move>& moves) const {
    std::optional<OpeningName> found;
    Position pos = start;
    int ply = 0;
    for (Move m : moves) {
        if (ply >= MAX_NAMED_PLIES) break;
        MoveList legal;
        pos.generate_legal(legal);
        if (!legal.contains(m)) break;
        UndoInfo u;
        pos.do_move(m, u);
        ++ply;
        auto it = at_.find(pos.key());
        if (it == at_.end()) continue;
        const std::string& first = names_[it->second.front()].name;
        const bool one_name = std::all_of(it->second.begin(), it->second.end(),
                                          [&](std::uint32_t i) { return names_[i].name == first; });
        if (!one_name) continue;
        found = names_[it->second.front()];
        found->ply = ply;
    }
    return found;
}

void tag_opening(PgnTags& tags, const Position& start, const std::vector<Move>& moves, const OpeningIndex& index) {
    for (const auto& [k, v] : tags)
        if (k == "Opening" && !v.empty()) return;
    const auto name = index.classify(start, moves);
    if (!name) return;
    auto set = [&tags](const std::string& key, const std::string& value) {
        tags.erase(std::remove_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == key; }), tags.end());
        if (!value.empty()) tags.emplace_back(key, value);
    };
    set("Opening", name->name);
    set("OpeningEnglish", name->english);
    set("ECCO", name->ecco);
}

}  // namespace xq::book
