# gsrscope — build, run, test. `make run` and `make check` install missing Debian packages first.
PREFIX ?= /usr/local
# The install data folder (assets/ and the bundled sets): its one definition. base/assets.c is
# the one place that computes it at run time (as_install_dirs), from this value.
DATADIR ?= $(PREFIX)/share/gsrscope
DESTDIR ?=
CC ?= cc
BUILD ?= build

PKGS := ncursesw gsl openblas lapacke libpng cairo pangocairo zlib libzip
# The pkg-config flags are looked up the first time a recipe needs them, never while make reads
# this file: on a fresh machine `run` and `check` install the packages first (and then build in
# a second make); tests/t_first_contact.sh keeps it that way. Each is computed once and kept.
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $$(PKGS) 2>/dev/null))$(PKG_CFLAGS)
# GSL is linked against OpenBLAS's CBLAS, not gslcblas.
PKG_LIBS = $(eval PKG_LIBS := $$(filter-out -lgslcblas,$$(shell pkg-config --libs $$(PKGS) 2>/dev/null)))$(PKG_LIBS)

CSTD := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN := -Wall -Wextra -Wno-unused-parameter
OPT ?= -O2 -g
CFLAGS ?=
SAN ?=
ALL_CFLAGS = $(CSTD) $(WARN) $(OPT) $(SAN) -Iinclude $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
# giflib (the animated frames of export --frames): linked by name, as not every giflib ships a
# pkg-config file.
GIF_LIBS := -lgif
LDLIBS = $(PKG_LIBS) $(GIF_LIBS) -lpthread -lm
LDFLAGS ?=

LIB_SRC := $(wildcard src/*/*.c)
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
# Unit tests live beside the folder of src/ they test: tests/<folder>/test_<module>.c (a binary
# build/tests/test_<module> each); the shell tests of whole commands are tests/t_*.sh.
TEST_SRC := $(wildcard tests/*/test_*.c)
TEST_BIN := $(addprefix $(BUILD)/tests/,$(notdir $(TEST_SRC:.c=)))
vpath test_%.c $(sort $(dir $(TEST_SRC)))
TEST_HELPER_SRC := $(wildcard tests/support/*.c)
TEST_HELPER_OBJ := $(TEST_HELPER_SRC:tests/support/%.c=$(BUILD)/tests/support/%.o)

.PHONY: all run check check-full help deps deps-test pkgs-found tests install uninstall clean check-asan check-tsan check-valgrind bench fuzz
all: $(BUILD)/gsrscope

# A build without the packages stops with one line saying what to do, not a compiler error.
pkgs-found:
	@pkg-config --exists $(PKGS) 2>/dev/null || { pkg-config --print-errors --exists $(PKGS) 2>&1 | grep -m1 . >&2; \
	  echo "gsrscope: the build packages are missing; 'make deps' installs them ('make run' and 'make check' do it first)" >&2; exit 2; }
	@printf '#include <gif_lib.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 || { echo "gsrscope: gif_lib.h is missing (Debian: libgif-dev); 'make deps' installs it" >&2; exit 2; }

$(BUILD)/obj/%.o: src/%.c | pkgs-found
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libgsrscope.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/gsrscope: $(BUILD)/obj/main.o $(BUILD)/libgsrscope.a
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/support/%.o: tests/support/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -Itests/support -c $< -o $@

$(BUILD)/tests/test_%: test_%.c $(TEST_HELPER_OBJ) $(BUILD)/libgsrscope.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -Itests/support -Isrc -I. $(LDFLAGS) -o $@ $< $(TEST_HELPER_OBJ) $(BUILD)/libgsrscope.a $(LDLIBS)

tests: $(BUILD)/gsrscope $(TEST_BIN)

# Install the Debian packages the build needs (deps) and the tests need too (deps-test).
deps:
	@sh tools/deps.sh build
deps-test:
	@sh tools/deps.sh test

# First the packages, then the build in a new make, whose pkg-config flags see them.
# `make run` opens the TUI where the paper's story shows best (README: "Which bundled set");
# ARGS=... replaces that.
ARGS ?= --sample mobilenetv2 --preset teaching
run:
	@sh tools/deps.sh build
	@$(MAKE) --no-print-directory $(BUILD)/gsrscope
	./$(BUILD)/gsrscope $(ARGS)

# `make check`: the quick set (a few minutes: every module, small sizes, one seed; GS_QUICK=1).
# `make check-full`: the TSan and memcheck runs (mk/sanitize.mk), then every test with every check
# (no GS_QUICK), whose summary line comes last. tests/suite.list says which tests are full-only,
# which run a quick subset and which run alone; a test not listed is quick. GS_JOBS=N: N tests at
# a time (2).
check:
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory tests
	@GS_QUICK=1 sh tests/run_tests.sh $(BUILD)

check-full:
	@sh tools/deps.sh test
	@$(MAKE) --no-print-directory tests
	@$(MAKE) --no-print-directory check-tsan
	@$(MAKE) --no-print-directory check-valgrind
	@GS_QUICK= sh tests/run_tests.sh $(BUILD)

help:
	@echo 'make                build $(BUILD)/gsrscope'
	@echo 'make run            install missing packages, build, open the TUI (ARGS="..." to change)'
	@echo 'make check          the quick tests (every module, small sizes; tests/suite.list): 7 CPU-min, ~4 min on 2 idle cores'
	@echo 'make check-full     check-tsan, check-valgrind, then every test at full size: what CI runs after check-asan'
	@echo 'make check-asan     the quick tests built with ASan + UBSan (build-asan/)'
	@echo 'make check-tsan     the engine'"'"'s and the TUI worker'"'"'s threaded tests under ThreadSanitizer'
	@echo 'make check-valgrind the CLI end-to-end cases under valgrind memcheck'
	@echo 'make bench          paper-scale timings against NumPy and PyTorch (not a test)'
	@echo 'make fuzz           fuzz the parsers (FUZZ_SECONDS=60)'
	@echo 'make install        binary, man pages, assets and the bundled sets (PREFIX=$(PREFIX))'

# assets/ (presets, ...) is installed as $(DATADIR), where gs_assets.h looks.
$(BUILD)/obj/base/assets.o: ALL_CFLAGS += -DGS_DATADIR='"$(DATADIR)"'

install: $(BUILD)/gsrscope
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/gsrscope $(DESTDIR)$(PREFIX)/bin/gsrscope
	install -m 644 man/gsrscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/gsrscope.1
	install -d $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 man/gsrscope.7 $(DESTDIR)$(PREFIX)/share/man/man7/gsrscope.7
	cd assets && find . -type f | while read -r f; do install -D -m 644 "$$f" "$(DESTDIR)$(DATADIR)/$$f"; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gsrscope $(DESTDIR)$(PREFIX)/share/man/man1/gsrscope.1 $(DESTDIR)$(PREFIX)/share/man/man7/gsrscope.7
	cd assets && find . -type f | while read -r f; do rm -f "$(DESTDIR)$(DATADIR)/$$f"; done

# Every folder a build makes: build (or BUILD=...), and each mk/*.mk adds its own to CLEAN_DIRS.
CLEAN_DIRS := build $(BUILD)
clean:
	rm -rf $(sort $(CLEAN_DIRS))

-include $(LIB_OBJ:.o=.d) $(BUILD)/obj/main.d $(TEST_HELPER_OBJ:.o=.d) $(TEST_BIN:=.d)
-include mk/*.mk
