// The links between the README and the pages of docs/ lead somewhere (issue 38): the manual moved out of the
// README into docs/, and a link to a file that moved, or to a heading that was renamed, fails here naming both.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md and every Markdown page under docs/, from the root. */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs.sort()];
}

/** The text outside code: fenced blocks and inline code hold examples, not links (lines kept, for their numbers). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** A heading's anchor as GitHub makes it: its text lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a page has: its headings' (a repeated one gets -1, -2, …) and explicit ids. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const counts = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const seen = counts.get(base) ?? 0;
      counts.set(base, seen + 1);
      found.add(seen === 0 ? base : `${base}-${seen}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(id[1]!);
  }
  return found;
}

interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

function links(page: string): Link[] {
  return prose(fs.readFileSync(path.join(ROOT, page), 'utf8')).flatMap((text, index) =>
    [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)|<img[^>]*\ssrc="([^"]+)"|<a[^>]*\shref="([^"]+)"/g)].map((match) => ({
      page,
      line: index + 1,
      target: (match[1] ?? match[2] ?? match[3])!,
    })),
  );
}

/** Why a link leads nowhere, or undefined when it leads somewhere. */
function broken(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // https:, mailto: …
  const [file, fragment] = link.target.split('#', 2) as [string, string | undefined];
  const resolved = file === '' ? link.page : path.normalize(path.join(path.dirname(link.page), decodeURIComponent(file)));
  if (resolved.startsWith('..')) return `${link.target} leaves the repository`;
  if (!fs.existsSync(path.join(ROOT, resolved))) return `${link.target}: no ${resolved}`;
  if (fragment && resolved.endsWith('.md') && !anchors(fs.readFileSync(path.join(ROOT, resolved), 'utf8')).has(fragment)) {
    return `${link.target}: ${resolved} has no heading #${fragment}`;
  }
  return undefined;
}

/** The Markdown page a link leads to: the file, or a folder's README.md (what GitHub shows for a folder). */
function reachedPage(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined;
  const file = link.target.split('#', 1)[0]!;
  if (file === '') return undefined;
  const resolved = path.normalize(path.join(path.dirname(link.page), decodeURIComponent(file)));
  const page = resolved.endsWith('.md') ? resolved : path.join(resolved, 'README.md');
  return fs.existsSync(path.join(ROOT, page)) ? page : undefined;
}

describe('links in the README and docs/', () => {
  it('every relative link reaches a file, and every #anchor a heading of it', () => {
    const all = pages().flatMap(links);
    assert.ok(
      all.some((link) => link.page === 'README.md' && link.target === 'docs/configuration.md'),
      'the README links the pages',
    );
    const problems = all.flatMap((link) => {
      const why = broken(link);
      return why ? [`${link.page}:${link.line}: ${why}`] : [];
    });
    assert.deepEqual(problems, [], `links that lead nowhere:\n${problems.join('\n')}`);
  });

  it('reaches every page under docs/ from the README, link by link', () => {
    const byPage = new Map(pages().map((page) => [page, links(page)]));
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      for (const link of byPage.get(queue.shift()!) ?? []) {
        const target = reachedPage(link);
        if (target && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    const unreached = [...byPage.keys()].filter((page) => !reached.has(page));
    assert.deepEqual(unreached, [], `no page links ${unreached.join(', ')}: link it from the README's "Read on" or a page it reaches`);
  });

  it('makes anchors as GitHub does', () => {
    assert.equal(slug('GET /v2/qrcode'), 'get-v2qrcode');
    assert.equal(slug('Domains (v3)'), 'domains-v3');
    assert.equal(slug('Custom ranges: `from` and `to`'), 'custom-ranges-from-and-to');
    assert.equal(slug('GET /v3/shorten/analytics/top-{dimension}'), 'get-v3shortenanalyticstop-dimension');
    assert.equal(slug('First start (2026-11-25)'), 'first-start-2026-11-25');
  });
});
