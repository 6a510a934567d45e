#include "book/opening_book.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "xiangqi/pgn.h"

namespace xq::book {

namespace {

// Saturating: a counter never wraps, however many games are merged.
std::uint32_t sat_add(std::uint32_t a, std::uint32_t b) {
    const std::uint64_t s = std::uint64_t(a) + b;
    return s > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : std::uint32_t(s);
}

MoveStats stats_for(Outcome outcome, Color mover) {
    MoveStats s;
    s.plays = 1;
    if (outcome == Outcome::Draw) s.draws = 1;
    else if (outcome == Outcome::RedWins) (mover == RED ? s.wins : s.losses) = 1;
    else if (outcome == Outcome::BlackWins) (mover == BLACK ? s.wins : s.losses) = 1;
    return s;
}

// splitmix64 step: the level's random draw, reproducible from the seed.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

template <typename T>
bool parse_number(std::string_view s, T& out) {
    const auto* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, out);
    return ec == std::errc() && p == end;
}

}  // namespace

double MoveStats::score() const {
    const double decided = double(wins) + double(draws) + double(losses);
    return (double(wins) + 0.5 * double(draws) + 1.0) / (decided + 2.0);
}

void MoveStats::add(const MoveStats& o) {
    plays = sat_add(plays, o.plays);
    wins = sat_add(wins, o.wins);
    draws = sat_add(draws, o.draws);
    losses = sat_add(losses, o.losses);
}

bool refuted(const MoveStats& s) {
    const std::uint32_t decided = s.wins + s.draws + s.losses;
    if (decided < 2) return false;
    const double raw = (double(s.wins) + 0.5 * double(s.draws)) / double(decided);
    return raw < 0.25;
}

void Book::add(std::uint64_t key, Move move, const MoveStats& stats) {
    auto& list = entries_[key];
    for (auto& bm : list)
        if (bm.move == move) {
            bm.stats.add(stats);
            return;
        }
    list.push_back(BookMove{move, stats});
}

int Book::add_game(const Position& start, const std::vector<Move>& moves, Outcome outcome, int max_plies) {
    Position pos = start;
    int added = 0;
    for (Move m : moves) {
        if (added >= max_plies) break;
        MoveList legal;
        pos.generate_legal(legal);
        if (!legal.contains(m)) break;
        add(pos.key(), m, stats_for(outcome, pos.side_to_move()));
        UndoInfo undo;
        pos.do_move(m, undo);
        ++added;
    }
    return added;
}

void Book::merge(const Book& other) {
    for (const auto& [key, list] : other.entries_)
        for (const auto& bm : list) add(key, bm.move, bm.stats);
}

const std::vector<BookMove>* Book::find(std::uint64_t key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
}

std::vector<BookMove> Book::candidates(const Position& pos) const {
    std::vector<BookMove> out;
    const auto* list = find(pos.key());
    if (!list) return out;
    MoveList legal;
    pos.generate_legal(legal);
    for (const auto& bm : *list)
        if (legal.contains(bm.move)) out.push_back(bm);
    std::stable_sort(out.begin(), out.end(),
                     [](const BookMove& a, const BookMove& b) { return a.stats.plays > b.stats.plays; });
    return out;
}

std::size_t Book::moves() const {
    std::size_t n = 0;
    for (const auto& [key, list] : entries_) n += list.size();
    return n;
}

std::string Book::serialize() const {
    // Sorted, so that equal books give equal files (diffs and tests).
    std::vector<std::uint64_t> keys;
    keys.reserve(entries_.size());
    for (const auto& [key, list] : entries_) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    std::string out = "xqbook 1\n";
    char hex[17];
    for (std::uint64_t key : keys) {
        auto list = entries_.at(key);
        std::sort(list.begin(), list.end(),
                  [](const BookMove& a, const BookMove& b) { return a.move.raw() < b.move.raw(); });
        for (const auto& bm : list) {
            for (int i = 0; i < 16; ++i) hex[i] = "0123456789abcdef"[(key >> (60 - 4 * i)) & 0xF];
            hex[16] = '\0';
            out += hex;
            out += ' ';
            out += move_to_iccs(bm.move);
            out += ' ' + std::to_string(bm.stats.plays) + ' ' + std::to_string(bm.stats.wins) + ' ' +
                   std::to_string(bm.stats.draws) + ' ' + std::to_string(bm.stats.losses) + '\n';
        }
    }
    return out;
}

std::optional<Book> Book::parse(std::string_view text, std::string* error) {
    auto fail = [&](int line, std::string what) -> std::optional<Book> {
        if (error) *error = "line " + std::to_string(line) + ": " + std::move(what);
        return std::nullopt;
    };
    Book book;
    int line_no = 0;
    std::size_t lines = 0;
    bool header = false;
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        if (!header) {
            if (line != "xqbook 1") return fail(line_no, "not an opening book (expected the header 'xqbook 1')");
            header = true;
            continue;
        }
        std::vector<std::string_view> f;
        while (!line.empty()) {
            const auto sp = line.find(' ');
            if (sp != 0) f.push_back(line.substr(0, sp));
            line = sp == std::string_view::npos ? std::string_view{} : line.substr(sp + 1);
        }
        if (f.size() != 6) return fail(line_no, "expected 6 fields: key move plays wins draws losses");
        std::uint64_t key = 0;
        if (f[0].size() != 16) return fail(line_no, "the key is not 16 hex digits");
        {
            const auto* end = f[0].data() + f[0].size();
            auto [p, ec] = std::from_chars(f[0].data(), end, key, 16);
            if (ec != std::errc() || p != end) return fail(line_no, "the key is not 16 hex digits");
        }
        if (f[1].size() != 4) return fail(line_no, "the move is not ICCS text such as h2e2");
        const Square from = square_from_string(f[1].substr(0, 2));
        const Square to = square_from_string(f[1].substr(2, 2));
        if (from == SQ_NONE || to == SQ_NONE || from == to)
            return fail(line_no, "the move is not ICCS text such as h2e2");
        MoveStats s;
        if (!parse_number(f[2], s.plays) || !parse_number(f[3], s.wins) || !parse_number(f[4], s.draws) ||
            !parse_number(f[5], s.losses))
            return fail(line_no, "a count is not a number from 0 to 4294967295");
        if (std::uint64_t(s.wins) + s.draws + s.losses > s.plays)
            return fail(line_no, "wins + draws + losses exceed the plays");
        if (++lines > MAX_BOOK_ENTRIES) return fail(line_no, "more than 4,000,000 entries");
        book.add(key, Move(from, to), s);
    }
    if (!header) return fail(line_no, "empty: no 'xqbook 1' header");
    return book;
}

PgnImport add_pgn(Book& book, std::string_view pgn_text, int max_plies) {
    PgnImport r;
    int index = 0;
    for (const auto& g : read_pgn_all(pgn_text)) {
        ++index;
        if (!g.ok) {
            r.errors.push_back("game " + std::to_string(index) + ", line " + std::to_string(g.line) + ": " + g.error);
            continue;
        }
        r.plies += book.add_game(g.game.start, g.game.moves, g.game.result, max_plies);
        ++r.games;
    }
    return r;
}

Move choose(const std::vector<BookMove>& candidates, int level, std::uint64_t seed) {
    std::vector<const BookMove*> usable;
    for (const auto& bm : candidates)
        if (!refuted(bm.stats)) usable.push_back(&bm);
    if (usable.empty()) return Move::none();
    level = std::clamp(level, 1, 10);
    if (level == 10) {
        // The score less a doubt that shrinks with the games behind it: one lucky win does
        // not outrank a line that scored well over many games.
        auto rank = [](const MoveStats& s) {
            return s.score() - 0.25 / std::sqrt(double(s.wins) + double(s.draws) + double(s.losses) + 2.0);
        };
        const BookMove* best = usable.front();
        for (const BookMove* bm : usable) {
            const double a = rank(bm->stats), b = rank(best->stats);
            if (a > b + 1e-12 || (std::abs(a - b) <= 1e-12 && bm->stats.plays > best->stats.plays)) best = bm;
        }
        return best->move;
    }
    // Weight = plays^a * score^b: level 1 flattens popularity (a = 0.3) and ignores results,
    // level 9 follows popularity (a = 1) and results (b = 4).
    const double a = 0.3 + 0.7 * double(level - 1) / 8.0;
    const double b = 4.0 * double(level - 1) / 8.0;
    std::vector<double> w;
    double total = 0;
    for (const BookMove* bm : usable) {
        const double x = std::pow(double(std::max<std::uint32_t>(1, bm->stats.plays)), a) *
                         std::pow(bm->stats.score(), b);
        w.push_back(x);
        total += x;
    }
    const double r = double(mix(seed) >> 11) * 0x1.0p-53 * total;
    double acc = 0;
    for (std::size_t i = 0; i < usable.size(); ++i) {
        acc += w[i];
        if (r < acc) return usable[i]->move;
    }
    return usable.back()->move;
}

}  // namespace xq::book
