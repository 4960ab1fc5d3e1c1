#!/usr/bin/env python3
"""Draws Sise's PNG app icons (192, 512 and a maskable 512) with nothing but the standard library:
the brand's dark blue square and a red rising price line with a white last point, as icon.svg
shows. Run from the repository root; it rewrites Sources/SiseServer/Resources/Public/icon-*.png."""
import math
import pathlib
import struct
import zlib

OUT = pathlib.Path("Sources/SiseServer/Resources/Public")
BLUE = (11, 42, 99)
WHITE = (255, 255, 255)
RED = (255, 91, 91)
# The price line in a unit square (y down), as the SVG icon draws it.
LINE = [(10 / 64, 44 / 64), (24 / 64, 30 / 64), (34 / 64, 38 / 64), (54 / 64, 16 / 64)]


def segment_distance(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def draw(size, maskable):
    # A maskable icon keeps its drawing inside the central 80 % safe zone and fills the square.
    scale = 0.8 if maskable else 1.0
    offset = (1 - scale) / 2
    points = [(offset + x * scale, offset + y * scale) for x, y in LINE]
    width = 6 / 64 * scale
    radius = 0.0 if maskable else 14 / 64
    rows = []
    for j in range(size):
        row = bytearray()
        y = (j + 0.5) / size
        for i in range(size):
            x = (i + 0.5) / size
            # The rounded square (coverage with a one-pixel soft edge).
            cx = min(max(x, radius), 1 - radius)
            cy = min(max(y, radius), 1 - radius)
            outside = math.hypot(x - cx, y - cy) - radius if radius else -1
            alpha = max(0.0, min(1.0, 0.5 - outside * size))
            color = BLUE
            d = min(segment_distance(x, y, *points[k], *points[k + 1]) for k in range(len(points) - 1))
            ink = max(0.0, min(1.0, (width / 2 - d) * size + 0.5))
            color = tuple(round(c * (1 - ink) + r * ink) for c, r in zip(color, RED))
            last = points[-1]
            dot = max(0.0, min(1.0, (4 / 64 * scale - math.hypot(x - last[0], y - last[1])) * size + 0.5))
            color = tuple(round(c * (1 - dot) + w * dot) for c, w in zip(color, WHITE))
            row += bytes(color) + bytes([round(alpha * 255)])
        rows.append(b"\x00" + bytes(row))
    return png(size, b"".join(rows))


def png(size, raw):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    for name, size, maskable in (("icon-192.png", 192, False), ("icon-512.png", 512, False), ("icon-maskable-512.png", 512, True)):
        (OUT / name).write_bytes(draw(size, maskable))
        print(name, (OUT / name).stat().st_size, "bytes")
