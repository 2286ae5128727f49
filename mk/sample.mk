# mk/sample.mk — the bundled Fashion-MNIST sample (issue #3).
#   make sample-data    regenerate sample_features/fashion-mnist from Debian's
#                       dataset-fashion-mnist package and check it against SHA256SUMS
#   make install        also installs the sample into $(DATADIR)/fashion-mnist (Makefile:
#                       DATADIR, where base/assets.c's as_install_dirs looks)
SAMPLE_SRC ?= /usr/share/datasets/fashion-mnist
SAMPLE_DIR := sample_features/fashion-mnist
SAMPLE_FILES := train_features.npy train_labels.npy test_features.npy test_labels.npy

.PHONY: sample-data install-sample uninstall-sample

$(BUILD)/tools/make_sample: tools/make_sample.c $(BUILD)/libgsrscope.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libgsrscope.a $(LDLIBS)

sample-data: $(BUILD)/tools/make_sample
	@test -f $(SAMPLE_SRC)/train-images-idx3-ubyte.gz || \
	  { echo "$(SAMPLE_SRC): Fashion-MNIST not found; install it: apt-get install dataset-fashion-mnist" >&2; exit 2; }
	$(BUILD)/tools/make_sample $(SAMPLE_SRC) $(SAMPLE_DIR)
	cd $(SAMPLE_DIR) && sha256sum -c SHA256SUMS

install: install-sample
install-sample:
	install -d $(DESTDIR)$(DATADIR)/fashion-mnist
	install -m 644 $(addprefix $(SAMPLE_DIR)/,$(SAMPLE_FILES) README.md) $(DESTDIR)$(DATADIR)/fashion-mnist/

uninstall: uninstall-sample
uninstall-sample:
	rm -rf $(DESTDIR)$(DATADIR)/fashion-mnist
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null
