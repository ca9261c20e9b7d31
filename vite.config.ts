// The web app (web/) built into dist/web-app/: hashed names under /assets/, which the server
// (src/web/) answers with Cache-Control: immutable. Pre-compressed copies (.br, .gz) are written
// beside each asset so the server never compresses on a request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const OUT_DIR = path.resolve(import.meta.dirname, 'dist/web-app');

function precompress(): Plugin {
  return {
    name: 'brief-precompress',
    apply: 'build',
    closeBundle() {
      const assets = path.join(OUT_DIR, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css|svg)$/.test(name)) continue;
        const body = readFileSync(path.join(assets, name));
        writeFileSync(path.join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
        writeFileSync(path.join(assets, `${name}.br`), brotliCompressSync(body));
      }
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'web'),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: OUT_DIR,
    emptyOutDir: true,
    assetsDir: 'assets',
    // Every asset a file of its own: an inline data: URL would need a looser Content-Security-Policy.
    assetsInlineLimit: 0,
    target: 'es2022',
    reportCompressedSize: false,
  },
  plugins: [precompress()],
});
