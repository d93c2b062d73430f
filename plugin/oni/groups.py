"""Playing a group: the permutation draw and the permutation's volume and pitch.

``SSiGroup_SelectPermutation`` 0x480040 draws with the second generator
(``UUrLocalRandom`` 0x426e30): ``r = (draw x total weight) >> 16`` and the first
permutation whose running sum reaches ``r``. A don't-repeat group draws again if
it got the last one; the flag that ends the retries is never set back, so once a
repeat happens all ten draws are made and the tenth is kept, repeat or not.

A group of one permutation returns it without a draw (and without the repeat
test), as ``SSiGroup_SelectPermutation`` in Bungie's ``BFW_SoundSystem2.c`` does;
the comparison there, ``random_num <= cumulative_weight``, is the literal
"running sum reaches r" (docs/divergences.md).

``SSrPermutation_Play`` 0x47f8d0 then draws the volume, then the pitch, with
``UUrRandom`` 0x426e10 between the permutation's minimum and maximum; the
channel keeps the permutation volume held to 0..2
(``SSiSoundChannel_SetPermutationVolume``). It runs only once a channel is found
(and, for a spatialised play, heard): seed l.96 and ``SSiGroup_PlaySpatialized``.
"""

from __future__ import annotations

from dataclasses import dataclass

from soundscape.components.channel import ChannelKind
from soundscape.oni.data import Group
from soundscape.rng import OniRandom

MAX_DRAWS = 10
"""A don't-repeat group makes at most ten draws."""
MAX_PERMUTATION_VOLUME = 2.0
"""The channel holds the permutation volume to 0..2."""


def pick(group: Group, r: int) -> int:
    """The first permutation whose running weight sum reaches ``r``.

    >>> from soundscape.oni.data import Permutation
    >>> g = Group("g", [Permutation("a", 1), Permutation("b", 3)])
    >>> [pick(g, r) for r in (0, 1, 2, 4)]
    [0, 0, 1, 1]
    """
    running = 0
    perms = group.permutations
    for index, perm in enumerate(perms):
        running += perm.weight
        if running >= r:
            return index
    return len(perms) - 1


def select_permutation(group: Group, local: OniRandom) -> int | None:
    """``SSiGroup_SelectPermutation`` 0x480040: the index drawn, None for an empty group.

    Stores the pick in ``group.last``. One permutation: index 0, no draw, ``last``
    left as it was.
    """
    if not group.permutations:
        return None
    if len(group.permutations) == 1:
        return 0
    total = group.total_weight
    repeated = False  # retail's loop-ending flag: set on a repeat, never cleared
    index = 0
    for _ in range(MAX_DRAWS):
        index = pick(group, (local.draw() * total) >> 16)
        if group.dont_repeat and index == group.last:
            repeated = True
        if not repeated:
            break
    group.last = index
    return index


@dataclass(slots=True)
class Draw:
    """One play of a group: the permutation, its sound and its drawn volume and pitch.

    ``volume`` is the permutation's random volume times the group's volume;
    ``pitch`` the permutation's random pitch times the group's pitch.
    """

    group: Group
    index: int
    sound: str
    volume: float
    pitch: float

    @property
    def kind(self) -> ChannelKind:
        return ChannelKind.STEREO if self.group.channels == 2 else ChannelKind.MONO


def play_permutation(group: Group, index: int, rand: OniRandom) -> Draw:
    """``SSrPermutation_Play`` 0x47f8d0 on a channel already found: the volume, then the
    pitch, from ``UUrRandom`` (``rand``)."""
    perm = group.permutations[index]
    volume = min(max(rand.uniform(perm.min_volume, perm.max_volume), 0.0), MAX_PERMUTATION_VOLUME)
    pitch = rand.uniform(perm.min_pitch, perm.max_pitch)
    return Draw(group, index, perm.sound, volume * group.volume, pitch * group.pitch)


def draw_group(group: Group, local: OniRandom, rand: OniRandom) -> Draw | None:
    """``SSrGroup_Play`` 0x47ff50 on a given channel (an ambient's track): the
    permutation, then its volume, then its pitch.

    Impulses and details (``SSiGroup_PlaySpatialized``) find their channel and
    spatialise between the two halves: ``select_permutation``, the channel,
    ``SSiSoundChannel_Spatialize``, then ``play_permutation`` (``oni.impulses``,
    ``OniSound.play_detail``).
    """
    index = select_permutation(group, local)
    if index is None:
        return None
    return play_permutation(group, index, rand)


def group_kind(group: Group | None) -> ChannelKind:
    """The channel kind a group plays on (1 mono, 2 stereo)."""
    return ChannelKind.STEREO if group is not None and group.channels == 2 else ChannelKind.MONO
