# cutboard: `make run` and `make test` install what is missing, build and run.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
WERROR  ?= 1

# No fused multiply-adds: the boards are the same bytes on every machine.
# Math functions need not set errno nor keep floating-point exceptions
# (nothing reads them): square roots and roundings are inlined, the same
# values.
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off -fno-math-errno -fno-trapping-math
CWARNS  := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion
ifeq ($(WERROR),1)
CWARNS  += -Werror
endif
OPT     ?= -O2 -g
# The libraries' flags come from pkg-config where the library ships a .pc
# (libharu does not: -lhpdf). The project's own flags come first and
# survive a user's CPPFLAGS and CFLAGS (make CFLAGS=-O0 still builds C11
# without fused multiply-adds); LDFLAGS go before the libraries.
PKG_CONFIG ?= pkg-config
pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pc_libs   = $(or $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null),$(2))
PC_CFLAGS  := $(call pc_cflags,libpng libcjson zlib libdeflate)
LIBS       := -lhpdf $(call pc_libs,libpng,-lpng) $(call pc_libs,libcjson,-lcjson) \
              $(call pc_libs,libdeflate,-ldeflate) $(call pc_libs,zlib,-lz) -lm
MHD_CFLAGS := $(call pc_cflags,libmicrohttpd)
MHD_LIBS   := $(call pc_libs,libmicrohttpd,-lmicrohttpd)
CMOCKA_LIBS := $(call pc_libs,cmocka,-lcmocka)
ALL_CFLAGS = $(CSTD) $(CWARNS) $(OPT) -Iinclude -Isrc $(PC_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(SAN)
ALL_LDFLAGS = $(LDFLAGS) $(SAN)

BUILD   ?= build
LIB     := $(BUILD)/libcutboard.a
BIN     := cutboard
# The library is src/ by product line (see include/cutboard.h): base, planar,
# board, io, game, print, deck, net, and serve (the web page and the HTTP
# API's answers, src/serve/serve.h; internal). The CLI in src/cli/ links
# against it. Its serve command runs the HTTP server, a program of its own
# (cutboard-serve, installed in libexec/cutboard): only it links
# libmicrohttpd, so the other commands start without loading it and the TLS
# libraries under it.
LIB_DIRS := base planar board io game print deck net serve
SRCS    := $(foreach d,$(LIB_DIRS),$(wildcard src/$(d)/*.c))
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/serve/page_html.o
SERVE_SRCS := src/cli/serve.c src/cli/serve_head.c src/cli/serve_main.c src/cli/common.c
CLI_SRCS := $(filter-out src/cli/serve.c src/cli/serve_head.c src/cli/serve_main.c,$(wildcard src/cli/*.c))
SERVE_BIN := $(BIN)-serve
LIBEXECDIR := $(PREFIX)/libexec/cutboard
TESTS   := $(patsubst tests/%.c,$(BUILD)/%,$(wildcard tests/test_*.c))
BENCHES := $(patsubst tests/bench/%.c,$(BUILD)/%,$(wildcard tests/bench/bench_*.c))
# Each fuzz target tests/fuzz/fuzz_NAME.c has a corpus in tests/fuzz/NAME/.
# make test replays the corpus through a plain build of the target.
FUZZERS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
REPLAYS := $(FUZZERS:%=$(BUILD)/replay_%)

# Debian packages in three tiers, each with a file it installs: what
# building and running needs (make run, make install), what make test adds,
# what make deb and make deb-check add. Each tier is installed without
# Recommends. GNU parallel is not needed: it would divert moreutils' parallel.
DEPS_BUILD := gcc:/usr/bin/gcc libc6-dev:/usr/include/stdio.h pkg-config:/usr/bin/pkg-config \
           libhpdf-dev:/usr/include/hpdf.h libpng-dev:/usr/include/png.h \
           libcjson-dev:/usr/include/cjson/cJSON.h zlib1g-dev:/usr/include/zlib.h \
           libdeflate-dev:/usr/include/libdeflate.h libmicrohttpd-dev:/usr/include/microhttpd.h \
           scdoc:/usr/bin/scdoc
DEPS_TEST  := python3:/usr/bin/python3 libcmocka-dev:/usr/include/cmocka.h \
           poppler-utils:/usr/bin/pdfinfo qpdf:/usr/bin/qpdf \
           python3-networkx:/usr/lib/python3/dist-packages/networkx/__init__.py \
           librsvg2-bin:/usr/bin/rsvg-convert chromium:/usr/bin/chromium \
           python3-websocket:/usr/lib/python3/dist-packages/websocket/__init__.py
DEPS_DEB   := build-essential:/usr/share/build-essential/list debhelper:/usr/bin/dh \
           dpkg-dev:/usr/bin/dpkg-buildpackage lintian:/usr/bin/lintian \
           debootstrap:/usr/sbin/debootstrap
missing = $(foreach d,$(1),$(if $(wildcard $(word 2,$(subst :, ,$(d)))),,$(word 1,$(subst :, ,$(d)))))
MISSING_BUILD = $(strip $(call missing,$(DEPS_BUILD)))
# Installs the Debian packages named in $$missing (none: nothing to do), as
# root or through sudo; without either, says what to run instead.
INSTALL_MISSING = if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else \
	    echo "cutboard needs these Debian packages: $$missing" >&2; \
	    echo "installing them needs root: run make deps as root or with sudo, or apt-get install --no-install-recommends $$missing as root" >&2; \
	    exit 1; fi; \
	  echo "installing: $$missing"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    --no-install-recommends $$missing || { \
	    echo "could not install $$missing (no sudo rights, or no access to the Debian archive):" \
	      "run make deps as root, or apt-get install --no-install-recommends $$missing as root" >&2; exit 1; }; fi
# Said when a build step fails and build packages are missing.
DEPS_HINT = missing="$(MISSING_BUILD)"; [ -z "$$missing" ] || \
	echo "cutboard: missing Debian packages: $$missing; make deps installs them (as root or with sudo)" >&2

.PHONY: all deps deps-test deps-deb run test test-suite test-clang check faults valgrind clean install uninstall bench fuzz samples \
        man deb deb-check FORCE
# make alone only builds (and names make deps when a library is missing);
# run installs the build tier first, test, check and test-clang the test
# tier too (deps runs before the sub-make, so make -j never compiles before
# the headers are there).
all: $(BIN) $(SERVE_BIN) man

deps:
	@missing="$(MISSING_BUILD)"; $(INSTALL_MISSING)
deps-test: deps
	@missing="$(strip $(call missing,$(DEPS_TEST)))"; $(INSTALL_MISSING)
deps-deb: deps
	@missing="$(strip $(call missing,$(DEPS_DEB)))"; $(INSTALL_MISSING)

# -MMD: each object lists the headers it read, so a header change rebuilds
# exactly what includes it.
$(BUILD)/%.o: src/%.c
	@mkdir -p $(@D)
	@echo "  CC $<"; $(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@ || { $(DEPS_HINT); exit 1; }
-include $(OBJS:.o=.d) $(TESTS:=.d) $(BENCHES:=.d) $(REPLAYS:=.d)

# The page is one HTML file, built into the library as bytes (od is in
# coreutils): cutboard serve reads no file for it.
$(BUILD)/serve/page_html.c: src/serve/page.html
	@mkdir -p $(@D)
	{ echo '/* Generated from src/serve/page.html by the Makefile: do not edit. */'; \
	  echo '#include "serve/serve.h"'; echo 'const unsigned char cb_serve_page[] = {'; \
	  od -An -v -tx1 $< | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '};'; echo 'const size_t cb_serve_page_len = sizeof cb_serve_page;'; } > $@.tmp && mv $@.tmp $@
$(BUILD)/serve/page_html.o: $(BUILD)/serve/page_html.c src/serve/serve.h
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(OBJS)
	rm -f $@ && ar rcs $@ $^

# The library has the data folder of PREFIX baked in (src/io/datadir.c,
# for when nothing nearer holds the data): a different PREFIX (make install
# PREFIX=/usr after make) builds it again.
$(BUILD)/prefix: FORCE
	@mkdir -p $(@D); echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' > $@
$(BUILD)/io/datadir.o: $(BUILD)/prefix
$(BUILD)/io/datadir.o: ALL_CFLAGS += -DCB_DATADIR='"$(PREFIX)/share/cutboard"'

# The program finds the server program where make install puts it (and
# beside itself first): a different PREFIX links it again.
$(BIN): $(CLI_SRCS) src/cli/cli.h $(LIB) $(BUILD)/prefix
	@echo "  CCLD $@"; $(CC) $(ALL_CFLAGS) -DCB_LIBEXECDIR='"$(LIBEXECDIR)"' $(CLI_SRCS) $(LIB) \
	  $(ALL_LDFLAGS) $(LIBS) -lpthread -o $@ || { $(DEPS_HINT); exit 1; }
$(SERVE_BIN): $(SERVE_SRCS) src/cli/cli.h src/cli/serve_head.h $(LIB)
	@echo "  CCLD $@"; $(CC) $(ALL_CFLAGS) $(MHD_CFLAGS) $(SERVE_SRCS) $(LIB) $(ALL_LDFLAGS) $(LIBS) \
	  $(MHD_LIBS) -lpthread -o $@ || { $(DEPS_HINT); exit 1; }

# The same program with its test hooks ($CUTBOARD_TEST_*: waits at chosen
# points so a test can deliver a signal or fill a queue there), for the
# suites that use them; the program as built above has none.
HOOKS_BIN := $(BUILD)/cutboard-hooks
$(HOOKS_BIN): $(CLI_SRCS) src/cli/cli.h $(LIB) $(HOOKS_BIN)-serve
	$(CC) $(ALL_CFLAGS) -DCB_TEST_HOOKS $(CLI_SRCS) $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread -o $@
$(HOOKS_BIN)-serve: $(SERVE_SRCS) src/cli/cli.h src/cli/serve_head.h $(LIB)
	$(CC) $(ALL_CFLAGS) -DCB_TEST_HOOKS $(MHD_CFLAGS) $(SERVE_SRCS) $(LIB) $(ALL_LDFLAGS) $(LIBS) \
	  $(MHD_LIBS) -lpthread -o $@

# Man pages from their scdoc sources in doc/ (Debian's scdoc: a small C
# program that writes roff). make alone builds them when scdoc is there and
# says how to get it when not; make install needs them.
VERSION := $(shell sed -n 's/^\#define CB_VERSION "\(.*\)"/\1/p' include/cutboard.h)
MANS    := $(patsubst doc/%.scd,$(BUILD)/man/%,$(wildcard doc/*.scd))
SCDOC   := $(shell command -v scdoc 2>/dev/null)
ifeq ($(SCDOC),)
man:
	@echo "note: scdoc is not installed, so the man pages are not built (apt-get install scdoc, or make deps)"
else
man: $(MANS)
endif
$(BUILD)/man/%: doc/%.scd $(BUILD)/prefix
	@mkdir -p $(@D)
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@DATADIR@|$(PREFIX)/share/cutboard|g' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' $< | scdoc > $@

$(BUILD)/test_%: tests/test_%.c $(wildcard tests/*.h) $(LIB)
	$(CC) $(ALL_CFLAGS) -MMD -MP $< $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread $(CMOCKA_LIBS) -o $@

# End-to-end tests share the helpers that run the binary.
CLI_TESTS := $(filter $(BUILD)/test_cli%,$(TESTS))
$(CLI_TESTS): $(BUILD)/%: tests/%.c tests/cli_support.c tests/cli_support.h tests/test.h $(LIB)
	$(CC) $(ALL_CFLAGS) -MMD -MP $< tests/cli_support.c $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread $(CMOCKA_LIBS) -o $@

$(BUILD)/bench_%: tests/bench/bench_%.c $(wildcard tests/bench/*.h) $(LIB)
	$(CC) $(ALL_CFLAGS) -MMD -MP -Itests/bench $< $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread -o $@

# The command-line target also links the CLI's parse stage (every CLI file
# but main.c); other targets need only the library.
FUZZ_SRCS_cli := $(filter-out src/cli/main.c,$(CLI_SRCS))
$(BUILD)/replay_cli: $(FUZZ_SRCS_cli) src/cli/cli.h

$(BUILD)/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(wildcard tests/fuzz/*.h) $(LIB)
	$(CC) $(ALL_CFLAGS) -MMD -MP $< $(FUZZ_SRCS_$*) tests/fuzz/replay.c $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread -o $@

$(BUILD):
	mkdir -p $@

run: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BIN) $(SERVE_BIN)
	./$(BIN) --players 4 --seed "game night" -o game.pdf
	@echo "wrote game.pdf; the program is ./cutboard here (make install puts cutboard on your PATH)"

# Remakes every sample from its samples/NAME.cmd, and a preview of its
# first page (samples/NAME.png, 50 dpi; posters get a 100 dpi corner) and,
# for games, of its last page, the rules and legend (NAME-rules.png, 60 dpi).
# A NAME ending in -bw is the colour PDF as a black-and-white printer prints
# it: its previews are greyscale (pdftoppm -gray).
samples: all
	@cd samples && for c in *.cmd; do n=$${c%.cmd}; echo "== $$n"; \
	  PATH="$(abspath .):$$PATH" sh $$c || exit 1; \
	  case $$n in *-bw) grey=-gray;; *) grey=;; esac; \
	  case $$n in poster*) pdftoppm -png -r 100 -x 0 -y 0 -W 1200 -H 800 -singlefile $$n.pdf $$n;; \
	  *) pdftoppm -png $$grey -r 50 -f 1 -l 1 -singlefile $$n.pdf $$n;; esac; \
	  last=$$(pdfinfo $$n.pdf | awk '/^Pages:/ {print $$2}'); \
	  if pdftotext -f $$last -l $$last $$n.pdf - | grep -q 'What you need'; then \
	    pdftoppm -png $$grey -r 60 -f $$last -l $$last -singlefile $$n.pdf $$n-rules; fi; done

# Every test binary runs, then every fuzz corpus is replayed and the
# script checks run; the build and the checks use every core. Each suite's
# output goes to $(BUILD)/test-logs/ and, all together, to $(BUILD)/test.log
# (V=1 prints it too); the last line is "N passed, N failed", counting the
# suites, after the end of each failed suite's output.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: deps-test
	@mkdir -p $(BUILD); echo "building the tests on $(JOBS) cores (log: $(BUILD)/test-build.log)"; \
	$(MAKE) --no-print-directory -j$(JOBS) test-build $(if $(filter 1,$(V)),,>$(BUILD)/test-build.log 2>&1) || \
	  { tail -n 30 $(BUILD)/test-build.log; $(DEPS_HINT); exit 1; }
	@$(MAKE) --no-print-directory test-suite
.PHONY: test-build
test-build: $(BIN) $(SERVE_BIN) $(HOOKS_BIN) $(TESTS) $(REPLAYS)

# A binary in a build folder (make check, make test-clang) has no data beside
# it: the checks that run it as a user would are pointed at this tree's.
DATA_ENV = $(if $(filter-out ./,$(dir $(BIN))),CUTBOARD_DATA=$(CURDIR))
# The checks run in parallel, one per core (SUITE_JOBS=N to change); make
# install relinks the binary, so the install check runs last, alone.
SUITE_JOBS ?= $(JOBS)
SUITE_LOGS = $(BUILD)/test-logs
SUITE_CHECKS := layers svg serve serve-slow serve-page man badinput-table outputs docs completion \
  papers greyscale options refs dense
# The slowest first, so that the cores finish together: the property test,
# the network analysis and the dense boards, papers and options (slower
# still under the sanitizers), then the CLI tests.
SLOWEST := $(BUILD)/test_contract $(BUILD)/test_netanalysis
EARLY := dense papers options
SUITE_ITEMS := $(addprefix suite/,$(SLOWEST) $(EARLY) $(filter $(BUILD)/test_cli%,$(TESTS)) docs \
  serve-page serve $(filter-out $(BUILD)/test_cli% $(SLOWEST),$(TESTS)) $(FUZZERS:%=replay_%) \
  $(filter-out $(EARLY) docs serve-page serve,$(SUITE_CHECKS)))
SUITE_NAMES = $(notdir $(SUITE_ITEMS)) install
test-suite: $(BIN) $(SERVE_BIN) $(HOOKS_BIN) $(TESTS) $(REPLAYS)
	@rm -rf $(SUITE_LOGS); mkdir -p $(SUITE_LOGS); \
	echo "running $(words $(SUITE_NAMES)) suites on $(SUITE_JOBS) cores (about 2 minutes on 2 idle cores); log: $(BUILD)/test.log"
	@$(MAKE) --no-print-directory -k -j$(SUITE_JOBS) suite-parallel || true
	@$(call SUITE,install,sh tests/install.sh "$(MAKE)" "$(BUILD)" "$(BIN)" "$(CC)" "$(SAN)" "$(OPT)")
	@cd $(SUITE_LOGS) && cat $(addsuffix .log,$(SUITE_NAMES)) > ../test.log 2>/dev/null; \
	pass=$$(ls | grep -c '\.pass$$'); fail=$$(ls | grep -c '\.fail$$'); \
	for f in *.fail; do [ -e "$$f" ] || continue; n=$${f%.fail}; \
	  echo "---- $$n failed; the end of its output ($(SUITE_LOGS)/$$n.log):"; tail -n 25 "$$n.log"; done; \
	echo "$$pass passed, $$fail failed"; [ "$$fail" -eq 0 ] && [ "$$pass" -eq $(words $(SUITE_NAMES)) ]

# (no file is ever made under suite/, so every item runs; pattern rules
# do not apply to .PHONY targets)
.PHONY: suite-parallel
suite-parallel: $(SUITE_ITEMS)
# $(call SUITE,NAME,COMMAND): runs COMMAND with its output in NAME.log and
# notes NAME.pass or NAME.fail beside it; says FAIL at once; V=1 prints the log.
SUITE = t0=$$(date +%s); { echo "== $(1)"; $(2); } >$(SUITE_LOGS)/$(1).log 2>&1 \
	&& touch $(SUITE_LOGS)/$(1).pass || { touch $(SUITE_LOGS)/$(1).fail; echo "FAIL $(1)"; }; \
	echo "$$(( $$(date +%s) - t0 )) $(1)" >>$(SUITE_LOGS)/times; \
	$(if $(filter 1,$(V)),cat $(SUITE_LOGS)/$(1).log,:)
suite/$(BUILD)/test_%:
	@$(call SUITE,test_$*,CUTBOARD=$(abspath $(BIN)) $(BUILD)/test_$*)
# (these two use the test hooks: the hooks build, pointed at this tree's data)
suite/$(BUILD)/test_cli_badinput:
	@$(call SUITE,test_cli_badinput,CUTBOARD=$(abspath $(HOOKS_BIN)) $(BUILD)/test_cli_badinput)
suite/replay_%:
	@$(call SUITE,replay_$*,$(BUILD)/replay_$* tests/fuzz/$*)
suite/layers:
	@$(call SUITE,layers,python3 tests/layers.py $(BUILD))
suite/refs:
	@$(call SUITE,refs,python3 tests/refs_check.py)
suite/svg:
	@$(call SUITE,svg,$(DATA_ENV) python3 tests/svg_check.py $(BIN))
suite/serve:
	@$(call SUITE,serve,CUTBOARD_DATA=$(CURDIR) python3 tests/serve_api.py $(HOOKS_BIN))
suite/serve-slow:
	@$(call SUITE,serve-slow,$(DATA_ENV) python3 tests/serve_slow.py $(BIN))
suite/serve-page:
	@$(call SUITE,serve-page,$(DATA_ENV) python3 tests/serve_browser.py $(BIN))
suite/man:
	@$(call SUITE,man,$(DATA_ENV) python3 tests/man_check.py $(abspath $(BIN)))
suite/badinput-table:
	@$(call SUITE,badinput-table,$(DATA_ENV) python3 tests/badinput_table.py $(BIN))
suite/completion:
	@$(call SUITE,completion,$(DATA_ENV) bash tests/completion_check.sh $(BIN))
# (under the sanitizers, a quarter of the papers' games: each paper at every
# player count once; make test plays them all)
suite/papers:
	@$(call SUITE,papers,$(DATA_ENV) python3 tests/papers_check.py $(BIN) $(if $(SAN),--sample) --report)
suite/options:
	@$(call SUITE,options,$(DATA_ENV) python3 tests/options_check.py $(BIN))
suite/greyscale:
	@$(call SUITE,greyscale,$(DATA_ENV) python3 tests/greyscale_check.py $(BIN))
suite/dense:
	@$(call SUITE,dense,$(DATA_ENV) python3 tests/dense_boards.py $(BIN))
suite/outputs:
	@$(call SUITE,outputs,$(DATA_ENV) python3 tests/outputs_check.py $(BIN))
suite/docs:
	@$(call SUITE,docs,$(DATA_ENV) python3 tests/docs_check.py $(BIN) $(LIB) "$(CC) $(SAN)")

# The whole suite under AddressSanitizer + UBSan, in its own build folder
# (build-san, or build-san-clang with CC=clang, as CI runs it).
SAN_CLANG = $(findstring clang,$(notdir $(CC)))
SAN_BUILD = build-san$(if $(SAN_CLANG),-clang)
check: deps-test $(if $(SAN_CLANG),deps-clang)
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(SAN_BUILD) BIN=$(SAN_BUILD)/cutboard OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test-build
	$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) BIN=$(SAN_BUILD)/cutboard OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test-suite

# clang and its sanitizer and fuzzer runtimes (libclang-rt-N-dev, which
# clang's packages only recommend), installed when missing.
.PHONY: deps-clang
deps-clang:
	@missing="$(strip $(call missing,clang:/usr/bin/clang))"; $(INSTALL_MISSING)
	@[ -n "$$(clang -print-file-name=libclang_rt.asan-x86_64.a | grep /)" ] && \
	[ -n "$$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a | grep /)" ] || { \
	  missing=libclang-rt-$$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)-dev; \
	  $(INSTALL_MISSING); }

# The suite built with clang, without the sanitizers (CI builds with both
# compilers: gcc in make test, clang in make check CC=clang).
test-clang: deps-test deps-clang
	$(MAKE) --no-print-directory -j$(JOBS) CC=clang BUILD=build-clang BIN=build-clang/cutboard test-build
	$(MAKE) --no-print-directory CC=clang BUILD=build-clang BIN=build-clang/cutboard test-suite

# Allocation-failure injection (tests/faults/alloc.sh): a game (its rules
# page too), a render, a check, a deck, a deck merge and a network map with analysis,
# failing every STEP-th heap allocation in turn (STEP=1:
# every one); each run must end with exit 0 or 70 and leave no output.
STEP ?= 37
# Then I/O fault injection (tests/faults/io.sh): each output-file system
# call (open, write, fsync, close, linkat, rename) fails in turn; exit 0,
# 73 or 74, every output as it was or complete, no temporary file left.
# Then decks and a game killed with SIGKILL (strace) at every system call
# of their commit and at points spread over their staging (tests/faults/kill.sh):
# after the next run's recovery, the old outputs or the new ones byte for
# byte, nothing else. Last, dense hostile board files (tests/dense_boards.py,
# also in make test): refused at once, or check, render and cut near-linear.
$(BUILD)/libfailalloc.so: tests/faults/failalloc.c | $(BUILD)
	$(CC) -O2 -g -shared -fPIC $< -o $@
$(BUILD)/libfailio.so: tests/faults/failio.c | $(BUILD)
	$(CC) -O2 -g -shared -fPIC $< -o $@ -ldl
$(BUILD)/recover: tests/faults/recover.c $(LIB)
	$(CC) $(ALL_CFLAGS) $< $(LIB) $(ALL_LDFLAGS) $(LIBS) -lpthread -o $@
# The allocation runs take half the time: they go in one lane, the rest in
# another, each into its own log, printed when both are over.
faults: $(BIN) $(BUILD)/libfailalloc.so $(BUILD)/libfailio.so $(BUILD)/recover
	@echo "fault injection in two lanes (logs: $(BUILD)/faults-alloc.log, $(BUILD)/faults-rest.log)"; \
	sh tests/faults/alloc.sh $(BIN) $(BUILD)/libfailalloc.so $(STEP) >$(BUILD)/faults-alloc.log 2>&1 & \
	alloc=$$!; \
	{ sh tests/faults/io.sh $(BIN) $(BUILD)/libfailio.so && \
	  sh tests/faults/kill.sh $(BIN) $(BUILD)/recover && \
	  $(DATA_ENV) python3 tests/dense_boards.py $(BIN); } >$(BUILD)/faults-rest.log 2>&1; \
	rest=$$?; wait $$alloc; alloc=$$?; \
	cat $(BUILD)/faults-alloc.log $(BUILD)/faults-rest.log; \
	[ $$alloc -eq 0 ] && [ $$rest -eq 0 ]

# tests/valgrind.supp: only what a test leaks on purpose (a killed child).
VG := valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
      --suppressions=tests/valgrind.supp
valgrind: all $(HOOKS_BIN) $(TESTS) $(REPLAYS)
	@set -e; for t in $(TESTS); do echo "== $$t"; \
	  case $$t in */test_cli_badinput) bin=$(HOOKS_BIN);; *) bin=./$(BIN);; esac; \
	  CUTBOARD="valgrind -q --error-exitcode=99 --leak-check=full $$bin" $(VG) $$t; done; \
	for f in $(FUZZERS); do echo "== replay $$f"; $(VG) $(BUILD)/replay_$$f tests/fuzz/$$f; done

# Benchmarks print a table of figures (see README, Performance); the last is
# the load test of cutboard serve (2,000 requests at concurrency 16, about
# 70 s on 2 cores; tests/bench/bench_serve.py). Some benchmarks run the
# same work in the tools a user would use instead: igraph (bench_network),
# pycairo, ReportLab and scipy's qhull (bench_peers). make bench installs
# their Debian packages when missing (benchmark only) and goes on without a
# peer that cannot be installed; its benchmark then says so in one line.
# Issue 33's rows (one game as a CLI process, its PDF's size, serve's CPU a
# request at 1, 4 and 16 clients; bench_one_game.py, bench_serve.py) are
# paired with an earlier build in the same run: BASE=REV (a git revision,
# built in $(BUILD)/base/) or BENCH_BASE=/path/to/its/cutboard. So are
# the playtest's (issue 29: the agents' games per CPU second, and whether the
# two builds' reports are the same; bench_agents.py).
PEERS := python3-igraph:/usr/lib/python3/dist-packages/igraph/__init__.py \
         python3-cairo:/usr/lib/python3/dist-packages/cairo/__init__.py \
         python3-reportlab:/usr/lib/python3/dist-packages/reportlab/__init__.py \
         python3-scipy:/usr/lib/python3/dist-packages/scipy/__init__.py
bench: all $(BENCHES)
	@missing=$$(for p in $(PEERS); do [ -f "$${p#*:}" ] || echo "$${p%%:*}"; done); \
	if [ -n "$$missing" ]; then echo "installing (benchmark only):" $$missing; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; $$SUDO apt-get update -qq || true; \
	  for pkg in $$missing; do DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$pkg \
	    || echo "$$pkg not installed: no comparison with it"; done; fi
	@for b in $(BENCHES); do CUTBOARD=$(abspath $(BIN)) $$b || exit 1; done
	@base="$(BENCH_BASE)"; if [ -n "$(BASE)" ]; then echo "building $(BASE) in $(BUILD)/base/"; \
	  rm -rf $(BUILD)/base && mkdir -p $(BUILD)/base && git archive "$(BASE)" | tar -x -C $(BUILD)/base && \
	  $(MAKE) --no-print-directory -C $(BUILD)/base all >$(BUILD)/base.log 2>&1 || \
	  { echo "$(BASE) did not build (log: $(BUILD)/base.log)"; exit 1; }; base=$(abspath $(BUILD))/base/cutboard; fi; \
	BENCH_BASE="$$base" $(DATA_ENV) python3 tests/bench/bench_one_game.py $(BIN) && \
	BENCH_BASE="$$base" $(DATA_ENV) python3 tests/bench/bench_agents.py $(BIN) && \
	BENCH_BASE="$$base" $(DATA_ENV) python3 tests/bench/bench_serve.py $(BIN)

# make fuzz TARGET=theme [SECONDS=600]: runs one libFuzzer target with clang
# (targets: $(FUZZERS)). It starts from the seed corpus tests/fuzz/TARGET/
# and grows its working corpus in build-fuzz/corpus-TARGET/; crashes, leaks
# and slow inputs go to build-fuzz/findings-TARGET/. Copy a finding into
# tests/fuzz/TARGET/ once fixed, so make test replays it from then on.
SECONDS ?= 600
FUZZ_FLAGS ?= -timeout=10 -rss_limit_mb=2048
fuzz: deps deps-clang
	@test -f tests/fuzz/fuzz_$(TARGET).c || { echo "make fuzz TARGET=x, x one of: $(FUZZERS)"; exit 1; }
	$(MAKE) BUILD=build-fuzz CC=clang WERROR=0 OPT="-O1 -g" \
	  SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" build-fuzz/libcutboard.a
	mkdir -p build-fuzz/findings-$(TARGET) build-fuzz/corpus-$(TARGET)
	clang $(CSTD) -O1 -g -Iinclude -Isrc -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  tests/fuzz/fuzz_$(TARGET).c $(FUZZ_SRCS_$(TARGET)) build-fuzz/libcutboard.a $(LIBS) \
	  -lpthread -o build-fuzz/fuzz_$(TARGET)
	build-fuzz/fuzz_$(TARGET) -max_total_time=$(SECONDS) $(FUZZ_FLAGS) \
	  -artifact_prefix=build-fuzz/findings-$(TARGET)/ build-fuzz/corpus-$(TARGET) tests/fuzz/$(TARGET)

# Data (themes, fonts) goes to $(PREFIX)/share/cutboard; the binary looks
# there, beside its own bin folder (a moved tree works) or in $CUTBOARD_DATA.
# No shared library: the API is 0.x and changes between versions, and a
# Debian package would have to split it into its own libcutboardN package;
# programs link libcutboard.a through pkg-config (cutboard.pc).
DATADIR := $(PREFIX)/share/cutboard
LIBDIR  ?= $(PREFIX)/lib
MANDIR  := $(PREFIX)/share/man
BASHCOMPDIR := $(PREFIX)/share/bash-completion/completions
# Every folder install makes (with the ones above it it had to make) is
# listed in $(DATADIR)/installed-folders, so that uninstall removes those,
# once empty, and no folder that was there before.
INSTALL_DIRS = $(PREFIX)/bin $(LIBEXECDIR) $(LIBDIR)/pkgconfig $(PREFIX)/include $(DATADIR)/fonts $(MANDIR)/man1 \
  $(MANDIR)/man5 $(BASHCOMPDIR)
install: all
	@[ -n "$(SCDOC)" ] || { echo "make install needs scdoc for the man pages: apt-get install scdoc (or make deps)"; exit 1; }
	@for d in $(INSTALL_DIRS); do while [ "$$d" != / ] && [ ! -d "$(DESTDIR)$$d" ]; do echo "$$d"; \
	  d=$$(dirname "$$d"); done; \
	  done | sort -u > $(BUILD)/installed-folders.tmp
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/cutboard
	install -m 755 $(SERVE_BIN) $(DESTDIR)$(LIBEXECDIR)/cutboard-serve
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 644 include/cutboard.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 fonts/*.ttf fonts/LICENSE-DejaVu.txt $(DESTDIR)$(DATADIR)/fonts/
	for t in icons/*/; do install -d "$(DESTDIR)$(DATADIR)/$$t" && \
	  install -m 644 "$$t"* "$(DESTDIR)$(DATADIR)/$$t" || exit 1; done
	install -m 644 $(filter %.1,$(MANS)) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(filter %.5,$(MANS)) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 completion/cutboard.bash $(DESTDIR)$(BASHCOMPDIR)/cutboard
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' -e 's|@VERSION@|$(VERSION)|' cutboard.pc.in \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/cutboard.pc
	@if [ -f $(DESTDIR)$(DATADIR)/installed-folders ]; then \
	  sort -u $(DESTDIR)$(DATADIR)/installed-folders $(BUILD)/installed-folders.tmp > $(BUILD)/installed-folders.all && \
	  mv $(BUILD)/installed-folders.all $(BUILD)/installed-folders.tmp; fi; \
	install -m 644 $(BUILD)/installed-folders.tmp $(DESTDIR)$(DATADIR)/installed-folders && rm $(BUILD)/installed-folders.tmp

uninstall:
	@folders=$$(cat $(DESTDIR)$(DATADIR)/installed-folders 2>/dev/null); set -x; \
	rm -f $(DESTDIR)$(PREFIX)/bin/cutboard $(DESTDIR)$(LIBEXECDIR)/cutboard-serve \
	  $(DESTDIR)$(LIBDIR)/libcutboard.a \
	  $(DESTDIR)$(PREFIX)/include/cutboard.h $(DESTDIR)$(LIBDIR)/pkgconfig/cutboard.pc \
	  $(DESTDIR)$(BASHCOMPDIR)/cutboard \
	  $(patsubst $(BUILD)/man/%,$(DESTDIR)$(MANDIR)/man1/%,$(filter %.1,$(MANS))) \
	  $(patsubst $(BUILD)/man/%,$(DESTDIR)$(MANDIR)/man5/%,$(filter %.5,$(MANS))) && \
	rm -rf $(DESTDIR)$(DATADIR) && { set +x; } 2>/dev/null && \
	for d in $$(printf '%s\n' $$folders | sort -r); do \
	  rmdir "$(DESTDIR)$$d" 2>/dev/null && echo "removed folder $(DESTDIR)$$d"; done; true

# The Debian packages cutboard and libcutboard-dev (debian/), checked with
# lintian, into build/deb/. They are built from a copy of the tree in
# build/deb-src, so the tree is left as it was (its build, its game.pdf).
# deb-check installs them into a clean Debian 12 root made with debootstrap
# (cached in build/deb-root; root or sudo), runs the program there, builds
# and runs the README's library example against them, then purges them
# (tests/deb_root.sh, tests/deb.sh).
DEB_SRC := build/deb-src
deb: deps-deb
	rm -rf $(DEB_SRC) build/deb && mkdir -p $(DEB_SRC) build/deb
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  git ls-files -z -co --exclude-standard | xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
	    tar --null -T - -cf - | tar -xf - -C $(DEB_SRC); \
	else tar --exclude='./build*' --exclude=./$(BIN) -cf - . | tar -xf - -C $(DEB_SRC); fi
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b -j$(JOBS)
	mv build/cutboard_$(VERSION)_* build/cutboard-dbgsym_$(VERSION)_* build/libcutboard-dev_$(VERSION)_* \
	  build/deb/
	rm -rf $(DEB_SRC)
	lintian --fail-on error \
	  build/deb/cutboard_$(VERSION)_*.changes

deb-check: deb
	sh tests/deb_root.sh build/deb

# What the build made; game.pdf and other outputs are yours to keep.
clean:
	rm -rf build build-san build-san-clang build-clang build-fuzz $(BIN) $(SERVE_BIN)
