// Session: what the user asks the server (every request the UI makes, each encoded into the
// outbox), and the tournament lines (the PGN's pages ask for the next one).
#include "core/session.h"

#include <algorithm>

#include "protocol/codec.h"

namespace xq::client {

template <class M>
void Session::send(const M& m) {
    outbox_.push_back(proto::encode_line(proto::ClientMessage(m)));
}
// session_explorer.cpp sends through it too...
template void Session::send<proto::GetExplorer>(const proto::GetExplorer&);
// ... and so does session_invites.cpp.
template void Session::send<proto::Invite>(const proto::Invite&);
template void Session::send<proto::AnswerInvite>(const proto::AnswerInvite&);

void Session::on(const proto::Ping& m) { send(proto::Pong{m.id}); }

void Session::hello(const std::string& name, const std::string& resume, const std::string& password) {
    proto::Hello h;
    h.name = name;
    h.resume = resume;
    h.password = password;
    state_.my_name = name;
    state_.connection = Connection::Handshake;
    // A new connection: nothing of the old one's paging or snapshot is still to come (the
    // first pages after the welcome replace the lists kept meanwhile).
    tables_more_ = users_more_ = archive_paging_ = snapshot_pending_ = clock_probe_ = false;
    send(h);
}
void Session::list_tables() { send(proto::ListTables{}); }
void Session::list_users() { send(proto::ListUsers{}); }
void Session::more_tables() { send(proto::ListTables{state_.lobby.tables_next, 0}); }
void Session::more_users() { send(proto::ListUsers{state_.lobby.users_next, 0}); }
void Session::create_table(const std::string& name, proto::Role as, const TableRules* rules,
                           const std::string& fen) {
    proto::CreateTable c;
    c.name = name;
    c.as = as;
    c.fen = fen;
    if (rules) c.settings = settings_from(*rules);
    send(c);
}
void Session::join(int table, proto::Role as) {
    proto::Join j;
    j.table = proto::TableId(table);
    j.as = as;
    send(j);
}
void Session::leave() {
    if (!state_.table.joined()) return;
    send(proto::Leave{proto::TableId(state_.table.id)});
}
void Session::move(Move m) {
    proto::MoveRequest r;
    r.table = proto::TableId(state_.table.id);
    r.ply = state_.table.board.ply();
    r.move = move_to_iccs(m);
    send(r);
}
void Session::chat_lobby(const std::string& text) {
    proto::ChatSend c;
    c.scope = proto::ChatScope::Lobby;
    c.text = text;
    send(c);
}
void Session::chat_table(const std::string& text) {
    proto::ChatSend c;
    c.scope = proto::ChatScope::Table;
    c.table = proto::TableId(state_.table.id);
    c.text = text;
    send(c);
}
void Session::request_ai(Color seat, int level, const std::string& engine) {
    proto::RequestAi r;
    r.table = proto::TableId(state_.table.id);
    r.seat = seat;
    r.level = std::clamp(level, proto::AI_LEVEL_MIN, proto::AI_LEVEL_MAX);
    r.engine = engine;
    send(r);
}
void Session::claim_win() {
    if (!state_.table.joined()) return;
    send(proto::ClaimWin{proto::TableId(state_.table.id)});
    state_.table.claim_open = false;
}
void Session::keep_waiting() {
    state_.table.claim_open = false;
    state_.table.claim_dismissed = true;
}
void Session::resign() { send(proto::Resign{proto::TableId(state_.table.id)}); }
void Session::set_outgoing(Offer::Kind k) {
    const auto me = my_color();
    if (me) state_.table.outgoing_offer = {k, state_.table.seats[~*me].name};
}
void Session::offer_draw() {
    send(proto::OfferDraw{proto::TableId(state_.table.id)});
    set_outgoing(Offer::Kind::Draw);
}
void Session::answer_draw(bool accept) {
    send(proto::AnswerDraw{proto::TableId(state_.table.id), accept});
    state_.table.incoming_offer = {};
}
void Session::request_takeback() {
    send(proto::RequestTakeback{proto::TableId(state_.table.id)});
    set_outgoing(Offer::Kind::Takeback);
}
void Session::request_hint() {
    send(proto::RequestHint{proto::TableId(state_.table.id)});
    state_.table.hint_pending = true;
}
void Session::answer_takeback(bool accept) {
    send(proto::AnswerTakeback{proto::TableId(state_.table.id), accept});
    state_.table.incoming_offer = {};
}
void Session::new_game(std::optional<Color> as) {
    send(proto::NewGame{proto::TableId(state_.table.id), as});
    if (state_.table.incoming_offer.kind == Offer::Kind::NewGame) state_.table.incoming_offer = {};
    else set_outgoing(Offer::Kind::NewGame);
}
void Session::withdraw_offer() {
    const Offer::Kind k = state_.table.outgoing_offer.kind;
    if (k == Offer::Kind::None || !state_.table.joined()) return;
    const proto::OfferKind what = k == Offer::Kind::Draw       ? proto::OfferKind::Draw
                                  : k == Offer::Kind::Takeback ? proto::OfferKind::Takeback
                                                               : proto::OfferKind::NewGame;
    send(proto::WithdrawOffer{proto::TableId(state_.table.id), what});
}
void Session::sync() {
    if (state_.table.joined()) send(proto::Sync{proto::TableId(state_.table.id)});
}

void Session::probe_clocks() {
    clock_probe_ = true;
    probe_sent_ = std::chrono::steady_clock::now();
    clock_drift_.reset();
    sync();
}

void Session::list_games(const std::string& player) {
    proto::ListGames l;
    l.player = player;
    state_.archive.player = player;
    state_.archive.loading = true;
    archive_paging_ = false;
    send(l);
}
void Session::list_older_games() {
    if (!state_.archive.more || state_.archive.games.empty()) return;
    proto::ListGames l;
    l.player = state_.archive.player;
    l.before = state_.archive.before();
    state_.archive.loading = true;
    archive_paging_ = true;
    send(l);
}
void Session::list_tournaments() { send(proto::ListTournaments{}); }
void Session::get_tournament(std::uint32_t id) { send(proto::GetTournament{id}); }
void Session::join_tournament(std::uint32_t id) { send(proto::JoinTournament{id}); }
void Session::leave_tournament(std::uint32_t id) { send(proto::LeaveTournament{id}); }
void Session::start_tournament(std::uint32_t id) { send(proto::StartTournament{id}); }

void Session::create_tournament(const std::string& name, proto::TournamentFormat format, int rounds,
                                const std::vector<int>& ai_levels, int forfeit_seconds, int spectator_delay) {
    proto::CreateTournament c;
    c.name = name;
    c.format = format;
    c.rounds = format == proto::TournamentFormat::Swiss ? rounds : 0;
    for (int level : ai_levels) c.ai.push_back(proto::AiEntrant{level});
    c.forfeit_seconds = forfeit_seconds;
    c.spectator_delay = spectator_delay;
    send(c);
}

void Session::get_tournament_pgn(std::uint32_t id, proto::PgnNotation notation) {
    send(state_.tournaments.pgn.start(id, notation));
}

void Session::arbiter(const proto::ArbiterRequest& r) { send(r); }

void Session::on(const proto::TournamentPgn& m) {
    if (const auto next = state_.tournaments.pgn.take(m)) send(*next);
}

void Session::arbiter(int table, proto::ArbiterKind action) {
    proto::ArbiterRequest r;
    r.table = proto::TableId(table);
    r.action = action;
    send(r);
}

void Session::on(const proto::Tournament& m) {
    state_.tournaments.known[m.id] = m;
    // The list follows the lines that change it (an entry, a round, the end).
    proto::TournamentSummary s{m.id, m.name, m.director, m.format, m.state, m.round, m.rounds, int(m.entrants.size())};
    auto& list = state_.tournaments.list;
    const auto it = std::find_if(list.begin(), list.end(), [&](const auto& x) { return x.id == m.id; });
    if (it == list.end()) list.push_back(std::move(s));
    else *it = std::move(s);
}

void Session::on(const proto::Tournaments& m) { state_.tournaments.list = m.tournaments; }

void Session::get_game(std::int64_t id) {
    state_.archive.loading = true;
    send(proto::GetGame{id});
}

void Session::analyse_game(std::int64_t id) {
    state_.analysis = {};
    state_.analysis.game_id = id;
    state_.analysis.running = true;
    send(proto::AnalyseGame{id});
}

void Session::analyse_moves(const Position& start, const std::vector<Move>& moves) {
    state_.analysis = {};
    state_.analysis.given = true;
    state_.analysis.start_fen = start.fen();
    state_.analysis.moves = moves;
    state_.analysis.running = true;
    proto::AnalyseGame m;
    m.start_fen = state_.analysis.start_fen;
    for (const Move mv : moves) m.moves.push_back(move_to_iccs(mv));
    send(m);
}

void Session::cancel_analysis() {
    if (!state_.analysis.running) return;
    send(proto::CancelAnalysis{state_.analysis.game_id});
}

}  // namespace xq::client
