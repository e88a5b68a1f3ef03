"""Draws the labelled placeholder pictures the offline TodoApp shows where no licensed photo
of the animal ships (see SOURCES.md). Standard library only:

    python3 make_placeholders.py     # writes placeholder-dog.png and placeholder-cat.png
"""
import struct
import zlib

# A 5x7 font for the letters the labels use.
GLYPHS = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "C": ["01111", "10000", "10000", "10000", "10000", "10000", "01111"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "G": ["01111", "10000", "10000", "10011", "10001", "10001", "01111"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "N": ["10001", "11001", "10101", "10011", "10001", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    " ": ["00000"] * 7,
}


def png(width, height, rows):
    raw = b"".join(b"\x00" + bytes(row) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def placeholder(lines, background, foreground, width=72, height=40):
    pixels = [[background for _ in range(width)] for _ in range(height)]
    # A frame one pixel in, so that the picture reads as a stand-in, not a photo.
    for x in range(width):
        pixels[1][x] = pixels[height - 2][x] = foreground
    for y in range(height):
        pixels[y][1] = pixels[y][width - 2] = foreground
    top = (height - (len(lines) * 9 - 2)) // 2
    for index, line in enumerate(lines):
        left = (width - (len(line) * 6 - 1)) // 2
        for position, letter in enumerate(line):
            for dy, bits in enumerate(GLYPHS[letter]):
                for dx, bit in enumerate(bits):
                    if bit == "1":
                        pixels[top + index * 9 + dy][left + position * 6 + dx] = foreground
    rows = [[channel for pixel in row for channel in pixel] for row in pixels]
    return png(width, height, rows)


if __name__ == "__main__":
    for pet, colour in (("DOG", (214, 170, 60)), ("CAT", (190, 110, 190))):
        with open(f"placeholder-{pet.lower()}.png", "wb") as file:
            file.write(placeholder(["PLACEHOLDER", f"NO {pet}", "PHOTO"], (30, 30, 38), colour))
