"""Interval arithmetic on (start, end) pairs, used by the Health-app merge model and the truth."""

from __future__ import annotations

import bisect


def interval_union(ivs):
    out = []
    for s, e in sorted(ivs):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def interval_subtract(base, holes):
    """base, holes: lists of (s,e); returns base minus union(holes), sorted."""
    holes = interval_union(holes)
    out = []
    for s, e in base:
        cur = s
        for hs, he in holes:
            if he <= cur or hs >= e:
                continue
            if hs > cur:
                out.append((cur, hs))
            cur = max(cur, he)
            if cur >= e:
                break
        if cur < e:
            out.append((cur, e))
    return out


def covers(union, s, e) -> bool:
    """union: sorted disjoint (s,e) list. True if [s,e) lies in one interval of union."""
    i = bisect.bisect_right(union, (s, float("inf"))) - 1
    return i >= 0 and union[i][0] <= s and union[i][1] >= e


def cover_state(union, starts, s, e) -> str:
    i = bisect.bisect_right(starts, s) - 1
    if i >= 0 and union[i][1] >= e:
        return "full"
    if i >= 0 and union[i][1] > s:
        return "partial"
    if i + 1 < len(union) and union[i + 1][0] < e:
        return "partial"
    return "none"
