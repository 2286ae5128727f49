# mk/features.mk — the bundled MobileNetV2 embeddings of the Fashion-MNIST sample.
#   make sample-features   regenerate sample_features/fashion-mnist-mobilenetv2 from the pixel
#                          sample with tools/features/extract.js (Node; npm packages pinned in
#                          tools/features/package-lock.json, installed into
#                          tools/features/node_modules by `npm ci`), then check SHA256SUMS
#   make install           also installs the set into $(DATADIR)/ (the Makefile's install data folder)
# Neither the build nor the tests need Node: the embeddings are committed.
FEAT_DIR := sample_features/fashion-mnist-mobilenetv2
FEAT_FILES := train_features.npy train_labels.npy test_features.npy test_labels.npy
FEAT_JOBS ?= 2
# what `npm ci` installs for the extractor (gitignored; sample-features installs it again)
CLEAN_DIRS += tools/features/node_modules

.PHONY: sample-features install-sample-features uninstall-sample-features

sample-features:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || \
	  { echo "make sample-features needs Node.js and npm: apt-get install nodejs npm" >&2; exit 2; }
	cd tools/features && npm ci --no-audit --no-fund --ignore-scripts
	node tools/features/extract.js $(SAMPLE_DIR) $(FEAT_DIR) --jobs $(FEAT_JOBS)
	cd $(FEAT_DIR) && sha256sum -c SHA256SUMS

install: install-sample-features
install-sample-features:
	install -d $(DESTDIR)$(DATADIR)/fashion-mnist-mobilenetv2
	install -m 644 $(addprefix $(FEAT_DIR)/,$(FEAT_FILES) README.md) \
	  $(DESTDIR)$(DATADIR)/fashion-mnist-mobilenetv2/

uninstall: uninstall-sample-features
uninstall-sample-features:
	rm -rf $(DESTDIR)$(DATADIR)/fashion-mnist-mobilenetv2
