"""Reference values for reversi-lab's SPRT exit-time, estimate and plan statistics
(tests/data/brownian-exit.csv, tests/data/sprt-estimates.csv, tests/data/sprt-plan.csv).

Written independently of the project's Rust code, from the published method:
M. Van den Bergh's notes as used by fishtest ("Comments on normalized Elo",
Proposition 1.1, for the maximum-likelihood fits; the Brownian approximation of the
LLR behind fishtest's sprt_elo), D. Siegmund, Sequential Analysis: Tests and
Confidence Intervals (Springer 1985), ch. 3, for the exit problem of Brownian motion
between two barriers, and A. N. Borodin and P. Salminen, Handbook of Brownian
Motion (2nd ed. 2002), part II, 1.3.0.6 and 2.3.0.6, for the method-of-images
first-passage densities (with Girsanov's theorem for the drift), which give the
second, independent, method. Everything is computed in mpmath (50 digits unless said).

Model. Logistic Elo: L(e) = 1 / (1 + 10^(-e/400)). Pentanomial counts n_0..n_4 (pairs
scoring a_k = 0, 1/4, 1/2, 3/4, 1), zero counts replaced by 1e-3, q = counts / sum.
MLE with mean s: p_k = q_k / (1 + theta (a_k - s)), theta the root of
sum_k q_k (a_k - s) / (1 + theta (a_k - s)) = 0 between -1/(1-s) and 1/s (bisection).
SPRT of elo0 against elo1: a = ln(beta/(1-alpha)), b = ln((1-beta)/alpha);
p0 = MLE(q, L(elo0)), p1 = MLE(q, L(elo1)), l_k = ln(p1_k/p0_k), LLR = sum_k n_k l_k.
Under a true Elo e, p = MLE(q, L(e)), drift mu(e) = sum p_k l_k, variance
sigma2(e) = sum p_k l_k^2 - mu(e)^2, and the LLR is taken as the Brownian motion
X_t = mu t + sigma W_t, X_0 = 0, absorbed at a < 0 < b.

1. Exit before T at each barrier (brownian-exit.csv), with L = b - a, x0 = -a,
   kappa = mu^2 / (2 sigma^2), lambda_n = sigma^2 n^2 pi^2 / (2 L^2):
   (i) spectral: the density of the killed process is
       exp(mu (y - x0)/sigma^2 - kappa t) sum_n (2/L) sin(n pi x0/L) sin(n pi y/L) e^(-lambda_n t)
       (y = X - a in (0, L)); its fluxes through the barriers, integrated over (T, inf), are
       P(exit at b, tau > T) = e^(mu b/sigma^2) sum_n (sigma^2 n pi / L^2) (-1)^(n+1)
                               sin(n pi x0/L) e^(-(lambda_n + kappa) T) / (lambda_n + kappa),
       P(exit at a, tau > T) = the same with e^(mu a/sigma^2) and without (-1)^(n+1),
       subtracted from the T = inf probabilities (Siegmund, ch. 3)
       P(exit at b) = (1 - e^(-h a)) / (e^(-h b) - e^(-h a)), h = 2 mu / sigma^2
       (-a/(b-a) when mu = 0), P(exit at a) = 1 - P(exit at b).
   (ii) quadrature: tanh-sinh integration (mpmath.quad, 30 digits, on a geometric grid
       of subintervals) over (0, T) of the method-of-images sub-densities
       f_b(t) = e^(mu b/sigma^2 - kappa t) sum_{k in Z} (b + 2kL) / (sigma sqrt(2 pi t^3))
                e^(-(b + 2kL)^2 / (2 sigma^2 t)),
       f_a(t) = the same with e^(mu a/sigma^2) and -a in place of b.
       This uses neither the eigenfunction series nor the closed form, also at T = inf
       (the integral stops where the densities are below e^-150).
   (iii) images, integrated in time term by term: image y = b + 2kL contributes
       sgn(y) e^(mu (b - y)/sigma^2) F(|y|, sgn(y) mu), F(c, nu) = P(level c > 0 reached
       by nu t + sigma W_t before T) = Phi((nu T - c)/(sigma sqrt T))
       + e^(2 nu c/sigma^2) Phi((-nu T - c)/(sigma sqrt T)) (inverse Gaussian CDF);
       the lower barrier by reflection (mu, a, b) -> (-mu, -b, -a). This is the Poisson
       dual of (i): (i) needs few terms and has no cancellation once the first mode has
       decayed (lambda_1 T >= 1), (iii) before; exit_probability uses each there (in
       2. the spectral series alone loses everything to cancellation when sigma2 is
       tiny and T short, e.g. at e = 1000).
   Each row asserts |(i) - (ii)| < 1e-12 (and relative 1e-9 for values above 1e-30),
   |(i) - (iii)| < 1e-40 at finite T, and the closed form against (ii) at T = inf;
   it prints the largest differences; the CSV has the spectral values.
2. Estimates after a stopped SPRT (sprt-estimates.csv), on the pairs' scores: N pairs
   with mean score m_obs, m = (L(elo0) + L(elo1)) / 2, the exact LLR, its slope per
   point of score c = LLR / (N (m_obs - m)) (if not positive, (s1 - s0) / v(m));
   T = bound N / LLR, bound = b for H1 and a for H0 (asserted to be positive); under
   e the pair score is the Brownian motion with drift L(e) - m and variance v(e), the
   variance of MLE(q, L(e)), absorbed at a / c and b / c. G(e) = P(exit at a, tau < T)
   for H0, 1 - P(exit at b, tau <= T) for H1, with exit_probability. The estimate is
   the root of G(e) = 1/2, the interval [root of G = 0.975, root of G = 0.025], each
   found by bisection on [-1000, 1000] to 1e-13 Elo; a value without a root there is
   infinite (clamped = true). G is checked decreasing on a grid of 401 points, and
   G at each root is recomputed with the quadrature method (ii) (agreement < 1e-10).
   The LLR of one case (large-near-h1 of sprt-llr.csv) is checked against that file.
3. Plan (sprt-plan.csv): for each true Elo e, p0, p1, p fitted to the base q, the
   walk of the per-pair LLR l_k = ln(p1_k / p0_k) under p: pass probability
   P(e) = (1 - e^(-h a)) / (e^(-h b) - e^(-h a)), h the non-zero root of
   sum_k p_k e^(-h l_k) = 1 (bisection), and expected pairs E(e) = (b P + a (1 - P)) / mu
   (Wald; -a b / sigma2 when mu = 0). Base q: from a draw
   ratio D, [Lo^2, 2 Lo D, D^2 + 2 Lo W, 2 D W, W^2] with Lo = W = (1 - D)/2 (exact
   zeros would become 1e-12, then renormalised); from counts, regularised as above.
   Check: h = -1 and P = alpha at elo0, h = 1 and P = 1 - beta at elo1 (to 1e-30).

Checks on the last run (printed by the script): exit probabilities, largest
|(i) - (ii)| = 6.8e-26 and |(i) - (iii)| = 2.7e-51 over the rows of brownian-exit.csv;
estimates, largest |G(root) by (ii) - target| = 2.0e-15 (the bisection stops at
1e-13 Elo); plan, largest |h -/+ 1| or |P - alpha, 1 - beta| at the hypotheses 2.3e-48.

Run: python3 sprt_estimate_reference.py (mpmath; a few minutes). It writes the three
CSVs next to itself and prints the cross-check differences.
"""
import os

import mpmath
from mpmath import mpf

mpmath.mp.dps = 50
A = [mpf(0), mpf(1) / 4, mpf(1) / 2, mpf(3) / 4, mpf(1)]
HERE = os.path.dirname(os.path.abspath(__file__))


def num(x):
    return x if isinstance(x, mpmath.mpf) else mpf(str(x))


def logistic_score(elo):
    return 1 / (1 + mpmath.power(10, -num(elo) / 400))


def regularise(counts):
    return [mpf(c) if c > 0 else mpf("0.001") for c in counts]


def normalise(v):
    total = sum(v)
    return [x / total for x in v]


def mle(q, s):
    """Distribution closest to q (Kullback-Leibler) with mean s, Van den Bergh 1.1."""
    d = [ak - s for ak in A]
    g = lambda t: sum(qk * dk / (1 + t * dk) for qk, dk in zip(q, d))
    lo, hi = -1 / max(d), -1 / min(d)  # g: +inf at lo, decreasing, -inf at hi
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if mid == lo or mid == hi:
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    t = (lo + hi) / 2
    return normalise([qk / (1 + t * dk) for qk, dk in zip(q, d)])


def bounds(alpha, beta):
    alpha, beta = num(alpha), num(beta)
    return mpmath.log(beta / (1 - alpha)), mpmath.log((1 - beta) / alpha)


def increments(q, elo0, elo1):
    p0, p1 = mle(q, logistic_score(elo0)), mle(q, logistic_score(elo1))
    return [mpmath.log(y / x) for x, y in zip(p0, p1)]


def drift_variance(q, l, elo):
    p = mle(q, logistic_score(elo))
    mu = sum(pk * lk for pk, lk in zip(p, l))
    return mu, sum(pk * lk * lk for pk, lk in zip(p, l)) - mu * mu


# ---------------------------------------------------------------- 1. exit problem


def exit_closed_form(mu, sigma, a, b):
    """(P(exit at a), P(exit at b)) at T = inf."""
    if mu == 0:
        upper = -a / (b - a)
    else:
        h = 2 * mu / sigma**2
        # (1 - e^(-ha)) / (e^(-hb) - e^(-ha)), written with expm1 for small h.
        upper = -mpmath.expm1(-h * a) / (mpmath.exp(-h * a) * mpmath.expm1(-h * (b - a)))
    return 1 - upper, upper


def exit_spectral(mu, sigma, a, b, T):
    """Method (i): (P(exit at a, tau <= T), P(exit at b, tau <= T))."""
    lower, upper = exit_closed_form(mu, sigma, a, b)
    if T == mpmath.inf:
        return lower, upper
    s2 = sigma**2
    L, x0 = b - a, -a
    kappa = mu**2 / (2 * s2)
    tol = mpmath.power(10, -mpmath.mp.dps - 10)
    scale_b, scale_a = mpmath.exp(mu * b / s2), mpmath.exp(mu * a / s2)
    tail_a = tail_b = mpf(0)
    n = 0
    while True:
        n += 1
        lam = s2 * (n * mpmath.pi / L) ** 2 / 2
        base = s2 * n * mpmath.pi / L**2 * mpmath.exp(-(lam + kappa) * T) / (lam + kappa)
        sine = mpmath.sin(n * mpmath.pi * x0 / L)
        tail_b += (1 if n % 2 else -1) * base * sine
        tail_a += base * sine
        if lam * T > 1 and base * max(scale_a, scale_b) < tol:
            break
    return lower - scale_a * tail_a, upper - scale_b * tail_b


def first_passage_cdf(c, nu, sigma, T):
    """P(tau_c <= T) for the level c > 0 of nu t + sigma W_t (inverse Gaussian CDF)."""
    r = sigma * mpmath.sqrt(T)
    return mpmath.ncdf((nu * T - c) / r) + mpmath.exp(2 * nu * c / sigma**2) * mpmath.ncdf(
        (-nu * T - c) / r
    )


def images_upper(mu, sigma, a, b, T):
    """P(exit at b, tau <= T): the images series integrated term by term in time;
    image y = b + 2kL contributes sgn(y) e^(mu (b - y)/sigma^2) P(tau_|y| <= T) under
    drift sgn(y) mu."""
    L = b - a
    reach = mpmath.sqrt(2 * sigma**2 * T * (mpmath.mp.dps * mpmath.log(10) + 40))
    kmax = int(mpmath.ceil((reach + abs(a) + b) / (2 * L))) + 1
    total = mpf(0)
    for k in range(-kmax, kmax + 1):
        y = b + 2 * k * L
        sign = 1 if y > 0 else -1
        total += sign * mpmath.exp(mu * (b - y) / sigma**2) * first_passage_cdf(abs(y), sign * mu, sigma, T)
    return total


def exit_images(mu, sigma, a, b, T):
    """Method (iii): (P(exit at a, tau <= T), P(exit at b, tau <= T)), finite T; the
    lower barrier by reflecting X to -X."""
    return images_upper(-mu, sigma, -b, -a, T), images_upper(mu, sigma, a, b, T)


def exit_probability(mu, sigma, a, b, T):
    """Spectral series when its first mode has decayed (lambda_1 T >= 1), where it needs
    few terms and has no cancellation; otherwise the images series, likewise."""
    if T == mpmath.inf or sigma**2 * (mpmath.pi / (b - a)) ** 2 / 2 * T >= 1:
        return exit_spectral(mu, sigma, a, b, T)
    return exit_images(mu, sigma, a, b, T)


def image_density(mu, sigma, a, b, t, at_upper):
    """Method-of-images sub-density of exiting at b (at_upper) or at a at time t."""
    s2 = sigma**2
    L = b - a
    d, end = (b, b) if at_upper else (-a, a)
    reach = mpmath.sqrt(2 * s2 * t * (mpmath.mp.dps * mpmath.log(10) + 40))
    kmax = int(mpmath.ceil((reach + abs(d)) / (2 * L))) + 1
    total = mpf(0)
    for k in range(-kmax, kmax + 1):
        y = d + 2 * k * L
        total += y * mpmath.exp(-y * y / (2 * s2 * t))
    girsanov = mpmath.exp(mu * end / s2 - mu * mu * t / (2 * s2))
    return girsanov * total / (sigma * mpmath.sqrt(2 * mpmath.pi * t**3))


def time_grid(mu, sigma, a, b, T):
    """Breakpoints 0 < t_1 < ... for the quadrature: geometric, from well before the
    first-passage densities rise to where they are negligible."""
    s2 = sigma**2
    d = max(-a, b)
    t = min(-a, b) ** 2 / s2
    if mu != 0:
        t = min(t, min(-a, b) / abs(mu))
    t /= 2**12
    # Late on, the sub-densities are about e^(|mu| L / sigma^2 - (kappa + lambda_1) t),
    # and below e^(-kappa t / 4) after t = 2 d / |mu|: the integral stops where either
    # is e^-150 (the rest is far below the working precision; the checks against the
    # other methods would show a cut too early).
    rate = mu**2 / (2 * s2) + s2 * (mpmath.pi / (b - a)) ** 2 / 2
    end = min(T, (150 + abs(mu) * (b - a) / s2) / rate)
    if mu != 0:
        end = min(end, 2 * d / abs(mu) + 600 / (mu**2 / (2 * s2)))
    pts = [mpf(0)]
    while t < end:
        pts.append(t)
        t *= mpf(3) / 2
    pts.append(end)
    return pts


def quad_exit(mu, sigma, a, b, T, weight=None):
    with mpmath.workdps(30):
        mu, sigma, a, b = (mpf(x) for x in (mu, sigma, a, b))
        T = mpf(T) if T != mpmath.inf else mpmath.inf
        pts = time_grid(mu, sigma, a, b, T)
        w = weight or (lambda t: 1)
        res = []
        for upper in (False, True):
            f = lambda t: w(t) * image_density(mu, sigma, a, b, t, upper)
            value, error = mpmath.quad(f, pts, maxdegree=10, error=True)
            assert error < 1e-20, (mu, sigma, a, b, T, error)
            res.append(value)
        return res


# ---------------------------------------------------------------- 2. estimates


def fmt(x, digits=15):
    return mpmath.nstr(x, digits, min_fixed=-5, max_fixed=7)


EXIT_CASES = [
    # mu, sigma, a, b, T
    ("0", "0.05", "-2.944", "2.944", "100"),  # far less than the time to a barrier
    ("0", "0.05", "-2.944", "2.944", "3000"),
    ("0", "0.05", "-2.944", "2.944", "inf"),
    ("0.001", "0.05", "-2.944", "2.944", "2000"),
    ("0.001", "0.05", "-2.944", "2.944", "inf"),
    ("-0.002", "0.05", "-2.944", "2.944", "10000"),
    ("0.01", "0.05", "-2.944", "2.944", "1000000"),
    ("-0.0005", "0.05", "-2.251", "2.89", "5000"),
    ("0.0005", "0.1", "-2.251", "2.89", "inf"),
    ("0", "0.05", "-2.944", "2.944", "30000"),
    ("0.5", "1", "-1", "2", "1"),
    ("0.5", "1", "-1", "2", "10"),
    ("0.5", "1", "-1", "2", "100"),
    ("0.5", "1", "-1", "2", "inf"),
    ("-0.01", "1", "-1", "2", "10"),
]


def brownian_exit():
    rows, worst, worst_images = [], 0, 0
    for case in EXIT_CASES:
        mu, sigma, a, b = (mpf(x) for x in case[:4])
        T = mpmath.inf if case[4] == "inf" else mpf(case[4])
        spec = exit_spectral(mu, sigma, a, b, T)
        quad = quad_exit(mu, sigma, a, b, T)
        if T != mpmath.inf:
            for x, y in zip(spec, exit_images(mu, sigma, a, b, T)):
                worst_images = max(worst_images, abs(x - y))
                assert abs(x - y) < 1e-40, (case, x, y)
        for x, y in zip(spec, quad):
            diff = abs(x - y)
            worst = max(worst, diff)
            assert diff < 1e-12, (case, x, y)
            assert x < 1e-30 or diff < 1e-9 * x, (case, x, y)
        if T == mpmath.inf and mu != 0:
            h = 2 * mu / sigma**2
            cf = (1 - mpmath.exp(-h * a)) / (mpmath.exp(-h * b) - mpmath.exp(-h * a))
            assert abs(cf - quad[1]) < 1e-12
        rows.append(",".join(list(case) + [fmt(spec[0]), fmt(spec[1])]))
    print(
        f"brownian-exit: largest |spectral - quadrature| = {mpmath.nstr(worst, 3)}, "
        f"|spectral - images| = {mpmath.nstr(worst_images, 3)}"
    )
    return rows


ESTIMATE_CASES = [
    (0, 5, "0.05", "0.05", [520, 3980, 9100, 4250, 610], "H1"),
    (0, 5, "0.05", "0.05", [560, 4100, 9000, 4000, 520], "H0"),
    (0, 50, "0.05", "0.05", [2, 10, 20, 25, 11], "H1"),
    (-10, 0, "0.05", "0.1", [50, 300, 700, 320, 60], "H1"),
    (0, 40, "0.05", "0.05", [0, 0, 0, 0, 12], "H1"),
    (0, 20, "0.1", "0.1", [30, 80, 90, 60, 20], "H0"),
    (0, 10, "0.05", "0.05", [40, 200, 400, 160, 30], "H0"),
    (0, 50, "0.05", "0.05", [0, 3, 9, 14, 8], "H1"),
    (300, 400, "0.05", "0.05", [0, 0, 7, 2, 43], "H1"),
    (200, 300, "0.05", "0.05", [0, 1, 6, 5, 30], "H1"),
]
LO, HI = mpf(-1000), mpf(1000)
ROOT_CHECKS = []  # |G(root) by quadrature - target|


def estimate(elo0, elo1, alpha, beta, counts, verdict, log):
    n = regularise(counts)
    q = normalise(n)
    l = increments(q, elo0, elo1)
    a, b = bounds(alpha, beta)
    pairs = mpf(sum(counts))
    llr = sum(nk * lk for nk, lk in zip(n, l))
    mean = sum(ck * ak for ck, ak in zip(counts, A)) / pairs
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    middle = (s0 + s1) / 2
    scale = llr / (pairs * (mean - middle))
    if not scale > 0:
        scale = (s1 - s0) / variance(mle(q, middle))
    c = b if verdict == "H1" else a
    T = c * pairs / llr
    assert T > 0, ("the LLR has the wrong sign", counts, verdict)

    def G(e, method=exit_probability):
        s = logistic_score(e)
        lower, upper = method(s - middle, mpmath.sqrt(variance(mle(q, s))), a / scale, b / scale, T)
        return lower if verdict == "H0" else 1 - upper

    grid = [G(LO + (HI - LO) * i / 400) for i in range(401)]
    assert all(x >= y - 1e-40 for x, y in zip(grid, grid[1:])), "G not decreasing"

    def root(target):
        # Beyond the range the data do not bound the Elo: infinite.
        g_lo, g_hi = G(LO) - target, G(HI) - target
        if g_hi > 0:
            return mpmath.inf, True
        if g_lo < 0:
            return -mpmath.inf, True
        lo, hi = LO, HI
        while hi - lo > mpf("1e-13"):
            mid = (lo + hi) / 2
            if G(mid) > target:
                lo = mid
            else:
                hi = mid
        e = (lo + hi) / 2
        check = G(e, lambda mu, sg, a_, b_, T_: quad_exit(mu, sg, a_, b_, T_))
        assert abs(check - target) < 1e-10, (counts, target, check)
        ROOT_CHECKS.append(abs(check - target))
        return e, False

    elo, c1 = root(mpf(1) / 2)
    low, c2 = root(mpf("0.975"))
    high, c3 = root(mpf("0.025"))
    log.append(
        f"  {counts} {verdict}: scale = {fmt(scale, 6)}, T = {fmt(T, 8)} pairs "
        f"(observed {fmt(pairs, 8)}), LLR = {fmt(llr, 8)}, bound {fmt(c, 6)}, "
        f"G(-1000) = {fmt(grid[0], 6)}, G(1000) = {fmt(grid[-1], 6)}, "
        f"clamped: elo {c1}, low {c2}, high {c3}"
    )
    return llr, elo, low, high, c1 or c2 or c3


def variance(p):
    m = sum(pk * ak for pk, ak in zip(p, A))
    return sum(pk * (ak - m) ** 2 for pk, ak in zip(p, A))


def sprt_estimates():
    # The LLR is the exact pentanomial GLR of sprt-llr.csv (large-near-h1 row).
    q = normalise(regularise([1000, 4000, 9000, 4300, 1200]))
    l = increments(q, 0, 5)
    llr = sum(nk * lk for nk, lk in zip(regularise([1000, 4000, 9000, 4300, 1200]), l))
    assert abs(llr - mpf("13.7764219324069")) < 1e-12, llr
    rows, log = [], []
    for elo0, elo1, alpha, beta, counts, verdict in ESTIMATE_CASES:
        llr, elo, low, high, clamped = estimate(elo0, elo1, alpha, beta, counts, verdict, log)
        rows.append(
            ",".join(
                [str(elo0), str(elo1), alpha, beta]
                + [str(c) for c in counts]
                + [verdict, fmt(llr), fmt(elo), fmt(low), fmt(high), str(clamped).lower()]
            )
        )
    print("sprt-estimates:\n" + "\n".join(log))
    print(f"  largest |G(root) by quadrature - target| = {mpmath.nstr(max(ROOT_CHECKS), 3)}")
    return rows


# ---------------------------------------------------------------- 3. plan


def draw_ratio_base(D):
    D = mpf(D)
    lose = win = (1 - D) / 2
    v = [lose**2, 2 * lose * D, D**2 + 2 * lose * win, 2 * D * win, win**2]
    return normalise([x if x > 0 else mpf("1e-12") for x in v])


PLAN_CASES = [
    (0, 5, "0.05", "0.05", "draw_ratio=0.6", draw_ratio_base("0.6"), [-5, 0, "2.5", 5, 10]),
    (0, 50, "0.05", "0.05", "draw_ratio=0.1", draw_ratio_base("0.1"), [-20, 0, 25, 50, 80]),
    (-5, 5, "0.05", "0.1", "counts=10/40/100/45/12",
     normalise(regularise([10, 40, 100, 45, 12])), [-10, -5, 0, 5, 10]),
]


def wald_exponent(p, l):
    """The non-zero root h of sum p_k e^(-h l_k) = 1 (0 without drift), by bisection."""
    mu = sum(pk * lk for pk, lk in zip(p, l))
    if mu == 0:
        return mpf(0)
    f = lambda h: sum(pk * mpmath.exp(-h * lk) for pk, lk in zip(p, l)) - 1
    side = 1 if mu > 0 else -1
    near, far = mpf(0), mpf(side)
    while f(far) <= 0:
        far *= 2
    for _ in range(400):
        mid = (near + far) / 2
        if f(mid) > 0:
            far = mid
        else:
            near = mid
    return (near + far) / 2


def sprt_plan():
    rows, worst = [], 0
    for elo0, elo1, alpha, beta, name, q, elos in PLAN_CASES:
        l = increments(q, elo0, elo1)
        a, b = bounds(alpha, beta)
        for e in elos:
            p = mle(q, logistic_score(e))
            mu = sum(pk * lk for pk, lk in zip(p, l))
            s2 = sum(pk * lk * lk for pk, lk in zip(p, l)) - mu * mu
            h = wald_exponent(p, l)
            if h == 0:
                P, E = -a / (b - a), -a * b / s2
            else:
                P = (1 - mpmath.exp(-h * a)) / (mpmath.exp(-h * b) - mpmath.exp(-h * a))
                E = (b * P + a * (1 - P)) / mu
            # At the hypotheses e^(LLR) and e^(-LLR) are martingales: h = -1 and 1.
            if e == elo0:
                worst = max(worst, abs(h + 1), abs(P - num(alpha)))
            if e == elo1:
                worst = max(worst, abs(h - 1), abs(P - 1 + num(beta)))
            assert worst < 1e-30, (name, e, h, P)
            rows.append(",".join([str(elo0), str(elo1), alpha, beta, name, str(e), fmt(P), fmt(E)]))
    print(f"sprt-plan: largest |h -/+ 1| or |P - alpha, 1 - beta| at the hypotheses {mpmath.nstr(worst, 3)}")
    return rows


def write(name, header, columns, rows):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("".join(f"# {line}\n" if line else "#\n" for line in header.strip("\n").split("\n")))
        f.write(columns + "\n")
        f.write("\n".join(rows) + "\n")


SOURCE = (
    "Source: tests/data/sprt_estimate_reference.py, an independent Python script (not\n"
    "the project's code), run once with Python 3.11.7 and mpmath {v}."
).format(v=mpmath.__version__)

EXIT_HEADER = """
Exit of X_t = mu t + sigma W_t, X_0 = 0, from (a, b) by time t (t = inf: ever):
p_lower = P(exit at a, tau <= t), p_upper = P(exit at b, tau <= t).
{source} Values: the
eigenfunction (Fourier sine) series of the killed process in 50 digits, checked
against tanh-sinh quadrature of the method-of-images first-passage densities (to
1e-25) and against the images series integrated in closed form (to 1e-50).
"""

ESTIMATE_HEADER = """
Median-unbiased Elo and 95% interval after an SPRT (bounds ln(beta/(1-alpha)),
ln((1-beta)/alpha)) stopped with the given verdict: G(e) = probability, under the
Brownian approximation of the test on the pairs' scores at true Elo e (drift
L(e) - m, m = (L(elo0) + L(elo1)) / 2, variance that of the observed shape fitted at
L(e), barriers a / c and b / c, c = LLR / (N (mean - m)) the observed LLR per point
of score), of an outcome worse than the observed one (H0 early < H0 late < H1 late <
H1 early), the stop at T = bound N / LLR pairs; elo: G = 1/2, elo_low: G = 0.975,
elo_high: G = 0.025, searched in [-1000, 1000] (clamped = true: some value has no
root there and is infinite; in the 0 0 0 0 12 row elo and elo_high are inf, elo_low
is a root). llr: the exact LLR (zero counts regularised to 1e-3).
{source} Roots by
bisection to 1e-13 Elo in 50 digits; G at each root rechecked by quadrature (1e-10).
penta_k: pairs in which A scored k/2 points.
"""

PLAN_HEADER = """
SPRT plan by Wald's approximation for the walk of the per-pair LLR: pass probability
P = (1 - e^(-ha)) / (e^(-hb) - e^(-ha)), h the non-zero root of E[e^(-h L)] = 1 over
the five pair outcomes, and expected game pairs (b P + a (1 - P)) / mu at true Elo e,
mu and sigma2 the drift and variance of the per-pair LLR L under the
maximum-likelihood fit with mean score L(e) to the base distribution (draw_ratio=D:
two independent games with draw ratio D at equal strength; counts: pentanomial
counts, zeros regularised to 1e-3), a = ln(beta/(1-alpha)), b = ln((1-beta)/alpha).
{source} Checked:
h = -1 and P = alpha at elo0, h = 1 and P = 1 - beta at elo1 (to 1e-30).
"""

if __name__ == "__main__":
    write(
        "brownian-exit.csv",
        EXIT_HEADER.format(source=SOURCE),
        "mu,sigma,a,b,t,p_lower,p_upper",
        brownian_exit(),
    )
    write(
        "sprt-estimates.csv",
        ESTIMATE_HEADER.format(source=SOURCE),
        "elo0,elo1,alpha,beta,penta_0,penta_1,penta_2,penta_3,penta_4,verdict,llr,elo,elo_low,elo_high,clamped",
        sprt_estimates(),
    )
    write(
        "sprt-plan.csv",
        PLAN_HEADER.format(source=SOURCE),
        "elo0,elo1,alpha,beta,base,elo,pass_probability,expected_pairs",
        sprt_plan(),
    )
