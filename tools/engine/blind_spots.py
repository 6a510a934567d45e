#!/usr/bin/env python3
"""Finds the "confident, then mated" positions of a match's PGN (xiangqi-match --pgn).

For every game our engine lost, each position of the last --last plies where our engine was
to move is searched again by our engine (`go nodes N`) and by a referee engine (Fairy-Stockfish,
`go depth D`). A row is printed for each such position; rows where our score was at least
--threshold centipawns are marked: the evaluation (and search) thought it was winning while
the game was lost a few moves later. The referee's score says what the position was worth.
With --margin M, rows where our score was at least M centipawns above the referee's (a referee
score that is not yet a mate) are marked "optimistic" and counted, and each row ends with the
position's FEN: the positions the evaluation misjudges, for a look at what is on the board.

  tools/engine/blind_spots.py --pgn games.pgn --engine build/bin/xiangqi-engine \
      --referee /usr/games/fairy-stockfish [--nodes 200000] [--depth 16] [--last 30] [--threshold 300] \
      [--margin 250]

Engines run as child processes on pipes; nothing here touches the network. Fairy-Stockfish
numbers ranks 1-10 (ours 0-9): moves are translated for it.
"""
import argparse
import re
import subprocess
import sys


class Uci:
    def __init__(self, command, fsf):
        self.fsf = fsf
        self.proc = subprocess.Popen(command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        if fsf:
            self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, word):
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.split() and line.split()[0] == word:
                return lines
        raise RuntimeError("engine ended before '%s'" % word)

    def score(self, fen, moves, go):
        if self.fsf:
            moves = [fsf_move(m) for m in moves]
        pos = ("position fen " + fen) if fen else "position startpos"
        self.send(pos + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        last = None
        for line in self.wait_for("bestmove"):
            m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
            if m and " lowerbound" not in line and " upperbound" not in line:
                last = (m.group(1), int(m.group(2)))
        return last

    def fen(self, fen, moves):
        pos = ("position fen " + fen) if fen else "position startpos"
        self.send(pos + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        self.send("isready")
        return next((line for line in self.wait_for("readyok") if "/" in line), "?")

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def fsf_move(m):
    return "%s%d%s%d" % (m[0], int(m[1]) + 1, m[2], int(m[3]) + 1)


def as_cp(s):
    if s is None:
        return None
    kind, v = s
    if kind == "mate":
        return 30000 - abs(v) if v > 0 else -30000 + abs(v)
    return v


def show(s):
    if s is None:
        return "?"
    return ("M%d" % s[1]) if s[0] == "mate" else str(s[1])


def read_games(text):
    games = []
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = re.sub(r"^\[.*\]$", "", chunk, flags=re.M)
        body = re.sub(r"\{[^}]*\}", " ", body)
        moves = [w.replace("-", "").lower() for w in body.split()
                 if re.fullmatch(r"[A-Ia-i][0-9]-?[A-Ia-i][0-9]", w)]
        if tags:
            games.append((tags, moves))
    return games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--engine", required=True, help="our engine (UCI)")
    ap.add_argument("--name", default="xiangqi-engine", help="our engine's name in the PGN's Red/Black tags")
    ap.add_argument("--referee", default="/usr/games/fairy-stockfish")
    ap.add_argument("--nodes", type=int, default=200000)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--last", type=int, default=30, help="plies before the end to look at")
    ap.add_argument("--threshold", type=int, default=300)
    ap.add_argument("--margin", type=int, default=0,
                    help="mark and count our scores at least this far above the referee's (0: off)")
    a = ap.parse_args()

    with open(a.pgn, encoding="utf-8") as f:
        games = read_games(f.read())
    ours = Uci(a.engine, fsf=False)
    ref = Uci(a.referee, fsf=True)
    confident_losses = 0
    losses = 0
    positions = 0
    optimistic = 0
    optimistic_games = 0
    for index, (tags, moves) in enumerate(games, 1):
        we_red = a.name in tags.get("Red", "")
        if not we_red and a.name not in tags.get("Black", ""):
            continue
        result = tags.get("Result", "*")
        lost = (result == "0-1" and we_red) or (result == "1-0" and not we_red)
        if not lost:
            continue
        losses += 1
        fen = tags.get("FEN")
        red_first = not fen or fen.split()[1] in ("w", "r")
        peak = None
        game_optimistic = 0
        for ply in range(max(0, len(moves) - a.last), len(moves)):
            red_to_move = (ply % 2 == 0) == red_first
            if red_to_move != we_red:
                continue
            ours.send("ucinewgame")
            s = ours.score(fen, moves[:ply], "go nodes %d" % a.nodes)
            r = ref.score(fen, moves[:ply], "go depth %d" % a.depth)
            mark = " <- confident" if as_cp(s) is not None and as_cp(s) >= a.threshold else ""
            positions += 1
            tail = ""
            if a.margin > 0:
                if s is not None and r is not None and r[0] == "cp" and as_cp(s) - r[1] >= a.margin:
                    game_optimistic += 1
                    mark += " <- optimistic"
                tail = " | fen " + ours.fen(fen, moves[:ply])
            print("game %d ply %d ours %s referee %s%s | %s moves %s%s" %
                  (index, ply, show(s), show(r), mark, fen or "startpos", " ".join(moves[:ply]), tail), flush=True)
            if as_cp(s) is not None and (peak is None or as_cp(s) > peak):
                peak = as_cp(s)
        if peak is not None and peak >= a.threshold:
            confident_losses += 1
        optimistic += game_optimistic
        optimistic_games += game_optimistic > 0
        print("game %d (%s, %s, %d plies): our highest score in the last %d plies %s" %
              (index, "Red" if we_red else "Black", tags.get("Termination", ""), len(moves), a.last, peak), flush=True)
    print("losses %d, of which with our score >= %d cp in the last %d plies: %d" %
          (losses, a.threshold, a.last, confident_losses))
    if a.margin > 0:
        print("positions %d, of which our score >= %d cp above the referee's: %d (in %d games)" %
              (positions, a.margin, optimistic, optimistic_games))
    ours.close()
    ref.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
