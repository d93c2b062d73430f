"""Shared pieces of the loader fuzz tests (issue 13): bounded, deterministic hypothesis
settings, byte and TOML mutators, and the one property every loader keeps.

Each fuzz test runs a loader on mutated input and accepts only ``DataError`` or
``InputError``; anything else (``struct.error``, ``IndexError``, ``RecursionError``,
``MemoryError``, ``UnicodeEncodeError``, a ``RuntimeWarning``, which pytest turns into
an error) fails the example. ``derandomize`` and no example database make every run
try the same inputs; the deadline (``FUZZ``) fails a case that takes a second.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import os
import struct
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from soundscape.errors import DataError, InputError

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "120")), derandomize=True,
                database=None, deadline=timedelta(milliseconds=1000),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])
"""Bounded and deterministic: 120 examples, the same ones every run, a 1 s deadline each.
``FUZZ_EXAMPLES=5000`` runs a deeper search by hand (still derandomized)."""

INT_TOKENS = (0, 1, 2, 4, 8, 16, 24, 61, 62, 255, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
              0xFFFFFFFF, -1, -8)
BYTE_TOKENS = [struct.pack("<I", v & 0xFFFFFFFF) for v in INT_TOKENS]
BYTE_TOKENS += [struct.pack("<H", v & 0xFFFF) for v in (0, 1, 2, 3, 0xFFFE, 0xFFFF)]
BYTE_TOKENS += [struct.pack("<f", v) for v in (math.nan, math.inf, -1.0, 3.4e38)]
BYTE_TOKENS += [struct.pack("<d", v) for v in (math.nan, 1e300, -1e300)]
BYTE_TOKENS += [b"RIFF", b"WAVE", b"fmt ", b"data", b"\xff\xff", b"\x00" * 32, b"\xff" * 32]


def only_loader_errors(call: Callable[[], object]) -> None:
    """Run ``call``; a loader's ``DataError``/``InputError`` is fine, anything else fails."""
    with contextlib.suppress(DataError, InputError):
        call()


@st.composite
def mutated(draw: Any, seed: bytes, tokens: list[bytes] | None = None) -> bytes:
    """``seed`` with one to four flips, tokens written or inserted, insertions, deletions
    or a truncation."""
    tokens = BYTE_TOKENS if tokens is None else tokens
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("flip", "token", "token", "insert", "delete",
                                     "truncate")))
        at = draw(st.integers(0, len(data)))
        if kind == "flip" and data:
            data[min(at, len(data) - 1)] ^= 1 << draw(st.integers(0, 7))
        elif kind == "token":
            token = draw(st.sampled_from(tokens))
            if draw(st.booleans()):
                data[at : at + len(token)] = token
            else:
                data[at:at] = token
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 32))]
        else:
            del data[at:]
    return bytes(data)


TEXT_TOKENS = ["[", "]", "[[", "]]", "{", "}", "=", '"', "'", ",", ".", "\n", "#", "\\",
               "\\u0000", "\\ud800", "nan", "inf", "-inf", "-1", "0", "1e400", "0x", "true",
               "a = " + "[" * 600 + "]" * 600, '"' + "x" * 300 + '"', "\x00", "\ud800",
               "\r", "\t", "9" * 40, "1979-05-27", '"""', "\ufeff"]


@st.composite
def mutated_text(draw: Any, seed: str) -> str:
    """TOML text with one to four edits: tokens written or inserted, deletions, a cut."""
    text = seed
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(("token", "token", "insert", "delete", "truncate")))
        at = draw(st.integers(0, len(text)))
        if kind == "token":
            token = draw(st.sampled_from(TEXT_TOKENS))
            end = at + (len(token) if draw(st.booleans()) else 0)
            text = text[:at] + token + text[end:]
        elif kind == "insert":
            text = text[:at] + draw(st.text(max_size=8)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 24)):]
        else:
            text = text[:at]
    return text


BAD_VALUES = st.one_of(
    st.sampled_from([0, -1, 1, 2**31, 2**32, 2**63 - 1, -(2**63), 10**30, 0.0, -0.0, 1e308,
                     -1e308, math.nan, math.inf, -math.inf, 1e-310, True, False, "", "a\0b",
                     "x" * 300, "../../etc/passwd", "/dev/zero", "Ambient1", "mono", "stereo",
                     [], [1], [1.0, 2.0], [math.nan, 1.0], [2.0, 1.0], {}, {"a": 1}]),
    st.integers(), st.floats(), st.text(max_size=12),
    st.lists(st.one_of(st.integers(-3, 3), st.floats(-2, 2), st.text(max_size=3)), max_size=3),
)
"""Values a structured mutation writes into a parsed document."""


@st.composite
def mutated_doc(draw: Any, doc: Mapping[str, Any]) -> dict[str, Any]:
    """A deep copy of a parsed TOML ``doc`` with one to three values replaced, keys
    added or removed: what a malformed but well-formed data file parses to."""
    out = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(out, ()))
        if not paths:  # everything deleted: a document with one stray key
            out["extra"] = copy.deepcopy(draw(BAD_VALUES))
            continue
        path = draw(st.sampled_from(paths))
        parent = out
        for part in path[:-1]:
            parent = parent[part]
        last = path[-1]
        kind = draw(st.sampled_from(("value", "value", "value", "delete", "add")))
        if kind == "value":  # a copy: sampled lists and tables are shared objects
            parent[last] = copy.deepcopy(draw(BAD_VALUES))
        elif kind == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "name", "id", "sound", "x\0"]))] = \
                copy.deepcopy(draw(BAD_VALUES))
    return out


def _paths(node: Any, prefix: tuple) -> Any:
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for key, value in items:
        yield (*prefix, key)
        yield from _paths(value, (*prefix, key))


def to_toml(doc: Mapping[str, Any]) -> str:
    """``doc`` as TOML text: every top-level key an inline value (no lone surrogates)."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in doc.items())


def _key(key: Any) -> str:
    return _value(str(key))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return repr(value) if math.isfinite(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, str):  # TOML escapes: no lone surrogates, DEL escaped
        text = value.encode("utf-8", "replace").decode("utf-8")
        return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))
