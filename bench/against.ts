// `npm run bench -- --against REF`: another commit of Brief, built in a temporary worktree, to run
// side by side with this checkout round by round, so a change is judged against main in one sitting.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export interface OtherBuild {
  /** REF as given, with its commit: `main (5be5d3b)`. */
  label: string;
  /** The worktree: its dist/main.js is the server. */
  dir: string;
  /** Preloads a database with that build's own migrations and bench/preload.ts (its schema may differ). */
  preload(file: string, domain: string, links: number): void;
  remove(): void;
}

/** Checks REF out into a temporary worktree, installs its dependencies and builds it. */
export function buildOther(ref: string): OtherBuild {
  const run = (command: string, args: string[], cwd: string) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
  const commit = run('git', ['rev-parse', '--short', `${ref}^{commit}`], ROOT).trim();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `brief-against-${commit}-`));
  run('git', ['worktree', 'add', '--detach', dir, commit], ROOT);
  const remove = () => {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
  };
  try {
    // The same lockfile: this checkout's packages serve (a link, no second install). Another one:
    // a copy of them brought to that lockfile by `npm install`, which keeps every package whose
    // version is unchanged (better-sqlite3 is compiled from source where no prebuilt binary can be
    // fetched: minutes for a fresh `npm ci`).
    const sameLock = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8') === fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8');
    if (sameLock) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    else {
      fs.cpSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], dir);
    }
    run('npm', ['run', 'build'], dir);
  } catch (error) {
    remove();
    throw error;
  }
  return {
    label: `${ref} (${commit})`,
    dir,
    preload(file, domain, links) {
      const script = `const { preloadLinks } = await import(${JSON.stringify(path.join(dir, 'bench/preload.ts'))}); await preloadLinks(${JSON.stringify(file)}, ${JSON.stringify(domain)}, ${links});`;
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: dir, stdio: 'inherit' });
    },
    remove,
  };
}
