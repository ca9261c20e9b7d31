import type { TopList as TopListData } from '../api';

/** One "top" list: label, clicks and a bar in proportion to the first, as a real list. */
export function TopList(props: { title: string; list: TopListData | undefined; empty?: string }) {
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
              <span class="top-label">{entry.label}</span>
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
