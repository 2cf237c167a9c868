"""The sizes (in SVG pixels), the font and the colours of a drawn battle map."""

from __future__ import annotations

# ----------------------------------------------------------------- sizes
BOX_W = 260.0
COL_GAP = 70.0
PITCH = BOX_W + COL_GAP
ROW_GAP = 84.0
PAD = 10.0
MARGIN = 30.0
ROW_LABEL_W = 100.0
BOARD_PAD = 48.0  # the board's edge around the boxes: room for a detour round the outer Sectors
PANEL_GAP = 40.0
PANEL_W = 360.0
BODY_SIZE = 11.0
BODY_LH = 14.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

# ----------------------------------------------------------------- colours
INK = "#222222"
PAPER = "#f6f1e3"
BOARD = "#e4dcc4"
LATERAL = "#2f5d8a"
MINE_RED = "#b3261e"
COURAGE = "#d35400"
START_GREEN = "#2e7d32"
RECON = "#a0522d"
BUNKER_FILL = "#cfc8b8"
MUTED = "#9a9a9a"
