"""A small writer of AC dat files and the objects in them, for tests and benches.

It writes the layout ``soundscape.ac.dat_file`` documents (the retail client's
``DiskFileInfo_t`` header, B-tree directory and block chains) with knobs the
reader must cope with: a small block size (long multi-block chains), a small
node fan-out (a deep, branching directory), chains scattered over the file, a
free list threaded between used blocks, 0xCDCDCDCD in unused branch slots (as
DatReaderWriter writes them), compressed entries. The object builders write the
Region, landblock, sound table and wave packings field by field.
"""

from __future__ import annotations

import random
import struct
import zlib
from dataclasses import dataclass, field

HEADER = 0x190
MAGIC = 0x5442
FREE = 0x80000000
UNUSED_BRANCH = 0xCDCDCDCD
NODE_BYTES = 62 * 4 + 4 + 61 * 24


@dataclass
class Entry:
    file_id: int
    data: bytes
    compressed: bool = False
    version: int = 2
    date: int = 0x5F5E1000
    iteration: int = 1


@dataclass
class DatWriter:
    """Collects files, then ``build()`` returns the whole dat as bytes.

    Attributes:
        block_size: bytes per block (the reader accepts anything over 4).
        data_set: 1 portal, 2 cell.
        fanout: most entries per directory node (retail: 61).
        free_every: one free block after this many used ones (0: none).
        scatter: allocate blocks in a shuffled order (non-contiguous chains).
        seed: the shuffle's seed.
    """

    block_size: int = 64
    data_set: int = 1
    fanout: int = 61
    free_every: int = 3
    scatter: bool = True
    seed: int = 7
    version_text: bytes = b"soundscape test dat"
    files: dict[int, Entry] = field(default_factory=dict)

    def add(self, file_id: int, data: bytes, **kw: object) -> None:
        self.files[file_id] = Entry(file_id, data, **kw)  # type: ignore[arg-type]

    # -- blocks ------------------------------------------------------------------------

    def _layout(self, chains: list[int]) -> tuple[list[list[int]], list[int], int]:
        """Block offsets for each chain (``chains`` = block counts), the free blocks, end."""
        used = sum(chains)
        free = used // self.free_every if self.free_every else 0
        first = -(-HEADER // self.block_size) * self.block_size
        slots = [first + i * self.block_size for i in range(used + free)]
        rng = random.Random(self.seed)
        if self.scatter:
            rng.shuffle(slots)
        free_slots = sorted(slots[used:])
        out, at = [], 0
        for count in chains:
            out.append(slots[at : at + count])
            at += count
        return out, free_slots, first + (used + free) * self.block_size

    def _write_chain(self, image: bytearray, blocks: list[int], payload: bytes) -> None:
        size = self.block_size - 4
        for i, offset in enumerate(blocks):
            nxt = blocks[i + 1] if i + 1 < len(blocks) else 0
            chunk = payload[i * size : (i + 1) * size]
            image[offset : offset + 4 + len(chunk)] = struct.pack("<I", nxt) + chunk

    # -- directory ---------------------------------------------------------------------

    def _tree(self, keys: list[int]) -> dict:
        if len(keys) <= self.fanout:
            return {"keys": keys, "kids": []}
        groups = min(self.fanout + 1, (len(keys) + 1) // 2)  # every child non-empty
        seps, kids, per = [], [], (len(keys) - (groups - 1)) / groups
        at = 0
        for g in range(groups):
            take = round(per * (g + 1)) - round(per * g)
            kids.append(keys[at : at + take])
            at += take
            if g < groups - 1:
                seps.append(keys[at])
                at += 1
        return {"keys": seps, "kids": [self._tree(k) for k in kids]}

    def _nodes(self, tree: dict, out: list[dict]) -> None:
        out.append(tree)
        for kid in tree["kids"]:
            self._nodes(kid, out)

    def _pack_node(self, node: dict, entries: dict[int, bytes]) -> bytes:
        kids = [k["offset"] for k in node["kids"]]
        branches = kids + [UNUSED_BRANCH] * (62 - len(kids)) if kids else [0] * 62
        body = struct.pack("<62I", *branches) + struct.pack("<i", len(node["keys"]))
        body += b"".join(entries[k] for k in node["keys"])
        return body + b"\0" * (NODE_BYTES - len(body))

    # -- the file ----------------------------------------------------------------------

    def build(self, *, file_size_delta: int = 0, root: int | None = None) -> bytes:
        keys = sorted(self.files)
        stored = {}
        for k in keys:
            e = self.files[k]
            blob = e.data
            if e.compressed:
                blob = struct.pack("<I", len(e.data)) + zlib.compress(e.data)
            stored[k] = blob
        tree = self._tree(keys)
        nodes: list[dict] = []
        self._nodes(tree, nodes)
        size = self.block_size - 4
        chains = [-(-NODE_BYTES // size) for _ in nodes]
        chains += [max(1, -(-len(stored[k]) // size)) if stored[k] else 0 for k in keys]
        layout, free, end = self._layout(chains)
        for node, blocks in zip(nodes, layout, strict=False):
            node["offset"] = blocks[0]
        image = bytearray(end)
        entries = {}
        for k, blocks in zip(keys, layout[len(nodes):], strict=True):
            e = self.files[k]
            flags = (e.version << 16) | (1 if e.compressed else 0)
            entries[k] = struct.pack("<IIiIIi", flags, k, blocks[0] if blocks else 0,
                                     len(stored[k]), e.date, e.iteration)
            self._write_chain(image, blocks, stored[k])
        for node, blocks in zip(nodes, layout, strict=False):
            self._write_chain(image, blocks, self._pack_node(node, entries))
        for i, offset in enumerate(free):  # the free list: high bit on every link
            nxt = free[i + 1] if i + 1 < len(free) else 0
            image[offset : offset + 4] = struct.pack("<I", nxt | FREE)
        image[: len(self.version_text)] = self.version_text
        image[0x100:0x104] = b"\x00PL\x00"
        info = struct.pack(
            "<IiiIIiiiiiiiIii16sI", MAGIC, self.block_size, end + file_size_delta,
            self.data_set, 0 if self.data_set == 1 else 1,
            free[0] if free else 0, free[-1] if free else 0, len(free),
            nodes[0]["offset"] if root is None else root,
            0, 0, 0, 0x0E000000 if self.data_set == 1 else 0, 22, 2072,
            bytes(range(16)), 982)
        image[0x140 : 0x140 + len(info)] = info
        return bytes(image)


# -- object packings ------------------------------------------------------------------


class Packer:
    """Little-endian fields; ``pstring`` aligns to 4 from the object's start."""

    def __init__(self) -> None:
        self.out = bytearray()

    def u32(self, *values: int) -> Packer:
        self.out += struct.pack(f"<{len(values)}I", *[v & 0xFFFFFFFF for v in values])
        return self

    def u16(self, *values: int) -> Packer:
        self.out += struct.pack(f"<{len(values)}H", *values)
        return self

    def f32(self, *values: float) -> Packer:
        self.out += struct.pack(f"<{len(values)}f", *values)
        return self

    def f64(self, *values: float) -> Packer:
        self.out += struct.pack(f"<{len(values)}d", *values)
        return self

    def raw(self, data: bytes) -> Packer:
        self.out += data
        return self

    def pstring(self, text: str, long: bool = False) -> Packer:
        data = text.encode("latin-1")
        if long or len(data) >= 0xFFFF:
            self.u16(0xFFFF).u32(len(data))
        else:
            self.u16(len(data))
        self.out += data
        self.out += b"\0" * (-len(self.out) % 4)
        return self

    def bytes(self) -> bytes:
        return bytes(self.out)


@dataclass
class StbDesc:
    stb_id: int
    sounds: list[tuple[int, float, float, float, float]]


@dataclass
class RegionSpec:
    """Everything a Region packs; defaults are a small valid region."""

    region_number: int = 1
    version: int = 3
    name: str = "Dereth"
    land_defs: tuple[int, ...] = (255, 255, 0x41C00000, 192, 1, 0x43480000, 0x44FA0000,
                                  0x40A00000)
    heights: list[float] = field(default_factory=lambda: [2.0 * i for i in range(256)])
    times_of_day: list[tuple[float, int, str]] = field(
        default_factory=lambda: [(0.0, 1, "Darktide"), (0.25, 0, "Dawnsong")])
    week_days: list[str] = field(default_factory=lambda: ["Snowreap", "Coldeve"])
    seasons: list[tuple[int, str]] = field(default_factory=lambda: [(0, "Winter")])
    sky: list[dict] | None = field(default_factory=lambda: [
        {"chance": 1.0, "name": "Clear", "objects": 2, "times": [1, 0]}])
    stb: list[StbDesc] | None = field(default_factory=list)
    scenes: list[tuple[int, list[int]]] | None = field(default_factory=list)
    terrain: list[tuple[str, int, list[int]]] = field(default_factory=list)
    land_surf: bytes = b"\x01\x00\x00\x00LANDSURF-NOT-READ"
    misc: bool = True
    long_name: bool = False


def region_bytes(spec: RegionSpec, file_id: int = 0x13000000) -> bytes:
    p = Packer().u32(file_id, spec.region_number, spec.version)
    p.pstring(spec.name, spec.long_name)
    p.u32(*spec.land_defs).f32(*spec.heights)
    p.f64(12345.5).u32(10).f32(7620.0).u32(360).pstring("P.Y.")
    p.u32(len(spec.times_of_day))
    for start, night, name in spec.times_of_day:
        p.f32(start).u32(night).pstring(name)
    p.u32(len(spec.week_days))
    for day in spec.week_days:
        p.pstring(day)
    p.u32(len(spec.seasons))
    for begin, name in spec.seasons:
        p.u32(begin).pstring(name)
    mask = ((0x10 if spec.sky is not None else 0) | (0x01 if spec.stb is not None else 0)
            | (0x02 if spec.scenes is not None else 0) | (0x200 if spec.misc else 0))
    p.u32(mask)
    if spec.sky is not None:
        p.f64(10.0, 2.5).u32(len(spec.sky))
        for group in spec.sky:
            p.f32(group["chance"]).pstring(group["name"]).u32(group["objects"])
            for i in range(group["objects"]):
                p.f32(0.0, 1.0, 0.1, 0.2, 0.0, 0.0).u32(0x01000000 + i, 0x33000000, 4)
            p.u32(len(group["times"]))
            for replaces in group["times"]:
                p.f32(0.5, 1.0, 90.0, 45.0).u32(0xFFFFFFFF).f32(0.3).u32(0xFF808080)
                p.f32(10.0, 300.0).u32(0xFF000000, 1).u32(replaces)
                for r in range(replaces):
                    p.u32(r, 0x01000010).f32(0.0, 0.5, 1.0, 1.0)
    if spec.stb is not None:
        p.u32(len(spec.stb))
        for desc in spec.stb:
            p.u32(desc.stb_id, len(desc.sounds))
            for stype, vol, chance, lo, hi in desc.sounds:
                p.u32(stype).f32(vol, chance, lo, hi)
    if spec.scenes is not None:
        p.u32(len(spec.scenes))
        for stb_index, scene_ids in spec.scenes:
            p.u32(stb_index, len(scene_ids), *scene_ids)
    p.u32(len(spec.terrain))
    for name, color, scene_types in spec.terrain:
        p.pstring(name).u32(color, len(scene_types), *scene_types)
    p.raw(spec.land_surf)
    if spec.misc:
        p.u32(1, 0x0600127D, 0x06000261, 4, 0, 0)
    return p.bytes()


def landblock_bytes(block_x: int, block_y: int, words: list[int], heights: list[int],
                    has_objects: int = 1) -> bytes:
    """A landblock: words and height indices x-major (``[9 * x + y]``)."""
    fid = (block_x << 24) | (block_y << 16) | 0xFFFF
    p = Packer().u32(fid, has_objects).u16(*words).raw(bytes(heights))
    return p.raw(b"\0" * (-len(p.out) % 4)).bytes()


def sound_table_bytes(table_id: int, children: list[tuple[int, list[tuple], list]],
                      root: list[tuple] = ()) -> bytes:
    """``children`` = [(hash_key, records, grandchildren)], a record (wave, pri, prob, vol)."""
    p = Packer().u32(table_id)

    def node(key: int, records: list[tuple], kids: list) -> None:
        p.u32(key, len(records))
        for wave, pri, prob, vol in records:
            p.u32(wave).f32(pri, prob, vol)
        p.u32(len(kids))
        for kid in kids:
            node(*kid)

    node(0, list(root), children)
    return p.bytes()


def wave_bytes(wave_id: int, samples: list[int], *, rate: int = 11025, bits: int = 16,
               channels: int = 1, tag: int = 1, extra: bytes = b"\0\0") -> bytes:
    """A wave object: bare WAVEFORMATEX (18 bytes with cbSize) and PCM data."""
    align = channels * bits // 8
    header = struct.pack("<HHIIHH", tag, channels, rate, rate * align, align, bits) + extra
    data = (struct.pack(f"<{len(samples)}h", *samples) if bits == 16
            else bytes(samples))
    return Packer().u32(wave_id, len(header), len(data)).raw(header).raw(data).bytes()
