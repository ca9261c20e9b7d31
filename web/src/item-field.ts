// The shorten form sends a link with a password, an expiry or tags as a one-item bulk call (web/src/api.ts).

/**
 * The field a bulk item's problem is about. A request refused as a whole names it `0.password` (the first item's);
 * an item refused on its own carries only the API's message, which names its field the API's way ("The slug field…",
 * "The slug has already been taken", "The selected domain is invalid").
 */
export function itemField(text: string): string | undefined {
  const named = /^(?:\[?0\]?[./])?(url|slug|domain|comment|password|expiredAt|tags)(?:[./]\d+)?$/.exec(text.replace(/^\//, ''));
  if (named) return named[1];
  return /^The (?:selected )?(url|slug|domain|comment|password|expiredAt|tags)\b/.exec(text)?.[1];
}
