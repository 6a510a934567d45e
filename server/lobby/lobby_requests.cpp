// The lobby's answer to each request a session sends after its hello (lobby_hello.cpp):
// tables, seats, chat, AI, offers, invitations, tournaments, the arbiter: checked here, then
// passed to the table that referees it (or the tournament desk).
#include "server/lobby/lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/utf8.h"
#include "server/ai/engine_pool.h"
#include "server/table/game_clock.h"

namespace xq::server {

using proto::ErrorCode;

void Lobby::handle(User& u, const proto::Ping& m) { send_msg(u, proto::Pong{m.id}); }

// Any line counts as life; a pong needs no answer.
void Lobby::handle(User&, const proto::Pong&) {}

void Lobby::handle(User& u, const proto::ClaimWin& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->claim_win(u.id), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::CreateTable& m) {
    if (u.table != 0) {
        refuse(u, ErrorCode::AlreadyAtTable, "you are already at table " + std::to_string(u.table) + "; leave it first",
               m.TYPE);
        return;
    }
    if (tables_.size() >= config_.max_tables) {
        refuse(u, ErrorCode::TooManyTables, "the server has its maximum of " + std::to_string(config_.max_tables) + " tables",
               m.TYPE);
        return;
    }
    Position start;
    if (!m.fen.empty()) {
        if (const FenError e = start.set_fen(m.fen); e != FenError::None) {
            refuse(u, ErrorCode::BadFen, "bad FEN: " + std::string(fen_error_message(e)), m.TYPE, 0,
                   std::string(proto::fen_error_detail(e)));
            return;
        }
    }
    auto rules = resolve_settings(m.settings);
    if (const auto* no = std::get_if<Rejection>(&rules)) {
        report(u, *no, m.TYPE, 0);
        return;
    }
    if (std::get<TableRules>(rules).rated && !m.fen.empty() && start.key() != Position().key()) {
        refuse(u, ErrorCode::NotAllowed, "a rated game starts from the standard position (no handicap or set-up position)",
               m.TYPE);
        return;
    }
    if (std::get<TableRules>(rules).rated && m.as != proto::Role::Spectator && u.account_id == 0) {
        refuse(u, ErrorCode::NotAllowed, "only registered players sit at a rated table (register first)", m.TYPE);
        return;
    }
    std::string name = clean_text(m.name, proto::MAX_TABLE_NAME_CODE_POINTS);
    if (name.empty()) name = default_table_name(u.name);
    const proto::TableId id = next_table_id_++;
    auto t = std::make_shared<Table>(TableContext{io_, config_, *this, ai_, &observers_, engines_, book_}, id, name, u.name,
                                     start, std::get<TableRules>(std::move(rules)));
    for (auto& who : u.identities()) t->add_creator_identity(std::move(who));
    add_table(t);
    for (TableObserver* o : observers_) o->table_created(*t);
    spdlog::debug("table {} created by '{}'", id, u.name);
    set_table(u, id);
    t->join(u.id, u.name, u.token, m.as, u.account_id, shown_rating(u));
}

std::variant<TableRules, Rejection> Lobby::resolve_settings(const proto::TableSettings& s) const {
    TableRules r;
    const std::string& clock = s.clock.empty() ? default_clock_ : s.clock;
    std::string why;
    std::string_view detail;
    const auto parsed = parse_clock_spec(clock, &why, &detail);
    if (!parsed)
        return Rejection{ErrorCode::BadSettings, "bad clock '" + proto::cut_code_points(clock, 40) + "': " + why,
                         std::string(detail)};
    r.clock = clock_spec(*parsed);  // one spelling for everyone
    // The codec already holds grace to 0..MAX_GRACE_S and hold_level to 1..10.
    r.grace = s.grace ? Millis(std::int64_t(*s.grace) * 1000) : config_.seat_grace;
    r.abandon = s.abandon.value_or(proto::AbandonPolicy::Claim);
    if (r.abandon == proto::AbandonPolicy::Ai && !ai_)
        return Rejection{ErrorCode::BadSettings, "this server has no AI to hold seats",
                         std::string(proto::settings_detail::NO_AI)};
    r.hold_level = s.hold_level.value_or(DEFAULT_HOLD_LEVEL);
    r.takebacks = s.takebacks.value_or(true);
    r.rated = s.rated.value_or(false);
    r.hints = s.hints.value_or(false);
    if (r.hints && r.rated)
        return Rejection{ErrorCode::BadSettings, "no hints at a rated table", std::string(proto::settings_detail::NO_HINTS)};
    if (r.rated && !accounts_)
        return Rejection{ErrorCode::BadSettings, "this server has no accounts, so no rated games",
                         std::string(proto::settings_detail::NO_RATED)};
    if (r.rated && r.clock == "none")
        return Rejection{ErrorCode::BadSettings, "a rated table needs a clock",
                         std::string(proto::settings_detail::RATED_NEEDS_CLOCK)};
    return r;
}

void Lobby::handle(User& u, const proto::Join& m) {
    if (join_table(u, m.table, m.as, m.TYPE)) {
        // Invitations to this table are settled by joining it.
        std::erase_if(u.invites, [&](const PendingInvite& i) { return i.table == m.table; });
    }
}

void Lobby::handle(User& u, const proto::Leave& m) {
    Table* t = at_table(u, m.table, m.TYPE);
    if (!t) return;
    t->leave(u.id);
    set_table(u, 0);
    send_msg(u, proto::LeftTable{m.table});
    send_tables(u);
    if (!t->wanted()) schedule_check(m.table);
    desk_.user_free(u.name);
}

// ---- Tournaments (the desk decides; a refusal is the sender's error) ----

void Lobby::handle(User& u, const proto::CreateTournament& m) { report(u, desk_.create(u.name, m), m.TYPE, 0); }

void Lobby::handle(User& u, const proto::JoinTournament& m) { report(u, desk_.join(u.name, u.account_id != 0, m.tournament), m.TYPE, 0); }

void Lobby::handle(User& u, const proto::LeaveTournament& m) {
    report(u, desk_.leave(u.name, m.tournament), m.TYPE, 0);
}

void Lobby::handle(User& u, const proto::StartTournament& m) {
    report(u, desk_.start(u.name, m.tournament), m.TYPE, 0);
}

void Lobby::handle(User& u, const proto::ListTournaments&) { send_msg(u, desk_.list()); }

void Lobby::handle(User& u, const proto::GetTournament& m) {
    if (const proto::Tournament* t = desk_.find(m.tournament)) send_msg(u, *t);
    else refuse(u, ErrorCode::NoSuchTournament, "no tournament " + std::to_string(m.tournament), m.TYPE);
}

void Lobby::handle(User& u, const proto::GetTournamentPgn& m) {
    if (!desk_.find(m.tournament)) {
        refuse(u, ErrorCode::NoSuchTournament, "no tournament " + std::to_string(m.tournament), m.TYPE);
        return;
    }
    if (!archive_) {
        refuse(u, ErrorCode::NotAllowed, "this server keeps no game archive", m.TYPE);
        return;
    }
    if (m.limit != 0 && std::size_t(m.limit) < proto::MIN_TOURNAMENT_PGN_PAGE_BYTES) {
        refuse(u, ErrorCode::BadField,
               "field 'limit' must be 0 or " + std::to_string(proto::MIN_TOURNAMENT_PGN_PAGE_BYTES) + ".." +
                   std::to_string(proto::TOURNAMENT_PGN_PAGE_BYTES),
               m.TYPE);
        return;
    }
    std::string why;
    const auto pgn = archive_->tournament_pgn(m.tournament, m.notation, &why);
    if (!pgn) {
        spdlog::warn("tournament {} PGN: {}", m.tournament, why);
        refuse(u, ErrorCode::Internal, "the tournament's games cannot be read: " + why, m.TYPE);
        return;
    }
    const std::string& text = pgn->text;
    if (text.size() > proto::MAX_TOURNAMENT_PGN_BYTES) {
        refuse(u, ErrorCode::NotAllowed,
               "the tournament's PGN is " + std::to_string(text.size()) + " bytes, more than the wire's " +
                   std::to_string(proto::MAX_TOURNAMENT_PGN_BYTES) + ": the operator exports it (xiangqi-server export)",
               m.TYPE);
        return;
    }
    const auto offset = static_cast<std::size_t>(m.offset);
    const auto continuation = [&](std::size_t i) { return (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80; };
    if (offset > text.size() || (offset < text.size() && continuation(offset))) {
        refuse(u, ErrorCode::BadField,
               "field 'offset' must be a character boundary of the text (" + std::to_string(text.size()) + " bytes)",
               m.TYPE);
        return;
    }
    // Cut before a character that does not fit whole.
    std::size_t end = std::min(text.size(), offset + std::size_t(m.limit == 0 ? int(proto::TOURNAMENT_PGN_PAGE_BYTES) : m.limit));
    while (end < text.size() && continuation(end)) --end;
    send_msg(u, proto::TournamentPgn{m.tournament, m.notation, m.offset, std::int64_t(text.size()), pgn->digest,
                                     text.substr(offset, end - offset), end < text.size()});
}

void Lobby::handle(User& u, const proto::Sync& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) t->send_snapshot(u.id);
}

void Lobby::handle(User& u, const proto::MoveRequest& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->move(u.id, m.ply, m.move), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::ChatSend& m) {
    if (!u.chat.allow(Clock::now())) {
        refuse(u, ErrorCode::RateLimited,
               "at most " + std::to_string(config_.chat_burst) + " chat messages per " +
                   std::to_string(config_.chat_window.count() / 1000) + " s",
               m.TYPE, m.table);
        return;
    }
    const std::string text = clean_text(m.text, proto::MAX_CHAT_CODE_POINTS);
    if (text.empty()) {
        refuse(u, ErrorCode::EmptyText, "chat text is empty", m.TYPE, m.table);
        return;
    }
    if (m.scope == proto::ChatScope::Table) {
        if (Table* t = at_table(u, m.table, m.TYPE)) t->chat(u.name, text);
        return;
    }
    const proto::ChatLine line{proto::ChatScope::Lobby, 0, u.name, text};
    broadcast_lobby(line);
    if (u.table != 0) send_msg(u, line);  // the sender always sees its own line
}

void Lobby::handle(User& u, const proto::RequestAi& m) {
    Table* t = at_table(u, m.table, m.TYPE);
    if (!t) return;
    if (t->rules().rated) {
        // Ratings come from games between registered players only (PROTOCOL.md, Ratings).
        refuse(u, ErrorCode::NotAllowed, "a rated table seats two registered players, never an AI", m.TYPE, m.table);
        return;
    }
    // A second AI seat makes an AI-versus-AI table: those search without end and share the
    // AI workers with every other table, so the server caps them (in all and per creator).
    if (!t->seat(m.seat).ai() && t->seat(~m.seat).ai()) {
        int total = 0, mine = 0;
        for (const auto& [id, other] : tables_)
            if (other->seat(RED).ai() && other->seat(BLACK).ai()) {
                ++total;
                mine += other->creator() == t->creator();
            }
        if (total >= ai_caps_.total) {
            refuse(u, ErrorCode::NotAllowed,
                   "this server runs at most " + std::to_string(ai_caps_.total) + " AI-versus-AI tables at once",
                   m.TYPE, m.table);
            return;
        }
        if (mine >= ai_caps_.per_user) {
            refuse(u, ErrorCode::NotAllowed,
                   t->creator() + " already has " + std::to_string(mine) + " AI-versus-AI tables (at most " +
                       std::to_string(ai_caps_.per_user) + " per user)",
                   m.TYPE, m.table);
            return;
        }
    }
    report(u, t->request_ai(u.id, u.identities(), m.seat, m.level, m.engine), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::Resign& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->resign(u.id), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::OfferDraw& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->offer_draw(u.id), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::AnswerDraw& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->answer_draw(u.id, m.accept), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::RequestTakeback& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->request_takeback(u.id), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::AnswerTakeback& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->answer_takeback(u.id, m.accept), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::NewGame& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->new_game(u.id, u.identities(), m.as), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::WithdrawOffer& m) {
    if (Table* t = at_table(u, m.table, m.TYPE)) report(u, t->withdraw_offer(u.id, m.offer), m.TYPE, m.table);
}

void Lobby::handle(User& u, const proto::Invite& m) {
    Table* t = at_table(u, m.table, m.TYPE);
    if (!t) return;
    User* target = find_by_name(m.name);
    if (!target || target->closing) {
        refuse(u, ErrorCode::NoSuchUser, "nobody named '" + m.name + "' is online", m.TYPE, m.table);
        return;
    }
    if (target == &u) {
        refuse(u, ErrorCode::NotAllowed, "you cannot invite yourself", m.TYPE, m.table);
        return;
    }
    const proto::Role as = m.as.value_or(t->open_role());
    std::erase_if(target->invites, [&](const PendingInvite& i) { return i.table == m.table && i.from == u.name; });
    // A bounded list: the oldest invitation gives way.
    if (target->invites.size() >= 20) target->invites.erase(target->invites.begin());
    target->invites.push_back(PendingInvite{m.table, u.name, as});
    send_msg(*target, proto::InviteReceived{m.table, u.name, t->name(), as, t->has_default_name() && t->creator() == u.name});
}

void Lobby::handle(User& u, const proto::AnswerInvite& m) {
    const auto it = std::find_if(u.invites.begin(), u.invites.end(), [&](const PendingInvite& i) {
        return i.table == m.table && names_.key(i.from).same(names_.key(m.from));
    });
    if (it == u.invites.end()) {
        refuse(u, ErrorCode::NoOffer, "no invitation from '" + m.from + "' to table " + std::to_string(m.table), m.TYPE,
               m.table);
        return;
    }
    const PendingInvite inv = *it;
    u.invites.erase(it);
    bool accepted = m.accept;
    if (accepted) accepted = join_table(u, inv.table, inv.as, m.TYPE);
    if (User* from = find_by_name(inv.from)) send_msg(*from, proto::InviteAnswered{inv.table, u.name, accepted});
}

void Lobby::handle(User& u, const proto::ArbiterRequest& m) {
    Table* t = table(m.table);
    if (!t) {
        refuse(u, ErrorCode::NoSuchTable, "no table " + std::to_string(m.table), m.TYPE, m.table);
        return;
    }
    // A tournament board: its director. A club table: its creator while not playing at it.
    const auto role = t->role_of(u.id);
    const bool plays_here = role && *role != proto::Role::Spectator;
    const bool allowed =
        t->tournament_board() ? desk_.directs(m.table, u.name) : t->is_creator(u.identities()) && !plays_here;
    if (!allowed) {
        refuse(u, ErrorCode::NotAllowed,
               "only the tournament's director (or a club table's creator who does not play there) arbitrates "
               "table " + std::to_string(m.table),
               m.TYPE, m.table);
        return;
    }
    proto::ArbiterRequest clean = m;
    clean.reason = clean_text(m.reason, proto::MAX_ARBITER_REASON_CODE_POINTS);
    spdlog::info("table {}: arbiter '{}' {}", m.table, u.name, proto::encode(proto::ClientMessage{clean}));
    report(u, t->arbiter(clean, u.name, u.id), m.TYPE, m.table);
}

Verdict Lobby::admin_arbiter(const proto::ArbiterRequest& m) {
    Table* t = table(m.table);
    if (!t) return Rejection{ErrorCode::NoSuchTable, "no table " + std::to_string(m.table)};
    proto::ArbiterRequest clean = m;
    clean.reason = clean_text(m.reason, proto::MAX_ARBITER_REASON_CODE_POINTS);
    return t->arbiter(clean, "operator");
}

}  // namespace xq::server
