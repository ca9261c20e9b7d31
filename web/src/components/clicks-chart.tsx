import { useEffect, useRef, useState } from 'preact/hooks';
import type { ClickSeries } from '../api';

const HEIGHT = 200;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };

/** A round number of clicks at or above `max` for the axis: 1, 2, 5 × 10^n. */
function niceCeiling(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

function label(date: string, hourly: boolean): string {
  // The API names a day `YYYY-MM-DD` and an hour `YYYY-MM-DDTHH…`: shown as `MM-DD` and `HH:00`.
  if (hourly) return `${date.slice(11, 13)}:00`;
  return date.slice(5, 10);
}

/** The element's width in CSS pixels, kept up to date: the chart is drawn at 1:1, so its text never shrinks on a phone. */
function useWidth(fallback: number) {
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current!;
    const observer = new ResizeObserver(() => setWidth(Math.max(240, Math.round(element.clientWidth))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * Clicks over time as SVG bars, drawn here (no charting library: see decision 0011). Each bar has
 * a <title> (hover, screen readers), and the figure's text says the total.
 */
export function ClicksChart(props: { series: ClickSeries; hourly: boolean }) {
  const [ref, width] = useWidth(640);
  const points = props.series.data;
  const total = points.reduce((sum, point) => sum + point.click, 0);
  const top = niceCeiling(Math.max(0, ...points.map((point) => point.click)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, points.length);
  const barWidth = Math.max(1, slot * 0.7);
  const every = Math.ceil(points.length / Math.max(2, Math.floor(plotWidth / 56)));
  const y = (clicks: number) => PAD.top + plotHeight - (clicks / top) * plotHeight;
  return (
    <figure class="chart" ref={ref}>
      <svg
        viewBox={`0 0 ${width} ${HEIGHT}`}
        width={width}
        height={HEIGHT}
        role="img"
        aria-label={`Clicks over time: ${total} in all, ${points.length} ${props.hourly ? 'hours' : 'days'}`}
      >
        {[0, top / 2, top].map((tick) => (
          <g key={tick}>
            <line class="gridline" x1={PAD.left} x2={width - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text class="axis" x={PAD.left - 6} y={y(tick) + 4} text-anchor="end">
              {tick}
            </text>
          </g>
        ))}
        {points.map((point, i) => (
          <rect
            key={point.date}
            class="bar"
            x={PAD.left + i * slot + (slot - barWidth) / 2}
            y={y(point.click)}
            width={barWidth}
            height={Math.max(0, PAD.top + plotHeight - y(point.click))}
          >
            <title>{`${point.date}: ${point.click} ${point.click === 1 ? 'click' : 'clicks'}`}</title>
          </rect>
        ))}
        {points.map((point, i) =>
          i % every === 0 ? (
            <text key={`l${point.date}`} class="axis" x={PAD.left + i * slot + slot / 2} y={HEIGHT - 8} text-anchor="middle">
              {label(point.date, props.hourly)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        <strong class="total">{total}</strong> {total === 1 ? 'click' : 'clicks'} by people in this range
      </figcaption>
    </figure>
  );
}
