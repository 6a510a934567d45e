#include "blunders.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "engine/eval.h"
#include "opening_lines.h"
#include "xiangqi/notation.h"

namespace xq::engine {

namespace {

// Material (PIECE_VALUE, the kings not counted) of `us` less the opponent's.
int material(const Position& pos, Color us) {
    int sum = 0;
    for (int c = 0; c < COLOR_NB; ++c)
        pos.for_each_piece(Color(c), [&](Square s) {
            const int v = PIECE_VALUE[type_of(pos.piece_on(s))];
            sum += Color(c) == us ? v : -v;
        });
    return sum;
}

int capped(const Result& r) {
    if (r.mate_in > 0) return BLUNDER_SCORE_CAP;
    if (r.mate_in < 0) return -BLUNDER_SCORE_CAP;
    return std::clamp(r.score_cp, -BLUNDER_SCORE_CAP, BLUNDER_SCORE_CAP);
}

// The material the mover has lost (positive) after `line` (its move first) is played from `pos`,
// counting at most 1 + hung_plies plies of it.
int material_lost(Position pos, const std::vector<Move>& line, int hung_plies) {
    const Color us = pos.side_to_move();
    const int before = material(pos, us);
    const std::size_t n = std::min(line.size(), std::size_t(1 + hung_plies));
    for (std::size_t i = 0; i < n; ++i) {
        if (!pos.is_legal(line[i])) break;
        UndoInfo undo;
        pos.do_move(line[i], undo);
    }
    return before - material(pos, us);
}

bool starts_with(const std::vector<Move>& moves, const std::vector<Move>& prefix) {
    return prefix.size() <= moves.size() && std::equal(prefix.begin(), prefix.end(), moves.begin());
}

// The verdict on `m`, played in `pos` (reached from `start` by `so_far`), by searches to `depth`.
MoveVerdict judge_at(Engine& engine, const Position& start, const std::vector<Move>& so_far, const Position& pos,
                     Move m, int depth, const BlunderOptions& opt) {
    Limits limits;
    limits.depth = depth;
    engine.new_game();
    const Result best = engine.search(start, so_far, limits);
    MoveVerdict v;
    v.played = m;
    v.best = best.best;
    v.best_cp = capped(best);
    std::vector<Move> line = best.pv;
    if (best.best == m) {
        v.played_cp = v.best_cp;
    } else {
        limits.searchmoves = {m};
        engine.new_game();
        const Result played = engine.search(start, so_far, limits);
        v.played_cp = capped(played);
        line = played.pv;
    }
    if (line.empty() || line[0] != m) line = {m};
    v.loss_cp = std::max(0, v.best_cp - v.played_cp);
    v.material_lost = material_lost(pos, line, opt.hung_plies);
    v.blunder = v.loss_cp >= opt.threshold_cp;
    v.hung = v.blunder && v.material_lost >= opt.hung_cp;
    return v;
}

}  // namespace

int first_examined_ply(const PgnGame& game, const BlunderOptions& opt) {
    std::size_t first = std::size_t(std::max(0, opt.skip_plies));
    if (game.start == Position::start())
        for (const auto& line : opt.openings)
            if (starts_with(game.moves, line)) first = std::max(first, line.size());
    return int(first);
}

std::vector<MoveVerdict> judge_moves(Engine& engine, const PgnGame& game, Color side, const BlunderOptions& opt) {
    std::vector<MoveVerdict> out;
    Position pos = game.start;
    std::vector<Move> so_far;
    const int first = first_examined_ply(game, opt);
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const Move m = game.moves[i];
        if (int(i) >= first && pos.side_to_move() == side) {
            MoveVerdict v = judge_at(engine, game.start, so_far, pos, m, opt.depth, opt);
            // A deeper look at each blunder: a sacrifice that pays beyond the screening depth is none.
            if (v.blunder && opt.confirm_depth > opt.depth)
                v = judge_at(engine, game.start, so_far, pos, m, opt.confirm_depth, opt);
            v.ply = int(i);
            out.push_back(v);
        }
        UndoInfo undo;
        pos.do_move(m, undo);
        so_far.push_back(m);
    }
    return out;
}

std::optional<Color> player_colour(const PgnGame& game, int player) {
    const std::string round = game.tag("Round");
    char* end = nullptr;
    const long r = std::strtol(round.c_str(), &end, 10);
    if (round.empty() || *end || r < 1) return std::nullopt;
    const bool first_is_red = r % 2 == 1;
    return (player == 1) == first_is_red ? RED : BLACK;
}

void BlunderTally::add(const std::vector<MoveVerdict>& verdicts, bool lost) {
    ++games;
    moves += long(verdicts.size());
    const auto b = std::count_if(verdicts.begin(), verdicts.end(), [](const MoveVerdict& v) { return v.blunder; });
    const auto h = std::count_if(verdicts.begin(), verdicts.end(), [](const MoveVerdict& v) { return v.hung; });
    blunders += b;
    hung += h;
    if (b) {
        ++games_with_blunder;
        games_with_blunder_lost += lost;
    }
    if (h) {
        ++games_with_hung;
        games_with_hung_lost += lost;
    }
}

void BlunderTally::merge(const BlunderTally& o) {
    games += o.games;
    moves += o.moves;
    blunders += o.blunders;
    hung += o.hung;
    games_with_blunder += o.games_with_blunder;
    games_with_blunder_lost += o.games_with_blunder_lost;
    games_with_hung += o.games_with_hung;
    games_with_hung_lost += o.games_with_hung_lost;
}

namespace {

std::string percent(long long part, long long whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return buf;
}

std::string tally_line(const std::string& who, const BlunderTally& t) {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.1f", t.moves ? 100.0 * double(t.blunders) / double(t.moves) : 0.0);
    char hung_rate[64];
    std::snprintf(hung_rate, sizeof hung_rate, "%.1f", t.moves ? 100.0 * double(t.hung) / double(t.moves) : 0.0);
    std::ostringstream s;
    s << who << ": " << t.moves << " moves, " << t.blunders << " blunders (" << rate << " per 100 moves), "
      << t.hung << " hung pieces (" << hung_rate << " per 100 moves); games with a blunder " << t.games_with_blunder
      << "/" << t.games << " (lost " << t.games_with_blunder_lost << ", "
      << percent(t.games_with_blunder_lost, t.games_with_blunder) << "), with a hung piece " << t.games_with_hung
      << "/" << t.games << " (lost " << t.games_with_hung_lost << ", "
      << percent(t.games_with_hung_lost, t.games_with_hung) << ")";
    return s.str();
}

std::optional<long long> number(const char* text, long long lo, long long hi) {
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (!text[0] || *end || v < lo || v > hi) return std::nullopt;
    return v;
}

bool load_openings(const std::string& path, std::vector<std::vector<Move>>& out, std::string& error) {
    std::vector<std::string> lines;
    if (!load_opening_lines(path, lines, error)) return false;
    for (const std::string& text : lines) {
        Position pos;
        std::vector<Move> line;
        std::istringstream in(text);
        for (std::string word; in >> word;) {
            const ParsedMove p = parse_iccs(pos, word);
            if (!p.ok()) {
                error = path + ": opening '" + text + "': " + p.message;
                return false;
            }
            UndoInfo undo;
            pos.do_move(p.move, undo);
            line.push_back(p.move);
        }
        out.push_back(std::move(line));
    }
    return true;
}

}  // namespace

int blunders_command(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: xiangqi-blunders PGN... [--depth D] [--confirm-depth D] [--threshold CP] [--hung CP] [--openings FILE]\n"
                     "                        [--skip-plies N] [--label1 TEXT] [--label2 TEXT] [--list]\n"
                     "  PGN: games of xiangqi-match --pgn (engine 1 is Red in the odd rounds)\n";
        return 2;
    };
    BlunderOptions opt;
    std::vector<std::string> inputs;
    std::string label[2] = {"engine 1", "engine 2"};
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--list") {
            list = true;
            continue;
        }
        if (a.rfind("--", 0) != 0) {
            inputs.push_back(a);
            continue;
        }
        if (i + 1 >= argc) return usage();
        const char* v = argv[++i];
        std::optional<long long> n;
        if (a == "--depth" && (n = number(v, 1, 30))) opt.depth = int(*n);
        else if (a == "--confirm-depth" && (n = number(v, 0, 30))) opt.confirm_depth = int(*n);
        else if (a == "--threshold" && (n = number(v, 1, 100000))) opt.threshold_cp = int(*n);
        else if (a == "--hung" && (n = number(v, 1, 100000))) opt.hung_cp = int(*n);
        else if (a == "--skip-plies" && (n = number(v, 0, 100000))) opt.skip_plies = int(*n);
        else if (a == "--label1" || a == "--label2") label[a == "--label2"] = v;
        else if (a == "--openings") {
            std::string error;
            if (!load_openings(v, opt.openings, error)) {
                std::cerr << "error: " << error << "\n";
                return 1;
            }
        } else {
            std::cerr << "error: bad option or value: " << a << " " << v << "\n";
            return usage();
        }
    }
    if (inputs.empty()) return usage();
    std::cout << "judge: our engine at full strength, depth " << opt.depth << " + quiescence, one thread";
    if (opt.confirm_depth > opt.depth) std::cout << ", each blunder confirmed at depth " << opt.confirm_depth;
    std::cout << "; blunder: " << opt.threshold_cp << " cp or more below the best move (scores capped at +/-" << BLUNDER_SCORE_CAP
              << "); hung piece: a blunder whose line loses " << opt.hung_cp << " cp of material within "
              << opt.hung_plies << " plies\n";
    Engine engine(16);
    BlunderTally total[2];
    std::size_t total_games = 0;
    for (const std::string& path : inputs) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << "error: cannot read " << path << "\n";
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        const std::vector<PgnReadResult> games = read_pgn_all(text.str());
        for (const PgnReadResult& g : games) {
            if (!g.ok) {
                std::cerr << "error: " << path << ", line " << g.line << ": " << g.error << "\n";
                return 1;
            }
            if (!player_colour(g.game, 1)) {
                std::cerr << "error: " << path << ": a game without a numeric Round tag (xiangqi-match numbers "
                          << "its games from 1; engine 1 is Red in the odd rounds)\n";
                return 1;
            }
        }
        BlunderTally tally[2];
        for (const PgnReadResult& g : games) {
            for (int p = 0; p < 2; ++p) {
                const Color side = *player_colour(g.game, p + 1);
                const std::vector<MoveVerdict> verdicts = judge_moves(engine, g.game, side, opt);
                const bool lost = g.game.result == (side == RED ? Outcome::BlackWins : Outcome::RedWins);
                tally[p].add(verdicts, lost);
                if (!list) continue;
                Position pos = g.game.start;
                std::size_t done = 0;
                for (const MoveVerdict& v : verdicts) {
                    if (!v.blunder) continue;
                    for (; done < std::size_t(v.ply); ++done) {
                        UndoInfo undo;
                        pos.do_move(g.game.moves[done], undo);
                    }
                    std::cout << "  round " << g.game.tag("Round") << ", " << label[p] << " ("
                              << (side == RED ? "Red" : "Black") << "), ply " << v.ply + 1 << ": "
                              << to_iccs(v.played) << " " << v.played_cp << " cp, best " << to_iccs(v.best) << " "
                              << v.best_cp << " cp, loss " << v.loss_cp
                              << (v.hung ? ", hung piece: material lost " + std::to_string(v.material_lost) : "")
                              << "  [" << pos.fen() << "]\n";
                }
            }
        }
        std::cout << path << ": " << games.size() << " games\n";
        for (int p = 0; p < 2; ++p) std::cout << "  " << tally_line(label[p], tally[p]) << "\n";
        total_games += games.size();
        for (int p = 0; p < 2; ++p) total[p].merge(tally[p]);
    }
    if (inputs.size() > 1) {
        std::cout << "all " << inputs.size() << " files: " << total_games << " games\n";
        for (int p = 0; p < 2; ++p) std::cout << "  " << tally_line(label[p], total[p]) << "\n";
    }
    return 0;
}

}  // namespace xq::engine
