"""``tour_sound.png``: the walk's soundscape in one picture.

A spectrogram of the tour's mix (log frequency, 40 Hz to 16 kHz) over a strip of the
terrain under the listener, the left and right channels' own K-weighted loudness
(400 ms, ``soundscape.audio.loudness.momentary_lufs``) under it, and every stop of the
route marked by a line through both with its name. Drawn through pyglet headless (EGL)
like ``tour.png``: import after the pyglet options are set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from soundscape.audio.loudness import momentary_lufs
from soundscape.demo_world.capture import save_color_buffer

SIZE = (1280, 720)
LEFT_PX, RIGHT_PX = 70, 20
SPECTRUM_Y = (300, 655)
TERRAIN_Y = (282, 296)
LOUDNESS_Y = (60, 270)
LOUDNESS_RANGE = (-50.0, -5.0)
FREQ_RANGE_HZ = (40.0, 16_000.0)
POWER_RANGE_DB = (-120.0, -25.0)
WINDOW = 4096

BACKGROUND = (18, 18, 24)
GRID = (70, 70, 80)
TEXT = (230, 230, 230, 255)
LEFT_COLOUR = (80, 200, 255)
RIGHT_COLOUR = (255, 150, 60)
MARK_COLOUR = (235, 235, 235)
LABEL_BACK = (0, 0, 0, 190)
INDOORS_COLOUR = (110, 110, 110)
_RAMP = np.array([(0.0, 0, 0, 4), (0.25, 60, 15, 110), (0.5, 180, 55, 90),
                  (0.75, 250, 140, 30), (1.0, 252, 255, 164)])
"""An inferno-like colour ramp: (position, r, g, b)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A stop of the route: when it begins (seconds) and its name."""

    t_s: float
    label: str


@dataclass(frozen=True, slots=True)
class Place:
    """The listener's terrain from ``t_s`` on (None off the map), and whether outdoors."""

    t_s: float
    terrain_rgb: tuple[int, int, int]
    outdoors: bool


def spectrogram(audio: np.ndarray, rate_hz: int, columns: int, rows: int) -> np.ndarray:
    """Power in dBFS (a full-scale sine is 0) on a (rows, columns) log-frequency grid.

    Column ``i`` is a Hann window of ``WINDOW`` frames centred on its time; row 0 is
    ``FREQ_RANGE_HZ[0]``, the last row ``FREQ_RANGE_HZ[1]``.
    """
    mono = np.asarray(audio, dtype=np.float64)
    mono = mono.mean(axis=1) if mono.ndim == 2 else mono
    frames = mono.shape[0]
    centres = ((np.arange(columns) + 0.5) * frames / columns).astype(np.int64)
    starts = np.clip(centres - WINDOW // 2, 0, max(frames - WINDOW, 0))
    padded = np.concatenate([mono, np.zeros(WINDOW)])
    window = np.hanning(WINDOW)
    blocks = padded[starts[:, None] + np.arange(WINDOW)[None, :]] * window
    power = np.abs(np.fft.rfft(blocks, axis=1)) ** 2 * (2.0 / window.sum()) ** 2
    freqs = np.fft.rfftfreq(WINDOW, 1.0 / rate_hz)
    wanted = np.geomspace(*FREQ_RANGE_HZ, rows)
    bins = np.clip(np.searchsorted(freqs, wanted), 1, freqs.shape[0] - 1)
    with np.errstate(divide="ignore"):
        db = 10.0 * np.log10(np.maximum(power[:, bins], 1e-30) / 0.5)
    return db.T


def colours(db: np.ndarray) -> np.ndarray:
    """dB values as RGBA bytes through the ramp, ``POWER_RANGE_DB`` low to high."""
    lo, hi = POWER_RANGE_DB
    x = np.clip((db - lo) / (hi - lo), 0.0, 1.0)
    rgb = np.stack([np.interp(x, _RAMP[:, 0], _RAMP[:, k]) for k in (1, 2, 3)], axis=-1)
    alpha = np.full(x.shape + (1,), 255.0)
    return np.concatenate([rgb, alpha], axis=-1).astype(np.uint8)


def loudness_columns(audio: np.ndarray, rate_hz: int, columns: int, seconds: float
                     ) -> np.ndarray:
    """Each side's momentary loudness per pixel column (the loudest block in it): (columns, 2)."""
    times, lufs = momentary_lufs(audio, rate_hz)
    out = np.full((columns, 2), -math.inf)
    if times.size == 0:
        return out
    col = np.clip(((times - 0.2) / seconds * columns).astype(np.int64), 0, columns - 1)
    for side in range(2):
        np.maximum.at(out[:, side], col, lufs[:, side])
    return out


def write_sound_png(path: Path, audio: np.ndarray, rate_hz: int, seconds: float,
                    marks: list[Mark], places: list[Place], title: str
                    ) -> np.ndarray:
    """Draw the picture into ``path``; returns the frame as RGBA (rows bottom-up, as GL)."""
    import pyglet
    from pyglet import shapes

    width, height = SIZE
    plot_w = width - LEFT_PX - RIGHT_PX
    spec_h = SPECTRUM_Y[1] - SPECTRUM_Y[0]

    def x_of(t_s: float) -> float:
        return LEFT_PX + plot_w * min(max(t_s / seconds, 0.0), 1.0)

    def y_of(lufs: float) -> float:
        lo, hi = LOUDNESS_RANGE
        f = (min(max(lufs, lo), hi) - lo) / (hi - lo)
        return LOUDNESS_Y[0] + f * (LOUDNESS_Y[1] - LOUDNESS_Y[0])

    window = pyglet.window.Window(width, height, visible=False)
    try:
        window.switch_to()
        pyglet.gl.glClearColor(BACKGROUND[0] / 255, BACKGROUND[1] / 255, BACKGROUND[2] / 255,
                               1.0)
        window.clear()
        batch = pyglet.graphics.Batch()
        keep: list[object] = []  # every shape and label stays alive until drawn
        back, front, top = (pyglet.graphics.Group(k) for k in range(3))
        image = colours(spectrogram(audio, rate_hz, plot_w, spec_h))
        pixels = pyglet.image.ImageData(plot_w, spec_h, "RGBA", image.tobytes(), pitch=plot_w * 4)
        pixels.blit(LEFT_PX, SPECTRUM_Y[0])
        for i, place in enumerate(places):
            end = places[i + 1].t_s if i + 1 < len(places) else seconds
            colour = place.terrain_rgb if place.outdoors else INDOORS_COLOUR
            keep.append(shapes.Rectangle(x_of(place.t_s), TERRAIN_Y[0],
                                         max(x_of(end) - x_of(place.t_s), 1.0),
                                         TERRAIN_Y[1] - TERRAIN_Y[0], color=colour,
                                         batch=batch, group=back))
        for hz in (100, 1_000, 10_000):
            y = SPECTRUM_Y[0] + spec_h * math.log(hz / FREQ_RANGE_HZ[0]) / math.log(
                FREQ_RANGE_HZ[1] / FREQ_RANGE_HZ[0])
            keep.append(pyglet.text.Label(f"{hz // 1000} kHz" if hz >= 1000 else f"{hz} Hz",
                                          x=LEFT_PX - 6, y=y, anchor_x="right",
                                          anchor_y="center", font_size=8, color=TEXT,
                                          batch=batch, group=front))
        for lufs in range(-50, 0, 10):
            y = y_of(lufs)
            keep.append(shapes.Line(LEFT_PX, y, width - RIGHT_PX, y, color=GRID, batch=batch,
                                    group=back))
            keep.append(pyglet.text.Label(f"{lufs} LUFS", x=LEFT_PX - 6, y=y, anchor_x="right",
                                          anchor_y="center", font_size=8, color=TEXT,
                                          batch=batch, group=front))
        for t in range(0, int(seconds) + 1, 30):
            keep.append(pyglet.text.Label(f"{t} s", x=x_of(t), y=LOUDNESS_Y[0] - 16,
                                          anchor_x="center", font_size=8, color=TEXT,
                                          batch=batch, group=front))
        curves = loudness_columns(audio, rate_hz, plot_w, seconds)
        for side, colour in ((0, LEFT_COLOUR), (1, RIGHT_COLOUR)):
            points = [(LEFT_PX + i + 0.5, y_of(float(v))) for i, v in enumerate(curves[:, side])]
            keep.append(shapes.MultiLine(*points, thickness=1.5, color=colour + (255,),
                                         batch=batch, group=front))
        for mark in marks:
            x = x_of(mark.t_s)
            keep.append(shapes.Line(x, LOUDNESS_Y[0], x, SPECTRUM_Y[1], thickness=1.0,
                                    color=MARK_COLOUR + (150,), batch=batch, group=front))
            label = pyglet.text.Label(mark.label, x=x + 2, y=SPECTRUM_Y[1] - 4, rotation=90,
                                      anchor_x="left", anchor_y="top", font_size=8,
                                      color=TEXT, batch=batch, group=top)
            keep.append(label)
            keep.append(shapes.Rectangle(x + 1, SPECTRUM_Y[1] - 6 - label.content_width, 13,
                                         label.content_width + 4, color=LABEL_BACK,
                                         batch=batch, group=front))
        keep.append(pyglet.text.Label(title, x=LEFT_PX, y=height - 24, font_size=11,
                                      color=TEXT, batch=batch, group=front))
        keep.append(pyglet.text.Label("left", x=width - RIGHT_PX - 70, y=LOUDNESS_Y[1] - 14,
                                      font_size=9, color=LEFT_COLOUR + (255,), batch=batch,
                                      group=front))
        keep.append(pyglet.text.Label("right", x=width - RIGHT_PX - 36, y=LOUDNESS_Y[1] - 14,
                                      font_size=9, color=RIGHT_COLOUR + (255,), batch=batch,
                                      group=front))
        batch.draw()
        frame = save_color_buffer(path)
    finally:
        window.close()
    return frame
