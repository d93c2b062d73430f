"""Feature ``rooms``: reverb zones and headphone output (issue 19).

``ReverbZone`` components mark areas of the floor plan that reverberate; voices in
a zone send to its reverb and the listener hears its own zone's
(``soundscape.rooms.service``). ``Settings(output="headphones")`` renders the
``modern`` bank's positional voices through a head model
(``soundscape.audio.binaural``). The audio side is ``soundscape.audio.room_mix``.
"""
