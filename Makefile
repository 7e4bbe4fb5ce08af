# cutboard: `make run` and `make test` install what is missing, build and run.
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
WERROR  ?= 1

CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off
CWARNS  := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion
ifeq ($(WERROR),1)
CWARNS  += -Werror
endif
OPT     ?= -O2 -g
CFLAGS  ?=
CFLAGS  += $(CSTD) $(CWARNS) $(OPT) -Iinclude -Isrc $(SAN)
LDFLAGS += $(SAN)
LIBS    := -lhpdf -lpng -lcjson -lz -lm

BUILD   ?= build
LIB     := $(BUILD)/libcutboard.a
BIN     := cutboard
SRCS    := $(filter-out src/main.c,$(wildcard src/*.c))
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o)
TESTS   := $(patsubst tests/%.c,$(BUILD)/%,$(wildcard tests/test_*.c))

# Debian packages the build and the tests need, and a file each one installs.
DEPS    := libhpdf-dev:/usr/include/hpdf.h libpng-dev:/usr/include/png.h \
           libcjson-dev:/usr/include/cjson/cJSON.h libcmocka-dev:/usr/include/cmocka.h \
           zlib1g-dev:/usr/include/zlib.h pkg-config:/usr/bin/pkg-config \
           poppler-utils:/usr/bin/pdfinfo qpdf:/usr/bin/qpdf
MISSING  = $(foreach d,$(DEPS),$(if $(wildcard $(word 2,$(subst :, ,$(d)))),,$(word 1,$(subst :, ,$(d)))))

.PHONY: all deps run test check valgrind clean install
all: deps $(BIN)

deps:
	@missing="$(strip $(MISSING))"; if [ -n "$$missing" ]; then \
	  echo "installing: $$missing"; \
	  SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; fi

$(BUILD)/%.o: src/%.c include/cutboard.h $(wildcard src/*.h) | $(BUILD)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(OBJS)
	rm -f $@ && ar rcs $@ $^

$(BIN): src/main.c $(LIB)
	$(CC) $(CFLAGS) src/main.c $(LIB) $(LDFLAGS) $(LIBS) -o $@

$(BUILD)/test_%: tests/test_%.c tests/test.h $(LIB)
	$(CC) $(CFLAGS) $< $(LIB) $(LDFLAGS) $(LIBS) -lcmocka -o $@

$(BUILD):
	mkdir -p $@

run: all
	./$(BIN) --players 4 --seed "game night" -o game.pdf
	@echo "wrote game.pdf"

# Every test binary runs; the target fails at the end if any of them failed.
test: all $(TESTS)
	@failed=""; for t in $(TESTS); do echo "== $$t"; \
	  CUTBOARD=$(abspath $(BIN)) $$t || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi; \
	echo "all tests passed"

# The whole suite under AddressSanitizer + UBSan, in its own build folder.
check: deps
	$(MAKE) BUILD=build-san BIN=build-san/cutboard OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=all" test

valgrind: all $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; \
	  CUTBOARD="valgrind -q --error-exitcode=99 --leak-check=full ./$(BIN)" \
	  valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect $$t; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/cutboard.h $(DESTDIR)$(PREFIX)/include/

clean:
	rm -rf build build-san $(BIN) game.pdf
