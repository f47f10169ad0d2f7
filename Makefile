# Admiralty — the commands. `make help` lists them.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
MANAGE := $(PY) manage.py
SITE_DIR ?= site
HOST ?= 127.0.0.1:8000
# Integration tests use these services (started by .ci/run in CI).
INTEGRATION_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/admiralty
INTEGRATION_BROKER_URLS ?= redis://127.0.0.1:6379/0 amqp://guest:guest@127.0.0.1:5672//

.DEFAULT_GOAL := help
.PHONY: help venv rules-engine migrate sample demo run test lint test-integration bench messages clean

help: ## list the commands
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

$(VENV)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@

# `make venv` also compiles the rules engine with mypyc (README, "A compiled rules engine");
# COMPILE_RULES=0 skips it (the plain Python engine then runs).
COMPILE_RULES ?= 1
venv: $(VENV)/.installed $(if $(filter 1,$(COMPILE_RULES)),rules-engine) ## create .venv and install the pinned requirements

# The rules engine compiled with mypyc into build/rules-mypyc (about a minute of CPU; nothing
# when it matches the sources already). Never fails: without gcc, Python headers or mypyc, or
# on a failed build, it says so in one line and the plain Python engine runs.
rules-engine: $(VENV)/.installed ## compile battles/rules with mypyc into build/ (optional accelerator)
	@$(PY) -m battles.rules_build

migrate: venv ## apply database migrations (SQLite db.sqlite3 unless DATABASE_URL is set)
	$(MANAGE) migrate --noinput

sample: migrate ## load the sample campaign of the seed (idempotent)
	$(MANAGE) load_sample

demo: sample ## set up, load the sample, resolve the skirmish, render reports, bake site/, exit
	$(MANAGE) demo --site $(SITE_DIR)

run: demo ## everything `demo` does, then serve on http://127.0.0.1:8000
	$(MANAGE) runserver $(HOST)

lint: $(VENV)/.installed ## ruff lint and format check, the layers (import-linter), mypy on the rules engine
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy battles/rules

test: venv ## ruff, layers (import-linter), Django checks, migrations check, pytest (+ integration tests when CI=true)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy battles/rules
	$(MANAGE) check
	$(MANAGE) makemigrations --check --dry-run
ifeq ($(CI),true)
	$(PY) -m battles.rules_build --check
endif
	$(PY) -m pytest -n auto --durations=20
ifeq ($(CI),true)
	$(MAKE) test-integration
endif

test-integration: venv ## tests on PostgreSQL with a real Celery worker, on Redis then RabbitMQ
	set -e; for broker in $(INTEGRATION_BROKER_URLS); do \
		echo "== integration tests, broker $$broker"; \
		DATABASE_URL=$(INTEGRATION_DATABASE_URL) CELERY_BROKER_URL=$$broker \
			ADMIRALTY_INTEGRATION=1 $(PY) -m pytest -m integration -p no:cacheprovider; \
	done

bench: venv rules-engine ## benchmarks: engine, other systems, turn close, reports and site, web rates (prints figures)
	$(PY) -m bench
	$(PY) -m bench.other_systems
	$(PY) -m bench.turn_close
	$(PY) -m bench.starmap
	$(PY) -m bench.fog
	$(PY) -m bench.reports
	$(PY) -m bench.startup
	$(PY) -m bench.web
	$(PY) -m bench.pages
	$(PY) -m bench.turns
	$(PY) -m bench.exchange

messages: venv ## refresh both catalogues; English filled from the msgids, French spacing fixed (needs gettext)
	$(MANAGE) makemessages -l fr -l en --no-obsolete --ignore=.venv --ignore=tests \
		--ignore=bench --ignore='site/*.html' --ignore=media
	sed -i '/^#, fuzzy$$/{N;s/^#, fuzzy\nmsgid ""$$/msgid ""/}' locale/en/LC_MESSAGES/django.po
	msgattrib --clear-fuzzy --empty locale/en/LC_MESSAGES/django.po \
		| msgen - -o locale/en/LC_MESSAGES/django.po
	$(PY) -m campaign.core.french_typography locale/fr/LC_MESSAGES/django.po
	$(MANAGE) compilemessages -l fr -l en --ignore=.venv
	@printf 'French: '; msgfmt --statistics -o /dev/null locale/fr/LC_MESSAGES/django.po

clean: ## remove generated files (keeps .venv)
	rm -rf $(SITE_DIR) .$(SITE_DIR).trees media staticfiles db.sqlite3 .pytest_cache build
