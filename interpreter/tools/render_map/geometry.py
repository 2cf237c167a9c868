"""Plane geometry for routing the map's lines round the Sector boxes: points, segments and polylines."""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]


def seg_hits_rect(p: Point, q: Point, rect: tuple[float, float, float, float]) -> bool:
    """Whether segment p-q enters the rectangle (x0, y0, x1, y1) (Liang-Barsky)."""
    x0, y0, x1, y1 = rect
    dx, dy = q[0] - p[0], q[1] - p[1]
    t0, t1 = 0.0, 1.0
    for pk, qk in ((-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])):
        if pk == 0:
            if qk < 0:
                return False
            continue
        r = qk / pk
        if pk < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return False
    return True


def segments_cross(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    """Whether two segments cross at a point inside both (touching ends do not count)."""

    def side(a: Point, b: Point, c: Point) -> float:
        return (c[1] - a[1]) * (b[0] - a[0]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = side(p3, p4, p1), side(p3, p4, p2), side(p1, p2, p3), side(p1, p2, p4)
    if any(abs(d) < 1e-6 for d in (d1, d2, d3, d4)):
        return False
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def segments_overlap(p1: Point, p2: Point, p3: Point, p4: Point) -> bool:
    """Whether two horizontal (or two vertical) segments run along each other, closer than 6 px."""
    for k in (0, 1):  # k = 1: horizontal segments (same y), k = 0: vertical ones (same x)
        o = 1 - k
        if p1[o] == p2[o] and p3[o] == p4[o] and abs(p1[o] - p3[o]) < 6:
            lo1, hi1 = sorted((p1[k], p2[k]))
            lo2, hi2 = sorted((p3[k], p4[k]))
            if min(hi1, hi2) - max(lo1, lo2) > 2:
                return True
    return False


def path_length(path: Sequence[Point]) -> float:
    return sum(math.dist(path[i], path[i + 1]) for i in range(len(path) - 1))


def along(path: Sequence[Point], dist: float) -> tuple[Point, Point]:
    """The point at a distance along a polyline, and the unit direction there."""
    for i in range(len(path) - 1):
        seg = math.dist(path[i], path[i + 1])
        if seg == 0:
            continue
        ux, uy = (path[i + 1][0] - path[i][0]) / seg, (path[i + 1][1] - path[i][1]) / seg
        if dist <= seg or i == len(path) - 2:
            d = min(dist, seg)
            return (path[i][0] + ux * d, path[i][1] + uy * d), (ux, uy)
        dist -= seg
    return path[0], (1.0, 0.0)

