"""Small statistics for balance reports: proportions with intervals, tests, summaries (stdlib only)."""

from __future__ import annotations

import math
from typing import Dict, List, Optional

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> List[float]:
    """The 95% Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return [0.0, 1.0]
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return [max(0.0, centre - half), min(1.0, centre + half)]


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def binomial_p(successes: float, n: int, p0: float) -> float:
    """Two-sided p-value that a proportion differs from p0 (normal approximation)."""
    if n <= 0 or p0 <= 0 or p0 >= 1:
        return 1.0
    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return normal_p(z)


def two_proportions_p(s1: float, n1: int, s2: float, n2: int) -> float:
    """Two-sided p-value that two proportions differ (pooled z-test)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (s1 + s2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0 if s1 / n1 == s2 / n2 else 0.0
    return normal_p((s1 / n1 - s2 / n2) / math.sqrt(var))


def welch_p(a: List[float], b: List[float]) -> float:
    """Two-sided p-value that two means differ (Welch's statistic, normal approximation)."""
    if len(a) < 2 or len(b) < 2:
        return 1.0
    va, vb = variance(a) / len(a), variance(b) / len(b)
    diff = mean(a) - mean(b)
    if va + vb == 0:
        return 1.0 if diff == 0 else 0.0
    return normal_p(diff / math.sqrt(va + vb))


def mean(xs: List[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def variance(xs: List[float]) -> float:
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def quantile(sorted_xs: List[float], q: float) -> Optional[float]:
    if not sorted_xs:
        return None
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def summary(xs: List[float]) -> Dict[str, Optional[float]]:
    """n, mean, sd, min, quartiles, p90 and max of a list of numbers."""
    s = sorted(xs)
    return {"n": len(s), "mean": mean(s), "sd": math.sqrt(variance(s)), "min": s[0] if s else None,
            "p25": quantile(s, 0.25), "median": quantile(s, 0.5), "p75": quantile(s, 0.75),
            "p90": quantile(s, 0.9), "max": s[-1] if s else None}
