"""Feature ``audio``: the sound bank, the channel banks, the mixer and its backend.

``install`` creates ``ctx.sounds`` (a ``SoundBank`` rooted at
``Settings.sound_root``), the bus tree ``ctx.buses``, the virtual banks ``"ac"``
(profile ``ac``, 16 real voices, bus ``ambience``) and ``"modern"`` (profile
``modern``, the generic ``Emitter``'s, bus ``sfx``), the
``Mixer`` on ``ctx.mixer`` (reading the sound bank's sample store: one copy of
each sound) with its backend (``Settings.backend``: ``auto`` and
``pyglet`` play through pyglet's driver, pausing while another esper world is
current; ``offline`` renders each stepped tick; ``none`` keeps no audio), and
returns the emitter, CHANNELS and PUBLISH systems.
"""

from __future__ import annotations

from collections.abc import Callable

import esper

from soundscape.audio.backend_offline import OfflineBackend
from soundscape.audio.buses import Buses
from soundscape.audio.channels import ensure_bank, sounds_in_use, stop_voices_of
from soundscape.audio.emitters import EmitterService
from soundscape.audio.limiter import Limiter
from soundscape.audio.mixer import Mixer
from soundscape.audio.sounds import SoundBank
from soundscape.audio.streams import Streams
from soundscape.context import Context
from soundscape.system import SoundSystem
from soundscape.systems.channels import ChannelSystem
from soundscape.systems.emitters import EmitterSystem
from soundscape.systems.publish import PublishSystem

AC_REAL_VOICES = 16
"""AC ambients mix the loudest 16 (a DirectSound hardware-voice budget)."""
MODERN_REAL_VOICES = 32


def world_is_current(ctx: Context) -> Callable[[], bool] | None:
    """The audio thread's test for ``Settings.when_world_inactive = "pause"``.

    esper has no world-switch callback, and a world that is not current runs none
    of its processors; its audio must not freeze on the last mix. The audio thread
    reads ``esper.current_world`` (a module global; one read under the GIL) before
    each block. None (never pause) for ``"play"``.
    """
    if ctx.settings.when_world_inactive == "play":
        return None
    world = ctx.world
    return lambda: esper.current_world == world


def install(ctx: Context) -> list[SoundSystem]:
    """Create the sound bank, the ``ac`` and ``modern`` banks, the mixer and backend."""
    settings = ctx.settings
    sounds = ctx.sounds = SoundBank(settings.sound_root, events=ctx.events,
                                    max_file_bytes=settings.max_file_bytes,
                                    stream_threshold_s=settings.stream_threshold_s)
    sounds.on_remove.append(lambda sound: stop_voices_of(ctx, sound.name))
    sounds.in_use = lambda: sounds_in_use(ctx)
    ctx.buses = Buses()
    ensure_bank(ctx, "ac", count=0, policy="virtual", profile="ac", real_voices=AC_REAL_VOICES,
                bus="ambience")
    ensure_bank(ctx, "modern", count=0, policy="virtual", profile="modern",
                real_voices=MODERN_REAL_VOICES, bus="sfx")
    if settings.backend != "none":
        limiter = Limiter(settings.sample_rate_hz) if settings.limiter else None
        mixer = Mixer(settings.sample_rate_hz, settings.block_frames, limiter=limiter)
        mixer.store = sounds.store  # one copy of each sound: the mixer reads the bank's store
        mixer.streams = Streams(sounds.store, mixer.block_frames, settings.stream_ring_s)
        sounds.store.attach_reader(lambda: mixer.frames_rendered, mixer.block_frames)
        ctx.mixer = mixer
        if settings.backend == "offline":
            # streamed voices decode in step (Streams.sync): exact renders
            offline = OfflineBackend(mixer, settings.tick_hz)
            if settings.offline_wav_path is not None:
                offline.stream_wav(settings.offline_wav_path)
        else:
            mixer.streams.start_feeder()  # streamed voices decode off the game thread
            from soundscape.audio.backend_pyglet import PygletBackend

            PygletBackend(mixer, events=ctx.events, active=world_is_current(ctx),
                          fallback=settings.backend == "auto")
    emitters = EmitterService(ctx)
    return [EmitterSystem(ctx, emitters), ChannelSystem(ctx), PublishSystem(ctx)]
