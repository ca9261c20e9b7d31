// `node --import tsx bench/profile-summary.ts FILE.cpuprofile [N]`: self and inclusive time
// per function (top N), to read a server profile from `npm run bench -- --profile`.
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const [file, topArg] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(file!, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|src)\//, '')}:${n.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  all += dt;
  const n = byId.get(id)!;
  self.set(name(n), (self.get(name(n)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const key = name(byId.get(cur)!);
    if (seen.has(key)) continue;
    total.set(key, (total.get(key) ?? 0) + dt);
    seen.add(key);
  }
});
const top = Number(topArg ?? 30);
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(all / 1e6).toFixed(1)} s)`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * v) / all).toFixed(1).padStart(5)}%  ${k}`);
};
show('self time', self);
show('inclusive time', total);
