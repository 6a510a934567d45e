#include "core/session.h"

#include <algorithm>
#include <cstdlib>

#include "core/move_text.h"
#include "xiangqi/notation.h"
#include "protocol/codec.h"

namespace xq::client {

namespace {

std::optional<Color> color_of_role(proto::Role r) {
    if (r == proto::Role::Red) return RED;
    if (r == proto::Role::Black) return BLACK;
    return std::nullopt;
}

// `before` is what we knew of the seat: a dropped player's countdown survives an info
// that does not repeat grace_ms.
SeatInfo seat_from(const std::optional<proto::SeatInfo>& s, const SeatInfo& before) {
    SeatInfo out;
    if (!s) return out;
    out.name = s->name;
    out.ai = s->ai_level > 0;
    out.ai_level = s->ai_level;
    out.connected = s->connected;
    out.engine = s->engine;
    out.abandoned = s->abandoned;
    out.hold_level = s->hold_level;
    out.rating = s->rating;
    if (!out.connected && !out.abandoned) {
        if (s->grace_ms) out.grace_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(*s->grace_ms);
        else if (before.name == out.name && !before.connected) out.grace_until = before.grace_until;
    }
    return out;
}

std::string status_word(proto::TableStatus s) { return std::string(proto::status_name(s)); }

}  // namespace

std::string_view color_word(Color c) { return c == RED ? "Red" : "Black"; }

TableRules rules_from(const proto::TableSettings& s) {
    TableRules r;
    r.clock = s.clock.empty() ? "none" : s.clock;
    r.grace_s = s.grace.value_or(DEFAULT_GRACE_SECONDS);
    r.abandon = s.abandon.value_or(proto::AbandonPolicy::Claim) == proto::AbandonPolicy::Ai ? AbandonRule::Ai : AbandonRule::Claim;
    r.hold_level = s.hold_level.value_or(DEFAULT_HOLD_LEVEL);
    r.takebacks = s.takebacks.value_or(true);
    return r;
}

proto::TableSettings settings_from(const TableRules& r) {
    proto::TableSettings s;
    s.clock = r.clock;
    s.grace = r.grace_s;
    s.abandon = r.abandon == AbandonRule::Ai ? proto::AbandonPolicy::Ai : proto::AbandonPolicy::Claim;
    // The level matters only when the AI holds seats; the server checks its range anyway.
    if (r.abandon == AbandonRule::Ai) s.hold_level = r.hold_level;
    s.takebacks = r.takebacks;
    return s;
}

template <class M>
void Session::send(const M& m) {
    outbox_.push_back(proto::encode_line(proto::ClientMessage(m)));
}

std::vector<std::string> Session::take_outbox() { return std::exchange(outbox_, {}); }
std::vector<Cue> Session::take_cues() { return std::exchange(cues_, {}); }

int Session::received(std::string_view type) const {
    const auto it = received_.find(type);
    return it == received_.end() ? 0 : it->second;
}

void Session::notice(Str id, std::string arg, std::string arg2) {
    Cue c;
    c.kind = Cue::Kind::Notice;
    c.str = id;
    c.text = std::move(arg);
    c.arg2 = std::move(arg2);
    cues_.push_back(std::move(c));
}

void Session::hello(const std::string& name, const std::string& resume, const std::string& password) {
    proto::Hello h;
    h.name = name;
    h.resume = resume;
    h.password = password;
    state_.my_name = name;
    state_.connection = Connection::Handshake;
    send(h);
}
void Session::list_tables() { send(proto::ListTables{}); }
void Session::list_users() { send(proto::ListUsers{}); }
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
void Session::invite(const std::string& name) {
    proto::Invite i;
    i.table = proto::TableId(state_.table.id);
    i.name = name;
    send(i);
}
void Session::answer_invite(bool accept) {
    if (!state_.lobby.invitation) return;
    proto::AnswerInvite a;
    a.table = proto::TableId(state_.lobby.invitation->table);
    a.from = state_.lobby.invitation->from;
    a.accept = accept;
    send(a);
    state_.lobby.invitation.reset();
}
void Session::sync() {
    if (state_.table.joined()) send(proto::Sync{proto::TableId(state_.table.id)});
}

void Session::probe_clocks() {
    clock_probe_ = true;
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

void Session::on(const proto::AnalysisProgress& m) {
    AnalysisState& a = state_.analysis;
    if (m.id != a.game_id || (m.id == 0 && !a.given)) return;  // a cancelled one's last word, or another game's
    a.done = m.done;
    a.total = m.total;
    if (m.cancelled) a.running = false;
}

void Session::on(const proto::Analysis& m) {
    AnalysisState& a = state_.analysis;
    if (m.id != a.game_id || (m.id == 0 && !a.given) || m.evals.size() != m.best.size()) return;
    a.running = false;
    a.done = a.total = int(m.evals.size());
    a.evals = m.evals;
    a.losses = m.losses;
    a.best.clear();
    for (const auto& b : m.best) {
        const Square from = b.size() == 4 ? square_from_string(b.substr(0, 2)) : SQ_NONE;
        const Square to = b.size() == 4 ? square_from_string(b.substr(2, 2)) : SQ_NONE;
        a.best.push_back(from != SQ_NONE && to != SQ_NONE ? Move(from, to) : Move::none());
    }
}

namespace {
ArchiveEntry entry_from(const proto::GameSummary& g) {
    ArchiveEntry e;
    e.id = g.id;
    e.red = g.red;
    e.black = g.black;
    e.result = g.result;
    e.reason = g.reason;
    e.plies = g.plies;
    e.started_ms = g.started;
    e.red_rating = g.red_rating;
    e.black_rating = g.black_rating;
    return e;
}
}  // namespace

std::optional<ArchivedGame> archived_game_from(const proto::GameRecord& r, std::string& error) {
    Position start;
    if (const FenError fe = start.set_fen(r.start_fen); fe != FenError::None) {
        error = "start FEN: " + std::string(fen_error_message(fe));
        return std::nullopt;
    }
    Game game(start);
    std::vector<Move> moves;
    moves.reserve(r.moves.size());
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const ParsedMove pm = parse_iccs(game.position(), r.moves[i]);
        if (!pm.ok() || !game.play(pm.move)) {
            error = "move " + std::to_string(i + 1) + " \"" + r.moves[i] + "\" is not legal";
            if (!pm.ok() && !pm.message.empty()) error += ": " + pm.message;
            return std::nullopt;
        }
        moves.push_back(pm.move);
    }
    ArchivedGame out;
    out.entry = entry_from(r.game);
    out.game = Game(start);
    out.moves = describe_moves(start, moves);
    out.text = r.text;
    return out;
}

void Session::on(const proto::Games& m) {
    ArchiveState& a = state_.archive;
    if (!archive_paging_) a.games.clear();
    for (const auto& g : m.games) a.games.push_back(entry_from(g));
    a.more = m.more && !m.games.empty();
    a.loading = false;
    archive_paging_ = false;
}

void Session::on(const proto::GameRecord& m) {
    state_.archive.loading = false;
    std::string error;
    auto game = archived_game_from(m, error);
    if (!game) {
        Cue c;
        c.kind = Cue::Kind::Error;
        c.str = Str::ArchiveBadRecord;
        c.text = std::move(error);
        c.request = "get_game";
        cues_.push_back(std::move(c));
        return;
    }
    state_.archive.opened = std::move(*game);
    cue(Cue::Kind::ArchiveGame);
}

void Session::handle_line(std::string_view line) {
    auto decoded = proto::decode_server(line);
    if (!decoded) {
        ++received_["invalid"];
        Cue c;
        c.kind = Cue::Kind::Error;
        c.str = Str::UnreadableLine;
        c.text = decoded.error().message;
        cues_.push_back(std::move(c));
        return;
    }
    handle(decoded.value());
}

void Session::handle(const proto::ServerMessage& msg) {
    ++received_[std::string(proto::type_name(msg))];
    std::visit([this](const auto& m) { on(m); }, msg);
}

void Session::on(const proto::Welcome& m) {
    state_.connection = Connection::Ready;
    state_.my_name = m.name;
    state_.server_name = m.server;
    state_.resume_token = m.resume_token;
    state_.resumed = m.resumed;
    state_.engines = m.engines;
    state_.ai_ratings = m.ai_ratings;
    // A new connection: the server cancelled an analysis of ours when the old one was lost.
    state_.analysis.running = false;
    cue(Cue::Kind::Welcome);
    list_tables();
    list_users();
}

void Session::on(const proto::Error& m) {
    Cue c;
    c.kind = Cue::Kind::Error;
    c.text = m.message;
    c.request = m.request;
    c.code = proto::error_code_name(m.code);
    c.detail = m.detail;
    state_.last_error = m.message;
    state_.last_error_code = c.code;
    // A refused move or a wrong ply means our view may be stale: fetch the truth.
    if (m.request == "move" && m.code == proto::ErrorCode::WrongPly) sync();
    if (m.request == "analyse_game" || m.request == "cancel_analysis") {
        state_.analysis.running = false;
        state_.analysis.error = m.message;
        state_.analysis.error_code = c.code;
        state_.analysis.error_detail = m.detail;
    }
    if (m.request == "get_tournament_pgn") state_.tournaments.pgn.fail(c.code);
    if (m.request == "list_games" || m.request == "get_game") {
        state_.archive.loading = false;
        archive_paging_ = false;
    }
    cues_.push_back(std::move(c));
}

void Session::on(const proto::Tables& m) {
    if (!tables_more_) state_.lobby.tables.clear();
    for (const auto& t : m.tables) {
        TableSummary s;
        s.id = int(t.id);
        s.name = t.name;
        s.default_of = t.default_name ? t.creator : std::string();
        s.seats = {seat_from(t.red, {}), seat_from(t.black, {})};
        s.spectators = t.spectators;
        s.status = status_word(t.status);
        s.rules = rules_from(t.settings);
        state_.lobby.tables.push_back(std::move(s));
    }
    tables_more_ = m.more;
}

void Session::on(const proto::Users& m) {
    if (!users_more_) state_.lobby.users.clear();
    for (const auto& u : m.users) state_.lobby.users.push_back({u.name, int(u.table), u.rating});
    users_more_ = m.more;
}

void Session::on(const proto::UserJoined& m) {
    auto& users = state_.lobby.users;
    if (std::none_of(users.begin(), users.end(), [&](const UserEntry& u) { return u.name == m.name; }))
        users.push_back({m.name, 0, m.rating});
}

void Session::on(const proto::UserLeft& m) {
    auto& users = state_.lobby.users;
    std::erase_if(users, [&](const UserEntry& u) { return u.name == m.name; });
}

void Session::apply_table_info(const proto::TableInfo& info) {
    auto& tables = state_.lobby.tables;
    auto it = std::find_if(tables.begin(), tables.end(), [&](const TableSummary& t) { return t.id == int(info.id); });
    if (it == tables.end()) {
        tables.push_back({});
        it = tables.end() - 1;
    }
    const bool mine = for_my_table(info.id);
    const std::array<SeatInfo, 2>& known = mine ? state_.table.seats : it->seats;
    it->id = int(info.id);
    it->name = info.name;
    it->default_of = info.default_name ? info.creator : std::string();
    it->seats = {seat_from(info.red, known[RED]), seat_from(info.black, known[BLACK])};
    it->spectators = info.spectators;
    it->status = status_word(info.status);
    it->rules = rules_from(info.settings);
    for (auto& u : state_.lobby.users) {
        if (it->seats[RED].name == u.name || it->seats[BLACK].name == u.name) u.table = it->id;
    }
    if (!mine) return;
    TableState& t = state_.table;
    t.name = info.name;
    t.default_of = it->default_of;
    t.seats = it->seats;
    t.rules = it->rules;
    t.spectators = info.spectators;
    const bool started = info.status == proto::TableStatus::Playing && !t.board.in_progress();
    t.status = it->status;
    t.board.set_in_progress(info.status == proto::TableStatus::Playing);
    // The server starts the clock of the side to move the moment both seats are filled
    // (announced by this table_update), not at the first move: run it from now. A snapshot
    // or move_made that follows corrects the figure.
    if (started && t.clock_ms[RED] >= 0 && !t.clock_running && !t.board.game().over()) {
        t.clock_running = t.board.position().side_to_move();
        t.clock_stamp = std::chrono::steady_clock::now();
    }
    // Seats can move (a new game swaps colours): follow our name.
    std::optional<Color> seat;
    if (t.seats[RED].name == state_.my_name) seat = RED;
    if (t.seats[BLACK].name == state_.my_name) seat = BLACK;
    if (seat != t.board.seat()) t.board.set_seat(seat);
    update_claim();
}

void Session::update_claim() {
    TableState& t = state_.table;
    const auto me = my_color();
    const bool claimable = me && t.board.in_progress() && t.result_text.empty() && t.rules.abandon == AbandonRule::Claim &&
                           t.seats[~*me].abandoned && t.seats[~*me].hold_level == 0;
    t.claim_possible = claimable;
    if (!claimable) {
        t.claim_open = false;
        t.claim_dismissed = false;
        return;
    }
    if (!t.claim_dismissed && !t.claim_open) {
        t.claim_open = true;
        cue(Cue::Kind::Offer);
    }
}

void Session::on(const proto::TableUpdate& m) { apply_table_info(m.table); }

void Session::on(const proto::TableRemoved& m) {
    std::erase_if(state_.lobby.tables, [&](const TableSummary& t) { return t.id == int(m.table); });
}

void Session::apply_clocks(const proto::Clocks& c) {
    TableState& t = state_.table;
    t.clock_ms = {c.red_ms, c.black_ms};
    t.clock_running = c.running;
    t.clock_stamp = std::chrono::steady_clock::now();
}

void Session::on(const proto::TableSnapshot& m) {
    const bool same_table = state_.table.joined() && state_.table.id == int(m.table.id);
    const std::optional<Color> previous_seat = same_table ? state_.table.board.seat() : std::nullopt;
    if (clock_probe_ && same_table && m.clocks) {
        // What we showed the moment the server's figures arrived.
        const auto now = std::chrono::steady_clock::now();
        ClockDrift d;
        for (Color c : {RED, BLACK}) {
            d.shown[c] = state_.table.clock_now(c, now);
            d.server[c] = c == RED ? m.clocks->red_ms : m.clocks->black_ms;
            d.worst = std::max<std::int64_t>(d.worst, std::abs(d.shown[c] - d.server[c]));
        }
        clock_drift_ = d;
        clock_probe_ = false;
    }
    if (!same_table) state_.table = TableState{};
    TableState& t = state_.table;
    t.id = int(m.table.id);
    if (m.result) t.result_text = m.result->text;  // before the claim check in apply_table_info
    else t.result_text.clear();
    apply_table_info(m.table);
    const std::optional<Color> seat = color_of_role(m.you);
    if (!same_table || seat != t.board.seat()) t.board.set_seat(seat);
    t.chat.clear();
    for (const auto& c : m.chat) push_chat(t.chat, {c.from, c.text});
    if (m.clocks) apply_clocks(*m.clocks);
    else t.clock_ms = {-1, -1};
    t.paused = m.paused;
    t.result_text.clear();
    t.result_reason.clear();
    t.outcome = Outcome::Ongoing;
    t.result_shown = false;
    if (m.result) {
        t.result_text = m.result->text;
        t.result_reason = m.result->reason;
        t.outcome = m.result->outcome;
    }
    t.incoming_offer = {};
    t.outgoing_offer = {};
    const auto mine = my_color();
    auto offer_from = [&](const std::optional<Color>& by, Offer::Kind k) {
        if (by && (!mine || *by != *mine)) t.incoming_offer = {k, t.seats[*by].name};
        else if (by && mine) t.outgoing_offer = {k, t.seats[~*mine].name};
    };
    // A new game swaps the colours: say so (also against the AI, which may move at once).
    if (same_table && previous_seat && mine && *previous_seat != *mine && m.ply == 0)
        notice(*mine == RED ? Str::NowRed : Str::NowBlack, {}, {});
    offer_from(m.draw_offer, Offer::Kind::Draw);
    offer_from(m.takeback_offer, Offer::Kind::Takeback);
    offer_from(m.new_game_offer, Offer::Kind::NewGame);
    t.ai = {};
    snapshot_start_fen_ = m.start_fen;
    snapshot_fen_ = m.fen;
    snapshot_ply_ = m.ply;
    snapshot_moves_ = m.moves;
    snapshot_pending_ = int(snapshot_moves_.size()) < m.ply;
    if (!snapshot_pending_) finish_snapshot();
}

void Session::on(const proto::SnapshotMoves& m) {
    if (!snapshot_pending_ || !for_my_table(m.table) || m.from != int(snapshot_moves_.size())) return;
    snapshot_moves_.insert(snapshot_moves_.end(), m.moves.begin(), m.moves.end());
    if (int(snapshot_moves_.size()) >= snapshot_ply_) {
        snapshot_pending_ = false;
        finish_snapshot();
    }
}

void Session::finish_snapshot() {
    TableState& t = state_.table;
    const std::string err = t.board.load_snapshot(snapshot_start_fen_, snapshot_moves_);
    if (!err.empty()) {
        Cue c;
        c.kind = Cue::Kind::Error;
        c.str = Str::SnapshotRefused;
        c.text = err;
        cues_.push_back(std::move(c));
    } else if (!snapshot_fen_.empty() && !same_placement(t.board.position().fen(), snapshot_fen_)) {
        Cue c;
        c.kind = Cue::Kind::Error;
        c.str = Str::SnapshotRefused;
        c.text = "the position differs from its moves";
        cues_.push_back(std::move(c));
    }
    rebuild_move_texts();
    t.result_shown = !t.result_text.empty();
    cue(Cue::Kind::TableJoined);
}

void Session::rebuild_move_texts() {
    TableState& t = state_.table;
    t.moves = describe_moves(t.board.game().start_position(), t.board.game().moves());
}

void Session::on(const proto::PlayerJoined& m) {
    if (!for_my_table(m.table)) return;
    const auto c = color_of_role(m.role);
    if (c) {
        SeatInfo& s = state_.table.seats[*c];
        s.name = m.name;
        s = SeatInfo{};
        s.name = m.name;
        s.ai = m.ai_level > 0;
        s.ai_level = m.ai_level;
        s.engine = m.engine;
        if (m.name == state_.my_name && state_.table.board.seat() != c) state_.table.board.set_seat(c);
    } else if (m.name != state_.my_name) {
        // Our own arrival is counted in the snapshot already.
        ++state_.table.spectators;
    }
}

void Session::on(const proto::PlayerLeft& m) {
    if (!for_my_table(m.table)) return;
    const auto c = color_of_role(m.role);
    if (!c) {
        state_.table.spectators = std::max(0, state_.table.spectators - 1);
        return;
    }
    SeatInfo& s = state_.table.seats[*c];
    if (m.reason == proto::LeaveReason::Disconnected) {
        s.connected = false;
        s.abandoned = false;
        s.grace_until.reset();
        if (m.grace_ms) s.grace_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(*m.grace_ms);
    } else {
        s = SeatInfo{};
    }
    update_claim();
    if (m.name == state_.my_name) return;
    // A dropped player whose seat is kept has not left: say how long the seat waits.
    if (m.reason == proto::LeaveReason::Disconnected && m.grace_ms) notice(Str::SeatKept, m.name, countdown_text(*m.grace_ms));
    else notice(Str::OpponentLeft, m.name);
}

void Session::on(const proto::SeatAbandoned& m) {
    if (!for_my_table(m.table)) return;
    SeatInfo& s = state_.table.seats[m.seat];
    s.connected = false;
    s.abandoned = true;
    s.grace_until.reset();
    s.hold_level = m.hold_level;
    state_.table.claim_dismissed = false;
    update_claim();
    if (m.hold_level > 0) notice(Str::AiHolds, std::to_string(m.hold_level), m.name);
    else notice(Str::SeatAbandoned, m.name);
}

void Session::on(const proto::PlayerReturned& m) {
    if (!for_my_table(m.table)) return;
    if (const auto c = color_of_role(m.role)) {
        SeatInfo& s = state_.table.seats[*c];
        s.connected = true;
        s.abandoned = false;
        s.hold_level = 0;
        s.grace_until.reset();
    }
    update_claim();
    if (m.name != state_.my_name) notice(Str::OpponentReturned, m.name);
}

void Session::on(const proto::MoveMade& m) {
    if (!for_my_table(m.table)) return;
    TableState& t = state_.table;
    Cue c;
    c.kind = Cue::Kind::MovePlayed;
    if (m.move.size() == 4) {
        const Square from = square_from_string(std::string_view(m.move).substr(0, 2));
        const Square to = square_from_string(std::string_view(m.move).substr(2, 2));
        if (from != SQ_NONE && to != SQ_NONE) {
            c.move = Move(from, to);
            c.piece = t.board.position().piece_on(from);
            c.captured = t.board.position().piece_on(to);
        }
    }
    c.check = m.check;
    const Position before = t.board.position();
    const ApplyResult r = t.board.apply_server_move(m.ply, m.move, m.fen);
    if (m.clocks) apply_clocks(*m.clocks);
    t.ai.active = false;
    t.incoming_offer = {};  // offers die when the position changes
    t.outgoing_offer = {};
    if (r == ApplyResult::Duplicate) return;
    if (r == ApplyResult::NeedResync) {
        sync();
        cue(Cue::Kind::Resync);
        return;
    }
    MoveEntry e = describe_move(before, c.move);
    if (!m.chinese.empty()) e.chinese = m.chinese;
    if (!m.wxf.empty()) e.wxf = m.wxf;
    t.moves.push_back(std::move(e));
    cues_.push_back(std::move(c));
}

void Session::on(const proto::GameOver& m) {
    if (!for_my_table(m.table)) return;
    TableState& t = state_.table;
    t.outcome = m.result.outcome;
    t.result_text = m.result.text;
    t.result_reason = m.result.reason;
    t.result_shown = true;
    t.paused = false;
    t.board.set_in_progress(false);
    t.status = "over";
    t.ai.active = false;
    // The final clocks: the server's when it sends them, else the running side's time
    // frozen now (the server stopped it when it sent this).
    if (m.clocks) apply_clocks(*m.clocks);
    else if (t.clock_running) t.clock_ms[*t.clock_running] = t.clock_now(*t.clock_running, std::chrono::steady_clock::now());
    t.clock_running.reset();
    t.incoming_offer = {};
    if (t.outgoing_offer.kind != Offer::Kind::NewGame) t.outgoing_offer = {};
    update_claim();
    Cue c;
    c.kind = Cue::Kind::GameOver;
    c.text = m.result.text;
    cues_.push_back(std::move(c));
}

void Session::on(const proto::ChatLine& m) {
    if (m.scope == proto::ChatScope::Lobby) push_chat(state_.lobby.chat, {m.from, m.text});
    else if (for_my_table(m.table)) push_chat(state_.table.chat, {m.from, m.text});
}

// A server notice shows in the lobby chat and, at a table, in the table chat too.
void Session::on(const proto::Notice& m) {
    push_chat(state_.lobby.chat, {"", m.text, true});
    if (state_.table.joined()) push_chat(state_.table.chat, {"", m.text, true});
}

void Session::on(const proto::AiProgress& m) {
    if (!for_my_table(m.table)) return;
    state_.table.ai = {true, m.seat, m.depth, m.score, m.percent, parse_pv(state_.table.board.position(), m.seat, m.pv)};
}

void Session::on(const proto::DrawOffered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::Draw, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::DrawAnswered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.outgoing_offer = {};
    notice(m.accept ? Str::DrawAccepted : Str::DrawDeclined, state_.table.seats[m.by].name);
}

void Session::on(const proto::TakebackRequested& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::Takeback, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::TakebackAnswered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.outgoing_offer = {};
    notice(m.accept ? Str::TakebackAccepted : Str::TakebackDeclined, state_.table.seats[m.by].name);
}

void Session::on(const proto::TakebackDone& m) {
    if (!for_my_table(m.table)) return;
    TableState& t = state_.table;
    if (!t.board.rewind_to(m.ply) || (!m.fen.empty() && !same_placement(t.board.position().fen(), m.fen))) {
        sync();
        cue(Cue::Kind::Resync);
        return;
    }
    t.moves.resize(std::size_t(t.board.ply()));
    t.incoming_offer = {};
    t.outgoing_offer = {};
    t.ai.active = false;
    cue(Cue::Kind::TakenBack);
}

void Session::on(const proto::NewGameOffered& m) {
    if (!for_my_table(m.table) || m.by == my_color()) return;
    state_.table.incoming_offer = {Offer::Kind::NewGame, state_.table.seats[m.by].name};
    cue(Cue::Kind::Offer);
}

void Session::on(const proto::OfferWithdrawn& m) {
    if (!for_my_table(m.table)) return;
    const Offer::Kind k = m.offer == proto::OfferKind::Draw       ? Offer::Kind::Draw
                          : m.offer == proto::OfferKind::Takeback ? Offer::Kind::Takeback
                                                                  : Offer::Kind::NewGame;
    TableState& t = state_.table;
    if (m.by == my_color()) {
        if (t.outgoing_offer.kind == k) t.outgoing_offer = {};
        return;
    }
    if (t.incoming_offer.kind == k) t.incoming_offer = {};
    notice(k == Offer::Kind::Draw       ? Str::DrawWithdrawn
           : k == Offer::Kind::Takeback ? Str::TakebackWithdrawn
                                        : Str::NewGameWithdrawn,
           t.seats[m.by].name);
}

void Session::on(const proto::ArbiterAction& m) {
    state_.tournaments.paused[m.table] = m.paused;
    // The arbiter hears of their own action wherever they are (a director in the lobby).
    const bool here = for_my_table(m.table);
    if (!here && m.by != state_.my_name) return;
    if (here) {
        state_.table.paused = m.paused;
        if (m.clocks) apply_clocks(*m.clocks);
    }
    switch (m.action) {
    case proto::ArbiterKind::Pause: notice(Str::ArbiterPaused, m.by); break;
    case proto::ArbiterKind::Resume: notice(Str::ArbiterResumed, m.by); break;
    case proto::ArbiterKind::AddTime:
        notice(m.side == BLACK ? Str::ArbiterAddTimeBlack : Str::ArbiterAddTimeRed, m.by,
               std::to_string(m.seconds.value_or(0)));
        break;
    case proto::ArbiterKind::Adjudicate: notice(Str::ArbiterAdjudicated, m.by, m.reason); break;
    case proto::ArbiterKind::Cancel: notice(Str::ArbiterCancelled, m.by, m.reason); break;
    }
}

void Session::on(const proto::InviteReceived& m) {
    state_.lobby.invitation = Invitation{m.from, int(m.table), m.table_name, m.default_name};
    cue(Cue::Kind::Invitation);
}

void Session::on(const proto::InviteAnswered& m) {
    notice(m.accept ? Str::InviteAccepted : Str::InviteDeclined, m.name);
}

void Session::on(const proto::LeftTable& m) {
    if (!for_my_table(m.table)) return;
    state_.table = TableState{};
    snapshot_pending_ = false;
    cue(Cue::Kind::TableLeft);
    list_tables();
}

}  // namespace xq::client
