// Move notations: the docs/RULES.md table both ways, tandem pieces and pawns, parser rejections,
// and round trips of every legal move in many positions (random play, published perft
// positions, random pawn-heavy set-ups).
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "perft_data.h"
#include "xiangqi/notation.h"
#include "xiangqi/position.h"

namespace {

using namespace xq;

Position from_fen(std::string_view fen) {
    Position p;
    EXPECT_EQ(p.set_fen(fen), FenError::None) << fen;
    return p;
}

Move iccs(std::string_view s) {
    return Move(square_from_string(s.substr(0, 2)), square_from_string(s.substr(2, 2)));
}

MoveList legal(const Position& pos) {
    MoveList l;
    pos.generate_legal(l);
    return l;
}

// Checks one move in all three notations, both directions.
void expect_texts(const Position& pos, std::string_view move, std::string_view wxf, std::string_view chinese) {
    const Move m = iccs(move);
    ASSERT_TRUE(legal(pos).contains(m)) << move << " in " << pos.fen();
    EXPECT_EQ(to_iccs(m), move);
    EXPECT_EQ(to_wxf(pos, m), wxf) << move;
    EXPECT_EQ(to_chinese(pos, m), chinese) << move;
    for (std::string_view text : {move, wxf, chinese}) {
        const ParsedMove r = parse_move(pos, text);
        EXPECT_TRUE(r.ok()) << text << ": " << r.message;
        EXPECT_EQ(r.move, m) << text;
    }
    EXPECT_EQ(parse_wxf(pos, wxf).move, m) << wxf;
    EXPECT_EQ(parse_chinese(pos, chinese).move, m) << chinese;
    EXPECT_EQ(parse_iccs(pos, to_iccs_pgn(m)).move, m) << to_iccs_pgn(m);
}

void expect_error(const Position& pos, std::string_view text, NotationError e) {
    const ParsedMove r = parse_move(pos, text);
    EXPECT_EQ(r.error, e) << "'" << text << "' gave " << notation_error_name(r.error) << ": " << r.message;
    EXPECT_EQ(r.move, Move::none()) << text;
    if (e != NotationError::None) {
        EXPECT_FALSE(r.message.empty()) << text;
    }
}

TEST(Notation, RulesTableBothWays) {
    Position pos;
    const char* line[][3] = {
        {"h2e2", "C2.5", "炮二平五"},
        {"h9g7", "H8+7", "马8进7"},
        {"h0g2", "H2+3", "马二进三"},
        {"i9h9", "R9.8", "车9平8"},
    };
    for (auto& [move, wxf, chinese] : line) {
        expect_texts(pos, move, wxf, chinese);
        UndoInfo u;
        pos.do_move(iccs(move), u);
    }
    EXPECT_EQ(to_iccs_pgn(iccs("h2e2")), "H2-E2");
    EXPECT_EQ(to_iccs_pgn(iccs("h9g7")), "H9-G7");
}

TEST(Notation, FormatMovesOfALine) {
    const std::vector<Move> line = {iccs("h2e2"), iccs("h9g7"), iccs("h0g2"), iccs("i9h9"), iccs("h2e2")};
    const std::vector<std::string> chinese = format_moves(Position(), line, Notation::Chinese);
    EXPECT_EQ(chinese, (std::vector<std::string>{"炮二平五", "马8进7", "马二进三", "车9平8"}))
        << "stops at the illegal fifth move";
    EXPECT_EQ(format_moves(Position(), line, Notation::Wxf)[3], "R9.8");
    EXPECT_EQ(format_moves(Position(), line, Notation::Iccs)[1], "h9g7");
}

TEST(Notation, EveryPieceFromTheStart) {
    const Position pos;
    expect_texts(pos, "e0e1", "K5+1", "帅五进一");
    expect_texts(pos, "f0e1", "A4+5", "仕四进五");
    expect_texts(pos, "c0e2", "E7+5", "相七进五");
    expect_texts(pos, "i0i2", "R1+2", "车一进二");
    expect_texts(pos, "b2b9", "C8+7", "炮八进七");
    expect_texts(pos, "g3g4", "P3+1", "兵三进一");
    Position black = pos;
    UndoInfo u;
    black.do_move(iccs("h2e2"), u);
    expect_texts(black, "e9e8", "K5+1", "将5进1");
    expect_texts(black, "d9e8", "A4+5", "士4进5");
    expect_texts(black, "g9e7", "E7+5", "象7进5");
    expect_texts(black, "c6c5", "P3+1", "卒3进1");
    expect_texts(black, "h7e7", "C8.5", "炮8平5");
    expect_texts(black, "b7b0", "C2+7", "炮2进7");
}

TEST(Notation, BackwardMovesAndKings) {
    // Red horse d4 (file 6), red rook a5; the horse steps back to file 7 and 5.
    const Position pos = from_fen("3k5/9/9/9/R8/3N5/9/9/9/4K4 w - - 0 1");
    expect_texts(pos, "d4c2", "H6-7", "马六退七");
    expect_texts(pos, "d4e2", "H6-5", "马六退五");
    expect_texts(pos, "a5a1", "R9-4", "车九退四");
    expect_texts(pos, "e0d0", "K5.6", "帅五平六");
}

TEST(Notation, TandemRooks) {
    const Position pos = from_fen("3k5/9/9/9/1R7/9/9/1R7/9/4K4 w - - 0 1");
    expect_texts(pos, "b5b6", "R++1", "前车进一");
    expect_texts(pos, "b5b4", "R+-1", "前车退一");
    expect_texts(pos, "b2a2", "R-.9", "后车平九");
    expect_texts(pos, "b2b3", "R-+1", "后车进一");
    // Traditional characters and the plain file form where it is still unique.
    EXPECT_EQ(parse_move(pos, "前俥進一").move, iccs("b5b6"));
    EXPECT_EQ(parse_move(pos, "+R+1").move, iccs("b5b6"));  // mark before the letter
    EXPECT_EQ(parse_move(pos, "r-=9").move, iccs("b2a2"));
    EXPECT_EQ(parse_move(pos, "後車平九").move, iccs("b2a2"));
    EXPECT_EQ(parse_move(pos, "车八进四").move, iccs("b5b9"));  // only the front rook reaches
    expect_error(pos, "R8.9", NotationError::Ambiguous);
    expect_error(pos, "车八平九", NotationError::Ambiguous);
}

TEST(Notation, TandemBlackCannons) {
    const Position pos = from_fen("3k5/9/7c1/9/9/7c1/9/9/9/4K4 b - - 0 1");
    expect_texts(pos, "h7d7", "C-.4", "后炮平4");
    expect_texts(pos, "h7h8", "C--1", "后炮退1");
    expect_texts(pos, "h4h3", "C++1", "前炮进1");
    expect_texts(pos, "h4a4", "C+.1", "前炮平1");
    EXPECT_EQ(parse_move(pos, "后砲平４").move, iccs("h7d7"));  // variant character, full-width digit
    EXPECT_EQ(parse_move(pos, "後包平四").move, iccs("h7d7"));  // Chinese numeral for Black too
    EXPECT_EQ(parse_move(pos, "c-=4").move, iccs("h7d7"));
}

TEST(Notation, ThreePawnsOnOneFile) {
    const Position pos = from_fen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    expect_texts(pos, "c7b7", "P+.8", "前兵平八");
    expect_texts(pos, "c7c8", "P++1", "前兵进一");
    expect_texts(pos, "c6d6", "P3.6", "中兵平六");
    expect_texts(pos, "c5b5", "P-.8", "后兵平八");
}

TEST(Notation, MiddlePawnWhenAPawnStandsOnFileThree) {
    // Three pawns on file 5 and one on file 3: "P3.4" is the file-3 pawn, so the middle pawn
    // is written with its file instead.
    const Position pos = from_fen("5k3/9/4P4/4P1P2/4P4/9/9/9/9/3K5 w - - 0 1");
    expect_texts(pos, "g6f6", "P3.4", "兵三平四");
    expect_texts(pos, "e6f6", "53.4", "中兵平四");
    expect_texts(pos, "e6d6", "P3.6", "中兵平六");  // no file-3 pawn reaches file 6
}

TEST(Notation, PawnsDoubledOnTwoFiles) {
    const Position pos = from_fen("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    expect_texts(pos, "c6b6", "7+.8", "前七平八");
    expect_texts(pos, "c5b5", "7-.8", "后七平八");
    expect_texts(pos, "g5f5", "3-.4", "后三平四");
    expect_texts(pos, "g6g7", "3++1", "前三进一");
    expect_error(pos, "P++1", NotationError::Ambiguous);  // front pawn of which file?
    expect_error(pos, "前兵进一", NotationError::Ambiguous);

    // Three pawns on file 5 and two on file 7.
    const Position three_two = from_fen("5k3/9/4P4/2P1P4/2P1P4/9/9/9/9/3K5 w - - 0 1");
    expect_texts(three_two, "e6f6", "53.4", "中五平四");
    expect_texts(three_two, "e7e8", "5++1", "前五进一");
    expect_texts(three_two, "e5d5", "5-.6", "后五平六");
    expect_texts(three_two, "c5b5", "7-.8", "后七平八");
    EXPECT_EQ(parse_move(three_two, "二五平四").move, iccs("e6f6"));  // ordinal form
}

TEST(Notation, FiveAndFourPawnsOnOneFile) {
    const Position five = from_fen("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1");
    expect_texts(five, "c9b9", "++.8", "前兵平八");
    expect_texts(five, "c8d8", "P+.6", "二兵平六");
    expect_texts(five, "c7b7", "P3.8", "三兵平八");
    expect_texts(five, "c6d6", "P-.6", "四兵平六");
    expect_texts(five, "c5b5", "--.8", "五兵平八");
    EXPECT_EQ(parse_move(five, "后兵平八").move, iccs("c5b5"));
    EXPECT_EQ(parse_move(five, "中兵平八").move, iccs("c7b7"));
    EXPECT_EQ(parse_move(five, "一兵平八").move, iccs("c9b9"));

    const Position four = from_fen("2P1k4/2P6/2P6/2P6/9/9/9/9/9/3K5 w - - 0 1");
    expect_texts(four, "c9d9", "++.6", "前兵平六");
    expect_texts(four, "c8b8", "P+.8", "二兵平八");
    expect_texts(four, "c7d7", "P-.6", "三兵平六");
    expect_texts(four, "c6b6", "--.8", "四兵平八");
    EXPECT_EQ(parse_move(four, "后兵平八").move, iccs("c6b6"));
    expect_error(four, "中兵平八", NotationError::NoSuchPiece);  // four pawns have no middle one
}

TEST(Notation, BlackPawnTandem) {
    const Position pos = from_fen("3k5/9/9/9/9/6p2/6p2/6p2/9/4K4 b - - 0 1");
    expect_texts(pos, "g2g1", "P++1", "前卒进1");
    expect_texts(pos, "g3f3", "P3.6", "中卒平6");
    expect_texts(pos, "g4h4", "P-.8", "后卒平8");
}

TEST(Notation, InputVariants) {
    Position pos;
    const Move c25 = iccs("h2e2");
    for (const char* text : {"h2e2", "H2-E2", "h2-e2", " h2e2\n", "C2.5", "c2.5", "C2=5", "C25", "炮二平五",
                             "砲二平五", "炮2平5", "炮２平５", "炮 二 平 五", "　炮二平五　"})
        EXPECT_EQ(parse_move(pos, text).move, c25) << text;
    EXPECT_EQ(parse_move(pos, "N2+3").move, iccs("h0g2"));
    EXPECT_EQ(parse_move(pos, "B3+5").move, iccs("g0e2"));
    EXPECT_EQ(parse_move(pos, "俥一進一").move, iccs("i0i1"));
    EXPECT_EQ(parse_move(pos, "傌二進三").move, iccs("h0g2"));
    EXPECT_EQ(parse_move(pos, "帥五進一").move, iccs("e0e1"));
    UndoInfo u;
    pos.do_move(c25, u);
    EXPECT_EQ(parse_move(pos, "馬8進7").move, iccs("h9g7"));
    EXPECT_EQ(parse_move(pos, "马８进７").move, iccs("h9g7"));
    EXPECT_EQ(parse_move(pos, "將5進1").move, iccs("e9e8"));
    EXPECT_EQ(parse_move(pos, "包8平5").move, iccs("h7e7"));
    // Notation-specific parsers refuse the other notations.
    EXPECT_EQ(parse_iccs(pos, "H8+7").error, NotationError::Malformed);
    EXPECT_EQ(parse_wxf(pos, "h9g7").error, NotationError::Malformed);
    EXPECT_EQ(parse_chinese(pos, "H8+7").error, NotationError::Malformed);
    EXPECT_EQ(parse_move(pos, "H8+7", Notation::Wxf).move, iccs("h9g7"));
}

TEST(Notation, Rejections) {
    const Position pos;
    expect_error(pos, "", NotationError::Empty);
    expect_error(pos, "  \t ", NotationError::Empty);
    expect_error(pos, "h2e", NotationError::Malformed);
    expect_error(pos, "C2x5", NotationError::Malformed);
    expect_error(pos, "C2.0", NotationError::Malformed);
    expect_error(pos, "炮二平", NotationError::Malformed);
    expect_error(pos, "炮二飞五", NotationError::Malformed);
    expect_error(pos, "j2e2", NotationError::Malformed);
    expect_error(pos, std::string(200, 'a'), NotationError::Malformed);
    expect_error(pos, "X2.5", NotationError::UnknownPiece);
    expect_error(pos, "Q2.5", NotationError::UnknownPiece);
    expect_error(pos, "狗二平五", NotationError::UnknownPiece);
    expect_error(pos, "C3.5", NotationError::NoSuchPiece);
    expect_error(pos, "炮三平五", NotationError::NoSuchPiece);
    expect_error(pos, "e2e3", NotationError::NoSuchPiece);
    expect_error(pos, "h9g7", NotationError::NoSuchPiece);  // a black horse, Red to move
    expect_error(pos, "R+.3", NotationError::NoSuchPiece);  // no two rooks share a file
    expect_error(pos, "前车进一", NotationError::NoSuchPiece);
    expect_error(pos, "R1+3", NotationError::IllegalMove);  // own pawn on i3
    expect_error(pos, "车一进三", NotationError::IllegalMove);
    expect_error(pos, "h2h8", NotationError::IllegalMove);
    expect_error(pos, "H2+4", NotationError::IllegalMove);
    EXPECT_EQ(parse_move(pos, "C3.5").message, "no red cannon on file 3");
    EXPECT_EQ(parse_move(pos, "e2e3").message, "no piece on e2");

    // A pinned piece: the red rook on e4 shields its king from the black rook on e8.
    const Position pinned = from_fen("3k5/4r4/9/9/9/4R4/9/9/9/4K4 w - - 0 1");
    expect_error(pinned, "e4d4", NotationError::IllegalMove);
    expect_error(pinned, "R5.6", NotationError::IllegalMove);
    EXPECT_NE(parse_move(pinned, "车五平六").message.find("king in check"), std::string::npos);
    EXPECT_TRUE(parse_move(pinned, "R5+4").ok());  // capturing the pinner is fine
}

TEST(Notation, InvalidUtf8AndGarbageBytes) {
    const Position pos;
    for (std::string_view bad : {std::string_view("\xE7\x82", 2), std::string_view("\xC0\xAF"),
                                 std::string_view("\xED\xA0\x80"), std::string_view("\xFF\xFE\xFD\xFC"),
                                 std::string_view("炮二平\xE4"), std::string_view("\x00\x01\x02\x03", 4)}) {
        const ParsedMove r = parse_move(pos, bad);
        EXPECT_EQ(r.error, NotationError::Malformed);
        EXPECT_TRUE(valid_utf8(r.message)) << "error messages must stay valid text";
    }
    std::mt19937 rng(12345);
    const std::string alphabet = "hHcC29e+-.=PpRr \xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xFF\x80";
    int rejected = 0, accepted = 0;
    const MoveList moves = legal(pos);
    for (int i = 0; i < 20000; ++i) {
        std::string s(rng() % 12, '\0');
        for (char& c : s) c = (i % 2) ? char(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
        const ParsedMove r = parse_move(pos, s);
        EXPECT_TRUE(valid_utf8(r.message));
        if (r.ok()) {
            ++accepted;
            EXPECT_TRUE(moves.contains(r.move)) << s;
        } else {
            ++rejected;
            EXPECT_EQ(r.move, Move::none());
        }
    }
    EXPECT_GT(rejected, 19000);
}

// Every legal move, written in every notation, reads back as the same move, and no two moves
// of a position share a text. Returns the number of moves checked.
int check_round_trip(const Position& pos) {
    const MoveList moves = legal(pos);
    for (Notation n : {Notation::Iccs, Notation::Wxf, Notation::Chinese}) {
        std::set<std::string> texts;
        for (Move m : moves) {
            const std::string text = format_move(pos, m, n);
            texts.insert(text);
            const ParsedMove own = parse_move(pos, text, n);
            EXPECT_TRUE(own.ok()) << notation_name(n) << " '" << text << "' (" << to_iccs(m) << ") in " << pos.fen()
                                  << ": " << own.message;
            EXPECT_EQ(own.move, m) << notation_name(n) << " '" << text << "' in " << pos.fen();
            EXPECT_EQ(parse_move(pos, text).move, m) << text << " in " << pos.fen();
        }
        EXPECT_EQ(int(texts.size()), moves.size()) << notation_name(n) << " texts collide in " << pos.fen();
        if (::testing::Test::HasFailure()) return 0;
    }
    return moves.size();
}

// Plays random moves from pos, checking every position on the way.
int random_walk(Position pos, std::mt19937& rng, int plies) {
    int checked = 0;
    std::vector<std::pair<Move, UndoInfo>> stack;
    for (int i = 0; i < plies; ++i) {
        checked += check_round_trip(pos);
        const MoveList moves = legal(pos);
        if (moves.empty() || ::testing::Test::HasFailure()) break;
        UndoInfo u;
        pos.do_move(moves[int(rng() % moves.size())], u);
    }
    return checked;
}

TEST(NotationRoundTrip, RandomPlayFromTheStart) {
    std::mt19937 rng(2026);
    int checked = 0;
    for (int game = 0; game < 30 && !HasFailure(); ++game) checked += random_walk(Position(), rng, 80);
    std::cout << "round trip: " << checked << " legal moves x 3 notations from random play\n";
    EXPECT_GT(checked, 40000);
}

TEST(NotationRoundTrip, PublishedPerftPositions) {
    std::set<std::string> fens;
    for (const auto& c : test::load_published_perft(1, 9)) fens.insert(c.fen);
    ASSERT_GE(fens.size(), 10u) << test::published_perft_path() << " not found or truncated";
    std::mt19937 rng(7);
    int checked = 0;
    for (const std::string& fen : fens) {
        if (HasFailure()) break;
        for (int walk = 0; walk < 2; ++walk) checked += random_walk(from_fen(fen), rng, 30);
    }
    std::cout << "round trip: " << checked << " legal moves x 3 notations from " << fens.size()
              << " published perft positions\n";
    EXPECT_GT(checked, 10000);
}

// Random set-ups rich in pawns and doubled pieces, where tandem marks matter.
std::string random_fen(std::mt19937& rng) {
    std::array<char, SQ_NB> board;
    board.fill('.');
    auto put = [&](char c, auto ok) {
        for (int tries = 0; tries < 50; ++tries) {
            const Square s = Square(rng() % SQ_NB);
            if (board[s] == '.' && ok(s)) {
                board[s] = c;
                return;
            }
        }
    };
    for (Color c : {RED, BLACK}) {
        auto low = [c](char ch) { return c == RED ? ch : char(ch - 'A' + 'a'); };
        put(low('K'), [c](Square s) { return in_palace(c, s); });
        for (int i = 0; i < 5; ++i)  // pawns on files and ranks they can reach
            put(low('P'), [c](Square s) {
                return crossed_river(c, s) || (relative_rank(c, s) >= 3 && file_of(s) % 2 == 0);
            });
        for (char t : {'R', 'R', 'C', 'C', 'N', 'N'})
            if (rng() % 3) put(low(t), [](Square) { return true; });
        // Heavy pieces stacked on one file now and then.
        const int f = int(rng() % FILE_NB);
        for (char t : {'R', 'C'})
            if (rng() % 4 == 0)
                for (int r = 0; r < RANK_NB; ++r)
                    if (board[make_square(f, r)] == '.' && rng() % 3 == 0) {
                        board[make_square(f, r)] = low(t);
                        break;
                    }
    }
    std::string fen;
    for (int r = RANK_NB - 1; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < FILE_NB; ++f) {
            const char ch = board[make_square(f, r)];
            if (ch == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += ch;
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
    return fen;
}

TEST(NotationRoundTrip, RandomPawnHeavySetUps) {
    std::mt19937 rng(99);
    int positions = 0, checked = 0, tandem_positions = 0;
    for (int i = 0; i < 20000 && positions < 1500 && !HasFailure(); ++i) {
        Position pos;
        if (pos.set_fen(random_fen(rng)) != FenError::None) continue;  // impossible set-ups are skipped
        ++positions;
        const MoveList moves = legal(pos);
        bool tandem = false;
        for (Move m : moves) {
            const std::string w = to_wxf(pos, m);
            tandem = tandem || w[1] == '+' || w[1] == '-' || (w[0] >= '1' && w[0] <= '9');
        }
        tandem_positions += tandem;
        checked += check_round_trip(pos);
    }
    std::cout << "round trip: " << checked << " legal moves x 3 notations in " << positions
              << " random set-ups (" << tandem_positions << " with tandem marks)\n";
    EXPECT_GE(positions, 1000);
    EXPECT_GE(tandem_positions, 200) << "the generator should produce tandem pieces often";
    EXPECT_GT(checked, 20000);
}

}  // namespace
