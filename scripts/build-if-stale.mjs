#!/usr/bin/env node
// `npm start` runs this before the server: it builds (`npm run build`) only when the build is missing
// or a source is newer than it, so a built clone starts in a second or two (issue 25 item 2,
// decision 0016). The build is dist/main.js and dist/web-app/index.html (the older of the two);
// the sources are every file under src/ and web/, tsconfig.json and vite.config.ts. Dependencies are
// not compared: `npm install` and `npm ci` build anyway (the `prepare` script).
// Usage: node scripts/build-if-stale.mjs [--check] [--root DIR]
//   --check  only say whether a build is needed (exit 0: up to date, 1: stale), never build
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_DIRS = ['src', 'web'];
const SOURCE_FILES = ['tsconfig.json', 'vite.config.ts'];
const BUILD_FILES = ['dist/main.js', 'dist/web-app/index.html'];

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const rootAt = args.indexOf('--root');
const root = rootAt >= 0 ? path.resolve(args[rootAt + 1] ?? '.') : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest file under dir (recursively), as [mtime, path]. */
function newest(dir, found = [Number.NEGATIVE_INFINITY, '']) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found = newest(file, found);
    else if (entry.isFile()) {
      const time = mtime(file) ?? Number.NEGATIVE_INFINITY;
      if (time > found[0]) found = [time, file];
    }
  }
  return found;
}

/** Why a build is needed, or undefined when the build is up to date. */
function staleness() {
  let built = Number.POSITIVE_INFINITY;
  for (const file of BUILD_FILES) {
    const time = mtime(path.join(root, file));
    if (time === undefined) return `${file} is missing`;
    built = Math.min(built, time);
  }
  let latest = [Number.NEGATIVE_INFINITY, ''];
  for (const dir of SOURCE_DIRS) latest = newest(path.join(root, dir), latest);
  for (const file of SOURCE_FILES) {
    const time = mtime(path.join(root, file));
    if (time !== undefined && time > latest[0]) latest = [time, path.join(root, file)];
  }
  return latest[0] > built ? `${path.relative(root, latest[1])} is newer than the build` : undefined;
}

const reason = staleness();
if (checkOnly) {
  console.log(reason ? `stale: ${reason}` : 'up to date');
  process.exit(reason ? 1 : 0);
}
if (reason) {
  console.error(`brief: building (${reason})`);
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', '-s', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(build.status ?? 1);
}
