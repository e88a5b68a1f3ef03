#!/usr/bin/env python3
"""Makes the small test images in this folder, so that no third-party picture is committed.

PNGs are written here with zlib; JPEGs by libjpeg-turbo's `cjpeg` (Debian's
libjpeg-turbo-progs) from a PPM this script draws. Run it from this folder:

    python3 make_images.py

The damaged files are cut or corrupted copies of the good ones.
"""
import math
import struct
import subprocess
import zlib


def png(path, width, height, pixel, alpha=False):
    """Writes an 8-bit RGB or RGBA PNG whose pixels come from `pixel(x, y)`."""
    channels = 4 if alpha else 3
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # no filter
        for x in range(width):
            rows.extend(pixel(x, y)[:channels])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header))
        file.write(chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def jpeg(path, width, height, pixel, quality=90):
    """Writes a baseline JPEG through cjpeg from a PPM of `pixel(x, y)`."""
    ppm = bytearray(b"P6 %d %d 255\n" % (width, height))
    for y in range(height):
        for x in range(width):
            ppm.extend(pixel(x, y)[:3])
    encoded = subprocess.run(
        ["cjpeg", "-quality", str(quality)], input=bytes(ppm), capture_output=True, check=True
    ).stdout
    with open(path, "wb") as file:
        file.write(encoded)


def quadrants(x, y, width=16, height=16):
    """Red, green, blue and white quarters."""
    left, top = x < width // 2, y < height // 2
    return [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)][(0 if left else 1) + (0 if top else 2)]


def sky(x, y, width=640, height=480):
    """A sunset: a vertical gradient with a sun, so that scaling has something to keep."""
    t = y / height
    r, g, b = int(40 + 200 * t), int(60 + 90 * t), int(160 - 100 * t)
    if math.hypot(x - width * 0.7, y - height * 0.45) < height * 0.12:
        r, g, b = 255, 220, 90
    if y > height * 0.75:
        r, g, b = 30, 50 + int(40 * math.sin(x / 15)), 30
    return (r, g, b)


if __name__ == "__main__":
    png("quadrants-16x16.png", 16, 16, quadrants)
    png("fade-8x4-alpha.png", 8, 4, lambda x, y: (0, 0, 0, int(255 * x / 7)), alpha=True)
    jpeg("quadrants-16x16.jpg", 16, 16, quadrants, quality=95)
    jpeg("sunset-640x480.jpg", 640, 480, sky, quality=85)
    jpeg("sunset-64x48.jpg", 64, 48, lambda x, y: sky(x * 10, y * 10), quality=90)
    good_png = open("quadrants-16x16.png", "rb").read()
    good_jpeg = open("sunset-64x48.jpg", "rb").read()
    open("damaged-truncated.jpg", "wb").write(good_jpeg[: len(good_jpeg) // 3])
    open("damaged-truncated.png", "wb").write(good_png[: len(good_png) // 2])
    corrupt = bytearray(good_png)
    corrupt[40] ^= 0xFF  # inside IDAT: its CRC no longer matches
    open("damaged-crc.png", "wb").write(bytes(corrupt))
    open("not-an-image.gif", "wb").write(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")
