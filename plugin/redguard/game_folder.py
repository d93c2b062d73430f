"""``RedguardRuntime.load_game_folder``: drive the Redguard runtime from the retail files.

What is read from where (names matched without regard to case, as on the
game's own file system):

* ``SYSTEM.INI`` (the folder): ``[system]`` ``sound_distance``, ``volume`` (the
  master) and ``rtx_filename``; ``[dialog]`` ``dialog_max_distance``,
  ``dialog_max_dialog_lines``, ``dialog_use_speech``, ``dialog_print_text``,
  ``dialog_max_menu_items``, ``dialog_max_text_width``, ``menu_traverse_delay``
  (michidk/redguard-preservation ``docs/config/system-ini.md``). An absent key
  keeps the shipped value (``RgConfig``).
* ``SURFACE.INI`` (the folder): its sound sections (``SurfaceRemap.load_ini``)
  and ``[surfaces]`` (``SurfaceTypes.load_ini``), ``docs/config/surface-ini.md``.
* the RTX file ``rtx_filename`` names (``ENGLISH.RTX``), relative to the folder:
  its index now, a line when first looked up (``soundscape.redguard.rtx_file``).
* ``SOUND/MAIN.SFX`` (``docs/formats/SFX.md``: "stored as MAIN.SFX in the SOUND
  directory"; a ``MAIN.SFX`` beside SYSTEM.INI is taken when there is no SOUND
  folder one): its effect headers now, an effect's PCM when it first plays.

The INI parsing is Python's ``configparser`` (``;`` and ``#`` comments, keys
without regard to case). How the engine's own parser treats a repeated key, a
value with trailing text or a missing ``=`` is not documented: here the last
repeat wins and a value that is not a whole number is a ``DataError`` naming the
file, the section and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from soundscape.datafile import data_path
from soundscape.errors import DataError
from soundscape.redguard.config import RgConfig
from soundscape.redguard.ini import read_ini
from soundscape.redguard.rtx_file import RtxFile
from soundscape.redguard.sfx_file import SfxFile
from soundscape.redguard.surface import SurfaceRemap
from soundscape.redguard.surface_value import SurfaceTypes

if TYPE_CHECKING:
    from soundscape.redguard.runtime import RedguardRuntime

SYSTEM_KEYS = {
    ("system", "sound_distance"): "sound_distance",
    ("system", "volume"): "master_volume",
    ("dialog", "dialog_max_distance"): "dialog_max_distance",
    ("dialog", "dialog_max_dialog_lines"): "dialog_max_dialog_lines",
    ("dialog", "dialog_use_speech"): "dialog_use_speech",
    ("dialog", "dialog_print_text"): "dialog_print_text",
    ("dialog", "dialog_max_menu_items"): "dialog_max_menu_items",
    ("dialog", "dialog_max_text_width"): "dialog_max_text_width",
    ("dialog", "menu_traverse_delay"): "menu_traverse_delay",
}
"""(section, key) of SYSTEM.INI -> the ``RgConfig`` field it sets."""
DEFAULT_RTX = "ENGLISH.RTX"


def find_file(folder: Path, *parts: str) -> Path | None:
    """``folder/parts...`` matched part by part without regard to case, or None."""
    at = folder
    for part in parts:
        exact = at / part
        if exact.exists():
            at = exact
            continue
        try:
            match = next((c for c in at.iterdir() if c.name.lower() == part.lower()), None)
        except OSError:
            return None
        if match is None:
            return None
        at = match
    return at


def _require(folder: Path, *parts: str) -> Path:
    found = find_file(folder, *parts)
    if found is None or not found.is_file():
        raise DataError(str(folder / Path(*parts)), None, None,
                        "missing: the game folder has no such file")
    return found


@dataclass(frozen=True, slots=True)
class SystemIni:
    """What SYSTEM.INI says: the config overrides and the RTX file's name."""

    source: str
    values: dict[str, int]
    rtx_filename: str


def read_system_ini(path: str | Path) -> SystemIni:
    """The sound and dialogue keys of SYSTEM.INI (``SYSTEM_KEYS``).

    Raises:
        DataError: unreadable, or a key's value is not a whole number (file,
            ``[section]``, key).
    """
    source = str(path)
    parser, sections = read_ini(path, inline_comments=True)
    values: dict[str, int] = {}
    for (section, key), field in SYSTEM_KEYS.items():
        name = sections.get(section)
        raw = parser.get(name, key, fallback=None) if name is not None else None
        if raw is None:
            continue
        try:
            values[field] = int(raw.strip())
        except ValueError:
            raise DataError(source, f"[{section}]", key,
                            f"{raw.strip()!r} is not a whole number") from None
    rtx = DEFAULT_RTX
    if "system" in sections:
        rtx = (parser.get(sections["system"], "rtx_filename", fallback=None) or DEFAULT_RTX).strip()
    return SystemIni(source, values, rtx or DEFAULT_RTX)


def config_from(system: SystemIni, base: RgConfig) -> RgConfig:
    """``base`` with SYSTEM.INI's values; a bad one is a ``DataError`` naming SYSTEM.INI."""
    try:
        return replace(base, **system.values)
    except DataError as error:
        where = next((f"[{s}]" for (s, _k), f in SYSTEM_KEYS.items() if f == error.field), None)
        key = next((k for (_s, k), f in SYSTEM_KEYS.items() if f == error.field), error.field)
        raise DataError(system.source, where, key, error.problem) from None


@dataclass(slots=True)
class RgGameFolder:
    """The open game folder and what was read from it.

    Attributes:
        folder: the folder given.
        config: the runtime's config after SYSTEM.INI.
        system_ini / surface_ini: the two INI files read.
        sfx: MAIN.SFX (effect headers; PCM read as effects play).
        rtx: the RTX file (its index; lines read as they are looked up).
    """

    folder: Path
    config: RgConfig
    system_ini: Path
    surface_ini: Path
    sfx: SfxFile
    rtx: RtxFile

    def close(self) -> None:
        """Close MAIN.SFX and the RTX file (effects and lines not yet read stay silent)."""
        self.sfx.close()
        self.rtx.close()


def open_game_folder(runtime: RedguardRuntime, folder: str | Path) -> RgGameFolder:
    """Read the INI files, open MAIN.SFX and the RTX file, and hand them to ``runtime``.

    Raises:
        DataError: a missing or malformed file (names the file, the offset or
            section, and the field).
    """
    root = Path(folder)
    if not root.is_dir():
        raise DataError(str(root), None, None, "not a folder")
    system_path = _require(root, "SYSTEM.INI")
    system = read_system_ini(system_path)
    config = config_from(system, runtime.config)
    surface_path = _require(root, "SURFACE.INI")
    remap, types = SurfaceRemap(), SurfaceTypes()
    remap.load_ini(surface_path)
    types.load_ini(surface_path)
    sfx_path = find_file(root, "SOUND", "MAIN.SFX") or _require(root, "MAIN.SFX")
    # a name written in SYSTEM.INI: it must stay inside the game folder (datafile.data_path)
    rtx_name = system.rtx_filename.replace("\\", "/")
    data_path(root, rtx_name, system.source, "[system]", "rtx_filename")
    rtx_path = _require(root, *Path(rtx_name).parts)
    data_path(root, str(rtx_path.relative_to(root)), system.source, "[system]", "rtx_filename")
    sfx = SfxFile(sfx_path)
    try:
        rtx = RtxFile(rtx_path)
    except BaseException:
        sfx.close()
        raise
    config = replace(config, effect_count=sfx.count)
    runtime.apply_config(config)
    runtime.surface, runtime.surface_types = remap, types
    runtime.effects.attach(sfx)
    runtime.rtx_store.attach(rtx)
    return RgGameFolder(root, config, system_path, surface_path, sfx, rtx)


__all__ = ["RgGameFolder", "SystemIni", "find_file", "open_game_folder", "read_system_ini"]
