import { cardPage } from '../../html/pages.js';
import { PREVIEW_FETCHER } from '../../visitors/preview-fetchers.js';
import { cardAnswer } from '../redirect-answer.js';
import type { LinkOption } from './redirect-step.js';

/**
 * A link with a card (decision 0041): a link-preview fetcher gets the card page instead of the redirect, anyone else the
 * redirect as before; both answers say they depend on the User-Agent. The test is one regular expression compiled once,
 * not the visitor's parse, so a person's visit costs one test. Last of the steps: an expired or spent link answers its
 * 410 and a protected one its form to fetchers too (no card, nothing of the destination), and the page leads on to
 * where the redirect would have gone (a rule's target, the visitor's query). A fetch of the card is still a visit, of a bot.
 */
export const previewCard: LinkOption = (target, context) => {
  const preview = target.preview;
  if (preview === undefined) return undefined;
  return (visit) => {
    visit.varies = true;
    const agent = visit.request?.headers['user-agent'];
    if (agent === undefined || visit.unlocked || !PREVIEW_FETCHER.test(agent)) return undefined;
    const prefix = context.origins?.urlPrefixOf(visit.domain) ?? `https://${visit.domain}`;
    visit.page = cardAnswer(cardPage({ ...preview, shortUrl: `${prefix}${visit.path}`, destination: visit.location() }));
    return undefined;
  };
};
