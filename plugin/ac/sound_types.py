"""AC ``SoundType`` values (the ``stype`` of ambient descs and sound-table entries).

Names and numbers follow the client's ``SoundType`` enum as the ACE emulator
lists it (0x00 ``Invalid`` .. 0xCC ``SkillDownVoid``). Region data may name a
sound type or give its number; anything else is an unknown sound type.
"""

from __future__ import annotations

_NAMES = (  # noqa: SIM905 - one readable block of names
    "Invalid Speak1 Random Attack1 Attack2 Attack3 SpecialAttack1 SpecialAttack2 "
    "SpecialAttack3 Damage1 Damage2 Damage3 Wound1 Wound2 Wound3 Death1 Death2 Death3 "
    "Grunt1 Grunt2 Grunt3 Oh1 Oh2 Oh3 Heave1 Heave2 Heave3 Knockdown1 Knockdown2 "
    "Knockdown3 Swoosh1 Swoosh2 Swoosh3 Thump1 Smash1 Scratch1 Spear Sling Dagger "
    "ArrowWhiz1 ArrowWhiz2 CrossbowPull CrossbowRelease BowPull BowRelease "
    "ThrownWeaponRelease1 ArrowLand Collision HitFlesh1 HitLeather1 HitChain1 HitPlate1 "
    "HitMissile1 HitMissile2 HitMissile3 Footstep1 Footstep2 Walk1 Dance1 Dance2 Dance3 "
    "Hidden1 Hidden2 Hidden3 Eat1 Drink1 Open Close OpenSlam CloseSlam Ambient1 Ambient2 "
    "Ambient3 Ambient4 Ambient5 Ambient6 Ambient7 Ambient8 Waterfall LogOut LogIn "
    "LifestoneOn AttribUp AttribDown SkillUp SkillDown HealthUp HealthDown ShieldUp "
    "ShieldDown EnchantUp EnchantDown VisionUp VisionDown Fizzle Launch Explode TransUp "
    "TransDown BreatheFlaem BreatheAcid BreatheFrost BreatheLightning Create Destroy "
    "Lockpicking UI_EnterPortal UI_ExitPortal UI_GeneralQuery UI_GeneralError "
    "UI_TransientMessage UI_IconPickUp UI_IconSuccessfulDrop UI_IconInvalid_Drop "
    "UI_ButtonPress UI_GrabSlider UI_ReleaseSlider UI_NewTargetSelected UI_Roar UI_Bell "
    "UI_Chant1 UI_Chant2 UI_DarkWhispers1 UI_DarkWhispers2 UI_DarkLaugh UI_DarkWind "
    "UI_DarkSpeech UI_Drums UI_GhostSpeak UI_Breathing UI_Howl UI_LostSouls UI_Squeal "
    "UI_Thunder1 UI_Thunder2 UI_Thunder3 UI_Thunder4 UI_Thunder5 UI_Thunder6 RaiseTrait "
    "WieldObject UnwieldObject ReceiveItem PickUpItem DropItem ResistSpell PicklockFail "
    "LockSuccess OpenFailDueToLock TriggerActivated SpellExpire ItemManaDepleted"
).split()

SOUND_TYPE_NAMES: tuple[str, ...] = (
    *_NAMES,
    *(f"TriggerActivated{i}" for i in range(1, 51)),
    "HealthDownVoid",
    "RegenDownVoid",
    "SkillDownVoid",
)
"""Index = the ``SoundType`` number."""

SOUND_TYPES: dict[str, int] = {name: value for value, name in enumerate(SOUND_TYPE_NAMES)}


def sound_type_name(stype: int) -> str:
    """The name of a sound type number (``Ambient1`` for 0x46), or its hex for an unknown one.

    >>> sound_type_name(0x46), sound_type_name(0xCC), sound_type_name(999)
    ('Ambient1', 'SkillDownVoid', '0x3e7')
    """
    return SOUND_TYPE_NAMES[stype] if 0 <= stype < len(SOUND_TYPE_NAMES) else hex(stype)


def parse_sound_type(value: object) -> int | None:
    """A sound type number from a name or a number, or None when it is unknown.

    >>> parse_sound_type("Waterfall"), parse_sound_type(0x4E), parse_sound_type("Wind")
    (78, 78, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        return SOUND_TYPES.get(value)
    if isinstance(value, int) and 0 <= value < len(SOUND_TYPE_NAMES):
        return value
    return None
