"""Issue 49: where mcts lost to weighted classic. Each of the player's moves in its lost
games is scored by the fall of the labelled value (reversi-lab label: depth-8 pattern
search, exact at <= 18 empties) from before it to before its next turn (docs/mcts.md).
Usage: python3 experiments/mcts-blame.py RUN_DIR POSITIONS_FILE PLAYER"""
import csv, sys, collections

DIRS = [(-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1)]

def flips(board, me, sq):
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        run = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr*8+cc] == -me:
            run.append(rr*8+cc); rr += dr; cc += dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and board[rr*8+cc] == me:
            out += run
    return out

def legal(board, me):
    return [s for s in range(64) if board[s] == 0 and flips(board, me, s)]

def obf(board, me):
    p = sum(1 << i for i in range(64) if board[i] == me)
    o = sum(1 << i for i in range(64) if board[i] == -me)
    return (p, o)

def parse_moves(t):
    return [(ord(t[i]) - 97) + 8 * (int(t[i+1]) - 1) for i in range(0, len(t), 2)]

run, posfile, player = sys.argv[1], sys.argv[2], sys.argv[3]
import struct
values = {}
data = open(posfile, "rb").read()
for off in range(32, len(data) - 23, 24):
    p, o, v, how, depth, game = struct.unpack_from("<QQhBBI", data, off)
    values[(p, o)] = v / 64.0
print("labelled positions", len(values), file=sys.stderr)
rows = list(csv.DictReader(open(run + "/games.csv")))
hist_drop = collections.Counter(); hist_turn = collections.Counter(); lost = 0
examples = []
for row in rows:
    mcts_black = row["black"] == player
    if player not in (row["black"], row["white"]):
        continue
    margin = int(row["margin"]) if "margin" in row else None
    mover_margin = margin if mcts_black else -margin
    if mover_margin >= 0:
        continue
    lost += 1
    moves = parse_moves(row["moves"])
    board = [0]*64; board[27] = board[36] = -1; board[28] = board[35] = 1
    me = 1; mcts = 1 if mcts_black else -1
    seq = []  # (empties, value for mcts side) before each move
    for i, sq in enumerate(moves):
        if not legal(board, me):
            me = -me
        v = values.get(obf(board, me))
        empties = board.count(0)
        seq.append((i, empties, me, None if v is None else (v if me == mcts else -v)))
        fl = flips(board, me, sq)
        board[sq] = me
        for s in fl: board[s] = me
        me = -me
    # mcts move drops: value before its move minus value before the opponent's next move
    best = None; turn = None
    for j in range(len(seq) - 1):
        i, e, who, v = seq[j]
        if who != mcts or i < int(row.get("opening_plies", 6) or 6):
            continue
        nxt = next((s for s in seq[j+1:] if s[3] is not None), None)
        if v is None or nxt is None:
            continue
        drop = v - nxt[3]
        if best is None or drop > best[0]:
            best = (drop, e)
        if turn is None and v >= 0 > nxt[3]:
            turn = e
    if best:
        hist_drop[(best[1] - 1) // 10 * 10 + 1 if best[1] > 0 else 0] += 1
        examples.append(best)
    hist_turn[turn if turn is None else (turn - 1) // 10 * 10 + 1] += 1
print("lost games", lost)
print("largest drop by empties before the move (bucket start):", sorted(hist_drop.items()))
print("first move from >=0 to <0 by empties (bucket start):", sorted(hist_turn.items(), key=lambda x: (x[0] is None, x[0] or 0)))
print("mean largest drop (discs):", sum(d for d, _ in examples) / max(1, len(examples)))

# Robust split: was the game already lost (exact, perfect play) at mcts's first move
# with <= 18 empties? Largest drop among moves whose before and after are both searched
# (> 18 empties after) or both exact (<= 18 before), the crossing left out.
lost_at_18 = 0; win_or_draw_at_18 = 0; mid = collections.Counter(); endg = []; midd = []
for row in rows:
    if player not in (row["black"], row["white"]):
        continue
    mcts_black = row["black"] == player
    if (int(row["margin"]) if mcts_black else -int(row["margin"])) >= 0:
        continue
    moves = parse_moves(row["moves"])
    board = [0]*64; board[27] = board[36] = -1; board[28] = board[35] = 1
    me = 1; mcts = 1 if mcts_black else -1; seq = []
    for i, sq in enumerate(moves):
        if not legal(board, me):
            me = -me
        v = values.get(obf(board, me))
        seq.append((i, board.count(0), me, None if v is None else (v if me == mcts else -v)))
        fl = flips(board, me, sq); board[sq] = me
        for s_ in fl: board[s_] = me
        me = -me
    first18 = next((s_ for s_ in seq if s_[2] == mcts and s_[1] <= 18 and s_[3] is not None), None)
    if first18:
        if first18[3] < 0: lost_at_18 += 1
        else: win_or_draw_at_18 += 1
    bm = be = None
    for j in range(len(seq) - 1):
        i, e, who, v = seq[j]
        if who != mcts or i < 6 or v is None: continue
        nxt = next((x for x in seq[j+1:] if x[3] is not None), None)
        if nxt is None: continue
        d = v - nxt[3]
        if nxt[1] > 18:
            if bm is None or d > bm[0]: bm = (d, e)
        elif e <= 18:
            if be is None or d > be[0]: be = (d, e)
    if bm: midd.append(bm)
    if be: endg.append(be)
print("at mcts's first move with <= 18 empties: already lost (exact)", lost_at_18, "; not lost", win_or_draw_at_18)
print("largest midgame drop (searched): mean", sum(d for d, _ in midd)/len(midd), "discs; by empties", sorted(collections.Counter((e-1)//10*10+1 for _, e in midd).items()))
print("largest endgame drop (exact): mean", sum(d for d, _ in endg)/len(endg), "discs; games with an exact drop >= 1:", sum(1 for d, _ in endg if d >= 1))
