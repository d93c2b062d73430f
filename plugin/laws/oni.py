"""Oni's sound arithmetic as pure functions (seed 001 and FORMULAS.md, "Oni").

Two groups live here: the channel volume, pan and pitch laws (``to_centibels``,
``distance_volume``, ``far_side_gain``...) and the occlusion and flyby geometry
of ``OSiCalc_PositionAndVolume`` and the flyby step (``occlusion_volume``,
``in_hearing``, ``flyby_point``).
"""

from __future__ import annotations
