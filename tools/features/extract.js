#!/usr/bin/env node
// extract.js — MobileNetV2 embeddings of the bundled Fashion-MNIST sample.
//
//   node extract.js SRC_DIR OUT_DIR [--dtype f2|f4] [--jobs N]
//
// SRC_DIR holds the pixel sample (train_features.npy |u1 N×784, 28×28 grey images, and the
// label files); OUT_DIR receives train_features.npy / test_features.npy (N×1280, '<f2' by
// default) and byte-identical copies of the label files.
//
// Network: the MobileNetV2 shipped inside the npm package nsfwjs (ImageNet-pretrained, then
// fine-tuned by its authors for a 5-class NSFW task), loaded from the package's
// dist/models/mobilenet_v2/ files (model.min.js is the Keras model.json object,
// group1-shard1of1.min.js the base64 of its uint8-quantized weights) through tf.io.fromMemory,
// run on the TensorFlow.js WebAssembly backend. The graph is cut at the layer `out_relu`
// (7×7×1280 after the last ReLU6) and averaged over height and width: a 1280-d embedding.
// Preprocessing is the package's own: pixels / 255, bilinear resize to 224×224 with aligned
// corners, the grey channel copied to three.
//
// The WebAssembly backend runs on one thread in Node, so the work is split over N child
// processes (default 2), each computing a contiguous block of rows in fixed batches; the
// parent joins the blocks in order. No randomness anywhere: the same package versions on the
// same kind of CPU give the same bytes (make sample-features checks SHA256SUMS).
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const { fork } = require('child_process');

const SIDE = 28, PIX = SIDE * SIDE, SIZE = 224, DIM = 1280, BATCH = 25;
const SPLITS = ['train', 'test'];

function die(msg) {
  process.stderr.write(`extract.js: ${msg}\n`);
  process.exit(2);
}

// Minimal .npy (format 1.x/2.x) reader for the sample's own files: C order, a known dtype.
function readNpy(file, wantDescr) {
  const b = fs.readFileSync(file);
  if (b.length < 10 || b.toString('latin1', 0, 6) !== '\x93NUMPY') die(`${file}: not a .npy file`);
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const off = major === 1 ? 10 + hlen : 12 + hlen;
  const hdr = b.toString('latin1', major === 1 ? 10 : 12, off);
  const descr = /'descr':\s*'([^']+)'/.exec(hdr);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(hdr);
  if (!descr || !shape || /'fortran_order':\s*True/.test(hdr)) die(`${file}: unsupported .npy header`);
  if (descr[1] !== wantDescr) die(`${file}: dtype ${descr[1]}, expected ${wantDescr}`);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  return { dims, data: b.subarray(off) };
}

// .npy format 1.0 header for a C-order 2-D array, padded to a multiple of 64 bytes.
function npyHeader(descr, rows, cols) {
  let h = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  const total = Math.ceil((10 + h.length + 1) / 64) * 64;
  h = h + ' '.repeat(total - 10 - h.length - 1) + '\n';
  const b = Buffer.alloc(10);
  b.write('\x93NUMPY', 0, 'latin1');
  b[6] = 1; b[7] = 0;
  b.writeUInt16LE(h.length, 8);
  return Buffer.concat([b, Buffer.from(h, 'latin1')]);
}

// IEEE binary32 -> binary16, round to nearest even (what NumPy's astype(float16) does).
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function toHalf(v) {
  f32[0] = v;
  const x = u32[0], sign = (x >>> 16) & 0x8000;
  const e = (x >>> 23) & 0xff, m = x & 0x7fffff;
  if (e === 0xff) return sign | 0x7c00 | (m ? 0x200 : 0);
  let ee = e - 127 + 15;
  if (ee >= 0x1f) return sign | 0x7c00;
  if (ee <= 0) {
    if (ee < -10) return sign;
    const mm = m | 0x800000, shift = 14 - ee;
    let h = mm >>> shift;
    const rem = mm & ((1 << shift) - 1), half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h++;
    return sign | h;
  }
  let h = (ee << 10) | (m >>> 13);
  const rem = m & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  return sign | h;
}

function writeAtomic(file, parts) {
  const tmp = `${file}.tmp${process.pid}`;
  fs.writeFileSync(tmp, Buffer.concat(parts));
  fs.renameSync(tmp, file);
}

// ---- child: embed rows [lo, hi) of one split, write float32 rows to a part file ----
async function child(srcFile, lo, hi, outFile) {
  const tf = require('@tensorflow/tfjs');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  const dist = path.join(__dirname, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');
  wasm.setThreadsCount(1);
  wasm.setWasmPaths(dist + path.sep);
  await tf.setBackend('wasm');
  await tf.ready();

  const mdir = path.join(__dirname, 'node_modules', 'nsfwjs', 'dist', 'models', 'mobilenet_v2');
  const json = require(path.join(mdir, 'model.min.js'));
  const shards = json.weightsManifest[0].paths.map((p) =>
    Buffer.from(require(path.join(mdir, `${p}.min.js`)), 'base64'));
  const wbuf = Buffer.concat(shards);
  const weightData = wbuf.buffer.slice(wbuf.byteOffset, wbuf.byteOffset + wbuf.length);
  const weightSpecs = json.weightsManifest.flatMap((g) => g.weights);
  const full = await tf.loadLayersModel(tf.io.fromMemory({ modelTopology: json.modelTopology, weightSpecs, weightData }));
  const cut = tf.model({ inputs: full.inputs, outputs: full.getLayer('out_relu').output });

  const { data } = readNpy(srcFile, '|u1');
  const out = Buffer.alloc((hi - lo) * DIM * 4);
  for (let r = lo; r < hi; r += BATCH) {
    const n = Math.min(BATCH, hi - r);
    const emb = tf.tidy(() => {
      const px = tf.tensor4d(Uint8Array.from(data.subarray(r * PIX, (r + n) * PIX)), [n, SIDE, SIDE, 1], 'int32');
      const x = px.toFloat().div(tf.scalar(255));
      const rs = tf.image.resizeBilinear(x, [SIZE, SIZE], true);
      const rgb = tf.tile(rs, [1, 1, 1, 3]);
      return cut.predict(rgb).mean([1, 2]);
    });
    const v = emb.dataSync();
    emb.dispose();
    Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(out, (r - lo) * DIM * 4);
  }
  fs.writeFileSync(outFile, out);
}

// ---- parent: split the work, join, convert, write ----
function runChild(args) {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', ...args.map(String)], { stdio: 'inherit' });
    c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker ${args.join(' ')} exited ${code}`))));
  });
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], Number(argv[2]), Number(argv[3]), argv[4]);
  let dtype = 'f2', jobs = 2;
  const pos = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dtype') dtype = argv[++i];
    else if (argv[i] === '--jobs') jobs = Number(argv[++i]);
    else pos.push(argv[i]);
  }
  if (pos.length !== 2 || !['f2', 'f4'].includes(dtype) || !(jobs >= 1))
    die('usage: node extract.js SRC_DIR OUT_DIR [--dtype f2|f4] [--jobs N]');
  const [src, dst] = pos;
  fs.mkdirSync(dst, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsfeat-'));
  try {
    for (const s of SPLITS) {
      const file = path.join(src, `${s}_features.npy`);
      const { dims } = readNpy(file, '|u1');
      if (dims.length !== 2 || dims[1] !== PIX) die(`${file}: expected N×${PIX} images`);
      const n = dims[0], t0 = Date.now();
      const per = Math.ceil(n / jobs), work = [];
      for (let j = 0; j < jobs; j++) {
        const lo = Math.min(n, j * per), hi = Math.min(n, lo + per);
        if (hi > lo) work.push([file, lo, hi, path.join(tmp, `${s}.${j}`)]);
      }
      await Promise.all(work.map(runChild));
      const f = new Float32Array(n * DIM);
      let at = 0;
      for (const w of work) {
        const b = fs.readFileSync(w[3]);
        f.set(new Float32Array(b.buffer, b.byteOffset, b.length / 4), at);
        at += b.length / 4;
      }
      let body;
      if (dtype === 'f4') {
        body = Buffer.from(f.buffer);
      } else {
        const h = new Uint16Array(f.length);
        for (let i = 0; i < f.length; i++) h[i] = toHalf(f[i]);
        body = Buffer.from(h.buffer);
      }
      writeAtomic(path.join(dst, `${s}_features.npy`), [npyHeader(`<${dtype}`, n, DIM), body]);
      fs.copyFileSync(path.join(src, `${s}_labels.npy`), path.join(dst, `${s}_labels.npy`));
      process.stderr.write(`${s}: ${n} images, ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) main().catch((e) => die(e.message || String(e)));
module.exports = { readNpy, npyHeader, toHalf };
