"""render_png writes a PNG that decodes, of the asked size, showing the bodies where the fitted camera puts them.

The PNG is decoded here with struct and zlib alone (signature, IHDR, IDAT, the five scanline filters), an independent
reader of what stb_image_write wrote.
"""
import struct
import zlib

import numpy as np
import pytest

import gravlab

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_chunks(data):
    assert data[:8] == PNG_SIGNATURE
    offset = 8
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset:offset + 4])
        kind = data[offset + 4:offset + 8]
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert crc == zlib.crc32(kind + body), f"bad CRC in chunk {kind}"
        yield kind, body
        offset += 12 + length


def paeth(left, up, up_left):
    estimate = left.astype(np.int16) + up - up_left
    distances = [np.abs(estimate - value) for value in (left, up, up_left)]
    return np.where((distances[0] <= distances[1]) & (distances[0] <= distances[2]), left,
                    np.where(distances[1] <= distances[2], up, up_left))


def decode_png(path):
    """(width, height, pixels as a (height, width, channels) uint8 array) of an 8-bit RGB or RGBA PNG."""
    chunks = list(read_chunks(path.read_bytes()))
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND"
    width, height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and color_type in (2, 6) and interlace == 0
    channels = 4 if color_type == 6 else 3
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    stride = width * channels
    assert len(raw) == height * (stride + 1)
    pixels = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.uint8)
    for row in range(height):
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=row * (stride + 1) + 1).copy()
        kind = raw[row * (stride + 1)]
        if kind == 2:
            line = line + previous
        elif kind in (1, 3, 4):  # left-dependent filters run pixel by pixel
            for x in range(stride):
                left = line[x - channels] if x >= channels else np.uint8(0)
                up_left = previous[x - channels] if x >= channels else np.uint8(0)
                if kind == 1:
                    predictor = left
                elif kind == 3:
                    predictor = (int(left) + int(previous[x])) // 2
                else:
                    predictor = paeth(np.array(left), np.array(previous[x]), np.array(up_left))
                line[x] = (int(line[x]) + int(predictor)) & 0xFF
        else:
            assert kind == 0, f"unknown filter {kind}"
        pixels[row] = line
        previous = line
    return width, height, pixels.reshape(height, width, channels)


def render_or_skip(simulation, path, **options):
    try:
        simulation.render_png(path, **options)
    except gravlab.EglError as error:
        pytest.skip(f"no headless EGL context on this machine: {error}")


def test_render_png_writes_the_bodies_centred(tmp_path):
    # A Plummer sphere offset far from the origin: the camera must be fitted to the bodies to show them at all.
    sphere = gravlab.Simulation(bodies=2000, backend="cpu")
    offset = np.array([40.0, -25.0, 10.0])
    simulation = gravlab.Simulation.from_arrays(sphere.positions + offset, sphere.velocities, sphere.masses,
                                                backend="cpu")
    path = tmp_path / "sphere.png"
    render_or_skip(simulation, path, width=96, height=64)
    width, height, pixels = decode_png(path)
    assert (width, height) == (96, 64)
    brightness = pixels[:, :, :3].astype(np.float64).sum(axis=2)
    lit = brightness > brightness.min() + 30
    assert 0.01 < lit.mean() < 0.9, f"{lit.mean():.3f} of the pixels show bodies"
    rows, columns = np.nonzero(lit)
    weights = brightness[lit]
    # The sphere is round and the camera looks at its median centre: the light's centroid is near the image's.
    assert abs(np.average(columns, weights=weights) - width / 2) < 0.15 * width
    assert abs(np.average(rows, weights=weights) - height / 2) < 0.15 * height


def test_render_png_takes_each_colour_mode(tmp_path):
    simulation = gravlab.Simulation("galaxy-collision", bodies=1000, backend="cpu", solver="tree", orb_domains=4)
    for color in ("component", "leaf-depth", "orb-domain"):
        path = tmp_path / f"{color}.png"
        render_or_skip(simulation, path, width=40, height=30, color=color)
        assert decode_png(path)[:2] == (40, 30)


def test_render_png_reports_an_unwritable_path(tmp_path):
    simulation = gravlab.Simulation(bodies=50, backend="cpu")
    render_or_skip(simulation, tmp_path / "probe.png", width=8, height=8)
    with pytest.raises(RuntimeError, match="missing-folder"):
        simulation.render_png(tmp_path / "missing-folder" / "frame.png", width=8, height=8)
