import { useState } from 'preact/hooks';
import type { Choice, Range } from '../api';

/** A name for each of the server's ranges (its type: a range added there fails the typecheck until named here), in the menu's order. */
const NAMES: Record<Range, string> = {
  '24h': 'Last 24 hours',
  '1d': 'Today',
  '3d': 'Last 3 days',
  '7d': 'Last 7 days',
  '14d': 'Last 14 days',
  '30d': 'Last 30 days',
  '1m': 'Past month',
  '60d': 'Last 60 days',
};
const RANGES = Object.keys(NAMES) as Range[];

/** A local calendar day (YYYY-MM-DD), `days` from today. */
function day(days = 0): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The presets, and "Custom" with two days (both included) applied by a button. */
export function RangePicker(props: { value: Choice; onChange: (choice: Choice) => void }) {
  const [custom, setCustom] = useState(typeof props.value === 'object');
  const selected = custom ? 'custom' : (props.value as Range);
  const current = typeof props.value === 'object' ? props.value : { from: day(-13), to: day() };
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    props.onChange({ from: String(form.get('from')), to: String(form.get('to')) });
  };
  return (
    <div class="range-picker">
      <div class="field inline">
        <label for="range">Range</label>
        <select
          id="range"
          value={selected}
          onChange={(event) => {
            const value = (event.currentTarget as HTMLSelectElement).value;
            setCustom(value === 'custom');
            if (value !== 'custom') props.onChange(value as Range);
          }}
        >
          {RANGES.map((range) => (
            <option key={range} value={range}>
              {NAMES[range]}
            </option>
          ))}
          <option value="custom">Custom…</option>
        </select>
      </div>
      {custom && (
        <form class="custom-range" onSubmit={apply}>
          <div class="field inline">
            <label for="range-from">From</label>
            <input id="range-from" name="from" type="date" required defaultValue={current.from} max={day()} />
          </div>
          <div class="field inline">
            <label for="range-to">To</label>
            <input id="range-to" name="to" type="date" required defaultValue={current.to} max={day()} />
          </div>
          <button type="submit" class="secondary">
            Show
          </button>
        </form>
      )}
    </div>
  );
}
