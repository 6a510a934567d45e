#include "selfplay.h"

#include <charconv>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "xiangqi/game.h"
#include "xiangqi/notation.h"

namespace xq::engine {

namespace {

std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bool decisive(const Result& r) { return r.mate_in != 0 || std::abs(r.score_cp) >= RULE_WIN_CP - 1000; }

// Plays the opening line and the random plies; false when the game ended or a move was bad.
bool play_start(Game& game, const SelfplayOptions& opt, std::uint64_t& rng) {
    if (!opt.openings.empty()) {
        std::istringstream in(opt.openings[splitmix(rng) % opt.openings.size()]);
        for (std::string t; in >> t;) {
            const ParsedMove p = parse_iccs(game.position(), t);
            if (!p.move || !game.play(p.move)) return false;
        }
    }
    const int span = opt.random_plies_max - opt.random_plies_min + 1;
    const int randoms = opt.random_plies_min + (span > 0 ? int(splitmix(rng) % std::uint64_t(span)) : 0);
    for (int i = 0; i < randoms && !game.over(); ++i) {
        const MoveList moves = game.legal_moves();
        if (moves.empty()) return false;
        game.play(moves[int(splitmix(rng) % std::uint64_t(moves.size()))]);
    }
    return !game.over();
}

double red_result(Outcome o) { return o == Outcome::RedWins ? 1.0 : o == Outcome::BlackWins ? 0.0 : 0.5; }

}  // namespace

SelfplayGame play_selfplay_game(Engine& engine, const SelfplayOptions& opt, int game_number) {
    std::uint64_t rng = opt.seed * 0x2545F4914F6CDD1DULL + std::uint64_t(game_number);
    SelfplayGame out;
    Game game;
    // A start that ends the game at once (a random mate) is replaced by another draw.
    for (int attempt = 0; attempt < 16; ++attempt) {
        game = Game();
        if (play_start(game, opt, rng)) break;
    }
    engine.new_game();
    std::vector<std::string> fens;
    int run = 0, run_sign = 0;  // consecutive plies with |score| >= adjudicate_cp for one side
    while (!game.over()) {
        if (game.ply() >= opt.max_plies) {
            game.finish(Outcome::Draw, EndReason::Adjudication, "Draw: adjudicated at the ply limit");
            break;
        }
        Limits limits;
        limits.nodes = opt.nodes;
        const Result r = engine.search(game.start_position(), game.moves(), limits);
        if (!r.best) break;  // no legal move: Game has decided it already
        const Position& pos = game.position();
        const int red_cp = pos.side_to_move() == RED ? r.score_cp : -r.score_cp;
        if (!decisive(r) && !pos.in_check() && !pos.is_capture(r.best)) fens.push_back(pos.fen());
        const int sign = decisive(r) || std::abs(red_cp) >= opt.adjudicate_cp ? (red_cp > 0 ? 1 : -1) : 0;
        run = sign != 0 && sign == run_sign ? run + 1 : (sign != 0 ? 1 : 0);
        run_sign = sign;
        if (run >= opt.adjudicate_plies) {
            game.finish(sign > 0 ? Outcome::RedWins : Outcome::BlackWins, EndReason::Adjudication,
                        std::string(sign > 0 ? "Red" : "Black") + " wins: adjudicated by the score");
            break;
        }
        game.play(r.best);
    }
    out.result = red_result(game.result().outcome);
    out.plies = game.ply();
    out.ending = game.result().text;
    out.samples.reserve(fens.size());
    for (auto& f : fens) out.samples.push_back({std::move(f), out.result, game_number});
    return out;
}

std::string format_sample(const Sample& s) {
    const char* r = s.result == 1.0 ? "1" : s.result == 0.0 ? "0" : "0.5";
    std::string line = s.fen + " | " + r + " | " + std::to_string(s.game);
    if (s.score) line += " | " + std::to_string(*s.score);
    return line;
}

std::optional<Sample> parse_sample(std::string_view line, std::string& error) {
    const auto bar1 = line.find('|');
    const auto bar2 = bar1 == std::string_view::npos ? bar1 : line.find('|', bar1 + 1);
    if (bar2 == std::string_view::npos) {
        error = "expected 'FEN | result | game'";
        return std::nullopt;
    }
    auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r')) v.remove_suffix(1);
        return v;
    };
    Sample s;
    s.fen = std::string(trim(line.substr(0, bar1)));
    const std::string_view res = trim(line.substr(bar1 + 1, bar2 - bar1 - 1));
    if (res == "1") s.result = 1.0;
    else if (res == "0") s.result = 0.0;
    else if (res == "0.5") s.result = 0.5;
    else {
        error = "result must be 1, 0.5 or 0";
        return std::nullopt;
    }
    const auto bar3 = line.find('|', bar2 + 1);
    const std::string_view g = trim(line.substr(bar2 + 1, bar3 == std::string_view::npos ? bar3 : bar3 - bar2 - 1));
    const auto [ptr, ec] = std::from_chars(g.data(), g.data() + g.size(), s.game);
    if (ec != std::errc() || ptr != g.data() + g.size() || s.game < 0) {
        error = "bad game number";
        return std::nullopt;
    }
    if (bar3 != std::string_view::npos) {
        const std::string_view v = trim(line.substr(bar3 + 1));
        int score = 0;
        const auto [sp, sec] = std::from_chars(v.data(), v.data() + v.size(), score);
        if (sec != std::errc() || sp != v.data() + v.size() || score < -LABEL_MAX_CP || score > LABEL_MAX_CP) {
            error = "bad score (an integer, at most " + std::to_string(LABEL_MAX_CP) + " either way)";
            return std::nullopt;
        }
        s.score = score;
    }
    Position p;
    if (const FenError e = p.set_fen(s.fen); e != FenError::None) {
        error = "bad FEN: " + std::string(fen_error_message(e));
        return std::nullopt;
    }
    return s;
}

}  // namespace xq::engine
