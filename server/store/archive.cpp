#include "server/store/archive.h"

#include "book/game_analysis.h"
#include "book/opening_names.h"
#include "protocol/codec.h"
#include "xiangqi/pgn.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "xiangqi/pgn.h"

namespace xq::server {

namespace {

template <class T>
std::optional<T> fail(std::string* error, std::string message) {
    if (error) *error = std::move(message);
    return std::nullopt;
}

std::string pgn_date(std::int64_t unix_ms) {
    if (unix_ms <= 0) return "????.??.??";
    std::time_t t = std::time_t(unix_ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    return buf;
}

}  // namespace

std::optional<Outcome> outcome_from_pgn(std::string_view text) {
    for (Outcome o : {Outcome::RedWins, Outcome::BlackWins, Outcome::Draw, Outcome::Ongoing})
        if (outcome_pgn(o) == text) return o;
    return std::nullopt;
}

std::optional<EndReason> end_reason_from_name(std::string_view name) {
    for (int i = 0; i <= int(EndReason::Cancelled); ++i)
        if (end_reason_name(EndReason(i)) == name) return EndReason(i);
    return std::nullopt;
}

std::optional<Notation> notation_from_name(std::string_view name) {
    std::string n(name);
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (n == "iccs") return Notation::Iccs;
    if (n == "wxf") return Notation::Wxf;
    if (n == "chinese") return Notation::Chinese;
    return std::nullopt;
}

std::optional<Game> replay(const GameRecord& record, std::string* error) {
    Game game;
    if (FenError e = game.reset(record.start_fen); e != FenError::None)
        return fail<Game>(error, "game " + std::to_string(record.id) + ": stored FEN refused: " +
                                     std::string(fen_error_message(e)));
    for (const MoveRecord& m : record.moves) {
        auto parsed = parse_move(game.position(), m.move, Notation::Iccs);
        if (!parsed.ok() || !game.play(parsed.move))
            return fail<Game>(error, "game " + std::to_string(record.id) + ": stored move " + std::to_string(m.ply + 1) +
                                         " (" + m.move.substr(0, 16) + ") does not replay");
    }
    if (record.finished && !game.over()) {
        // Results the board does not decide (resignation, time, agreement, abandonment).
        auto outcome = outcome_from_pgn(record.result).value_or(Outcome::Ongoing);
        auto reason = end_reason_from_name(record.reason).value_or(EndReason::None);
        if (outcome != Outcome::Ongoing || reason == EndReason::Cancelled) game.finish(outcome, reason, record.result_text);
    }
    return game;
}

std::optional<std::string> record_pgn(const GameRecord& record, Notation notation, std::string_view site,
                                      std::string* error, const StoredAnalysis* analysis, std::string_view event,
                                      std::string_view round) {
    auto game = replay(record, error);
    if (!game) return std::nullopt;
    PgnTags tags = {
        {"Event", !event.empty()          ? std::string(event)
                  : record.table_id > 0 ? "LAN game, table " + std::to_string(record.table_id)
                                        : "Archive game"},
        {"Site", std::string(site)},
        {"Date", pgn_date(record.started_at_ms)},
        {"Round", round.empty() ? "-" : std::string(round)},
        {"Red", record.red.empty() ? "?" : record.red},
        {"Black", record.black.empty() ? "?" : record.black},
    };
    // The opening's name and ECCO group, found from the moves (common/book/opening_names.h).
    book::tag_opening(tags, game->start_position(), game->moves());
    if (!analysis && record.events.empty()) return write_pgn(*game, tags, notation);
    PgnGame pg;
    pg.tags = tags;
    if (game->over() && !game->result().text.empty()) pg.tags.emplace_back("Termination", game->result().text);
    pg.start = game->start_position();
    pg.moves = game->moves();
    pg.result = game->result().outcome;
    if (analysis) {
        std::vector<Move> best;
        for (const auto& b : analysis->best) {
            const Square f = b.size() == 4 ? square_from_string(b.substr(0, 2)) : SQ_NONE;
            const Square t = b.size() == 4 ? square_from_string(b.substr(2, 2)) : SQ_NONE;
            best.push_back(f != SQ_NONE && t != SQ_NONE ? Move(f, t) : Move::none());
        }
        pg.comments = book::analysis_comments(pg.start, pg.moves, analysis->evals, best, analysis->losses);
    }
    pg.comments.resize(pg.moves.size());
    // The arbiter's actions, as comments after the ply they followed ("Arbiter: ..."); a hint
    // on the move played after it ("Hint: ...", the last move's when none followed).
    for (const GameEvent& e : record.events) {
        const bool hint = e.kind == "hint";
        const int after = hint ? std::min<int>(e.ply + 1, int(pg.moves.size())) : e.ply;
        std::string& c = after <= 0 || pg.moves.empty() ? pg.pre_comment
                                                        : pg.comments[std::min<std::size_t>(after, pg.moves.size()) - 1];
        if (!c.empty()) c.push_back(' ');
        c.append(hint ? "Hint: " : "Arbiter: ").append(e.text);
    }
    return write_pgn(pg, notation);
}

ImportResult import_pgn(Storage& storage, std::string_view text, std::int64_t now_ms) {
    ImportResult result;
    auto games = read_pgn_all(text);
    if (games.empty()) {
        result.error = "no game in the file";
        return result;
    }
    // Check everything first: a file is stored whole or not at all.
    for (std::size_t i = 0; i < games.size(); ++i) {
        if (!games[i].ok) {
            result.error = "game " + std::to_string(i + 1) + ", line " + std::to_string(games[i].line) + ": " +
                           games[i].error;
            return result;
        }
    }
    for (const auto& r : games) {
        const PgnGame& g = r.game;
        Game replayed(g.start);
        for (Move m : g.moves)
            if (!replayed.play(m)) break;  // read_pgn already checked legality; a game may end early
        GameRecord rec;
        rec.table_id = 0;
        rec.start_fen = g.start.fen();
        rec.red = g.tag("Red").substr(0, 64);
        rec.black = g.tag("Black").substr(0, 64);
        rec.started_at_ms = now_ms;
        rec.clock = "none";
        auto id = storage.create_game(rec);
        if (!id) {
            result.error = "cannot store game " + std::to_string(result.imported + 1) + ": " + storage.last_error();
            return result;
        }
        for (std::size_t p = 0; p < g.moves.size(); ++p) {
            MoveRecord m;
            m.ply = int(p);
            m.move = move_to_iccs(g.moves[p]);
            m.at_ms = now_ms;
            if (!storage.append_move(*id, m)) {
                result.error = "cannot store game " + std::to_string(result.imported + 1) + ": " + storage.last_error();
                return result;
            }
        }
        // The hints an export wrote ("Hint: ..." on the move played after the hint) come back
        // as the game's hint events.
        for (std::size_t p = 0; p < g.comments.size() && p < g.moves.size(); ++p) {
            const std::string_view c = g.comments[p];
            for (std::size_t at = c.find("Hint: "); at != std::string_view::npos; at = c.find("Hint: ", at + 1)) {
                std::string_view text = c.substr(at + 6);
                text = text.substr(0, std::min(text.find(" Hint: "), text.find(" Arbiter: ")));
                if (text.empty() || text.size() > MAX_STORED_TEXT) continue;
                if (!storage.add_event(*id, GameEvent{int(p), now_ms, std::string(text), false, std::nullopt, "hint"})) {
                    result.error = "cannot store game " + std::to_string(result.imported + 1) + ": " + storage.last_error();
                    return result;
                }
            }
        }
        Outcome outcome = replayed.over() ? replayed.result().outcome : g.result;
        std::string reason(replayed.over() ? end_reason_name(replayed.result().reason) : "");
        std::string words = replayed.over() ? replayed.result().text : g.tag("Termination");
        if (!storage.finish_game(*id, outcome_pgn(outcome), reason, words.substr(0, 256), now_ms)) {
            result.error = "cannot store game " + std::to_string(result.imported + 1) + ": " + storage.last_error();
            return result;
        }
        ++result.imported;
    }
    return result;
}

std::optional<std::string> tournament_pgn(Storage& storage, std::int64_t tournament_id, Notation notation,
                                          std::string_view site, std::string* error) {
    auto all = tournament_games_pgn(storage, tournament_id, notation, site, error);
    if (all && all->empty())
        return fail<std::string>(error, "tournament " + std::to_string(tournament_id) + " has no game with a result yet");
    return all;
}

std::optional<std::string> tournament_games_pgn(Storage& storage, std::int64_t tournament_id, Notation notation,
                                                std::string_view site, std::string* error) {
    const std::string which = "tournament " + std::to_string(tournament_id);
    for (const StoredTournament& st : storage.tournaments()) {
        if (st.id != tournament_id) continue;
        auto decoded = proto::decode_server(st.state);
        const auto* t = decoded.ok() ? std::get_if<proto::Tournament>(&decoded.value()) : nullptr;
        if (!t) return fail<std::string>(error, which + " is damaged in the database");
        std::string all;
        for (std::size_t i = 0; i < t->games.size() && i < st.game_tables.size(); ++i) {
            const auto id = st.game_tables[i] > 0 ? storage.finished_game_at(st.game_tables[i]) : std::nullopt;
            if (!id) continue;  // a bye or a forfeit: no game
            auto rec = storage.get_game(*id);
            if (!rec) return fail<std::string>(error, "game " + std::to_string(*id) + " cannot be read");
            const auto analysis = storage.analysis(*id);
            auto pgn = record_pgn(*rec, notation, site, error, analysis ? &*analysis : nullptr, t->name,
                                  std::to_string(t->games[i].round));
            if (!pgn) return std::nullopt;
            all += *pgn;
            all += "\n";
        }
        return all;
    }
    return fail<std::string>(error, "no " + which + " in the database");
}

}  // namespace xq::server
