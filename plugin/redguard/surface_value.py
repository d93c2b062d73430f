"""Where an object's surface value comes from: the face or terrain tile it stands on.

Seed 002, "SURFACE.INI remap" (l.185-193): the ground-support query gives the
face under an actor, and the surface value animation PlaySound remaps with is

* a model face: the surface type SURFACE.INI ``[surfaces]`` assigns to the
  face's texture (set, image), 0 when it has no entry; a solid-colour face gives 0;
* terrain: texture set 302 and the tile's low six bits (an out-of-grid tile is -1,
  image 63) through ``[surfaces]``; the blend mask may replace that with sand or
  rock at a dry shore pixel; a non-zero water result then gives scapewater (3),
  or scapedeepwater (4) at full water coverage;
* any other source kind (and a support miss, which clears the kind): 0.

The support wrapper writes the actor's surface only when its collision
attribute mask has 0x04; otherwise (and on the excluded and query-only paths)
the actor keeps its previous surface. The plugin has no collision world, so
the game supplies what its query found as a ``GroundSupport`` and calls
``RedguardRuntime.ground_support``.

``[surfaces]`` lines are ``set, index, type`` or ``set, all, type`` with type one
of WATER, DEEPWATER, LAVA, SAND, WOOD, TILE, ROCK, GLOOP (any case), as the
shipped SURFACE.INI has them (michidk/redguard-preservation
``docs/config/surface-ini.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from soundscape.components.redguard import RgObject
from soundscape.datafile import read_file
from soundscape.errors import DataError, InputError
from soundscape.redguard.surface import SURFACE_NAMES

TERRAIN_TEXTURE_SET = 302
"""Terrain tiles resolve through texture set 302."""
TILE_IMAGE_MASK = 0x3F
"""The tile's low six bits are its image (-1 out of the grid gives 63)."""
SUPPORT_UPDATES_SURFACE = 0x04
"""The collision attribute mask bit that lets the support query write the surface."""
SCAPEWATER, SCAPEDEEPWATER = 3, 4
TYPES = ("WATER", "DEEPWATER", "LAVA", "SAND", "WOOD", "TILE", "ROCK", "GLOOP")
"""The ``[surfaces]`` type tokens; their codes are their SURFACE_NAMES index."""
SAND, ROCK = SURFACE_NAMES.index("sand"), SURFACE_NAMES.index("rock")
MAX_SET = 511


class SurfaceTypes:
    """SURFACE.INI ``[surfaces]``: (texture set, image) -> surface code, 0 when unassigned.

    >>> types = SurfaceTypes()
    >>> types.assign(302, 5, "sand"); types.assign(40, None, "WOOD")
    >>> types.lookup(302, 5), types.lookup(40, 17), types.lookup(302, 6)
    (6, 7, 0)
    """

    def __init__(self) -> None:
        self.entries: dict[tuple[int, int], int] = {}
        self.whole_sets: dict[int, int] = {}

    def assign(self, texture_set: int, image: int | None, type_name: str) -> None:
        """One ``set, index, type`` line (``image`` None: ``set, all, type``)."""
        code = _type_code(type_name)
        if image is None:
            self.whole_sets[texture_set] = code
        else:
            self.entries[(texture_set, image)] = code

    def lookup(self, texture_set: int, image: int) -> int:
        """The surface code of a texture, 0 when ``[surfaces]`` has no entry for it."""
        code = self.entries.get((texture_set, image))
        return self.whole_sets.get(texture_set, 0) if code is None else code

    def load_ini(self, path: str | Path) -> None:
        """Read the ``[surfaces]`` section of SURFACE.INI (the sound sections are
        ``SurfaceRemap.load_ini``'s)."""
        source = str(path)
        lines = read_file(path).decode("latin-1").splitlines()  # a regular file, size-capped
        section = None
        for number, raw in enumerate(lines, start=1):
            line = raw.split(";", 1)[0].strip()
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1].strip().lower()
            elif line and section == "surfaces":
                self._line(source, number, line)

    def _line(self, source: str, number: int, line: str) -> None:
        record = f"[surfaces] line {number}"
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3:
            raise DataError(source, record, None, f"expected 'set, index, type', got {line!r}")
        try:
            texture_set = int(parts[0], 0)
            image = None if parts[1].lower() == "all" else int(parts[1], 0)
        except ValueError:
            raise DataError(source, record, None, f"set and index must be integers: {line!r}") \
                from None
        if not 0 <= texture_set <= MAX_SET or (image is not None and image < 0):
            raise DataError(source, record, "set" if image is None or image >= 0 else "index",
                            f"outside the texture range: {line!r}")
        try:
            self.assign(texture_set, image, parts[2])
        except InputError as error:
            raise DataError(source, record, "type", str(error)) from None


def _type_code(type_name: str) -> int:
    name = str(type_name).strip().upper()
    if name not in TYPES:
        raise InputError(f"surface type {type_name!r} is not one of {', '.join(TYPES)}")
    return SURFACE_NAMES.index(name.lower())


@dataclass(frozen=True, slots=True)
class GroundSupport:
    """What the game's ground-support query found under an actor.

    Attributes:
        kind: ``"model"`` (a model face), ``"terrain"``, ``"other"`` (another source
            kind) or ``"miss"`` (nothing found: the source kind is cleared).
        texture: a model face's (texture set, image); None for a solid-colour face.
        tile: a terrain tile's image entry at the actor's integer map X/Z (-1 out of
            the grid).
        shore: at a dry shore pixel, the surface the blend mask puts there (sand or
            rock code), else None.
        water: the water result at the actor (0 dry); ``full_water`` full coverage.
    """

    kind: str
    texture: tuple[int, int] | None = None
    tile: int = -1
    shore: int | None = None
    water: int = 0
    full_water: bool = False


def support_surface(types: SurfaceTypes, support: GroundSupport) -> int:
    """The surface value the ordinary assignment path gives for ``support``.

    >>> types = SurfaceTypes(); types.assign(302, 63, "rock"); types.assign(9, 3, "tile")
    >>> support_surface(types, GroundSupport("terrain", tile=-1))  # -1 -> image 63
    10
    >>> support_surface(types, GroundSupport("terrain", tile=0x43, water=1, full_water=True))
    4
    >>> support_surface(types, GroundSupport("model", texture=(9, 3))), support_surface(
    ...     types, GroundSupport("model", texture=None))
    (8, 0)
    """
    if support.kind == "model":
        return 0 if support.texture is None else types.lookup(*support.texture)
    if support.kind == "terrain":
        value = types.lookup(TERRAIN_TEXTURE_SET, support.tile & TILE_IMAGE_MASK)
        if support.shore is not None and not support.water:
            if support.shore not in (SAND, ROCK):
                raise InputError(f"GroundSupport.shore: a shore pixel gives sand ({SAND}) or "
                                 f"rock ({ROCK}), not {support.shore!r}")
            value = support.shore
        if support.water:
            value = SCAPEDEEPWATER if support.full_water else SCAPEWATER
        return value
    if support.kind in ("other", "miss"):
        return 0
    raise InputError(f"GroundSupport.kind: {support.kind!r} is not model, terrain, other or miss")


def apply_support(obj: RgObject, types: SurfaceTypes, support: GroundSupport,
                  collision_mask: int) -> bool:
    """The support wrapper: write ``obj.surface`` only when ``collision_mask`` has 0x04.

    Returns whether the surface was written; without the bit the object keeps its
    previous surface (as on the excluded and query-only paths).
    """
    value = support_surface(types, support)
    if not collision_mask & SUPPORT_UPDATES_SURFACE:
        return False
    obj.surface = value
    return True
