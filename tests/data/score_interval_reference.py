"""Reference values for reversi-lab's score intervals (tests/data/score-intervals.csv).

Written independently of the project's Rust code. The interval is Wilson's score
interval generalised to outcomes a_i in [0, 1] (trinomial: 0, 1/2, 1 per game;
pentanomial: 0, 1/4, ..., 1 per colour-swapped pair): the scores s with
n (m - s)^2 <= z^2 v(s), where n is the number of games (or pairs), m the observed
mean score and v(s) the variance of the maximum-likelihood distribution with mean s
(p_i = q_i / (1 + theta (a_i - s)), q_i the frequencies after zero counts are
replaced by 1e-3, theta the root of sum_i q_i (a_i - s) / (1 + theta (a_i - s)) = 0).
With only wins and losses this is Wilson's interval. Each end is found by bisection
on (0, m) and (m, 1) in 60-digit arithmetic (mpmath); an end is 0 (1) when m is 0 (1).
Run: python3 score_interval_reference.py (mpmath).
"""
import mpmath

mpmath.mp.dps = 60
Z = mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf("0.95"))


def mle_variance(q, a, s):
    d = [ai - s for ai in a]
    f = lambda t: sum(qi * di / (1 + t * di) for qi, di in zip(q, d))
    lo, hi = -1 / max(d), -1 / min(d)
    for _ in range(260):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = (lo + hi) / 2
    p = [qi / (1 + t * di) for qi, di in zip(q, d)]
    total = sum(p)
    p = [x / total for x in p]
    mean = sum(pi * ai for pi, ai in zip(p, a))
    return sum(pi * (ai - mean) ** 2 for pi, ai in zip(p, a))


def interval(counts):
    k = len(counts)
    a = [mpmath.mpf(i) / (k - 1) for i in range(k)]
    n = mpmath.mpf(sum(counts))
    m = sum(c * ai for c, ai in zip(counts, a)) / n
    reg = [mpmath.mpf(c) if c > 0 else mpmath.mpf("0.001") for c in counts]
    q = [c / sum(reg) for c in reg]
    g = lambda s: n * (m - s) ** 2 - Z**2 * mle_variance(q, a, s)

    def root(inside, outside):
        # g(inside) <= 0 < g(outside)
        for _ in range(130):
            mid = (inside + outside) / 2
            if g(mid) <= 0:
                inside = mid
            else:
                outside = mid
        return (inside + outside) / 2

    low = mpmath.mpf(0) if m == 0 else root(m, mpmath.mpf(0))
    high = mpmath.mpf(1) if m == 1 else root(m, mpmath.mpf(1))
    # The interval is one piece: g is positive everywhere outside it on a fine grid.
    for i in range(1, 400):
        s = mpmath.mpf(i) / 400
        if s < low or s > high:
            assert g(s) > 0, (counts, s)
    return m, low, high


CASES = [
    # model, counts from the lowest score up (trinomial: losses, draws, wins)
    ("trinomial", [200, 0, 0]),
    ("trinomial", [199, 0, 1]),
    ("trinomial", [0, 0, 200]),
    ("trinomial", [40, 0, 60]),
    ("trinomial", [2, 2, 6]),
    ("trinomial", [8, 0, 2]),
    ("pentanomial", [0, 0, 0, 0, 100]),
    ("pentanomial", [22, 3, 14, 2, 3]),
    ("pentanomial", [9, 0, 35, 0, 23]),
    ("pentanomial", [0, 0, 50, 0, 0]),
    ("pentanomial", [10, 20, 40, 20, 10]),
]

print("model,counts,mean,low,high")
for model, counts in CASES:
    m, low, high = interval(counts)
    f = lambda x: mpmath.nstr(x, 15, min_fixed=-6, max_fixed=6)
    print(f"{model},{' '.join(map(str, counts))},{f(m)},{f(low)},{f(high)}")
