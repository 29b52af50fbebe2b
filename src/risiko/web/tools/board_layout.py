"""The drawing of the board: where each of the 42 territories sits, as on the Italian board.

The map is a grid of cells (:data:`GRID`, one character per cell, ``.`` = sea): each letter
is a territory (:data:`CODES`). North America is top left, South America below it, Europe top
centre, Africa below Europe, Asia right, Oceania bottom right. A territory's shape is the
outline of its cells (corners rounded); two shapes that share a cell edge border each other
on the drawing. Every other border of the board is drawn as a line between the two shapes:
dashed for a sea crossing (:data:`SEA_LINKS`; Alaska - Kamchatka wraps around the world, so
it is drawn as two half-lines to the left and right edges), solid for a land border the
drawing does not show (only Egitto - Medio Oriente, absent on the club's board by R6).

Everything is computed from the grid (:func:`drawing`), so the tests can check that every
territory has a shape, that shapes touch only where the board has a border, and that the
touching shapes plus the lines are exactly the board's borders.

Units: SVG user units; one cell is :data:`CELL` units, the map has a margin of
:data:`MARGIN` cells of sea all round.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from risiko.board import (
    NUM_TERRITORIES,
    TERRITORY_CONTINENT,
    Board,
    Territory,
    board_by_name,
    continent_name,
    parse_territory,
    territory_name,
)

#: side of a cell, in SVG units
CELL = 20
#: sea cells around the map
MARGIN = 1
#: radius of the rounded corners of the shapes
CORNER = 5.0

#: The map, one character per cell; "." is sea. Rows are of equal length.
GRID = """
.AAAANNNNNNNNNN...GGGGGGG......SSSS.....LLLLyyyyyjjjjjkkkkkk..
AAAAANNNNNNNNNN..GGGGGGGG.IIII..SSSS.....LLLLyyyyyjjjjjkkkkkk.
AAAAANNNNNNNNNN...GGGGGGG.IIII..SSSS.KKKKLLLLyyyyyXXXXXkkkkkk.
AAAABBBBBOOOOO.....GGGGG..IIII..SSSS.KKKKLLLLyyyyyXXXXXkkkkkk.
..AABBBBBOOOOOQQQQ..............SSSSKKKKKLLLLyyyyyMMMMMkkkk...
....BBBBBOOOOOQQQQ.......UUU....SSSSKKKKKLLLLyyyyyMMMMMM......
....BBBBBOOOOOQQQQ.......UUU..nnnnnnnKKKKLLLLyyyyyMMMMMM..ggg.
....WWWWWWOOOOQQQQ.......UUU..nnnnnnnKKKKLLLLZZZZZMMMMMM..ggg.
....WWWWWWEEEEEEEE...........nnnnnnnnKKKKhhhhZZZZZZZZZ....ggg.
....WWWWWWEEEEEEE.........wwwwsssssssKKKKhhhhZZZZZZZZZ....ggg.
.....WWWWWEEEEEE..........wwwwsssssssKKKKhhhhZZZZZZZZZ........
......WWWWEEEE............wwwwsssssssssdddddddZZZZZZZZZ.......
........CCCCC.............wwww..ssssss.dddddddZZZZZZZZZ.......
.........CCCC..........................dddddddiiiiixxxx.......
..........CCC..........................dddddd.iiiiixxxxx......
..........VVVVV.........FFFFFFFeeeee.....dddd..iiiiixxxx......
.........VVVVVVVV.......FFFFFFFeeeee............iiii.xxx......
........VVVVVVVVV......FFFFFFFFeeeee.............ii...xx......
........PPPPRRRRRRR....FFFFFFFFooooo..........................
........PPPPRRRRRRRR...FFFFFFFFooooo...............DDDDD......
........PPPPRRRRRRRR...FFFFFFFFooooo..............DDDDDD..qqqq
........PPPPRRRRRRR....FFFFFFFFooooo...............DDDD..qqqqq
........PPPPRRRRRR......FFFcccccooooo....................qqqq.
.........PPPRRRRRR..........cccccooooo........................
.........PPPPRRRRR..........cccccooooo.........rrrrrrtttttt...
..........PPTTTRRR..........cccccooooo.mmmm...rrrrrrrttttttt..
..........TTTTTRR...........aaaaaaoooo.mmmm...rrrrrrrttttttt..
..........TTTTT.............aaaaaaaa...mmmm...rrrrrrrttttttt..
..........TTTT..............aaaaaaa....mmmm....rrrrrrtttttt...
...........TTT...............aaaaa.....mmm......rrrrrtttttt...
...........TTT................aaa...............rrrr..tttt....
............TT................................................
"""

#: grid letter -> territory (Italian name)
CODES: dict[str, str] = {
    "A": "Alaska", "N": "Territori del Nord Ovest", "G": "Groenlandia", "B": "Alberta",
    "O": "Ontario", "Q": "Quebec", "W": "Stati Uniti Occidentali",
    "E": "Stati Uniti Orientali", "C": "America Centrale",
    "V": "Venezuela", "P": "Perù", "R": "Brasile", "T": "Argentina",
    "I": "Islanda", "U": "Gran Bretagna", "S": "Scandinavia", "n": "Europa Settentrionale",
    "w": "Europa Occidentale", "s": "Europa Meridionale", "K": "Ucraina",
    "F": "Africa del Nord", "e": "Egitto", "o": "Africa Orientale", "c": "Congo",
    "a": "Africa del Sud", "m": "Madagascar",
    "L": "Urali", "y": "Siberia", "j": "Jacuzia", "X": "Cita", "k": "Kamchatka",
    "g": "Giappone", "M": "Mongolia", "Z": "Cina", "h": "Afghanistan", "d": "Medio Oriente",
    "i": "India", "x": "Siam",
    "D": "Indonesia", "q": "Nuova Guinea", "r": "Australia Occidentale",
    "t": "Australia Orientale",
}

#: Borders across the sea, drawn dashed (the others are land borders).
SEA_LINKS: tuple[tuple[str, str], ...] = (
    ("Alaska", "Kamchatka"),
    ("Groenlandia", "Territori del Nord Ovest"),
    ("Groenlandia", "Ontario"),
    ("Groenlandia", "Quebec"),
    ("Groenlandia", "Islanda"),
    ("Brasile", "Africa del Nord"),
    ("Islanda", "Gran Bretagna"),
    ("Islanda", "Scandinavia"),
    ("Gran Bretagna", "Scandinavia"),
    ("Gran Bretagna", "Europa Settentrionale"),
    ("Gran Bretagna", "Europa Occidentale"),
    ("Europa Occidentale", "Africa del Nord"),
    ("Europa Meridionale", "Africa del Nord"),
    ("Europa Meridionale", "Egitto"),
    ("Madagascar", "Africa Orientale"),
    ("Madagascar", "Africa del Sud"),
    ("Giappone", "Kamchatka"),
    ("Giappone", "Mongolia"),
    ("Siam", "Indonesia"),
    ("Indonesia", "Nuova Guinea"),
    ("Indonesia", "Australia Occidentale"),
    ("Nuova Guinea", "Australia Occidentale"),
    ("Nuova Guinea", "Australia Orientale"),
)

#: Borders that go round the back of the world: drawn as two half-lines to the edges.
WRAP_LINKS: tuple[tuple[str, str], ...] = (("Alaska", "Kamchatka"),)

#: Where each continent's name is written (cell column, row of the baseline; in the sea).
CONTINENT_LABELS: tuple[tuple[int, float, float], ...] = (
    (0, 0.2, 13.7),  # Nord America
    (1, 0.6, 27.0),  # Sud America
    (2, 25.8, 0.8),  # Europa
    (3, 22.6, 30.0),  # Africa
    (4, 55.4, 12.0),  # Asia
    (5, 46.0, 31.6),  # Oceania
)

#: Label positions set by hand (cell column, row of the label's centre), where the computed
#: one looks off.
LABEL_AT: dict[str, tuple[float, float]] = {
    "Alaska": (2.5, 2.2),
    "Brasile": (15.0, 20.5),
    "Africa Orientale": (34.0, 22.0),
    "Medio Oriente": (42.0, 13.0),
    "Argentina": (12.5, 26.8),
    "Stati Uniti Occidentali": (7.0, 9.0),
    "Stati Uniti Orientali": (13.0, 9.5),
    "Siam": (52.5, 15.0),
    "India": (48.5, 14.8),
}

#: Font size of the names, in SVG units.
FONT_SIZE = 9.5


Cell = tuple[int, int]  # (column, row)
Pair = tuple[Territory, Territory]


def _pair(a: Territory, b: Territory) -> Pair:
    return (a, b) if a < b else (b, a)


def _rows() -> list[str]:
    return GRID.strip("\n").split("\n")


@cache
def cells() -> dict[Territory, tuple[Cell, ...]]:
    """The cells of each territory (column, row), in reading order."""
    out: dict[Territory, list[Cell]] = {}
    for y, row in enumerate(_rows()):
        for x, ch in enumerate(row):
            if ch != ".":
                out.setdefault(parse_territory(CODES[ch]), []).append((x, y))
    return {t: tuple(c) for t, c in sorted(out.items())}


def grid_size() -> tuple[int, int]:
    """(columns, rows) of the map, without the margin."""
    rows = _rows()
    return max(len(r) for r in rows), len(rows)


@cache
def touching() -> frozenset[Pair]:
    """The pairs of territories whose shapes share a cell edge on the drawing."""
    owner = {c: t for t, cs in cells().items() for c in cs}
    out: set[Pair] = set()
    for (x, y), t in owner.items():
        for nx, ny in ((x + 1, y), (x, y + 1)):
            u = owner.get((nx, ny))
            if u is not None and u != t:
                out.add(_pair(t, u))
    return frozenset(out)


@cache
def sea_links() -> frozenset[Pair]:
    """:data:`SEA_LINKS` as territory pairs."""
    return frozenset(_pair(parse_territory(a), parse_territory(b)) for a, b in SEA_LINKS)


def _xy(col: float, row: float) -> tuple[float, float]:
    """SVG coordinates of a point given in cells (margin included)."""
    return ((col + MARGIN) * CELL, (row + MARGIN) * CELL)


def _outline(cs: tuple[Cell, ...]) -> list[list[tuple[int, int]]]:
    """The closed outlines (lists of grid vertices, clockwise on screen) of a set of cells."""
    inside = set(cs)
    # Directed boundary edges, interior on the right when walking (screen coordinates).
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}

    def add(a: tuple[int, int], b: tuple[int, int]) -> None:
        edges.setdefault(a, []).append(b)

    for x, y in cs:
        if (x, y - 1) not in inside:
            add((x, y), (x + 1, y))
        if (x + 1, y) not in inside:
            add((x + 1, y), (x + 1, y + 1))
        if (x, y + 1) not in inside:
            add((x + 1, y + 1), (x, y + 1))
        if (x - 1, y) not in inside:
            add((x, y + 1), (x, y))
    loops: list[list[tuple[int, int]]] = []
    while edges:
        start = next(iter(edges))
        loop = [start]
        prev = start
        cur = edges[start].pop()
        if not edges[start]:
            del edges[start]
        while cur != start:
            options = edges[cur]
            if len(options) > 1:  # two shapes meeting at a corner: keep turning right
                dx, dy = cur[0] - prev[0], cur[1] - prev[1]
                right = (cur[0] - dy, cur[1] + dx)
                nxt = right if right in options else options[0]
                options.remove(nxt)
            else:
                nxt = options.pop()
            if not options:
                del edges[cur]
            loop.append(cur)
            prev, cur = cur, nxt
        # drop the vertices in the middle of straight runs
        corners = []
        n = len(loop)
        for i, p in enumerate(loop):
            a, c = loop[i - 1], loop[(i + 1) % n]
            if (p[0] - a[0]) * (c[1] - p[1]) != (p[1] - a[1]) * (c[0] - p[0]):
                corners.append(p)
        loops.append(corners)
    return loops


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _rounded_path(loops: list[list[tuple[int, int]]]) -> str:
    """An SVG path of the outlines with rounded corners."""
    parts = []
    for loop in loops:
        pts = [_xy(x, y) for x, y in loop]
        n = len(pts)
        cmds = []
        for i in range(n):
            (ax, ay), (px, py), (bx, by) = pts[i - 1], pts[i], pts[(i + 1) % n]
            la = max(abs(px - ax), abs(py - ay))
            lb = max(abs(bx - px), abs(by - py))
            r = min(CORNER, la / 2, lb / 2)
            sx = px + (ax - px) / la * r
            sy = py + (ay - py) / la * r
            ex = px + (bx - px) / lb * r
            ey = py + (by - py) / lb * r
            cmd = "M" if i == 0 else "L"
            cmds.append(f"{cmd}{_fmt(sx)} {_fmt(sy)}Q{_fmt(px)} {_fmt(py)} {_fmt(ex)} {_fmt(ey)}")
        parts.append("".join(cmds) + "Z")
    return "".join(parts)


def _label_cell(t: Territory) -> tuple[float, float]:
    """Where the name goes, in cells: the hand-set place, else the centre of the cells (or
    the deepest cell nearest to it when the centre falls outside the shape)."""
    name = territory_name(t)
    if name in LABEL_AT:
        return LABEL_AT[name]
    cs = cells()[t]
    cx = sum(x + 0.5 for x, _ in cs) / len(cs)
    cy = sum(y + 0.5 for _, y in cs) / len(cs)
    inside = set(cs)
    if (int(cx), int(cy)) in inside:
        return cx, cy

    def depth(c: Cell) -> int:
        d = 0
        while all(
            (c[0] + dx, c[1] + dy) in inside
            for dx in range(-d - 1, d + 2)
            for dy in range(-d - 1, d + 2)
        ):
            d += 1
        return d

    best = max(cs, key=lambda c: (depth(c), -((c[0] + 0.5 - cx) ** 2 + (c[1] + 0.5 - cy) ** 2)))
    return best[0] + 0.5, best[1] + 0.5


def label_lines(name: str, width: int = 10) -> list[str]:
    """A name on one line, or two (split at the space nearest the middle) when longer than
    ``width`` characters."""
    words = name.split()
    if len(name) <= width or len(words) < 2:
        return [name]
    best = min(
        range(1, len(words)),
        key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


def _nearest_cells(a: Territory, b: Territory) -> tuple[Cell, Cell]:
    """The closest pair of cells of ``a`` and ``b`` (centre to centre)."""
    best: tuple[float, Cell, Cell] | None = None
    for ca in cells()[a]:
        for cb in cells()[b]:
            d = (ca[0] - cb[0]) ** 2 + (ca[1] - cb[1]) ** 2
            if best is None or d < best[0]:
                best = (d, ca, cb)
    assert best is not None
    return best[1], best[2]


@dataclass(frozen=True)
class Shape:
    """One territory on the drawing: index (0..41), name, continent, outline path, label."""

    index: Territory
    name: str
    continent: int
    path: str
    label_x: float
    label_y: float
    lines: tuple[str, ...]

    @property
    def name_y(self) -> float:
        """Baseline of the first line of the name (the army badge goes under the name)."""
        return self.label_y - 3 - (len(self.lines) - 1) * FONT_SIZE

    @property
    def badge_y(self) -> float:
        """Centre of the army badge."""
        return self.label_y + 7.5


@dataclass(frozen=True)
class Link:
    """A border drawn as a line: ``kind`` "sea" (dashed) or "land" (solid); a wrapped border
    is two segments (``x1..y2`` from ``a`` to the left edge, ``x3..y4`` from ``b`` to the
    right edge)."""

    a: Territory
    b: Territory
    kind: str
    x1: float
    y1: float
    x2: float
    y2: float
    wrap: bool = False
    x3: float = 0.0
    y3: float = 0.0
    x4: float = 0.0
    y4: float = 0.0

    @property
    def names(self) -> str:
        """``"A - B"``, for titles and tests."""
        return f"{territory_name(self.a)} - {territory_name(self.b)}"


@dataclass(frozen=True)
class ContinentLabel:
    """A continent's name written in the sea."""

    index: int
    name: str
    x: float
    y: float


@dataclass(frozen=True)
class Drawing:
    """Everything the SVG needs: size, shapes, lines, continent names."""

    board_name: str
    width: float
    height: float
    shapes: tuple[Shape, ...]
    links: tuple[Link, ...]
    continents: tuple[ContinentLabel, ...]

    def drawn_borders(self) -> frozenset[Pair]:
        """The borders the drawing shows: shapes that touch plus the lines."""
        return touching() | frozenset(_pair(link.a, link.b) for link in self.links)


def _links(board: Board) -> tuple[Link, ...]:
    width = (grid_size()[0] + 2 * MARGIN) * CELL
    wraps = {_pair(parse_territory(a), parse_territory(b)) for a, b in WRAP_LINKS}
    out = []
    for a, b in sorted(board.borders - touching()):
        kind = "sea" if (a, b) in sea_links() else "land"
        if (a, b) in wraps:
            # a is the western end (leftmost cell) and b the eastern one
            west, east = (a, b) if min(cells()[a])[0] < min(cells()[b])[0] else (b, a)
            wx, wy = min(cells()[west])
            ex, ey = max(cells()[east])
            x1, y1 = _xy(wx + 0.5, wy + 0.5)
            x3, y3 = _xy(ex + 0.5, ey + 0.5)
            out.append(Link(west, east, kind, x1, y1, 0.0, y1, True, x3, y3, width, y3))
            continue
        ca, cb = _nearest_cells(a, b)
        x1, y1 = _xy(ca[0] + 0.5, ca[1] + 0.5)
        x2, y2 = _xy(cb[0] + 0.5, cb[1] + 0.5)
        out.append(Link(a, b, kind, x1, y1, x2, y2))
    return tuple(out)


@cache
def _shapes(lang: str) -> tuple[Shape, ...]:
    out = []
    for t in range(NUM_TERRITORIES):
        lx, ly = _label_cell(t)
        x, y = _xy(lx, ly)
        name = territory_name(t, lang)
        out.append(
            Shape(
                t, name, TERRITORY_CONTINENT[t], _rounded_path(_outline(cells()[t])),
                round(x, 1), round(y, 1), tuple(label_lines(name)),
            )
        )
    return tuple(out)


@cache
def drawing(board_name: str = "club-milano", lang: str = "it") -> Drawing:
    """The drawing of board ``board_name`` (``official`` or ``club-milano``) with the names
    in ``lang`` (``it`` or ``en``). ValueError for an unknown board."""
    board = board_by_name(board_name)
    cols, rows = grid_size()
    lang = "en" if lang == "en" else "it"
    continents = tuple(
        ContinentLabel(c, continent_name(c, lang).upper(), *_xy(x, y))
        for c, x, y in CONTINENT_LABELS
    )
    return Drawing(
        board_name,
        (cols + 2 * MARGIN) * CELL,
        (rows + 2 * MARGIN) * CELL,
        _shapes(lang),
        _links(board),
        continents,
    )
