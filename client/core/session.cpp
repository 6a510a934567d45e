// Session: the lines the server sends, decoded and dispatched: the welcome and errors, the
// lobby's lists, the joined table's snapshot, clocks, moves, end and chat. By concept, the
// rest is in session_requests.cpp (what the user asks), session_seats.cpp (the people at the
// table and their offers), session_archive.cpp (archive and analysis answers) and
// session_invites.cpp (invitations).
#include "core/session.h"

#include <algorithm>
#include <cstdlib>

#include "core/move_text.h"
#include "xiangqi/notation.h"
#include "protocol/codec.h"

namespace xq::client {

namespace {

// `before` is what we knew of the seat: a dropped player's countdown survives an info
// that does not repeat grace_ms.
// `arrived`: when the message arrived (a grace counts down from then).
SeatInfo seat_from(const std::optional<proto::SeatInfo>& s, const SeatInfo& before, std::chrono::steady_clock::time_point arrived) {
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
        if (s->grace_ms) out.grace_until = arrived + std::chrono::milliseconds(*s->grace_ms);
        else if (before.name == out.name && !before.connected) out.grace_until = before.grace_until;
    }
    return out;
}

std::string status_word(proto::TableStatus s) { return std::string(proto::status_name(s)); }

}  // namespace

std::string_view color_word(Color c) { return c == RED ? "Red" : "Black"; }

std::optional<Color> color_of_role(proto::Role r) {
    if (r == proto::Role::Red) return RED;
    if (r == proto::Role::Black) return BLACK;
    return std::nullopt;
}

TableRules rules_from(const proto::TableSettings& s) {
    TableRules r;
    r.clock = s.clock.empty() ? "none" : s.clock;
    r.grace_s = s.grace.value_or(DEFAULT_GRACE_SECONDS);
    r.abandon = s.abandon.value_or(proto::AbandonPolicy::Claim) == proto::AbandonPolicy::Ai ? AbandonRule::Ai : AbandonRule::Claim;
    r.hold_level = s.hold_level.value_or(DEFAULT_HOLD_LEVEL);
    r.takebacks = s.takebacks.value_or(true);
    r.hints = s.hints.value_or(false);
    return r;
}

proto::TableSettings settings_from(const TableRules& r) {
    // Absent fields take the server's defaults (PROTOCOL.md, Table settings): an empty clock
    // and SERVER_DEFAULT_GRACE are left out, and so are the protocol's defaults (abandon
    // "claim", takebacks on, hints off), so the request says only what the user chose.
    proto::TableSettings s;
    s.clock = r.clock;
    if (r.grace_s != SERVER_DEFAULT_GRACE) s.grace = r.grace_s;
    // The level matters only when the AI holds seats; the server checks its range anyway.
    if (r.abandon == AbandonRule::Ai) {
        s.abandon = proto::AbandonPolicy::Ai;
        s.hold_level = r.hold_level;
    }
    if (!r.takebacks) s.takebacks = false;
    if (r.hints) s.hints = true;
    return s;
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

void Session::handle_line(std::string_view line, std::chrono::steady_clock::time_point arrived) {
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
    handle(decoded.value(), arrived);
}

void Session::handle(const proto::ServerMessage& msg, std::chrono::steady_clock::time_point arrived) {
    arrived_ = arrived;
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
    // ... and forgot the invitations to it.
    state_.lobby.invitations.clear();
    cue(Cue::Kind::Welcome);
    list_tables();
    list_users();
}

void Session::on(const proto::Error& m) {
    // The explorer's refusal shows in its panel, not as a toast.
    if (m.request == "get_explorer") {
        explorer_refused(m);
        return;
    }
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
    if (m.request == "request_hint") state_.table.hint_pending = false;
    if (m.request == "invite") invite_refused(m);
    // A refused offer of ours waits for no answer (only "your offer is still open" leaves it
    // waiting; "answer theirs first" comes with their offer of that kind open).
    {
        Offer& ours = state_.table.outgoing_offer;
        const Offer::Kind refused = m.request == "offer_draw"         ? Offer::Kind::Draw
                                    : m.request == "request_takeback" ? Offer::Kind::Takeback
                                    : m.request == "new_game"         ? Offer::Kind::NewGame
                                                                      : Offer::Kind::None;
        const bool still_open =
            m.code == proto::ErrorCode::OfferPending && state_.table.incoming_offer.kind != refused;
        if (refused != Offer::Kind::None && ours.kind == refused && !still_open) ours = {};
    }
    if (m.request == "list_games" || m.request == "get_game") {
        state_.archive.loading = false;
        archive_paging_ = false;
    }
    cues_.push_back(std::move(c));
}

// A page from the list's start replaces the list; a later page adds to it (an item the
// list holds already, met again as the list shifted between pages, is replaced in place).
void Session::on(const proto::Tables& m) {
    if (!tables_more_ && m.offset == 0) state_.lobby.tables.clear();
    if (!tables_more_) tables_from_ = m.offset;
    for (const auto& t : m.tables) {
        TableSummary s;
        s.id = int(t.id);
        s.name = t.name;
        s.default_of = t.default_name ? t.creator : std::string();
        s.seats = {seat_from(t.red, {}, arrived_), seat_from(t.black, {}, arrived_)};
        s.spectators = t.spectators;
        s.status = status_word(t.status);
        s.rules = rules_from(t.settings);
        auto& tables = state_.lobby.tables;
        const auto it = std::find_if(tables.begin(), tables.end(), [&](const TableSummary& x) { return x.id == s.id; });
        invitations_seen_table(it != tables.end() ? (*it = std::move(s)) : tables.emplace_back(std::move(s)));
    }
    tables_more_ = m.more;
    state_.lobby.tables_next = m.offset + int(m.tables.size());
    state_.lobby.tables_total = m.total;
    // The whole list in one page (its lines were sent at once): a table missing from it is gone.
    if (!m.more && tables_from_ == 0 && state_.lobby.tables_next >= m.total) invitations_whole_tables();
}

void Session::on(const proto::Users& m) {
    auto& users = state_.lobby.users;
    if (!users_more_ && m.offset == 0) users.clear();
    if (!users_more_) users_from_ = m.offset;
    for (const auto& u : m.users) {
        UserEntry e{u.name, int(u.table), u.rating};
        const auto it = std::find_if(users.begin(), users.end(), [&](const UserEntry& x) { return x.name == e.name; });
        if (it != users.end()) *it = std::move(e);
        else users.push_back(std::move(e));
    }
    users_more_ = m.more;
    state_.lobby.users_next = m.offset + int(m.users.size());
    state_.lobby.users_total = m.total;
    if (!m.more && users_from_ == 0 && state_.lobby.users_next >= m.total) invitations_whole_users();
}

void Session::on(const proto::UserJoined& m) {
    auto& users = state_.lobby.users;
    if (std::none_of(users.begin(), users.end(), [&](const UserEntry& u) { return u.name == m.name; }))
        users.push_back({m.name, 0, m.rating});
}

void Session::on(const proto::UserLeft& m) {
    auto& users = state_.lobby.users;
    std::erase_if(users, [&](const UserEntry& u) { return u.name == m.name; });
    invitations_user_gone(m.name);
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
    it->seats = {seat_from(info.red, known[RED], arrived_), seat_from(info.black, known[BLACK], arrived_)};
    it->spectators = info.spectators;
    it->status = status_word(info.status);
    it->rules = rules_from(info.settings);
    for (auto& u : state_.lobby.users) {
        if (it->seats[RED].name == u.name || it->seats[BLACK].name == u.name) u.table = it->id;
    }
    invitations_seen_table(*it);
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
        t.clock_stamp = arrived_;
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
    invitations_table_gone(int(m.table));
}

void Session::apply_clocks(const proto::Clocks& c) {
    TableState& t = state_.table;
    t.clock_ms = {c.red_ms, c.black_ms};
    t.clock_running = c.running;
    t.clock_stamp = arrived_;
}

void Session::on(const proto::TableSnapshot& m) {
    const bool same_table = state_.table.joined() && state_.table.id == int(m.table.id);
    const std::optional<Color> previous_seat = same_table ? state_.table.board.seat() : std::nullopt;
    if (clock_probe_ && same_table && m.clocks) {
        // What we showed the moment the server's figures arrived.
        ClockDrift d;
        for (Color c : {RED, BLACK}) {
            d.shown[c] = state_.table.clock_now(c, arrived_);
            d.server[c] = c == RED ? m.clocks->red_ms : m.clocks->black_ms;
            d.worst = std::max<std::int64_t>(d.worst, std::abs(d.shown[c] - d.server[c]));
        }
        d.round_trip_ms = std::chrono::duration_cast<std::chrono::milliseconds>(arrived_ - probe_sent_).count();
        clock_drift_ = d;
        clock_probe_ = false;
    }
    if (!same_table) state_.table = TableState{};
    TableState& t = state_.table;
    t.id = int(m.table.id);
    invitations_table_gone(t.id);  // joining settles the invitations to this table
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

void Session::on(const proto::MoveMade& m) {
    if (!for_my_table(m.table)) return;
    TableState& t = state_.table;
    t.hint_move.clear();  // a hint lasts until the next move
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
    // The explorer refused a player during the game: it may be asked again now.
    if (!state_.explorer.error.empty()) state_.explorer = ExplorerState{};
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
    else if (t.clock_running) t.clock_ms[*t.clock_running] = t.clock_now(*t.clock_running, arrived_);
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

void Session::on(const proto::LeftTable& m) {
    if (!for_my_table(m.table)) return;
    state_.table = TableState{};
    snapshot_pending_ = false;
    cue(Cue::Kind::TableLeft);
    // Back in the lobby: who came and went while we sat is news to us (the server tells
    // only the lobby about arrivals and departures).
    list_tables();
    list_users();
}

}  // namespace xq::client
