# gsrscope — build, run, test. `make run` and `make check` install missing Debian packages first.
PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
BUILD ?= build

PKGS := ncursesw gsl openblas lapacke libpng cairo pangocairo zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# GSL is linked against OpenBLAS's CBLAS, not gslcblas.
PKG_LIBS := $(filter-out -lgslcblas,$(shell pkg-config --libs $(PKGS) 2>/dev/null))

CSTD := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN := -Wall -Wextra -Wno-unused-parameter
OPT ?= -O2 -g
CFLAGS ?=
SAN ?=
ALL_CFLAGS := $(CSTD) $(WARN) $(OPT) $(SAN) -Iinclude $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
LDLIBS := $(PKG_LIBS) -lpthread -lm
LDFLAGS ?=

LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_HELPER_SRC := $(wildcard tests/support/*.c)
TEST_HELPER_OBJ := $(TEST_HELPER_SRC:tests/support/%.c=$(BUILD)/tests/support/%.o)

.PHONY: all run check deps deps-test tests install uninstall clean check-asan check-tsan check-valgrind bench fuzz
all: $(BUILD)/gsrscope

$(BUILD)/obj/%.o: src/%.c
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

$(BUILD)/tests/%: tests/%.c $(TEST_HELPER_OBJ) $(BUILD)/libgsrscope.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -Itests/support $(LDFLAGS) -o $@ $< $(TEST_HELPER_OBJ) $(BUILD)/libgsrscope.a $(LDLIBS)

tests: $(BUILD)/gsrscope $(TEST_BIN)

# Install the Debian packages the build needs (deps) and the tests need (deps-test).
deps:
	@sh tools/deps.sh build
deps-test:
	@sh tools/deps.sh test

run: deps $(BUILD)/gsrscope
	./$(BUILD)/gsrscope $(ARGS)

check: deps deps-test tests
	@sh tests/run_tests.sh $(BUILD)

install: $(BUILD)/gsrscope
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/gsrscope $(DESTDIR)$(PREFIX)/bin/gsrscope
	install -m 644 man/gsrscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/gsrscope.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/gsrscope $(DESTDIR)$(PREFIX)/share/man/man1/gsrscope.1

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(BUILD)/obj/main.d $(TEST_HELPER_OBJ:.o=.d)
-include mk/*.mk
