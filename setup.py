"""Package discovery for the fixed layout (the metadata is in pyproject.toml).

The design card maps four folders onto one import package: ``plugin/`` is
``soundscape``, and ``components/``, ``systems/`` and ``demo_world/`` are its
sub-packages. Every package below those folders is found here, so a new
sub-package (or data folder) is in the wheel without being listed by hand.
"""

from setuptools import find_namespace_packages, setup

ROOTS = {
    "soundscape": "plugin",
    "soundscape.components": "components",
    "soundscape.systems": "systems",
    "soundscape.demo_world": "demo_world",
}

packages = []
for package, folder in ROOTS.items():
    packages.append(package)
    packages += [f"{package}.{found}"
                 for found in find_namespace_packages(folder, exclude=["*__pycache__*"])]

setup(packages=packages, package_dir=ROOTS)
