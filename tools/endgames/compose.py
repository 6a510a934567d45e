#!/usr/bin/env python3
"""Composes candidate endgame challenges: random legal placements of a named material
balance, kept when Fairy-Stockfish (UCI_Variant xiangqi) reports a forced mate for the side
to move within a window of moves, or (for the draw sets) no mate for either side and a
level score at the given depth. The chosen positions are checked again by the test suite
(tests/endgames), with the project's engine and with Fairy-Stockfish.

Usage: tools/endgames/compose.py SPEC COUNT [--seed N] [--depth D] [--min M] [--max M]
SPEC is the material as "red/black" piece letters besides the kings, e.g. "R/AA" (a rook
against two advisors), "HP/A", "R/AABB"; prefix "draw:" to look for level positions.
Prints one line per position in the format of data/endgames/challenges.txt:
id | English name | Chinese name | FEN | verdict ("win N": the side to move mates in at most
N moves; "draw": the side to move, the weaker side, holds the draw).
"""
import argparse
import random
import subprocess

FILES = 9
RANKS = 10


def palace(red):
    ranks = range(0, 3) if red else range(7, 10)
    return [(f, r) for f in range(3, 6) for r in ranks]


def advisor_points(red):
    pts = [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)]
    return pts if red else [(f, 9 - r) for f, r in pts]


def elephant_points(red):
    pts = [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)]
    return pts if red else [(f, 9 - r) for f, r in pts]


def pawn_points(red):
    pts = []
    for f in range(FILES):
        for r in range(3, 10):
            if r <= 4 and f % 2 == 1:
                continue
            pts.append((f, r))
    return pts if red else [(f, 9 - r) for f, r in pts]


def anywhere():
    return [(f, r) for f in range(FILES) for r in range(RANKS)]


def points_for(letter, red):
    return {"A": advisor_points, "B": elephant_points, "P": pawn_points}.get(
        letter, lambda _red: anywhere())(red)


def fen_of(board, red_to_move):
    rows = []
    for r in range(RANKS - 1, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            p = board.get((f, r))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" w" if red_to_move else " b") + " - - 0 1"


def kings_face(board):
    kings = {p: sq for sq, p in board.items() if p in "Kk"}
    (fr, rr), (fb, rb) = kings["K"], kings["k"]
    if fr != fb:
        return False
    return all((fr, r) not in board for r in range(rr + 1, rb))


def attacked(board, sq, by_red):
    """Whether a piece of `by_red`'s side attacks point `sq` (rook, cannon, horse, pawn,
    king's file; advisors and elephants never reach a king that stands in its palace from
    a legal point of their own here, except the advisor, checked too)."""
    f0, r0 = sq
    mine = (lambda p: p.isupper()) if by_red else (lambda p: p.islower())
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r, screens = f0 + df, r0 + dr, 0
        while 0 <= f < FILES and 0 <= r < RANKS:
            p = board.get((f, r))
            if p is not None:
                if screens == 0 and mine(p) and p.upper() in "RK":
                    if p.upper() == "R" or df == 0:
                        return True
                if screens == 1 and mine(p) and p.upper() == "C":
                    return True
                screens += 1
                if screens > 1:
                    break
            f, r = f + df, r + dr
    for df, dr in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
        f, r = f0 + df, r0 + dr
        p = board.get((f, r))
        if p is None or not mine(p) or p.upper() != "N":
            continue
        leg = (f - (1 if abs(df) == 2 and df > 0 else -1 if abs(df) == 2 else 0),
               r - (1 if abs(dr) == 2 and dr > 0 else -1 if abs(dr) == 2 else 0))
        if leg not in board:
            return True
    forward = 1 if by_red else -1
    for df, dr in ((0, -forward), (1, 0), (-1, 0)):
        p = board.get((f0 + df, r0 + dr))
        if p is not None and mine(p) and p.upper() == "P":
            if df == 0 or (by_red and r0 >= 5) or (not by_red and r0 <= 4):
                return True
    for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        p = board.get((f0 + df, r0 + dr))
        if p is not None and mine(p) and p.upper() == "A":
            return True
    return False


def random_position(spec, rng):
    red, black = spec.split("/")
    board = {}
    board[rng.choice(palace(True))] = "K"
    while True:
        sq = rng.choice(palace(False))
        if sq not in board:
            board[sq] = "k"
            break
    for side, letters in ((True, red), (False, black)):
        for letter in letters:
            free = [p for p in points_for(letter, side) if p not in board]
            # FEN letters as the project writes them: N for the horse.
            fen_letter = "N" if letter == "H" else letter
            board[rng.choice(free)] = fen_letter.upper() if side else fen_letter.lower()
    return board


class Fsf:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("fairy-stockfish ended")
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def analyse(self, fen, depth):
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send("go depth %d" % depth)
        lines = self.wait("bestmove")
        score = None
        for line in lines:
            parts = line.split()
            if "score" in parts:
                i = parts.index("score")
                score = (parts[i + 1], int(parts[i + 2]))
        best = lines[-1].split()[1]
        return score, best


EN = {"R": "rook", "H": "horse", "C": "cannon", "P": "pawn", "A": "advisor", "B": "elephant"}
EN_PLURAL = {"R": "rooks", "H": "horses", "C": "cannons", "P": "pawns", "A": "advisors",
             "B": "elephants"}
ZH_RED = {"R": "车", "H": "马", "C": "炮", "P": "兵", "A": "仕", "B": "相"}
ZH_BLACK = {"R": "车", "H": "马", "C": "炮", "P": "卒", "A": "士", "B": "象"}
NUMBER = {2: "two", 3: "three"}


def english(letters):
    if not letters:
        return "a bare king"
    parts = []
    for letter in "RHCPAB":
        n = letters.count(letter)
        if n == 1:
            parts.append(("an " if EN[letter][0] in "ae" else "a ") + EN[letter])
        elif n > 1:
            parts.append(NUMBER[n] + " " + EN_PLURAL[letter])
    return " and ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " and " + parts[-1]


def chinese(letters, red):
    names = ZH_RED if red else ZH_BLACK
    if not letters:
        return "单" + ("帅" if red else "将")
    if sorted(letters) == sorted("AABB"):
        return names["A"] + names["B"] + "全"
    out = ""
    for letter in "RHCPAB":
        n = letters.count(letter)
        if n == 1:
            out += names[letter]
        elif n == 2:
            out += "双" + names[letter]
    if len(letters) == 1:
        out = "单" + out
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("spec")
    ap.add_argument("count", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--min", type=int, default=3)
    ap.add_argument("--max", type=int, default=10)
    ap.add_argument("--black", action="store_true", help="black is the stronger side and moves")
    ap.add_argument("--tries", type=int, default=400)
    ap.add_argument("--id", default="eg", help="prefix of the ids printed")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    draw = a.spec.startswith("draw:")
    spec = a.spec[5:] if draw else a.spec
    rng = random.Random(a.seed)
    fsf = Fsf(a.engine)
    found = 0
    for _ in range(a.tries):
        if found >= a.count:
            break
        board = random_position(spec, rng)
        if a.black:
            board = {(f, 9 - r): (p.lower() if p.isupper() else p.upper()) for (f, r), p in board.items()}
        if kings_face(board):
            continue
        strong_red = not a.black
        # A win is played by the stronger side; a draw is held by the weaker one.
        mover_red = strong_red if not draw else not strong_red
        # The side not to move must not be in check (the position would be illegal).
        waiting_king = next(sq for sq, p in board.items() if p == ("k" if mover_red else "K"))
        if attacked(board, waiting_king, mover_red):
            continue
        fen = fen_of(board, mover_red)
        score, best = fsf.analyse(fen, a.depth)
        if score is None or best == "(none)":
            continue
        strong, weak = spec.split("/")
        en = english(strong).capitalize() + " against " + english(weak)
        zh = chinese(strong, strong_red) + "对" + chinese(weak, not strong_red)
        verdict = None
        if draw:
            if score[0] == "cp" and abs(score[1]) <= 60:
                verdict = "draw"
        elif score[0] == "mate" and a.min <= score[1] <= a.max:
            verdict = "win %d" % score[1]
        if verdict:
            found += 1
            print("%s-%d | %s | %s | %s | %s" % (a.id, found, en, zh, fen, verdict), flush=True)
    fsf.send("quit")


if __name__ == "__main__":
    main()
