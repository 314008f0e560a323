# Two commands for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: demo test install lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# The baselines extra brings torch: TORCH names the wheel taken first (the CPU build here;
# `make install TORCH=` keeps whatever torch is already installed, e.g. a CUDA one).
TORCH ?= torch==2.13.0

$(STAMP): setup.cfg setup.py pyproject.toml | $(PY)
	$(if $(TORCH),$(PY) -m pip install --quiet "$(TORCH)")
	$(PY) -m pip install --quiet -e ".[dev,baselines]"
	# OpenEnv's server and client without gradio (which would hold Pillow below 13)
	$(PY) -m pip install --quiet --no-deps "openenv-core>=0.3"
	# tianshou (tests/test_thirdparty_rl.py) without its pandas<3 pin, and what it imports
	$(PY) -m pip install --quiet --no-deps "tianshou==2.0.1"
	$(PY) -m pip install --quiet "deepdiff==7.0.1" "overrides>=7" "sensai-utils>=1.6" \
		"h5py>=3" "numba>=0.60" "tensorboard>=2" "pettingzoo>=1.24"
	touch $(STAMP)

install: $(STAMP)

## The main job: oracle and random agents over every task, a behaviour-cloning baseline
## trained and compared with them on held-out seeds, success tables in out/results.md, and a
## picture of one episode in out/episode.png.
demo: install
	$(PY) examples/demo.py --episodes 3 --out out

lint: install
	$(VENV)/bin/ruff check phoneworld_gym examples tests
	$(VENV)/bin/mypy phoneworld_gym

## Lint, type-check, then the test suite.
test: lint
	$(PY) -m pytest -q -n 2 --dist loadgroup -p no:cacheprovider

## Speed against android_env's FakeSimulator run in the same process group: steps (tree only,
## 540x1200, 1080x2400), resets, a new env instance, async vector envs; prints the table and
## targets and writes docs/benchmarks.md (BENCH_ARGS="--quick" for a short run, "--profile"
## for the step's top functions).
bench: install
	$(PY) -m pip install --quiet -e ".[real]"
	$(PY) examples/benchmark.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache *.egg-info

## The three-stage recipe on CPU: oracle demonstrations in both worlds, SFT, real-app RL
## (the field virtual phone over adb), mixed RL; report in out/recipe/report.md (needs adb:
## apt-get install adb, or set transport: direct in the config)
.PHONY: recipe
recipe: install
	$(PY) -m phoneworld_gym.baselines.recipe --config configs/recipe_cpu.yaml --out out/recipe
