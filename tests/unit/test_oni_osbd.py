"""OSBD chunks (``OSiBinaryData_ProcHandler`` 0x5147b0 and the class loaders) and the TOML."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soundscape.errors import DataError
from soundscape.oni.data import (
    DEFAULT_LAST,
    Ambient,
    AmbientFlags,
    Group,
    GroupFlags,
    Impulse,
    OniDatabase,
    Permutation,
)
from soundscape.oni.osbd import (
    AMBIENT_END,
    IMPULSE_END,
    instance_object_name,
    load_instance,
    load_osbd,
    parse_chunk,
    write_chunk,
    write_osbd,
)
from soundscape.oni.toml import loads_toml


def sample_group(version=6):
    perms = [Permutation("ac5lp1.aif", 3, 0.5, 0.75, 0.875, 1.125),
             Permutation("ac5lp2.aif", 1, 1.0, 1.0, 1.0, 1.0)]
    return Group("grp", perms, volume=0.75, pitch=1.25, flags=GroupFlags.DONT_REPEAT, last=1,
                 channels=2, version=version)


def sample_ambient(version=6):
    return Ambient("mus_chase", priority=2, flags=AmbientFlags.PLAY_ONCE | AmbientFlags.CAN_PAN,
                   detail_range=4.5, detail_interval_min_s=1.5, detail_interval_max_s=3.0,
                   near=10.0, far=40.0, detail_name="det", base1_name="mus_chase",
                   base2_name="b2", in_name="mus_chase_in", out_name="mus_chase_out",
                   threshold=5, min_occlusion=0.25, version=version)


def sample_impulse(version=6):
    return Impulse("gun", group_name="gun_grp", priority=2, near=5.0, far=30.0,
                   max_volume_angle=1.0, min_volume_angle=2.0, min_angle_attenuation=0.5,
                   alternate_threshold=4, alternate_name="gun_far", impact_velocity=3.5,
                   min_occlusion=0.125, version=version)


def test_chunk_header_is_reversed_tag_size_and_version():
    chunk = write_chunk(sample_group())
    assert chunk[:4] == b"rGSO"
    size, version = struct.unpack_from("<II", chunk, 4)
    assert size == len(chunk) - 8 and version == 6
    assert write_chunk(sample_ambient())[:4] == b"mASO"
    assert write_chunk(sample_impulse())[:4] == b"mISO"


def test_group_v6_round_trip():
    g = parse_chunk(write_chunk(sample_group(6)), name="grp")
    assert g == sample_group(6)


@pytest.mark.parametrize("version", [1, 2, 3, 4, 5])
def test_older_groups_get_defaults_and_the_flag_above_three_permutations(version):
    src = sample_group(version)
    g = parse_chunk(write_chunk(src), name="grp")
    assert isinstance(g, Group) and g.version == version
    assert g.volume == (0.75 if version >= 2 else 1.0)
    assert g.pitch == (1.25 if version >= 3 else 1.0)
    assert g.flags == GroupFlags.NONE and g.last == DEFAULT_LAST  # two permutations
    assert g.permutations == src.permutations and g.channels == 2
    src.permutations = src.permutations * 2  # four: more than three
    g4 = parse_chunk(write_chunk(src), name="grp")
    assert g4.dont_repeat


def test_group_v4_layout_offsets():
    chunk = write_chunk(sample_group(4))
    volume, pitch, channels, count = struct.unpack_from("<ffII", chunk, 0x0C)
    assert (volume, pitch, channels, count) == (0.75, 1.25, 2, 2)
    assert len(chunk) == 0x1C + 2 * 0x34
    assert chunk[0x1C + 0x14:0x1C + 0x14 + 10] == b"ac5lp1.aif"


@pytest.mark.parametrize("version", [4, 5, 6])
def test_ambient_round_trip_per_version(version):
    chunk = write_chunk(sample_ambient(version))
    assert len(chunk) == AMBIENT_END[version]
    a = parse_chunk(chunk, name="mus_chase")
    expected = sample_ambient(version)
    if version < 5:
        expected.threshold = 3
    if version < 6:
        expected.min_occlusion = 0.0
    assert a == expected


def test_ambient_offsets_match_the_seed():
    chunk = write_chunk(sample_ambient(6))
    assert struct.unpack_from("<iI", chunk, 0x0C) == (2, 6)
    assert struct.unpack_from("<5f", chunk, 0x14) == (4.5, 1.5, 3.0, 10.0, 40.0)
    assert chunk[0x48:0x51] == b"mus_chase"
    assert chunk[0x88:0x94] == b"mus_chase_in"
    assert struct.unpack_from("<I", chunk, 0xC8) == (5,)


@pytest.mark.parametrize("version", [3, 4, 5, 6])
def test_impulse_round_trip_per_version(version):
    chunk = write_chunk(sample_impulse(version))
    assert len(chunk) == IMPULSE_END[version]
    i = parse_chunk(chunk, name="gun")
    expected = sample_impulse(version)
    if version < 4:
        expected.alternate_threshold, expected.alternate_name = 0, ""
    if version < 5:
        expected.impact_velocity = 0.0
    if version < 6:
        expected.min_occlusion = 0.0
    assert i == expected
    assert struct.unpack_from("<i", chunk, 0x2C) == (2,)


def test_names_are_cut_at_31_characters_and_spaces_become_underscores():
    assert instance_object_name("OSBDmy ambient name.amb") == "my_ambient_name"
    assert instance_object_name("OSBD" + "x" * 40 + ".grp") == "x" * 31
    g = sample_group()
    g.permutations[0].sound = "s" * 40
    back = parse_chunk(write_chunk(g), name="a b")
    assert back.name == "a_b" and back.permutations[0].sound == "s" * 31


def test_instances_point_into_the_raw_and_names_resolve():
    records = [sample_group(), Group("mus_chase_in", [Permutation("in.aif")]), sample_ambient(),
               sample_impulse(), Impulse("gun_far", group_name="grp")]
    records[2].base1_name = "grp"
    records[3].group_name = "grp"
    instances, raw = write_osbd(records)
    db = load_osbd(instances, raw)
    assert db.counts() == {"groups": 2, "ambients": 1, "impulses": 2}
    amb = db.ambients["mus_chase"]
    assert amb.base1 is db.groups["grp"] and amb.in_group is db.groups["mus_chase_in"]
    assert amb.base2 is None and amb.detail is None  # missing names are no group
    assert db.impulses["gun"].alternate is db.impulses["gun_far"]


def test_resolution_is_case_sensitive():
    db = loads_toml('[groups.Base]\npermutations=[{sound="x"}]\n[ambients.a]\nbase1 = "base"\n')
    assert db.ambients["a"].base1 is None


def test_reloading_a_name_updates_the_object_in_place():
    db = OniDatabase()
    first = db.add(Group("g", [Permutation("a")]))
    again = db.add(Group("g", [Permutation("b")], volume=0.5))
    assert again is first and first.permutations[0].sound == "b" and first.volume == 0.5


def test_truncated_chunk_is_refused_naming_instance_and_offset():
    instances, raw = write_osbd([sample_ambient()])
    name, data = instances[0]
    size, offset = struct.unpack("<II", data)
    with pytest.raises(DataError, match=r"OSBDmus_chase\.amb.*0x"):
        load_instance(name, data, raw[:-8])
    short = struct.pack("<II", size - 0x10, offset)
    with pytest.raises(DataError, match=r"OSBDmus_chase\.amb.*size.*0x"):
        load_instance(name, short, raw)


def test_oversized_permutation_count_is_refused():
    chunk = bytearray(write_chunk(sample_group(6)))
    struct.pack_into("<I", chunk, 0x1C, 1000)  # the count field of a version 6 group
    with pytest.raises(DataError, match=r"grp\.permutation_count: 1000 permutations.*offset 0x20"):
        parse_chunk(bytes(chunk), name="grp")


def test_size_field_running_past_the_bytes_is_refused():
    chunk = bytearray(write_chunk(sample_impulse(6)))
    struct.pack_into("<I", chunk, 4, 0x1000)
    with pytest.raises(DataError, match=r"gun\.size"):
        parse_chunk(bytes(chunk), name="gun")


def test_wrong_tag_and_unknown_version_are_refused():
    chunk = bytearray(write_chunk(sample_group()))
    chunk[:4] = b"OSGr"  # not reversed
    with pytest.raises(DataError, match=r"grp\.class: unknown class tag b'OSGr' at offset 0x0"):
        parse_chunk(bytes(chunk), name="grp")
    chunk = bytearray(write_chunk(sample_ambient(6)))
    struct.pack_into("<I", chunk, 8, 3)
    with pytest.raises(DataError, match="version 3"):
        parse_chunk(bytes(chunk), name="amb")


def test_header_shorter_than_twelve_bytes_is_refused():
    with pytest.raises(DataError, match="header"):
        parse_chunk(b"rGSO\x00", name="g")


def test_bad_channel_count_and_nan_are_refused():
    chunk = bytearray(write_chunk(sample_group(6)))
    struct.pack_into("<I", chunk, 0x18, 3)
    with pytest.raises(DataError, match="channels"):
        parse_chunk(bytes(chunk), name="grp")
    chunk = bytearray(write_chunk(sample_ambient(6)))
    struct.pack_into("<f", chunk, 0x20, float("nan"))
    with pytest.raises(DataError, match=r"near: is not a finite number at offset 0x20"):
        parse_chunk(bytes(chunk), name="amb")


def test_toml_round_trips_through_osbd():
    text = """
[groups.g]
channels = "stereo"
volume = 0.5
dont_repeat = true
permutations = [{ sound = "a", weight = 2, volume = [0.5, 1.0], pitch = [0.75, 1.25] }]
[ambients.amb]
priority = 3
interrupt_on_stop = true
play_once = true
base1 = "g"
distance = [1.0, 9.0]
detail_interval_s = [2.0, 4.0]
[impulses.imp]
group = "g"
distance = [2.0, 20.0]
alternate_threshold = 2
alternate = "imp"
"""
    db = loads_toml(text)
    instances, raw = write_osbd([*db.groups.values(), *db.ambients.values(),
                                 *db.impulses.values()])
    back = load_osbd(instances, raw)
    assert back.groups["g"].permutations == db.groups["g"].permutations
    assert back.ambients["amb"].flags == AmbientFlags.INTERRUPT_ON_STOP | AmbientFlags.PLAY_ONCE
    assert back.ambients["amb"].base1 is back.groups["g"]
    assert back.impulses["imp"].alternate is back.impulses["imp"]
    assert (back.impulses["imp"].near, back.impulses["imp"].far) == (2.0, 20.0)


@pytest.mark.parametrize(("text", "where"), [
    ('[groups.g]\nchannels = 3\n', "groups.g.channels"),
    ('[groups.g]\npermutations = [{ weight = 1 }]\n', r"groups.g.permutations\[0\].sound"),
    ('[groups.g]\npermutations = [{ sound = "a", weight = -1 }]\n', "weight"),
    ('[ambients.a]\ndistance = [1.0]\n', "ambients.a.distance"),
    ('[ambients.a]\nplay_once = 1\n', "ambients.a.play_once"),
    ('[impulses.i]\nmin_occlusion = nan\n', "impulses.i.min_occlusion"),
    ('[groups.g]\nvolum = 0.5\n', "groups.g.volum: is not a field"),
    ('[groups.g]\npermutations = [{ sound = "a", wieght = 2 }]\n', r"\[0\].wieght"),
    ('[ambients.a]\nbase = "g"\n', "ambients.a.base: is not a field"),
    ('[impulses.i]\nalt = "j"\n', "impulses.i.alt: is not a field"),
    ('[sounds]\n', "unknown sections"),
    ('[groups\n', "malformed TOML"),
])
def test_toml_errors_name_the_record_and_field(text, where):
    with pytest.raises(DataError, match=where):
        loads_toml(text, source="bad.toml")


_f32 = st.floats(-1e6, 1e6, allow_nan=False, width=32)
_name = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=31)


@settings(max_examples=60, deadline=None)
@given(version=st.sampled_from([4, 6]), channels=st.sampled_from([1, 2]), volume=_f32,
       pitch=_f32, last=st.integers(0, 0xFFFF),
       perms=st.lists(st.tuples(st.integers(0, 2**32 - 1), _f32, _f32, _f32, _f32, _name),
                      max_size=3))
def test_any_group_round_trips(version, channels, volume, pitch, last, perms):
    g = Group("g", [Permutation(n, w, a, b, c, d) for w, a, b, c, d, n in perms], volume, pitch,
              1 if version == 6 else 0, last if version == 6 else DEFAULT_LAST, channels,
              version)
    assert parse_chunk(write_chunk(g), name="g") == g


@settings(max_examples=60, deadline=None)
@given(version=st.sampled_from([3, 4, 5, 6]), priority=st.integers(-(2**31), 2**31 - 1),
       floats=st.lists(_f32, min_size=7, max_size=7), threshold=st.integers(0, 2**32 - 1),
       group=_name, alternate=_name)
def test_any_impulse_round_trips(version, priority, floats, threshold, group, alternate):
    i = Impulse("i", group, priority, *floats[:5], version=version)
    if version >= 4:
        i.alternate_threshold, i.alternate_name = threshold, alternate
    if version >= 5:
        i.impact_velocity = floats[5]
    if version >= 6:
        i.min_occlusion = floats[6]
    assert parse_chunk(write_chunk(i), name="i") == i


EVERY_CLASS_AND_VERSION = [
    *(sample_group(v) for v in (1, 2, 3, 4, 5, 6)),
    *(sample_ambient(v) for v in (4, 5, 6)),
    *(sample_impulse(v) for v in (3, 4, 5, 6)),
]


@pytest.mark.parametrize("record", EVERY_CLASS_AND_VERSION,
                         ids=lambda r: f"{type(r).__name__}{r.version}")
def test_every_class_and_version_cut_short_is_refused_by_name(record):
    chunk = write_chunk(record)
    assert parse_chunk(chunk, name=record.name).version == record.version
    for cut in range(len(chunk)):
        # the bytes end early, the size field as written
        with pytest.raises(DataError, match=rf"OSBD: {record.name}\."):
            parse_chunk(chunk[:cut], name=record.name)
        if cut < 12:
            continue
        # the size field agrees with the shorter bytes: the fields run past them
        short = bytearray(chunk[:cut])
        struct.pack_into("<I", short, 4, cut - 8)
        with pytest.raises(DataError, match=rf"OSBD: {record.name}\..*0x"):
            parse_chunk(bytes(short), name=record.name)
