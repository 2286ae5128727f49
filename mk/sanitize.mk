# mk/sanitize.mk — sanitizer and valgrind runs of the test suite (issue #8).
#   make check-asan      whole tree + tests built with ASan/UBSan into build-asan/, then the quick
#                        set of `make check` (GS_QUICK=1: the tests tests/suite.list leaves to
#                        check-full, and the larger part of the split tests, are not run under the
#                        sanitizers; CI runs them plain in `make check-full`). ASAN_QUICK= runs
#                        the whole suite sanitized (about 18 min on 2 cores).
#   make check-valgrind  CLI end-to-end cases under valgrind memcheck (tests/t_valgrind.sh)
#   make check-tsan      the engine's threaded tests (test_engine, test_methods: the two-worker
#                        plan, cancels, views copying results during an update) and the TUI's
#                        worker driven as the UI drives it (test_tui_worker) under TSan
ASAN_BUILD := build-asan
# `make check-asan ASAN_QUICK=` (empty): every test, every check, sanitized
ASAN_QUICK ?= 1
ASAN_SAN := -fsanitize=address,undefined -fsanitize=float-cast-overflow -fno-omit-frame-pointer

check-asan:
	$(MAKE) -j2 BUILD=$(ASAN_BUILD) SAN="$(ASAN_SAN)" OPT="-O1 -g" $(ASAN_BUILD)/gsrscope tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	GS_SANITIZED=1 OPENBLAS_NUM_THREADS=1 GS_QUICK=$(ASAN_QUICK) \
	sh tests/run_tests.sh $(ASAN_BUILD)

TSAN_BUILD := build-tsan
TSAN_TESTS := test_engine test_methods test_tui_worker
CLEAN_DIRS += $(ASAN_BUILD) $(TSAN_BUILD)

check-tsan:
	$(MAKE) -j2 BUILD=$(TSAN_BUILD) SAN="-fsanitize=thread" OPT="-O1 -g" $(addprefix $(TSAN_BUILD)/tests/,$(TSAN_TESTS))
	@for t in $(TSAN_TESTS); do \
	    TSAN_OPTIONS=halt_on_error=1:exitcode=66:suppressions=$(CURDIR)/tests/tsan.supp OPENBLAS_NUM_THREADS=1 $(TSAN_BUILD)/tests/$$t > $(TSAN_BUILD)/$$t.log 2>&1; \
	    rc=$$?; tail -n 1 $(TSAN_BUILD)/$$t.log; \
	    if [ $$rc -ne 0 ]; then grep -A30 'ThreadSanitizer' $(TSAN_BUILD)/$$t.log | head -60; echo "check-tsan: $$t failed (exit $$rc)"; exit 1; fi; \
	done

check-valgrind: $(BUILD)/gsrscope
	GS_VALGRIND=1 GSRSCOPE=$(CURDIR)/$(BUILD)/gsrscope sh tests/t_valgrind.sh
