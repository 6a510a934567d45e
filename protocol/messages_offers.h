// Offers between the players of a table: draw, takeback, new game, and withdrawing one's
// own open offer. Part of messages.h; documented in protocol/PROTOCOL.md (Offers).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "protocol/messages_table_info.h"
#include "xiangqi/types.h"

namespace xq::proto {

enum class OfferKind { Draw, Takeback, NewGame };  // "draw", "takeback", "new_game"

struct OfferDraw {
    static constexpr std::string_view TYPE = "offer_draw";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct AnswerDraw {
    static constexpr std::string_view TYPE = "answer_draw";
    TableId table = 0;
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("accept", accept);
    }
};

struct DrawOffered {
    static constexpr std::string_view TYPE = "offer_draw";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

struct DrawAnswered {
    static constexpr std::string_view TYPE = "answer_draw";
    TableId table = 0;
    Color by = RED;  // who answered
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("accept", accept);
    }
};

struct RequestTakeback {
    static constexpr std::string_view TYPE = "request_takeback";
    TableId table = 0;
    template <class F> void fields(F& f) { f("table", table); }
};

struct AnswerTakeback {
    static constexpr std::string_view TYPE = "answer_takeback";
    TableId table = 0;
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("accept", accept);
    }
};

struct TakebackRequested {
    static constexpr std::string_view TYPE = "request_takeback";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

struct TakebackAnswered {
    static constexpr std::string_view TYPE = "answer_takeback";
    TableId table = 0;
    Color by = RED;  // who answered
    bool accept = false;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("accept", accept);
    }
};

// Plies were taken back; the board is now `fen` after `ply` plies.
struct TakebackDone {
    static constexpr std::string_view TYPE = "takeback";
    TableId table = 0;
    int plies = 0;  // how many plies were undone (1 or 2)
    int ply = 0;
    std::string fen;
    template <class F> void fields(F& f) {
        f("table", table);
        f("plies", plies, 1, 2);
        f("ply", ply, 0, 1 << 30);
        f("fen", fen);
    }
};

struct NewGame {
    static constexpr std::string_view TYPE = "new_game";
    TableId table = 0;
    // The colour the sender plays in the next game; only against the AI or an empty seat
    // (with a human opponent the colours swap, as without it).
    std::optional<Color> as;
    template <class F> void fields(F& f) {
        f("table", table);
        f.opt("as", as);
    }
};

struct NewGameOffered {
    static constexpr std::string_view TYPE = "new_game";
    TableId table = 0;
    Color by = RED;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
    }
};

// Takes back your own open offer (draw, takeback or new game) before it is answered.
struct WithdrawOffer {
    static constexpr std::string_view TYPE = "withdraw_offer";
    TableId table = 0;
    OfferKind offer = OfferKind::Draw;
    template <class F> void fields(F& f) {
        f("table", table);
        f("offer", offer);
    }
};

// An open offer was withdrawn by the side that made it.
struct OfferWithdrawn {
    static constexpr std::string_view TYPE = "offer_withdrawn";
    TableId table = 0;
    Color by = RED;
    OfferKind offer = OfferKind::Draw;
    template <class F> void fields(F& f) {
        f("table", table);
        f("by", by);
        f("offer", offer);
    }
};

}  // namespace xq::proto
