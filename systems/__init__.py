"""soundscape's processors: one ``esper.Processor`` (a ``SoundSystem``) per module."""
