# soundscape: `make test` and `make demo` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# arcade 3.3 pins pymunk ~= 6.9 and pillow ~= 11.3, so its example runs in its own
# environment instead of holding the dev environment on an old pymunk.
ARCADE_VENV := .venv-arcade
ARCADE_STAMP := $(ARCADE_VENV)/.installed
DEBS := libopenal1 libegl1 libegl-mesa0 libgl1-mesa-dri libgl1 libfontconfig1 libfreetype6 fonts-dejavu-core

.PHONY: test test-arcade demo bench soak lint docs deps clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

# System libraries the tests and demo load (OpenAL for the real driver, EGL/Mesa
# and libGL for headless drawing, fontconfig/freetype and a font for the overlay's
# labels). Installed only when missing and only as root.
deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing$$missing"; apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "warning: missing system packages:$$missing (run as root to install)"; fi; \
	fi

$(ARCADE_STAMP): pyproject.toml
	test -x $(ARCADE_VENV)/bin/python || $(PYTHON) -m venv $(ARCADE_VENV)
	$(ARCADE_VENV)/bin/python -m pip install -q --upgrade pip
	$(ARCADE_VENV)/bin/python -m pip install -q -e '.[arcade]' 'pytest>=8'
	touch $(ARCADE_STAMP)

test: deps $(STAMP) $(ARCADE_STAMP)
	$(PY) -m pytest
	$(MAKE) --no-print-directory test-arcade

# The arcade example (skipped in the main environment, which has no arcade).
test-arcade: deps $(ARCADE_STAMP)
	ARCADE_HEADLESS=1 $(ARCADE_VENV)/bin/python -m pytest -p no:cacheprovider tests/examples/test_arcade_game.py

# The API reference from the docstrings (pdoc), into out/docs/api; any warning fails.
docs: $(STAMP)
	$(PY) docs/build_api.py out/docs/api

demo: deps $(STAMP)
	$(PY) -m soundscape.demo_world --auto

bench: deps $(STAMP)
	$(PY) tests/bench/run.py

# ruff, then mypy over the installed layout (build/typecheck mirrors setup.py's ROOTS:
# mypy cannot follow the editable install's import hook).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) tools/typecheck.py

clean:
	rm -rf $(VENV) $(ARCADE_VENV) out build bench.json .pytest_cache .mypy_cache .ruff_cache

# Two game hours of chaos on default settings (tests/system/soak_world.py): prints
# soak_mb_per_game_hour (memory still allocated, tracemalloc, per game hour; target <= 1).
soak: deps $(STAMP)
	$(PY) tests/system/soak_world.py --game-minutes 120
