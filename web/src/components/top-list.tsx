import type { ComponentChildren } from 'preact';
import type { TopList as TopListData } from '../api';
import { AppLink } from './app-link';

type Entry = TopListData['data'][number];

/**
 * One "top" list: label (a link to the app's page for it, when `href` gives one, or what `show` makes of the entry),
 * clicks and a bar in proportion to the first.
 */
export function TopList(props: {
  title: string;
  list: TopListData | undefined;
  empty?: string;
  href?: (label: string) => string | undefined;
  show?: (entry: Entry) => ComponentChildren;
}) {
  const data = props.list?.data ?? [];
  const most = Math.max(1, ...data.map((entry) => entry.click));
  return (
    <section class="top-list" aria-label={props.title}>
      <h3>{props.title}</h3>
      {props.list === undefined ? (
        <p class="muted">Loading…</p>
      ) : data.length === 0 ? (
        <p class="muted">{props.empty ?? 'No clicks in this range.'}</p>
      ) : (
        <ol>
          {data.map((entry) => (
            <li key={entry.label}>
              <span class="top-label">{props.show ? props.show(entry) : linked(entry.label, props.href?.(entry.label))}</span>
              <span class="top-count">{entry.click}</span>
              <span class="top-bar" aria-hidden="true">
                <span style={{ width: `${(entry.click / most) * 100}%` }} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const linked = (label: string, href: string | undefined) => (href === undefined ? label : <AppLink href={href}>{label}</AppLink>);
