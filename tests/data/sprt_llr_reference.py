"""Reference values for reversi-lab's exact pentanomial SPRT (tests/data/sprt-llr.csv).

Written independently of the project's Rust code, from the published method
(M. Van den Bergh, "Comments on normalized Elo", Proposition 1.1; as used by
fishtest's LLRcalc.LLR_logistic and fastchess's SPRT::getLLR_logistic):

* zero counts are replaced by 1e-3 (regularisation), N = sum of the counts;
* for a hypothesis score s (logistic Elo: s = 1 / (1 + 10^(-elo/400))) the
  maximum-likelihood distribution with mean s is p_i = q_i / (1 + theta (a_i - s)),
  q_i = n_i / N the empirical frequencies, a_i = 0, 1/4, 1/2, 3/4, 1, and theta the
  root of sum_i q_i (a_i - s) / (1 + theta (a_i - s)) = 0 in
  (-1 / max(a_i - s), -1 / min(a_i - s));
* LLR = sum_i n_i (ln p1_i - ln p0_i), n_i the regularised counts.

Each root is found twice: by scipy's brentq in double precision and by bisection
in 60-digit arithmetic with mpmath; the script checks that the two LLRs agree to
1e-9 and prints the 60-digit one.
Run: python3 sprt_llr_reference.py (numpy, scipy, mpmath).
"""
import math

import mpmath
import scipy.optimize

mpmath.mp.dps = 60
A = [0.0, 0.25, 0.5, 0.75, 1.0]


def score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def regularised(counts):
    return [c if c > 0 else 1e-3 for c in counts]


def llr_double(counts, elo0, elo1):
    n = regularised(counts)
    total = sum(n)
    q = [c / total for c in n]

    def mle(s):
        d = [a - s for a in A]
        f = lambda t: sum(qi * di / (1.0 + t * di) for qi, di in zip(q, d))
        lo, hi = -1.0 / max(d), -1.0 / min(d)
        eps = 1e-12 * (hi - lo)
        t = scipy.optimize.brentq(f, lo + eps, hi - eps, xtol=1e-300, rtol=1e-15, maxiter=1000)
        return [qi / (1.0 + t * di) for qi, di in zip(q, d)]

    p0, p1 = mle(score(elo0)), mle(score(elo1))
    return sum(ni * (math.log(b) - math.log(a)) for ni, a, b in zip(n, p0, p1))


def llr_mp(counts, elo0, elo1):
    n = [mpmath.mpf(c) if c > 0 else mpmath.mpf("0.001") for c in counts]
    total = sum(n)
    q = [c / total for c in n]
    a = [mpmath.mpf(x) for x in A]

    def mle(elo):
        s = 1 / (1 + mpmath.power(10, -mpmath.mpf(elo) / 400))
        d = [ai - s for ai in a]
        f = lambda t: sum(qi * di / (1 + t * di) for qi, di in zip(q, d))
        lo, hi = -1 / max(d), -1 / min(d)
        # f decreases from +inf at lo to -inf at hi: plain bisection.
        for _ in range(400):
            mid = (lo + hi) / 2
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        t = (lo + hi) / 2
        return [qi / (1 + t * di) for qi, di in zip(q, d)]

    p0, p1 = mle(elo0), mle(elo1)
    return sum(ni * (mpmath.log(b) - mpmath.log(x)) for ni, x, b in zip(n, p0, p1))


CASES = [
    ("perfect", [0, 0, 0, 0, 100], 0, 20),
    ("perfect-elo1-10", [0, 0, 0, 0, 100], 0, 10),
    ("all-lost", [100, 0, 0, 0, 0], 0, 20),
    ("near-h0", [10, 20, 40, 20, 10], 0, 10),
    ("near-h1", [9, 19, 40, 21, 11], 0, 10),
    ("golden-head-to-head", [22, 3, 14, 2, 3], 0, 20),
    ("fixture-head-to-head", [9, 0, 35, 0, 23], 0, 50),
    ("large-near-h1", [1000, 4000, 9000, 4300, 1200], 0, 5),
    ("one-pair", [0, 0, 1, 0, 0], 0, 10),
    ("negative-elo0", [3, 10, 30, 12, 5], -10, 10),
]

print("case,penta_0,penta_1,penta_2,penta_3,penta_4,elo0,elo1,llr")
for name, counts, elo0, elo1 in CASES:
    exact = llr_mp(counts, elo0, elo1)
    double = llr_double(counts, elo0, elo1)
    assert abs(float(exact) - double) < 1e-9 * max(1.0, abs(double)), (name, exact, double)
    print(f"{name},{','.join(map(str, counts))},{elo0},{elo1},{mpmath.nstr(exact, 15, min_fixed=-5, max_fixed=5)}")
