# mk/sanitize.mk — sanitizer and valgrind runs of the test suite (issue #8).
#   make check-asan      whole tree + tests built with ASan/UBSan into build-asan/, full suite run
#   make check-valgrind  CLI end-to-end cases under valgrind memcheck (tests/t_valgrind.sh)
ASAN_BUILD := build-asan
ASAN_SAN := -fsanitize=address,undefined -fsanitize=float-cast-overflow -fno-omit-frame-pointer

check-asan:
	$(MAKE) -j2 BUILD=$(ASAN_BUILD) SAN="$(ASAN_SAN)" OPT="-O1 -g" $(ASAN_BUILD)/gsrscope tests
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	GS_SANITIZED=1 OPENBLAS_NUM_THREADS=1 \
	sh tests/run_tests.sh $(ASAN_BUILD)

check-valgrind: $(BUILD)/gsrscope
	GS_VALGRIND=1 GSRSCOPE=$(CURDIR)/$(BUILD)/gsrscope sh tests/t_valgrind.sh
