"""Build the API reference from the docstrings with pdoc (``make docs``).

Usage: ``python docs/build_api.py [OUT]`` (default ``out/docs/api``; the build is
not committed). Every public module of the installed ``soundscape`` package is
documented (names starting with ``_`` and ``__main__`` are left out), the
docstrings read as Google style. Any warning (a name in ``__all__`` that does not
resolve, a bad docstring reference, a module that fails to import) fails the
build, so CI keeps the reference whole.

pyglet is set headless first: the overlay and the demo import ``pyglet.gl``,
which must not need a display here.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import typing
import warnings
from pathlib import Path

DEFAULT_OUT = Path("out/docs/api")


def public_modules(package: str = "soundscape") -> list[str]:
    """``package`` and every public sub-module below it, imported, sorted by name."""
    root = importlib.import_module(package)
    names = [package]
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        parts = info.name.split(".")
        if any(part.startswith("_") for part in parts):
            continue
        names.append(info.name)
    return sorted(names)


def resolve_lazy_exports(modules: list[str]) -> None:
    """Read every lazily exported name once, so pdoc finds it in the module's namespace."""
    for name in modules:
        module = importlib.import_module(name)
        for export in getattr(module, "_EXPORTS", {}):
            getattr(module, export)


def resolve_namedtuple_annotations(modules: list[str]) -> None:
    """Give each ``NamedTuple``'s generated ``__new__`` its resolved annotations.

    With ``from __future__ import annotations`` a NamedTuple's fields are strings,
    and its ``__new__`` is made in a namespace that has none of the module's
    names, so pdoc cannot read the signature (``VoiceSpec``'s ``VoiceKey``).
    ``typing.get_type_hints`` resolves them in the class's own module.
    """
    for name in modules:
        for value in vars(importlib.import_module(name)).values():
            fields = getattr(value, "_fields", None)
            if (isinstance(value, type) and issubclass(value, tuple) and fields is not None
                    and getattr(value, "__module__", None) == name):
                try:
                    hints = typing.get_type_hints(value)
                except NameError:  # a subclass's own annotation of a type-checking name:
                    continue  # its ``__new__`` is its base's, resolved with the base
                value.__new__.__annotations__ = {k: hints[k] for k in fields if k in hints}


def unique_specs(modules: list[str]) -> list[str]:
    """The module names to hand pdoc: pdoc walks a package without ``__all__`` into its
    sub-modules itself, and naming one twice is a warning."""
    import pdoc.extract

    covered: set[str] = set()
    specs: list[str] = []
    for name in modules:
        if name not in covered:
            specs.append(name)
            covered.update(pdoc.extract.walk_specs([name]))
    return specs


def build(out: Path) -> list[str]:
    """Write the reference into ``out``; the warnings raised while building it."""
    import pyglet

    pyglet.options["headless"] = True
    pyglet.options["shadow_window"] = False
    pyglet.options["audio"] = ("silent",)
    import pdoc
    import pdoc.render

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        modules = public_modules()
        resolve_lazy_exports(modules)
        resolve_namedtuple_annotations(modules)
        version = importlib.import_module("soundscape").__version__
        pdoc.render.configure(docformat="google", show_source=False,
                              footer_text=f"soundscape {version}")
        pdoc.pdoc(*unique_specs(modules), output_directory=out)
    return [f"{w.category.__name__}: {w.message}" for w in caught]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else DEFAULT_OUT
    problems = build(out)
    for problem in problems:
        print(f"docs: {problem}", file=sys.stderr)
    if problems:
        print(f"docs: {len(problems)} warning(s); the reference must build clean", file=sys.stderr)
        return 1
    pages = sum(1 for _ in out.rglob("*.html"))
    print(f"docs: {pages} pages in {out}/ (open {out}/index.html)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
