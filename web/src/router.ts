// The app's few pages, by path. Every page but the home page lives under /app/, a word Brief keeps
// (never a slug), so no short link can take one of them.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'shorten' }
  | { page: 'links' }
  | { page: 'link'; domain: string; slug: string }
  | { page: 'overview' }
  | { page: 'settings' }
  | { page: 'password' }
  | { page: 'invitation' }
  | { page: 'reset-password' }
  | { page: 'not-found' };

function routeOf(pathname: string): Route {
  if (pathname === '/' || pathname === '') return { page: 'shorten' };
  if (pathname === '/app/links' || pathname === '/app/links/') return { page: 'links' };
  if (pathname === '/app/overview' || pathname === '/app/overview/') return { page: 'overview' };
  if (pathname === '/app/settings' || pathname === '/app/settings/') return { page: 'settings' };
  if (pathname === '/app/settings/password' || pathname === '/app/settings/password/') return { page: 'password' };
  if (pathname === '/app/invitation' || pathname === '/app/invitation/') return { page: 'invitation' };
  if (pathname === '/app/reset-password' || pathname === '/app/reset-password/') return { page: 'reset-password' };
  const link = /^\/app\/links\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
  if (link) {
    try {
      return { page: 'link', domain: decodeURIComponent(link[1]!), slug: decodeURIComponent(link[2]!) };
    } catch {
      return { page: 'not-found' };
    }
  }
  return { page: 'not-found' };
}

export const paths = {
  shorten: '/',
  links: '/app/links',
  overview: '/app/overview',
  settings: '/app/settings',
  password: '/app/settings/password',
  link: (domain: string, slug: string) => `/app/links/${encodeURIComponent(domain)}/${encodeURIComponent(slug)}`,
};

const listeners = new Set<() => void>();

/** Goes to `path` (a query after it kept: `/app/links?tags=launch`), without a reload. */
export function navigate(path: string): void {
  if (path !== location.pathname + location.search) history.pushState(null, '', path);
  for (const listener of listeners) listener();
}

/**
 * Replaces the page's URL query (`?…`, or '' for none) in place: a page state kept there (My links' tag filter) is
 * shared and reloaded as it is, and each change of it is not a step for Back to undo.
 */
export function replaceSearch(search: string): void {
  if (search === location.search) return;
  history.replaceState(null, '', location.pathname + search);
  for (const listener of listeners) listener();
}

/** The page's URL query, following navigation and replaceSearch. */
export function useSearch(): string {
  return useAddress(() => location.search);
}

/**
 * A value read from the page's address, read again on each navigation: the app's own (navigate, replaceSearch) and
 * the browser's Back and Forward.
 */
function useAddress<T>(read: () => T): T {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = () => setValue(read());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return value;
}

export function useRoute(): Route {
  return useAddress(() => routeOf(location.pathname));
}

/** A same-app link: plain `<a href>` (so it opens in a new tab too), followed without a reload on a plain click. */
export function followLink(event: MouseEvent): void {
  const anchor = (event.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}
