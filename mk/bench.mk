# bench.mk — `make bench`: paper-scale timings vs NumPy and PyTorch references. Not part of check.
# Its Debian packages (tools/deps.sh bench: PyTorch) are installed by `make bench` only.
.PHONY: deps-bench
BENCH_BIN := $(BUILD)/bench/bench_engine

$(BUILD)/bench/bench_engine: bench/bench_engine.c $(BUILD)/libgsrscope.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgsrscope.a $(LDLIBS)

deps-bench:
	@sh tools/deps.sh bench

# First the packages, then the build in a new make (as `make check` does).
bench:
	@sh tools/deps.sh bench
	@$(MAKE) --no-print-directory $(BUILD)/gsrscope $(BENCH_BIN)
	@sh bench/run.sh $(BUILD)
