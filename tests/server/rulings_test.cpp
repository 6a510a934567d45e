// Repetition rulings over the wire: cases of tests/rules/repetition_cases.h (the WXF/AXF
// rules with their sources) played by two clients on a real server, watched by a spectator.
// Every connection gets game_over with the referee's outcome, reason and the ruling in
// English and Chinese; the tests in tests/rules play every case through Game.
#include "harness.h"
#include "repetition_cases.h"
#include "repetition_forms.h"

namespace xq::test {
namespace {

// A representative subset: each verdict class, each kind of chase the rule book names,
// both colours losing, cycles of 4 and 8 plies, and a ruling that comes inside the cycle.
constexpr std::string_view WIRE_CASES[] = {
    "perpetual_check",
    "mutual_perpetual_check",
    "rook_chases_unprotected_cannon",
    "cannon_chases_protected_rook",
    "two_cannons_take_turns_on_a_rook",
    "protection_taken_away_every_move",
    "protection_taken_away_every_other_move",
    "attacked_all_along",
    "one_check_one_chase",
    "pinned_protector_does_not_protect",
    "free_protector_protects",
    "two_rooks_chase_two_cannons_8_plies",
    "checks_that_also_chase",
    "king_may_chase",
};

const RepetitionCase& find_case(std::string_view name) {
    for (const auto& c : REPETITION_CASES)
        if (c.name == name) return c;
    ADD_FAILURE() << "no repetition case " << name;
    return REPETITION_CASES[0];
}

std::string_view reason_name(Why w) {
    switch (w) {
    case Why::PerpetualCheck: return "perpetual_check";
    case Why::PerpetualChase: return "perpetual_chase";
    case Why::Repetition: return "repetition";
    }
    return "";
}

Outcome outcome_of(Verdict v) {
    return v == Verdict::Draw ? Outcome::Draw : v == Verdict::RedLoses ? Outcome::BlackWins : Outcome::RedWins;
}

void play_over_the_wire(const RepetitionCase& c, Form form) {
    const std::string fen = map_fen(c.fen, form);
    const std::vector<std::string> cycle = map_moves(c.cycle, form);
    SCOPED_TRACE(std::string(c.name) + " (" + form.name() + "): " + fen);
    TestServer s(test_config(), false);
    auto red = Client::login(s.port(), "alice");
    red->send(proto::CreateTable{"rulings", proto::Role::Red, fen});
    const proto::TableId table = red->expect<proto::TableSnapshot>().table.id;
    auto black = Client::login(s.port(), "bob");
    black->send(proto::Join{table, proto::Role::Black});
    ASSERT_EQ(black->expect<proto::TableSnapshot>().you, proto::Role::Black);
    auto spec = Client::login(s.port(), "carol");
    spec->send(proto::Join{table, proto::Role::Spectator});
    ASSERT_EQ(spec->expect<proto::TableSnapshot>().you, proto::Role::Spectator);
    red->until_pong();
    black->until_pong();

    Color mover = fen.ends_with("b - - 0 1") ? BLACK : RED;
    const int end_ply = c.end_ply ? c.end_ply : 2 * int(cycle.size());
    for (int ply = 0; ply < end_ply; ++ply) {
        const std::string& m = cycle[std::size_t(ply) % cycle.size()];
        (mover == RED ? *red : *black).send(proto::MoveRequest{table, ply, m});
        for (Client* cl : {red.get(), black.get(), spec.get()}) {
            const auto mm = cl->expect<proto::MoveMade>();
            ASSERT_EQ(mm.move, m) << "ply " << ply + 1;
            ASSERT_EQ(mm.ply, ply + 1);
        }
        mover = ~mover;
    }
    const Verdict verdict = map_verdict(c.verdict, form);
    for (Client* cl : {red.get(), black.get(), spec.get()}) {
        const auto go = cl->expect<proto::GameOver>();
        EXPECT_EQ(go.ply, end_ply);
        EXPECT_EQ(go.result.outcome, outcome_of(verdict)) << go.result.text;
        EXPECT_EQ(go.result.reason, reason_name(c.why)) << go.result.text;
        const std::string plies = c.plies.empty() ? "plies 1-" + std::to_string(end_ply) : std::string(c.plies);
        EXPECT_NE(go.result.text.find(plies), std::string::npos) << go.result.text;
        EXPECT_NE(go.result.text.find(verdict == Verdict::Draw ? "判和" : "判负"), std::string::npos)
            << go.result.text;
        if (c.why == Why::PerpetualChase) {
            const std::string victim = map_victim(c.victim, form);
            EXPECT_NE(go.result.text.find("perpetual chase of the " + victim), std::string::npos) << go.result.text;
            EXPECT_NE(go.result.text.find("长捉"), std::string::npos) << go.result.text;
        }
        if (c.why == Why::PerpetualCheck) {
            EXPECT_NE(go.result.text.find("长将"), std::string::npos) << go.result.text;
        }
    }
    // The game is over: a further move is refused.
    (mover == RED ? *red : *black).send(proto::MoveRequest{table, end_ply, cycle[std::size_t(end_ply) % cycle.size()]});
    (mover == RED ? *red : *black).expect_error(proto::ErrorCode::GameNotInProgress);
}

TEST(Rulings, RepresentativeCasesOverTheWire) {
    for (std::string_view name : WIRE_CASES) play_over_the_wire(find_case(name), Form{});
}

// Every case of the suite over the wire (issue #16: each case played through Game and
// through the server), as given and with the colours exchanged (Black moves first and is
// the side that checks or chases).
TEST(Rulings, EveryCaseOverTheWire) {
    for (const auto& c : REPETITION_CASES) play_over_the_wire(c, Form{});
}

TEST(Rulings, EveryCaseWithColoursExchangedOverTheWire) {
    for (const auto& c : REPETITION_CASES) play_over_the_wire(c, Form{false, true});
}

}  // namespace
}  // namespace xq::test
