// The link-preview fetchers (src/visitors/preview-fetchers.ts, decision 0041): the one expression the redirect's card
// step tests matches each app's fetcher and nobody else (people, in-app browsers, search engines, other bots, curl);
// each fetcher is a bot, named as analytics records it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { botName } from '../../src/visitors/bots.js';
import { PREVIEW_FETCHER, PREVIEW_FETCHERS } from '../../src/visitors/preview-fetchers.js';
import { OTHER_BOT_AGENTS, PEOPLE_AGENTS, PREVIEW_FETCHER_AGENTS } from '../support/preview-fetchers.js';

describe('preview fetchers', () => {
  it("matches each app's fetcher, which is a bot named as analytics records it", () => {
    for (const [app, agent, name] of PREVIEW_FETCHER_AGENTS) {
      assert.ok(PREVIEW_FETCHER.test(agent), `${app}: ${agent}`);
      assert.equal(botName(agent), name, app);
    }
  });

  it('matches no person: browsers and the apps’ in-app browsers', () => {
    for (const agent of PEOPLE_AGENTS) {
      assert.equal(PREVIEW_FETCHER.test(agent), false, agent);
      assert.equal(botName(agent), null, agent);
    }
  });

  it('matches no other bot: search engines, Slack’s other fetchers, tools', () => {
    for (const agent of OTHER_BOT_AGENTS) {
      assert.equal(PREVIEW_FETCHER.test(agent), false, agent);
      assert.notEqual(botName(agent), null, `${agent} is still a bot`);
    }
  });

  it('has a real user agent for every fetcher it lists, and the one expression agrees with the list', () => {
    for (const [pattern, name] of PREVIEW_FETCHERS) {
      assert.ok(
        PREVIEW_FETCHER_AGENTS.some(([, agent]) => pattern.test(agent)),
        `no user agent of the tests is ${name}'s: the list names a fetcher nobody checked`,
      );
    }
    for (const [, agent] of PREVIEW_FETCHER_AGENTS) {
      assert.equal(
        PREVIEW_FETCHER.test(agent),
        PREVIEW_FETCHERS.some(([pattern]) => pattern.test(agent)),
        agent,
      );
    }
  });
});
