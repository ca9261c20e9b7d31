#!/usr/bin/env node
// Every package the lockfile installs must accept the oldest Node.js that package.json's `engines`
// promises, and the Node.js running this script: otherwise `npm ci` prints EBADENGINE warnings
// (decision 0016). Usage: node scripts/check-engines.mjs [package-lock.json] [package.json]
import { readFileSync } from 'node:fs';
import semver from 'semver';

const [lockPath = 'package-lock.json', manifestPath = 'package.json'] = process.argv.slice(2);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const promised = manifest.engines?.node;
if (!promised || !semver.validRange(promised)) {
  console.error(`check-engines: ${manifestPath} has no valid engines.node`);
  process.exit(1);
}
const oldest = semver.minVersion(promised).version;
const versions = [...new Set([oldest, process.versions.node])];

const refused = [];
for (const [where, entry] of Object.entries(lock.packages ?? {})) {
  const range = entry.engines?.node;
  if (!where || typeof range !== 'string') continue;
  const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
  for (const version of versions) {
    if (!semver.satisfies(version, range)) refused.push(`${name}@${entry.version} wants node ${range}, not ${version}`);
  }
}
if (refused.length > 0) {
  console.error(`check-engines: ${refused.length} refusal(s) (engines.node ${promised}, checked ${versions.join(' and ')}):`);
  for (const line of refused) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`check-engines: every package in ${lockPath} accepts node ${versions.join(' and ')}`);
