// The pages a visitor of a short link sees (src/html/pages.ts) and the web app (web/src/styles.css)
// share one palette: the same custom properties with the same values, light and dark.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { PALETTE_CSS } from '../../src/html/pages.js';

/** Every `--name: value` in the light block and in the dark (prefers-color-scheme) block. */
function palette(css: string): { light: Record<string, string>; dark: Record<string, string> } {
  const darkStart = css.indexOf('prefers-color-scheme');
  assert.ok(darkStart > 0, 'a dark block');
  const pairs = (text: string) => Object.fromEntries([...text.matchAll(/(--[\w-]+)\s*:\s*([^;}\s]+)/g)].map((m) => [m[1]!, m[2]!.toLowerCase()]));
  return { light: pairs(css.slice(0, darkStart)), dark: pairs(css.slice(darkStart)) };
}

describe('the shared look', () => {
  it('has the same palette in the app and in the visitor pages', () => {
    const styles = fs.readFileSync(new URL('../../web/src/styles.css', import.meta.url), 'utf8');
    const block = /\/\* palette:start \*\/([\s\S]*?)\/\* palette:end \*\//.exec(styles)?.[1];
    assert.ok(block, 'styles.css marks its palette');
    const app = palette(block);
    const pages = palette(PALETTE_CSS);
    assert.ok(Object.keys(app.light).length >= 9);
    assert.deepEqual(pages.light, app.light);
    assert.deepEqual(pages.dark, app.dark);
    assert.deepEqual(Object.keys(app.dark).sort(), Object.keys(app.light).sort(), 'every colour has its dark value');
  });
});
