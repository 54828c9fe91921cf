# Meridian: `make run` starts the service on Config/meridian.yaml; `make test` runs every test.
SWIFT ?= swift
CONFIG ?= Config/meridian.yaml

.PHONY: bootstrap build build-tests run test contract-fuzz browser-tests release clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build --product meridian

run: build
	.build/debug/meridian serve --config $(CONFIG)

# Build the tests once, then run them without rebuilding. Tests run one at a time: several
# exercise real peers (gpsd, socat, the meridian binary) with deadlines, and on 2 cores the
# CPU-heavy suites running beside them could starve their waits (the whole run takes about a minute).
build-tests: bootstrap
	$(SWIFT) build --build-tests

# Then schemathesis fuzzes a running `meridian serve` against docs/openapi.yaml (about two minutes), and
# headless Chromium drives the web app on another one (about a minute and a half).
test: build-tests
	$(SWIFT) test --skip-build --no-parallel
	scripts/contract-fuzz
	scripts/browser-tests

contract-fuzz: build-tests
	scripts/contract-fuzz

browser-tests: build-tests
	scripts/browser-tests

release: bootstrap
	$(SWIFT) build -c release --product meridian

clean:
	rm -rf .build
