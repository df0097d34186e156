"""The editor window's bands and grid (screen px unless said): read by the view, which
lays the window out, and by the painter, which draws it."""

#: Window bands, px: the tool strip's width, the panel's, the top band and the footer.
STRIP, PANEL, TOP, FOOT = 170, 250, 34, 22
#: Grid snap step, px (world), and the grid lines drawn every so many px.
GRID, GRID_LINES = 10.0, 50.0
