import { RANGES, type Range } from '../api';

const NAMES: Record<Range, string> = {
  '24h': 'Last 24 hours',
  '3d': 'Last 3 days',
  '7d': 'Last 7 days',
  '14d': 'Last 14 days',
  '30d': 'Last 30 days',
  '60d': 'Last 60 days',
};

export function RangePicker(props: { value: Range; onChange: (range: Range) => void }) {
  return (
    <div class="field inline">
      <label for="range">Range</label>
      <select id="range" value={props.value} onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value as Range)}>
        {RANGES.map((range) => (
          <option key={range} value={range}>
            {NAMES[range]}
          </option>
        ))}
      </select>
    </div>
  );
}
