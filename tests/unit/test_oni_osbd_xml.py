"""OSBD records in OniSplit's XML export: each of the three kinds field by field (the
same record as the binary chunk), a writer round trip, and refusals naming the path."""

from __future__ import annotations

import pytest
from test_oni_osbd import sample_ambient, sample_group, sample_impulse

from soundscape.errors import DataError
from soundscape.oni.data import DEFAULT_LAST, OniDatabase
from soundscape.oni.osbd import parse_chunk, write_chunk
from soundscape.oni.osbd_xml import load_osbd_xml, parse_osbd_xml

PRIORITY = ["Low", "Normal", "High", "Highest"]


def _f(x: float) -> str:
    return repr(float(x))


def ambient_xml(a) -> str:
    flags = " ".join(n for bit, n in ((1, "InterruptTracksOnStop"), (2, "PlayOnce"),
                                      (4, "CanPan")) if a.flags & bit)
    return f"""<?xml version="1.0" encoding="utf-8"?>
<Oni>
    <AmbientSound>
        <Priority>{PRIORITY[a.priority]}</Priority>
        <Flags>{flags}</Flags>
        <DetailTrackProperties>
            <SphereRadius>{_f(a.detail_range)}</SphereRadius>
            <ElapsedTime><Min>{_f(a.detail_interval_min_s)}</Min>
                <Max>{_f(a.detail_interval_max_s)}</Max></ElapsedTime>
        </DetailTrackProperties>
        <Volume><Distance><Min>{_f(a.near)}</Min><Max>{_f(a.far)}</Max></Distance></Volume>
        <DetailTrack>{a.detail_name}</DetailTrack>
        <BaseTrack1>{a.base1_name}</BaseTrack1>
        <BaseTrack2>{a.base2_name}</BaseTrack2>
        <InSound>{a.in_name}</InSound>
        <OutSound>{a.out_name}</OutSound>
        <Treshold>{a.threshold}</Treshold>
        <MinOcclusion>{_f(a.min_occlusion)}</MinOcclusion>
    </AmbientSound>
</Oni>
"""


def group_xml(g) -> str:
    perms = "".join(f"""
            <Permutation>
                <Weight>{p.weight}</Weight>
                <Volume><Min>{_f(p.min_volume)}</Min><Max>{_f(p.max_volume)}</Max></Volume>
                <Pitch><Min>{_f(p.min_pitch)}</Min><Max>{_f(p.max_pitch)}</Max></Pitch>
                <Sound>{p.sound}</Sound>
            </Permutation>""" for p in g.permutations)
    return f"""<Oni><SoundGroup>
        <Volume>{_f(g.volume)}</Volume>
        <Pitch>{_f(g.pitch)}</Pitch>
        <Flags>{"PreventRepeat" if g.flags & 1 else ""}</Flags>
        <NumberOfChannels>{g.channels}</NumberOfChannels>
        <Permutations>{perms}
        </Permutations>
    </SoundGroup></Oni>"""


def impulse_xml(i) -> str:
    return f"""<Oni><ImpulseSound>
        <Group>{i.group_name}</Group>
        <Priority>{PRIORITY[i.priority]}</Priority>
        <Volume>
            <Distance><Min>{_f(i.near)}</Min><Max>{_f(i.far)}</Max></Distance>
            <Angle><Min>{_f(i.max_volume_angle)}</Min><Max>{_f(i.min_volume_angle)}</Max>
                <MinAttenuation>{_f(i.min_angle_attenuation)}</MinAttenuation></Angle>
        </Volume>
        <AlternateImpulse><Treshold>{i.alternate_threshold}</Treshold>
            <Impulse>{i.alternate_name}</Impulse></AlternateImpulse>
        <ImpactVelocity>{_f(i.impact_velocity)}</ImpactVelocity>
        <MinOcclusion>{_f(i.min_occlusion)}</MinOcclusion>
    </ImpulseSound></Oni>"""


def _binary(record):
    return parse_chunk(write_chunk(record, 6), name=record.name)


def test_each_kind_reads_as_its_version_6_chunk():
    amb, grp, imp = sample_ambient(), sample_group(), sample_impulse()
    assert parse_osbd_xml(ambient_xml(amb), name="OSBDmus_chase.amb") == _binary(amb)
    got = parse_osbd_xml(group_xml(grp), name="OSBDgrp.grp")
    expected = _binary(grp)
    expected.last = DEFAULT_LAST  # OniSplit keeps the second flags word as padding: 0
    assert got == expected and got.dont_repeat and got.channels == 2
    assert parse_osbd_xml(impulse_xml(imp), name="OSBDgun.imp") == _binary(imp)


def test_files_load_into_the_database_by_file_name_and_resolve(tmp_path):
    grp, imp = sample_group(), sample_impulse()
    grp.name, imp.group_name = "gun_grp", "gun_grp"
    paths = [tmp_path / "OSBDgun_grp.grp.xml", tmp_path / "OSBDgun.imp.xml"]
    paths[0].write_text(group_xml(grp), encoding="utf-8")
    paths[1].write_text(impulse_xml(imp), encoding="utf-8")
    db = load_osbd_xml(paths, database=OniDatabase())
    assert db.counts() == {"groups": 1, "ambients": 0, "impulses": 1}
    assert db.impulses["gun"].group is db.groups["gun_grp"]


@pytest.mark.parametrize(("text", "message"), [
    ("<Oni><SoundGroup>", r"x\.xml: malformed XML"),
    ("<Sound/>", r"x\.xml: Sound: the root element must be <Oni>"),
    ("<Oni><SoundGroup/><SoundGroup/></Oni>", r"Oni: must hold exactly one"),
    (group_xml(sample_group()).replace("<Pitch>1.25</Pitch>", ""),
     r"SoundGroup\.Pitch: is missing"),
    (group_xml(sample_group()).replace("<Flags>PreventRepeat</Flags>", "<Flags>Loud</Flags>"),
     r"SoundGroup\.Flags: 'Loud' is not one of \['PreventRepeat'\]"),
    (group_xml(sample_group()).replace("<NumberOfChannels>2<", "<NumberOfChannels>3<"),
     r"SoundGroup\.NumberOfChannels: 3 is outside 1\.\.2"),
    (group_xml(sample_group()).replace("<Weight>3</Weight>", "<Weight>x</Weight>"),
     r"SoundGroup\.Permutations\[0\]\.Weight: 'x' is not a whole number"),
    (ambient_xml(sample_ambient()).replace("<Priority>High<", "<Priority>Top<"),
     r"AmbientSound\.Priority: 'Top' is not one of"),
    (ambient_xml(sample_ambient()).replace("<SphereRadius>4.5<", "<SphereRadius>NaN<"),
     r"AmbientSound\.DetailTrackProperties\.SphereRadius: 'NaN' is not a finite number"),
    (ambient_xml(sample_ambient()).replace("</OutSound>", "</OutSound><Extra/>"),
     r"AmbientSound\.Extra: is not a field OniSplit writes here"),
    (impulse_xml(sample_impulse()).replace("<Group>gun_grp<", "<Group>" + "g" * 40 + "<"),
     r"ImpulseSound\.Group: 'g+' is longer than the 31 characters"),
])
def test_bad_xml_is_refused_naming_the_element(text, message):
    with pytest.raises(DataError, match=message):
        parse_osbd_xml(text, name="OSBDx.grp", source="x.xml")
