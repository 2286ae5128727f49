# mk/fuzz.mk — libFuzzer targets: one per row of the format table (src/data/formats.c: npy npz
# pt csv idx today) and the session-file parser.
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="npy npz pt csv idx session"]
# Builds build/fuzz/fuzz_<t> with clang -fsanitize=fuzzer,address,undefined (a format's from
# fuzz/fuzz_format.c with -DFZ_FORMAT='"<t>"') and runs each for FUZZ_SECONDS, starting from the
# committed corpus fuzz/corpus/<t>/ (read only) with fuzz/<t>.dict when there is one; new inputs
# go to build/fuzz/corpus-<t>/, crashes to build/fuzz/crash-*. `make check` replays the committed
# corpus through the same entry points (tests/data/test_fuzz_replay.c) without clang.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
# The row names of the format table (each row starts with {.name = "NAME").
FUZZ_FORMATS = $(shell sed -n 's/^ *{\.name = "\([a-z0-9_]*\)".*/\1/p' src/data/formats.c)
FUZZ_TARGETS ?= $(FUZZ_FORMATS) session
FUZZ_SRC := src/data/npy_read.c src/data/load_src.c src/data/pt_read.c src/data/csv.c src/data/idx.c \
  src/data/formats.c src/base/common.c src/config/session.c src/config/opts.c src/config/params.c src/base/io.c
FUZZ_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 -Iinclude -Ifuzz \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_LIBS = $(shell pkg-config --libs libzip openblas) -lz -lm -lpthread

$(BUILD)/fuzz/fuzz_session: fuzz/fuzz_session.c fuzz/fuzz_targets.h $(FUZZ_SRC) $(wildcard include/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC) $(FUZZ_LIBS)

$(BUILD)/fuzz/fuzz_%: fuzz/fuzz_format.c fuzz/fuzz_targets.h $(FUZZ_SRC) $(wildcard include/*.h src/data/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFZ_FORMAT='"$*"' -o $@ $< $(FUZZ_SRC) $(FUZZ_LIBS)

fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz/corpus-$$t; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s" >&2; \
	  dict=; [ ! -f fuzz/$$t.dict ] || dict=-dict=fuzz/$$t.dict; \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=2048 \
	    -timeout=10 $$dict -artifact_prefix=$(BUILD)/fuzz/crash-$$t- \
	    -print_final_stats=1 $(BUILD)/fuzz/corpus-$$t fuzz/corpus/$$t; \
	done
