"""Sound tables (portal 0x20xxxxxx) and waves (portal 0x0Axxxxxx) read on demand.

Sound table (``CSoundTable::UnPack`` 0x551CD0 and ``SoundTableData::UnPack``
0x552370, ``Mag-nus/acclient-AI-RE``
``2013-09 11.4186/acclient-src/src/PORTAL/sound/cstable.c``): the object id, then a
``SoundTableData`` node, recursively::

    uint32 hash_key (the sound type; 0 at the root), uint32 n,
    n x {uint32 wave id, float priority, float probability, float volume},
    uint32 children, children x node

``SoundTableData::Lookup`` 0x5520A0 finds a sound type among the root's children
only; ``IntrusiveHashTable::add`` 0x552210 keeps the first child of a key and
drops later ones. ``ACEmulator/ACE`` ``Source/ACE.DatLoader/FileTypes/SoundTable.cs``
reads the same bytes as a root list and a hash table (``SoundData.cs``,
``SoundTableData.cs``); ``Chorizite/DatReaderWriter`` ``DatReaderWriter/dats.xml``
(``SoundTable``, ``SoundData``, ``SoundEntry``) likewise. Neither reads grandchildren;
the client's recursion does, so they are read (and, as in retail, never looked up).

Wave (``DBWave::UnPack`` 0x551B90, ``PORTAL/sound/DBWave.c``; ACE
``FileTypes/Wave.cs``; DatReaderWriter ``Wave``): the object id, uint32 header
size, uint32 data size, a ``WAVEFORMATEX`` header, the sample data. PCM (8 or 16
bit, mono or stereo) is decoded; retail converts other formats through the
Windows ACM codecs, which soundscape does not have: such a wave is refused
(``DataError`` on ``wFormatTag``) and logged, and the entry stays silent.

``DatSoundTables`` is the ``Region.sound_tables`` of a dat-loaded region: the
first ``get`` of a table id reads the table and, as retail's
``SoundTableData::UnPack`` creates every wave it names (``SoundManager::CreateSound``),
decodes its waves into the sound bank. Tables and waves stay cached after that.
"""

from __future__ import annotations

import math
import struct
from typing import TYPE_CHECKING, Any

from soundscape.ac.dat_file import DatFile
from soundscape.ac.dat_object import DatCursor, DatObject
from soundscape.ac.region import SoundTable, SoundTableEntry
from soundscape.audio.wav import DecodedWav, decode_wav
from soundscape.errors import DataError, InputError

if TYPE_CHECKING:
    from soundscape.audio.sounds import SoundBank
    from soundscape.events import EventLog

RECORD = struct.Struct("<Ifff")
WAVE_FORMAT_PCM = 1
MAX_NESTING = 32
"""Retail's recursion has no bound; a deeper table is refused before Python's stack is."""


def wave_name(wave_id: int) -> str:
    """The sound-bank name of a dat wave.

    >>> wave_name(0x0A000123)
    '0x0A000123'
    """
    return f"0x{wave_id:08X}"


def _records(c: DatCursor, rec: str) -> list[SoundTableEntry]:
    out = []
    for i in range(c.count(f"{rec}.records", RECORD.size)):
        at = c.pos
        wave, priority, probability, volume = RECORD.unpack(c.take(RECORD.size, rec))
        for name, value in (("priority", priority), ("probability", probability),
                            ("volume", volume)):
            if not math.isfinite(value):
                raise c.fail(f"{rec}.records[{i}].{name}", f"must be finite, got {value!r}", at)
        # SoundData::priority_ is a float that the ambient path never reads (seed 000
        # section 5); the runtime's voice priority is an integer: truncated.
        out.append(SoundTableEntry(wave_name(wave), int(priority), probability, volume))
    return out


def parse_sound_table(obj: DatObject) -> SoundTable:
    """The sound table in ``obj``: per sound type, the entries of the root's child node.

    Raises:
        DataError: naming the dat file, the offset and the field.
    """
    c = DatCursor(obj)
    c.object_id()
    table = SoundTable(obj.file_id)
    c.u32("hash_key")
    _records(c, "root")
    # (children left, depth) per open node: the recursion unrolled.
    stack = [(c.count("root.children", 12), 0)]
    while stack:
        left, depth = stack.pop()
        if left == 0:
            continue
        stack.append((left - 1, depth))
        if depth + 1 > MAX_NESTING:
            raise c.fail("children", f"nested deeper than {MAX_NESTING} levels")
        rec = f"node[depth {depth + 1}]"
        key = c.u32(f"{rec}.hash_key")
        entries = _records(c, rec)
        if depth == 0 and key not in table.entries:  # first of a key wins (::add)
            table.entries[key] = entries
        stack.append((c.count(f"{rec}.children", 12), depth + 1))
    return table


def parse_wave(obj: DatObject) -> DecodedWav:
    """The decoded samples of a wave object (PCM only, see the module docstring).

    Raises:
        DataError: truncated, or a header ``soundscape.audio.wav`` refuses.
    """
    c = DatCursor(obj)
    c.object_id()
    header_size = c.u32("header_size")
    data_size = c.u32("data_size")
    header_at = c.pos
    header = c.take(header_size, "header")
    data = c.take(data_size, "data")
    tag = struct.unpack_from("<H", header)[0] if header_size >= 2 else None
    if tag != WAVE_FORMAT_PCM:
        raise c.fail("header.wFormatTag", f"format {tag!r} is not PCM (1): retail decodes it "
                     "through a Windows ACM codec, which soundscape does not have", header_at)
    pad = b"\0" * (header_size & 1)
    riff = (b"WAVE" + b"fmt " + struct.pack("<I", header_size) + header + pad
            + b"data" + struct.pack("<I", data_size) + data)
    try:
        return decode_wav(b"RIFF" + struct.pack("<I", len(riff)) + riff, obj.source)
    except DataError as error:
        where = ".".join(part for part in (error.record, error.field) if part)
        raise c.fail(f"header.{where}", error.problem, header_at) from None


class DatSoundTables(dict[int, SoundTable]):
    """``DBObj::Get(stb_id, 0x22)`` on the portal dat, one table at a time (see above).

    ``get`` is what ``Region.init_sound_table`` calls. A table the dat lacks, or a
    corrupt one (logged as an ``ac`` ``error`` event), gives None, which the
    runtime caches as ``stb_not_found``.
    """

    def __init__(self, portal: DatFile, sounds: SoundBank | None = None,
                 events: EventLog | None = None) -> None:
        super().__init__()
        self.portal, self.sounds, self.events = portal, sounds, events
        self.failed: set[int] = set()

    def get(self, key: int, default: Any = None) -> Any:
        if key in self:
            return self[key]
        if key in self.failed:
            return default
        try:
            obj = self.portal.read(key)
            table = None if obj is None else parse_sound_table(obj)
        except DataError as error:
            self._log(f"sound table 0x{key:08X} skipped: {error}")
            table = None
        if table is None:
            self.failed.add(key)
            return default
        self[key] = table
        self._load_waves(table)
        return table

    def _load_waves(self, table: SoundTable) -> None:
        if self.sounds is None:
            return
        for entries in table.entries.values():
            for entry in entries:
                if entry.sound in self.sounds:
                    continue
                wave_id = int(entry.sound, 16)
                try:
                    obj = self.portal.read(wave_id) if wave_id else None
                    if obj is None:
                        continue  # the bank reports it missing when it is played
                    wav = parse_wave(obj)
                    self.sounds.add(entry.sound, wav.samples, wav.sample_rate_hz,
                                    pcm=wav.pcm if wav.bits in (8, 16) else None)
                except (DataError, InputError) as error:
                    self._log(f"wave {entry.sound} skipped: {error}")

    def _log(self, message: str) -> None:
        if self.events is not None:
            self.events.emit("ac", "error", error=message)


__all__ = ["DatSoundTables", "parse_sound_table", "parse_wave", "wave_name"]
