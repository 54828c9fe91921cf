# Meridian: `make run` starts the service on Config/meridian.yaml; `make test` runs every test.
SWIFT ?= swift
CONFIG ?= Config/meridian.yaml

.PHONY: bootstrap build build-tests run test release clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build --product meridian

run: build
	.build/debug/meridian serve --config $(CONFIG)

# Build the tests once, then run them without rebuilding.
build-tests: bootstrap
	$(SWIFT) build --build-tests

test: build-tests
	$(SWIFT) test --skip-build

release: bootstrap
	$(SWIFT) build -c release --product meridian

clean:
	rm -rf .build
