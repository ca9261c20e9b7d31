#!/usr/bin/env node
// `npm start`, and `npm install`/`npm ci` (the `prepare` script), run this: it builds (`npm run build`)
// only when the build is missing, a source is newer than it, or the dependencies changed since it was
// made, so a built clone starts in a second or two (issue 25 item 2, decision 0016). The build is
// dist/main.js and dist/web-app/index.html (the older of the two); the sources are every file under
// src/ and web/, tsconfig.json, vite.config.ts and scripts/build-server.mjs; the dependencies are package-lock.json's content,
// whose hash `npm run build` records in dist/.lockfile-sha256 (by content, since npm rewrites the file
// on every install).
// Usage: node scripts/build-if-stale.mjs [--check | --stamp] [--root DIR]
//   --check  only say whether a build is needed (exit 0: up to date, 1: stale), never build
//   --stamp  record the lockfile's hash beside the build and make dist/main.js executable (the last
//            step of `npm run build`)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_DIRS = ['src', 'web'];
const SOURCE_FILES = ['tsconfig.json', 'vite.config.ts', 'scripts/build-server.mjs'];
const BUILD_FILES = ['dist/main.js', 'dist/web-app/index.html'];
const LOCKFILE = 'package-lock.json';
const LOCK_STAMP = 'dist/.lockfile-sha256';

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const stampOnly = args.includes('--stamp');
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

/** The lockfile's content hash, or '' without a lockfile. */
function lockHash() {
  try {
    return createHash('sha256')
      .update(readFileSync(path.join(root, LOCKFILE)))
      .digest('hex');
  } catch {
    return '';
  }
}

function readStamp() {
  try {
    return readFileSync(path.join(root, LOCK_STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
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
  if (latest[0] > built) return `${path.relative(root, latest[1])} is newer than the build`;
  const stamp = readStamp();
  if (stamp !== undefined && stamp !== lockHash()) return `${LOCKFILE} changed since the build`;
  return undefined;
}

if (stampOnly) {
  writeFileSync(path.join(root, LOCK_STAMP), `${lockHash()}\n`);
  // dist/main.js is the package's `brief` command. npm links it before `prepare` builds it, so on a
  // fresh clone it never made the file executable, and `npx brief` said "Permission denied".
  chmodSync(path.join(root, 'dist/main.js'), 0o755);
  process.exit(0);
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
