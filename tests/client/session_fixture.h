// The fixture of the protocol session's tests (session_*_test.cpp): a Session over a
// ClientState, server messages fed in as lines, the requests it sent and the cues it gave.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/move_text.h"
#include "core/session.h"
#include "protocol/codec.h"

namespace xq::client {

struct SessionTest : ::testing::Test {
    ClientState state;
    Session session{state};

    void feed(const proto::ServerMessage& m) { session.handle_line(proto::encode(m)); }
    std::vector<std::string> sent_types() {
        std::vector<std::string> out;
        for (const std::string& line : session.take_outbox()) {
            std::string l = line;
            if (!l.empty() && l.back() == '\n') l.pop_back();
            auto d = proto::decode_client(l);
            EXPECT_TRUE(d.ok()) << line;
            if (d.ok()) out.emplace_back(proto::type_name(d.value()));
        }
        return out;
    }
    bool has_cue(Cue::Kind k) {
        for (const Cue& c : session.take_cues())
            if (c.kind == k) return true;
        return false;
    }
    // Table 7's snapshot, a game under way after `moves`: we (alice) play Red against `black`
    // (a human, or the AI at `black_ai`).
    static proto::TableSnapshot red_snapshot(std::vector<std::string> moves = {}, const char* black = "AI", int black_ai = 5) {
        proto::TableSnapshot s;
        s.table.id = 7;
        s.table.name = "t7";
        s.table.red = proto::SeatInfo{"alice", 0, true};
        s.table.black = proto::SeatInfo{black, black_ai, true};
        s.table.status = proto::TableStatus::Playing;
        s.you = proto::Role::Red;
        s.moves = std::move(moves);
        s.ply = int(s.moves.size());
        return s;
    }
    void join_red_table(std::vector<std::string> moves = {}) {
        proto::Welcome w;
        w.name = "alice";
        w.server = "test";
        feed(w);
        session.take_outbox();
        feed(red_snapshot(std::move(moves)));
    }
    proto::MoveMade move_made(int ply, const char* mv, Color by) {
        Game g;
        for (const MoveEntry& e : state.table.moves) g.play(e.move);
        const Move m(square_from_string(std::string_view(mv, 2)), square_from_string(std::string_view(mv + 2, 2)));
        g.play(m);
        proto::MoveMade mm;
        mm.table = 7;
        mm.ply = ply;
        mm.move = mv;
        mm.fen = g.position().fen();
        mm.by = by;
        mm.chinese = "炮二平五";
        mm.wxf = "C2.5";
        return mm;
    }
};

}  // namespace xq::client
