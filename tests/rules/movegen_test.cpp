// Per-piece move rules (legs, eyes, river, palace, screens, pawns, flying general, pins,
// double check), attack and check detection, do/undo and Zobrist keys.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "test_util.h"
#include "xiangqi/key_after.h"
#include "xiangqi/position.h"
#include "xiangqi/tables.h"

namespace {

using namespace xq;
using test::fen_pos;
using test::moves_from;
using S = std::set<std::string>;

TEST(Squares, FileAndRankAreTheDivisionByNineForEveryByte) {
    // file_of and rank_of read a table indexed by the square's byte: it must give what s % 9
    // and s / 9 give for every value a Square can hold, the points of the board and the rest.
    for (int v = -128; v < 128; ++v) {
        const Square s = Square(v);
        ASSERT_EQ(file_of(s), v % FILE_NB) << v;
        ASSERT_EQ(rank_of(s), v / FILE_NB) << v;
    }
    EXPECT_EQ(file_of(SQ_I9), 8);
    EXPECT_EQ(rank_of(SQ_I9), 9);
    EXPECT_EQ(make_square(file_of(SQ_E9), rank_of(SQ_E9)), SQ_E9);
}

TEST(MoveGen, HorseLegsBlockAndCaptures) {
    // Legs: e5 (black pawn) blocks d6/f6, f4 (own rook) blocks g3/g5; d2 holds an own advisor.
    const Position p = fen_pos("4k4/9/9/9/2r1p4/4NR3/9/3A5/9/3K5 w - - 0 1");
    EXPECT_EQ(moves_from(p, "e4"), (S{"e4c3", "e4c5", "e4f2"}));
}

TEST(MoveGen, ElephantEyeAndRiver) {
    const Position eye = fen_pos("4k4/9/9/9/9/9/3p5/4B4/9/3K5 w - - 0 1");
    EXPECT_EQ(moves_from(eye, "e2"), (S{"e2c0", "e2g0", "e2g4"}));  // d3 blocks the eye of c4
    const Position river = fen_pos("4k4/9/9/9/2b6/6B2/9/9/9/3K5 w - - 0 1");
    EXPECT_EQ(moves_from(river, "g4"), (S{"g4e2", "g4i2"}));  // never e6 / i6
    const Position black = fen_pos("4k4/9/9/9/2b6/6B2/9/9/9/3K5 b - - 0 1");
    EXPECT_EQ(moves_from(black, "c5"), (S{"c5a7", "c5e7"}));  // never a3 / e3
}

TEST(MoveGen, AdvisorAndKingStayInThePalace) {
    const Position a = fen_pos("5k3/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    EXPECT_EQ(moves_from(a, "e1"), (S{"e1f0", "e1d2", "e1f2"}));
    EXPECT_EQ(moves_from(a, "d0"), (S{"d0d1", "d0e0"}));
    const Position k = fen_pos("5k3/9/9/9/9/9/9/3K5/9/9 w - - 0 1");
    EXPECT_EQ(moves_from(k, "d2"), (S{"d2d1", "d2e2"}));  // not d3, not c2
}

TEST(MoveGen, CannonNeedsExactlyOneScreenToCapture) {
    const Position start;
    EXPECT_EQ(moves_from(start, "b2"), (S{"b2b1", "b2b3", "b2b4", "b2b5", "b2b6", "b2b9", "b2a2",
                                          "b2c2", "b2d2", "b2e2", "b2f2", "b2g2"}));
    // a1 screens a2 (capturable); a3 behind two pieces is not.
    const Position two = fen_pos("4k4/9/9/9/9/9/p8/p8/R8/C2K5 w - - 0 1");
    EXPECT_EQ(moves_from(two, "a0"), (S{"a0b0", "a0c0", "a0a2"}));
    // No screen: the adjacent b0 pawn cannot be taken, and the own king is no target.
    const Position none = fen_pos("4k4/9/9/9/9/9/p8/p8/R8/Cp1K5 w - - 0 1");
    EXPECT_EQ(moves_from(none, "a0"), (S{"a0a2"}));
}

TEST(MoveGen, RookSlidesUntilBlocked) {
    const Position p = fen_pos("4k4/9/9/9/4p4/2P1R4/9/9/9/3K5 w - - 0 1");
    EXPECT_EQ(moves_from(p, "e4"), (S{"e4e5", "e4e3", "e4e2", "e4e1", "e4e0", "e4d4", "e4f4", "e4g4",
                                      "e4h4", "e4i4"}));
}

TEST(MoveGen, PawnsBeforeAndAfterTheRiver) {
    const Position red = fen_pos("P2k5/9/9/9/4P4/9/4P4/9/9/5K3 w - - 0 1");
    EXPECT_EQ(moves_from(red, "e3"), (S{"e3e4"}));
    EXPECT_EQ(moves_from(red, "e5"), (S{"e5e6", "e5d5", "e5f5"}));
    EXPECT_EQ(moves_from(red, "a9"), (S{"a9b9"}));
    const Position black = fen_pos("3k5/9/9/2p6/9/2p6/9/9/9/5K2p b - - 0 1");
    EXPECT_EQ(moves_from(black, "c6"), (S{"c6c5"}));
    EXPECT_EQ(moves_from(black, "c4"), (S{"c4c3", "c4b4", "c4d4"}));
    EXPECT_EQ(moves_from(black, "i0"), (S{"i0h0"}));
}

TEST(MoveGen, FlyingGeneral) {
    // The horse is the only piece between the kings: every horse move would let them face.
    const Position screen = fen_pos("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
    EXPECT_EQ(moves_from(screen, "e5"), S{});
    EXPECT_EQ(moves_from(screen, "e0"), (S{"e0d0", "e0f0", "e0e1"}));
    // The king may not step onto the open d-file facing the black king.
    const Position file = fen_pos("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    EXPECT_EQ(moves_from(file, "e0"), (S{"e0f0", "e0e1"}));
    EXPECT_FALSE(file.is_legal(Move(test::sq("e0"), test::sq("d0"))));
}

TEST(MoveGen, Pins) {
    const Position rook = fen_pos("3kr4/9/9/9/9/9/9/4R4/9/4K4 w - - 0 1");
    EXPECT_EQ(moves_from(rook, "e2"), (S{"e2e1", "e2e3", "e2e4", "e2e5", "e2e6", "e2e7", "e2e8", "e2e9"}));
    const Position horse = fen_pos("3kr4/9/9/9/9/9/9/4N4/9/4K4 w - - 0 1");
    EXPECT_EQ(moves_from(horse, "e2"), S{});
    // Two screens between the black cannon and the red king: the advisor may not leave.
    const Position cannon = fen_pos("3k5/9/9/4c4/9/9/4P4/9/4A4/4K4 w - - 0 1");
    EXPECT_EQ(moves_from(cannon, "e1"), S{});
    EXPECT_EQ(moves_from(cannon, "e3"), (S{"e3e4"}));
}

TEST(MoveGen, DoubleCheckOnlyKingMoves) {
    // Rook e5 and horse d7 both check; taking the horse or blocking the rook is not enough.
    const Position p = fen_pos("4k4/9/r2N5/9/4R4/9/9/9/9/4K4 b - - 0 1");
    EXPECT_TRUE(p.in_check());
    EXPECT_EQ(test::all_moves(p), (S{"e9d9", "e9f9"}));
    MoveList pseudo;
    p.generate_pseudo(pseudo);
    EXPECT_GT(pseudo.size(), 10) << "the rook has pseudo-legal moves, all illegal";
}

TEST(MoveGen, IsAttackedIncludesPalacePieces) {
    const Position start;
    EXPECT_TRUE(start.is_attacked(test::sq("e1"), RED));   // king and advisors
    EXPECT_TRUE(start.is_attacked(test::sq("e2"), RED));   // elephants over empty eyes
    EXPECT_TRUE(start.is_attacked(test::sq("e5"), BLACK)); // the e6 pawn
    EXPECT_FALSE(start.is_attacked(test::sq("a5"), RED));  // the a0 rook is blocked by a3
    EXPECT_TRUE(start.is_attacked(test::sq("b9"), RED));   // cannon b2 over the b7 screen
    EXPECT_FALSE(start.is_attacked(test::sq("b7"), RED));  // no screen before b7
}

// Random playouts shared by the property tests below.
template <class F>
void for_random_positions(unsigned seed, int games, int plies, F&& f) {
    std::mt19937 rng(seed);
    for (int g = 0; g < games; ++g) {
        Position p;
        for (int i = 0; i < plies; ++i) {
            f(p);
            MoveList l;
            p.generate_legal(l);
            if (l.empty()) break;
            UndoInfo u;
            p.do_move(l[int(rng() % unsigned(l.size()))], u);
        }
    }
}

TEST(MoveGen, CaptureGenerationListsThePseudoLegalCapturesInTheirOrder) {
    // The search's move order (ties keep list order) relies on the same order in both lists.
    int captures = 0;
    for_random_positions(19, 30, 150, [&](const Position& p) {
        MoveList all, caps;
        p.generate_pseudo(all);
        p.generate_captures(caps);
        std::vector<Move> expected;
        for (Move m : all)
            if (p.is_capture(m)) expected.push_back(m);
        ASSERT_EQ(std::vector<Move>(caps.begin(), caps.end()), expected) << p.fen();
        captures += caps.size();
    });
    EXPECT_GT(captures, 5000);
}

// The pseudo-legal moves as a walk over the board finds them: the pieces by point, a step
// piece's steps in the tables' order (an eye or leg must be empty), a rook's or cannon's rays
// in the tables' order (up, down, left, right), each ray's empty points nearest first and then
// its capture (the first piece for a rook, the first beyond the screen for a cannon).
std::vector<Move> walked_moves(const Position& p) {
    const Color us = p.side_to_move();
    std::vector<Move> out;
    auto enemy = [&](int s) { return p.piece_on(Square(s)) != NO_PIECE && color_of(p.piece_on(Square(s))) != us; };
    for (int sq = 0; sq < SQ_NB; ++sq) {
        const Piece pc = p.piece_on(Square(sq));
        if (pc == NO_PIECE || color_of(pc) != us) continue;
        const Square from = Square(sq);
        auto steps = [&](const tables::StepList& l) {
            for (int i = 0; i < l.count; ++i) {
                const tables::Step st = l.steps[i];
                if (st.block >= 0 && p.piece_on(Square(st.block)) != NO_PIECE) continue;
                if (p.piece_on(Square(st.to)) == NO_PIECE || enemy(st.to)) out.push_back(Move(from, Square(st.to)));
            }
        };
        switch (type_of(pc)) {
        case KING: steps(tables::TABLES.king[sq]); break;
        case ADVISOR: steps(tables::TABLES.advisor[sq]); break;
        case ELEPHANT: steps(tables::TABLES.elephant[sq]); break;
        case HORSE: steps(tables::TABLES.horse[sq]); break;
        case PAWN: steps(tables::TABLES.pawn[us][sq]); break;
        default:
            for (const auto& ray : tables::TABLES.rays[sq]) {
                int i = 0;
                for (; i < ray.count && p.piece_on(Square(ray.squares[i])) == NO_PIECE; ++i)
                    out.push_back(Move(from, Square(ray.squares[i])));
                if (type_of(pc) == CANNON)  // past the screen to the next piece
                    for (++i; i < ray.count && p.piece_on(Square(ray.squares[i])) == NO_PIECE; ++i) {}
                if (i < ray.count && enemy(ray.squares[i])) out.push_back(Move(from, Square(ray.squares[i])));
            }
        }
    }
    return out;
}

TEST(MoveGen, PseudoLegalGenerationListsTheMovesInWalkOrder) {
    // The search breaks ties of its move scores in list order, so the order is part of its tree
    // (the bench signature pins it too): the generation, which counts moves without branching
    // on the board, must list them exactly as the walk does.
    int moves = 0;
    for_random_positions(23, 30, 150, [&](const Position& p) {
        MoveList list;
        p.generate_pseudo(list);
        ASSERT_EQ(std::vector<Move>(list.begin(), list.end()), walked_moves(p)) << p.fen();
        moves += list.size();
    });
    EXPECT_GT(moves, 100000);
}

TEST(MoveGen, IsAttackedAgreesWithCaptureGeneration) {
    int checked = 0;
    for_random_positions(7, 30, 120, [&](const Position& p) {
        for (int c = 0; c < COLOR_NB; ++c) {
            const Color by = Color(c);
            Position mover = p;
            UndoInfo nu;
            if (mover.side_to_move() != by) mover.do_null_move(nu);
            MoveList caps;
            mover.generate_captures(caps);
            for (int s = 0; s < SQ_NB; ++s) {
                const Piece q = p.piece_on(Square(s));
                if (q == NO_PIECE || color_of(q) == by) continue;
                bool captured = false;
                for (Move m : caps) captured = captured || m.to() == s;
                ASSERT_EQ(p.is_attacked(Square(s), by), captured) << p.fen() << " square " << s;
                ++checked;
            }
        }
    });
    EXPECT_GT(checked, 10000);
}

TEST(MoveGen, GivesCheckAgreesWithDoMove) {
    int checks = 0;
    for_random_positions(11, 30, 120, [&](const Position& p) {
        MoveList l;
        p.generate_legal(l);
        for (Move m : l) {
            Position q = p;
            UndoInfo u;
            q.do_move(m, u);
            ASSERT_EQ(p.gives_check(m), q.in_check()) << p.fen() << " " << move_to_iccs(m);
            checks += q.in_check();
        }
    });
    EXPECT_GT(checks, 50) << "random play should produce some checks";
}

TEST(MoveGen, LegalMovesAreExactlyThePseudoMovesThatKeepTheKingSafe) {
    for_random_positions(13, 20, 150, [&](const Position& p) {
        MoveList pseudo, legal;
        p.generate_pseudo(pseudo);
        p.generate_legal(legal);
        int n = 0;
        for (Move m : pseudo) {
            Position q = p;
            UndoInfo u;
            q.do_move(m, u);
            const bool safe = !q.king_attacked(p.side_to_move());
            ASSERT_EQ(legal.contains(m), safe) << p.fen() << " " << move_to_iccs(m);
            ASSERT_TRUE(p.is_pseudo_legal(m));
            n += safe;
        }
        ASSERT_EQ(n, legal.size());
        ASSERT_EQ(p.has_legal_move(), legal.size() > 0);
    });
}

TEST(MoveGen, FastLegalityAndCheckTestsAgreeWithTheFullOnes) {
    // is_legal(m, in_check) skips the attack scan and may_give_check answers "no check" for
    // moves off the king's lines, legs and horse steps; gives_check_fast tests the board as the
    // move would leave it (the search's fast paths).
    int moves = 0, checks = 0;
    for_random_positions(17, 30, 150, [&](const Position& p) {
        MoveList pseudo;
        p.generate_pseudo(pseudo);
        const bool in_check = p.in_check();
        for (Move m : pseudo) {
            const bool legal = p.is_legal(m);
            ASSERT_EQ(p.is_legal(m, in_check), legal) << p.fen() << " " << move_to_iccs(m);
            if (!legal) continue;
            const bool check = p.gives_check(m);
            ASSERT_EQ(p.gives_check_fast(m), check) << p.fen() << " " << move_to_iccs(m);
            if (check) {
                ASSERT_TRUE(p.may_give_check(m)) << p.fen() << " " << move_to_iccs(m);
            }
            ++moves;
            checks += check;
        }
    });
    EXPECT_GT(moves, 10000);
    EXPECT_GT(checks, 50);
}

TEST(MoveGen, MayGiveCheckMissesNoCheckOfAnyKind) {
    // may_give_check answers "no check" without an attack scan: a piece that leaves a line of
    // the enemy king is passed only when another of the mover's rooks or cannons is on that
    // line, one that leaves a leg point next to the king only when one of the mover's horses
    // could attack through it, a pawn that lands on a line of the king when it attacks the king,
    // and a horse, advisor, elephant or king that lands on one only as a new cannon screen.
    // Every legal check must still pass. The checks are counted by how they can be given, and
    // each kind must occur (the test fails when the screen, uncovering, leg or pawn rule is
    // left out - tried, each).
    int moves = 0, passed = 0, by_horse = 0, on_line = 0, screens = 0, uncovered = 0;
    for_random_positions(23, 300, 150, [&](const Position& p) {
        MoveList legal;
        p.generate_legal(legal);
        const Square k = p.king_square(~p.side_to_move());
        for (Move m : legal) {
            ++moves;
            const bool may = p.may_give_check(m);
            passed += may;
            if (!p.gives_check(m)) continue;
            ASSERT_TRUE(may) << p.fen() << " " << move_to_iccs(m);
            const PieceType t = type_of(p.moved_piece(m));
            const int df = std::abs(file_of(m.to()) - file_of(k)), dr = std::abs(rank_of(m.to()) - rank_of(k));
            const bool to_line = df == 0 || dr == 0;
            if (t == HORSE && df * dr == 2) ++by_horse;                            // the horse itself
            else if (to_line && (t == ROOK || t == CANNON || t == PAWN)) ++on_line;  // the mover, or a screen
            else if (to_line && !p.is_capture(m)) ++screens;  // a horse, advisor, elephant or king as a screen
            else ++uncovered;                                 // only the point left can give it
        }
    });
    EXPECT_GT(moves, 100000);
    EXPECT_LT(passed, moves / 4);  // the filter spares most moves the scan (about 13% pass)
    EXPECT_GT(by_horse, 1000);
    EXPECT_GT(on_line, 10000);
    EXPECT_GT(screens, 100);
    EXPECT_GT(uncovered, 500);
}

TEST(MoveGen, InCheckOnlyMovesTouchingTheCheckMaskCanBeLegal) {
    // check_mask(): the checkers and the points their attacks pass through. Every legal move
    // of another piece than the king leaves or reaches one of them, and is_legal_in_check
    // gives is_legal's answer for every pseudo-legal move.
    int positions = 0, rejected = 0;
    auto test = [&](const Position& p) {
        if (!p.in_check()) return;
        ++positions;
        const Position::CheckMask mask = p.check_mask();
        MoveList pseudo;
        p.generate_pseudo(pseudo);
        for (Move m : pseudo) {
            const bool legal = p.is_legal(m);
            ASSERT_EQ(p.is_legal_in_check(m, mask), legal) << p.fen() << " " << move_to_iccs(m);
            if (legal && type_of(p.moved_piece(m)) != KING) {
                ASSERT_TRUE(mask.touches(m)) << p.fen() << " " << move_to_iccs(m);
            }
            rejected += type_of(p.moved_piece(m)) != KING && !mask.touches(m);
        }
    };
    for_random_positions(19, 60, 150, test);
    // Checks by each kind of piece, and a cannon whose screen can step away or be captured.
    for (const char* fen : {"4k4/9/9/9/9/9/9/9/9/r2K5 w - - 0 1",          // rook
                            "4k4/9/9/9/9/9/9/3c5/3N5/3K5 w - - 0 1",      // cannon, horse screen
                            "4k4/9/9/9/9/9/9/3c5/3R5/3K5 w - - 0 1",      // cannon, rook screen
                            "4k4/9/9/9/9/9/9/2n6/9/3K5 w - - 0 1",        // horse
                            "4k4/9/9/9/9/9/9/9/3p5/3K1A3 w - - 0 1"}) {   // pawn
        Position p;
        ASSERT_EQ(p.set_fen(fen), FenError::None) << fen;
        ASSERT_TRUE(p.in_check()) << fen;
        test(p);
    }
    EXPECT_GT(positions, 100);
    EXPECT_GT(rejected, 1000);
}

// The occupancy sets a position keeps move by move (per piece, per colour, per rank and file,
// and per rank and file for both colours) describe its board.
::testing::AssertionResult occupancy_matches_board(const Position& p) {
    for (int s = 0; s < SQ_NB; ++s) {
        const Piece on = p.piece_on(Square(s));
        const int half = s / 64, bit = s % 64, r = s / FILE_NB, f = s % FILE_NB;
        const bool taken = on != NO_PIECE;
        if (((p.rank_occupancy(r) >> f) & 1) != taken || ((p.file_occupancy(f) >> r) & 1) != taken)
            return ::testing::AssertionFailure() << "both colours' line sets at point " << s;
        for (int pc = 1; pc < PIECE_NB; ++pc)
            if (((p.pieces(Piece(pc), half) >> bit) & 1) != (on == pc))
                return ::testing::AssertionFailure() << "piece set " << pc << " at point " << s;
        for (Color c : {RED, BLACK}) {
            const bool mine = on != NO_PIECE && color_of(on) == c;
            if (((p.occupied(c, half) >> bit) & 1) != mine || ((p.rank_occupancy(c, r) >> f) & 1) != mine ||
                ((p.file_occupancy(c, f) >> r) & 1) != mine)
                return ::testing::AssertionFailure() << "colour sets of " << int(c) << " at point " << s;
        }
    }
    return ::testing::AssertionSuccess();
}

TEST(MoveGen, DoUndoRestoresFenAndKeyAndKeysMatchFreshFens) {
    for_random_positions(17, 20, 150, [&](const Position& p) {
        const std::string fen = p.fen();
        MoveList l;
        p.generate_legal(l);
        Position q = p;
        for (Move m : l) {
            // key_after, which do_move uses and by which the search prefetches a child's table
            // entry before the move is made, predicts the key of the position from scratch.
            const std::uint64_t predicted = key_after(q, m);
            UndoInfo u;
            q.do_move(m, u);
            Position fresh;
            ASSERT_EQ(fresh.set_fen(q.fen()), FenError::None) << q.fen();
            ASSERT_EQ(fresh.key(), predicted) << "key_after is wrong for " << move_to_iccs(m);
            ASSERT_EQ(fresh.key(), q.key()) << "incremental key differs after " << move_to_iccs(m);
            ASSERT_TRUE(occupancy_matches_board(q)) << q.fen();
            q.undo_move(m, u);
            ASSERT_EQ(q.fen(), fen);
            ASSERT_TRUE(occupancy_matches_board(q)) << q.fen();
            ASSERT_EQ(q.key(), p.key());
        }
        UndoInfo nu;
        q.do_null_move(nu);
        EXPECT_NE(q.key(), p.key());
        q.undo_null_move(nu);
        EXPECT_EQ(q.fen(), fen);
        EXPECT_EQ(q.key(), p.key());
    });
}

TEST(MoveGen, IsPseudoLegalAcceptsExactlyTheGeneratedMoves) {
    // is_pseudo_legal decides from the piece's rule (the search asks it of every table move):
    // on positions of random games, every 16-bit value it accepts is a generated move and
    // every generated move is accepted.
    std::mt19937 rng(23);
    int positions = 0, moves = 0;
    for (int game = 0; game < 40; ++game) {
        Position p;
        for (int ply = 0; ply < 120; ++ply) {
            MoveList pseudo, legal;
            p.generate_pseudo(pseudo);
            int accepted = 0;
            for (unsigned raw = 0; raw < 0x10000; raw += raw < 0x4000 ? 1 : 0x3FF1) {
                const Move m = Move::from_raw(std::uint16_t(raw));
                const bool ok = p.is_pseudo_legal(m);
                ASSERT_EQ(ok, pseudo.contains(m)) << p.fen() << " raw " << raw;
                accepted += ok;
            }
            ASSERT_EQ(accepted, pseudo.size()) << p.fen();
            ++positions;
            moves += accepted;
            p.generate_legal(legal);
            if (legal.empty()) break;
            UndoInfo u;
            p.do_move(legal[int(rng() % unsigned(legal.size()))], u);
        }
    }
    EXPECT_GT(positions, 2000);
    EXPECT_GT(moves, 50000);
}

TEST(MoveGen, IsPseudoLegalRejectsJunk) {
    const Position p;
    EXPECT_FALSE(p.is_pseudo_legal(Move::none()));
    EXPECT_FALSE(p.is_pseudo_legal(Move::from_raw(0xFFFF)));
    EXPECT_FALSE(p.is_pseudo_legal(Move(test::sq("h9"), test::sq("g7"))));  // Black's piece
    EXPECT_FALSE(p.is_pseudo_legal(Move(test::sq("e4"), test::sq("e5"))));  // empty point
    int accepted = 0;
    for (unsigned raw = 0; raw < 0x10000; ++raw) accepted += p.is_pseudo_legal(Move::from_raw(std::uint16_t(raw)));
    EXPECT_EQ(accepted, 44);
}

}  // namespace
