# Meridian: `make run` starts the service on Config/meridian.yaml; `make test` runs every test.
SWIFT ?= swift
CONFIG ?= Config/meridian.yaml

.PHONY: bootstrap build build-tests run test contract-fuzz browser-tests format-check release static install uninstall install-test clean

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(SWIFT) build --product meridian

run: build
	.build/debug/meridian serve --config $(CONFIG)

# Build the tests once, then run them without rebuilding (scripts/test-tier: a failed tier ends with a summary of
# what failed or crashed, its whole output in .build/test-logs/), in two tiers. The integration tier, the suites matching
# INTEGRATION, runs real peers (the meridian binary, gpsd, socat, PostgreSQL) with deadlines or changes the process
# (the locale): one test at a time, so that CPU-heavy tests beside them cannot starve their waits. Every other suite
# is a hermetic unit test (in-process, a kernel-chosen port, temporary files) and runs in parallel.
INTEGRATION = ^(meridianTests|GPSDServerTests)\.|^FlyerProximityTests\.(OtherWritersTests|PostGISFaultTests)/|^GPSDProviderTests\.(GPSDProviderTests|GPSDFaultTests)/|^NMEASerialProviderTests\.NMEASerialProviderTests/|^RunTrackerTests\.(DurabilityProcessTests|ProgressCommandsTests|LapGearCommandsTests|PrivacyCommandTests)/|^MapLinksTests\.LocaleTests/
# A parallel run runs as many tests at once as there are cores: with more, CPU-bound tests hold every thread of Swift's
# cooperative pool and the servers of the tests beside them miss their readiness deadlines.
PARALLEL = SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$$(nproc)
build-tests: bootstrap
	$(SWIFT) build --build-tests

# Then schemathesis fuzzes a running `meridian serve` against docs/openapi.yaml (about two minutes), and
# headless Chromium drives the web app on another one (about a minute and a half).
test: format-check build-tests
	scripts/check-imports
	$(PARALLEL) SWIFT=$(SWIFT) scripts/test-tier unit --parallel --skip '$(INTEGRATION)'
	SWIFT=$(SWIFT) scripts/test-tier integration --no-parallel --filter '$(INTEGRATION)'
	scripts/contract-fuzz
	scripts/browser-tests
	scripts/install-test

contract-fuzz: build-tests
	scripts/contract-fuzz

# Every target declares every module it imports in Package.swift (a few seconds).
.PHONY: check-imports
check-imports:
	scripts/check-imports

browser-tests: build-tests
	scripts/browser-tests

# The code style of .swift-format (4-space indent, 120 columns); lists what differs and changes nothing
# (`swift format --in-place --recursive` with the same folders rewrites the files).
format-check:
	$(SWIFT) format lint --strict --recursive --parallel Sources Plugins Tests Benchmarks Examples

release: bootstrap
	$(SWIFT) build -c release --product meridian

# `make install [PREFIX=/usr/local] [DESTDIR=…]`: the release binary with the Swift runtime linked in (it runs without
# the toolchain; the README's Install section lists the Debian packages it needs), the default configuration (kept
# when present), the systemd unit, sysusers.d and tmpfiles.d entries, bash/zsh/fish completions and the man page.
# `make uninstall` removes exactly that: the configuration only while it is still as installed, never the database.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
STATIC_BUILD ?= .build-release
STATIC_BIN = $(STATIC_BUILD)/release/meridian
INSTALLED = $(DESTDIR)$(PREFIX)/bin/meridian \
	$(DESTDIR)$(PREFIX)/lib/systemd/system/meridian.service \
	$(DESTDIR)$(PREFIX)/lib/sysusers.d/meridian.conf \
	$(DESTDIR)$(PREFIX)/lib/tmpfiles.d/meridian.conf \
	$(DESTDIR)$(PREFIX)/share/bash-completion/completions/meridian \
	$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_meridian \
	$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/meridian.fish \
	$(DESTDIR)$(PREFIX)/share/man/man1/meridian.1 \
	$(DESTDIR)$(PREFIX)/share/meridian/samples/sample-run.nmea
CONFIG_FILE = $(DESTDIR)$(SYSCONFDIR)/meridian/meridian.yaml
# The default configuration as installed: the database in the state directory, the sample replay from share/.
INSTALLED_CONFIG = sed -e 's|path: ../data/meridian.sqlite|path: /var/lib/meridian/meridian.sqlite|' \
	-e 's|file: samples/|file: $(PREFIX)/share/meridian/samples/|' Config/meridian.yaml

static:
	$(SWIFT) build -c release --static-swift-stdlib --product meridian --scratch-path $(STATIC_BUILD)

install: static
	install -D -s -m 0755 $(STATIC_BIN) $(DESTDIR)$(PREFIX)/bin/meridian
	mkdir -p $(DESTDIR)$(PREFIX)/lib/systemd/system
	sed -e 's|@bindir@|$(PREFIX)/bin|' -e 's|@sysconfdir@|$(SYSCONFDIR)|' dist/systemd/meridian.service \
		> $(DESTDIR)$(PREFIX)/lib/systemd/system/meridian.service
	install -D -m 0644 dist/systemd/meridian.sysusers $(DESTDIR)$(PREFIX)/lib/sysusers.d/meridian.conf
	mkdir -p $(DESTDIR)$(PREFIX)/lib/tmpfiles.d
	sed -e 's|@sysconfdir@|$(SYSCONFDIR)|' dist/systemd/meridian.tmpfiles > $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/meridian.conf
	mkdir -p $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(STATIC_BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/meridian
	$(STATIC_BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_meridian
	$(STATIC_BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/meridian.fish
	mkdir -p $(DESTDIR)$(PREFIX)/share/man/man1
	dist/man-page $(STATIC_BIN) > $(DESTDIR)$(PREFIX)/share/man/man1/meridian.1
	install -D -m 0644 Config/samples/sample-run.nmea $(DESTDIR)$(PREFIX)/share/meridian/samples/sample-run.nmea
	@if [ -e $(CONFIG_FILE) ]; then echo "install: kept $(CONFIG_FILE) (present)"; \
	else mkdir -p $(DESTDIR)$(SYSCONFDIR)/meridian && $(INSTALLED_CONFIG) > $(CONFIG_FILE) && chmod 0640 $(CONFIG_FILE); fi
	@echo "install: done. As root: systemd-sysusers; systemd-tmpfiles --create; systemctl daemon-reload; systemctl enable --now meridian"

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(DESTDIR)$(PREFIX)/share/meridian/samples $(DESTDIR)$(PREFIX)/share/meridian 2>/dev/null
	@if [ -e $(CONFIG_FILE) ] && ! $(INSTALLED_CONFIG) | cmp -s - $(CONFIG_FILE); then \
		echo "uninstall: kept $(CONFIG_FILE) (changed since install)"; \
	else rm -f $(CONFIG_FILE); rmdir $(DESTDIR)$(SYSCONFDIR)/meridian 2>/dev/null || true; fi
	@echo "uninstall: done; the database in /var/lib/meridian and the meridian user are kept"

# Installs into a temporary DESTDIR and checks what arrived, that the binary needs no Swift toolchain, and that
# uninstall leaves nothing behind (one static release build, a few minutes).
install-test:
	scripts/install-test

clean:
	rm -rf .build
