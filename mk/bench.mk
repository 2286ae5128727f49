# bench.mk — `make bench` (issue #6): paper-scale timings vs a NumPy reference. Not part of check.
BENCH_BIN := $(BUILD)/bench/bench_engine

$(BUILD)/bench/bench_engine: bench/bench_engine.c $(BUILD)/libgsrscope.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgsrscope.a $(LDLIBS)

bench: $(BUILD)/gsrscope $(BENCH_BIN)
	@sh bench/run.sh $(BUILD)
