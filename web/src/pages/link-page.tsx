import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Choice, type ClickSeries, isHourly, type OneLink, type TopList as TopListData } from '../api';
import { AppLink } from '../components/app-link';
import { ClicksChart } from '../components/clicks-chart';
import { CopyButton } from '../components/copy-button';
import { PreviewSection } from '../components/preview-card';
import { QrCode } from '../components/qr-code';
import { RangePicker } from '../components/range-picker';
import { usePresentedToken } from '../components/token-identity';
import { TopList } from '../components/top-list';
import { formatDateTime, linkStatus } from '../format';
import { paths } from '../router';
import { RuleClicks } from '../rules/rule-clicks';
import { RulesSection } from '../rules/rules-section';
import { VisitTest } from '../rules/visit-test';
import { type AnalyticsLevel, analyticsLevel } from '../server-facts';
import { currentToken, useSession } from '../session';
import { LinkTags } from '../tags/link-tags';
import { NO_FILTER, searchWithFilter, type TagFilter } from '../tags/tag-filter';

/** The dimensions a link's page lists, in the API's names; bots are apart (their clicks are in no other figure). */
export const DIMENSIONS = [
  ['referers', 'Referrers'],
  ['countries', 'Countries'],
  ['browsers', 'Browsers'],
  ['operating-systems', 'Operating systems'],
  ['device-types', 'Device types'],
  ['languages', 'Languages'],
] as const;

type Tops = Partial<Record<string, TopListData>>;

/**
 * The top lists this server can answer: none with analytics off, the bots' and the links' only with `minimal`
 * (it records the time, the link and the bot, nothing else).
 */
function recordedDimensions(level: AnalyticsLevel, dimensions: readonly string[]): readonly string[] {
  if (level === 'off') return [];
  if (level === 'minimal') return dimensions.filter((dimension) => dimension === 'bots' || dimension === 'short-links');
  return dimensions;
}

/**
 * The analytics of one period: clicks over time and every top list, for a link or (link undefined) the workspace.
 * Nothing is asked of a server with analytics off. `filter`: the workspace's links it keeps by their tags only.
 */
export function useAnalytics(choice: Choice, link: string | undefined, wanted: readonly string[], level: AnalyticsLevel, filter = NO_FILTER) {
  const dimensions = recordedDimensions(level, wanted);
  const [series, setSeries] = useState<ClickSeries | null>(null);
  const [tops, setTops] = useState<Tops>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setSeries(null);
    setTops({});
    setError(null);
    if (level === 'off') return;
    const fail = (e: unknown) => current && setError(e instanceof ApiError ? e.message : 'Could not load the figures.');
    api.clicks(choice, link, filter).then((s) => current && setSeries(s), fail);
    for (const dimension of dimensions) {
      api.top(dimension, choice, link, undefined, filter).then((list) => current && setTops((all) => ({ ...all, [dimension]: list })), fail);
    }
    return () => {
      current = false;
    };
  }, [JSON.stringify(choice), link, dimensions.join(), level, searchWithFilter('', filter)]);
  return { series, tops, error };
}

/** What Figures shows of a link (`link`: domain/slug) or, without one, of the workspace: a range (7 days at first) and its figures. */
export function useFigures(link: string | undefined, wanted: readonly string[], filter: TagFilter = NO_FILTER) {
  const [range, setRange] = useState<Choice>('7d');
  const level = analyticsLevel();
  return { range, onRange: setRange, level, ...useAnalytics(range, link, wanted, level, filter) };
}

const ALL = [...DIMENSIONS.map(([dimension]) => dimension), 'bots'];

export function LinkPage(props: { domain: string; slug: string }) {
  const figures = useFigures(`${props.domain}/${props.slug}`, ALL);
  const [link, setLink] = useState<OneLink | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  // A viewer reads the rules; a member edits them, and a token acting as one with the scope to (the server checks again).
  const { person } = useSession();
  const presented = usePresentedToken(person ? null : currentToken());
  const scopes = presented?.token.scopes ?? [];
  const role = person?.workspace.role ?? presented?.token.role ?? 'viewer';
  const editable = role !== 'viewer' && (person !== null || scopes.length === 0 || scopes.includes('links:write'));
  useEffect(() => {
    api.link(props.domain, props.slug).then(setLink, (e: unknown) => setMissing(e instanceof ApiError ? e.message : 'Could not load the link.'));
  }, [props.domain, props.slug]);

  if (missing) {
    return (
      <div class="card">
        <p class="error" role="alert">
          {missing}
        </p>
        <AppLink href={paths.links}>Back to My links</AppLink>
      </div>
    );
  }
  return (
    <>
      <p>
        <AppLink href={paths.links}>← My links</AppLink>
      </p>
      {link && (
        <section class="card link-summary" aria-label="The link">
          <div>
            <p class="short-url">
              <a href={link.shortUrl} target="_blank" rel="noreferrer">
                {link.shortUrl}
              </a>
              <CopyButton text={link.shortUrl} />
            </p>
            <p class="break">
              Goes to{' '}
              <a href={link.originalUrl} target="_blank" rel="noreferrer">
                {link.originalUrl}
              </a>
            </p>
            {link.comment && <p class="muted">{link.comment}</p>}
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <span class={`badge ${linkStatus(link).kind}`}>{linkStatus(link).text}</span>
              </dd>
              <LinkTags tags={link.tags} />
              <dt>Created</dt>
              <dd>{formatDateTime(link.createdAt)}</dd>
              <dt>Expires</dt>
              <dd>{link.expiresAt ? formatDateTime(link.expiresAt) : 'Never'}</dd>
              {link.maxVisits !== null && (
                <>
                  <dt>Visit limit</dt>
                  <dd>
                    {link.maxVisits} {link.maxVisits === 1 ? 'visit' : 'visits'}{' '}
                    <span class="muted">(visits by people; after that many, the link stops redirecting)</span>
                  </dd>
                </>
              )}
              <dt>Clicks, all time</dt>
              <dd>
                {link.statsClicks} <span class="muted">(every visit since it was made, bots included)</span>
              </dd>
            </dl>
          </div>
          <QrCode shortUrl={link.shortUrl} name={link.slug} size={144} />
        </section>
      )}
      {link && <PreviewSection preview={link.preview} domain={link.domain} />}
      {link && <RulesSection link={link} editable={editable} onSaved={setLink} />}
      {link && <VisitTest link={link} />}
      <Figures
        {...figures}
        counts="The chart counts visits by people in the chosen range. Visits by bots (listed under Bots, below) are not in it, nor are visits from before this server recorded analytics: “Clicks, all time” counts those too."
        off="“Clicks, all time”, above, still counts every visit."
        // What each visit took of the rules is recorded with the visitor's other details: not with ANALYTICS=minimal.
        extra={link && link.rules.length > 0 && figures.level === 'full' && <RuleClicks link={link} range={figures.range} />}
      />
    </>
  );
}

/** The range picker, the clicks chart and the top lists, with the bots' list apart; or why there are none. */
export function Figures(props: {
  range: Choice;
  onRange: (range: Choice) => void;
  series: ClickSeries | null;
  tops: Tops;
  error: string | null;
  level: AnalyticsLevel;
  /** What the chart counts and what it does not, said under it. */
  counts: string;
  /** With analytics off: what the page still counts. */
  off: string;
  children?: ComponentChildren;
  /** Under the chart, before the top lists. */
  extra?: ComponentChildren;
}) {
  if (props.level === 'off') {
    return (
      <section class="figures" aria-labelledby="figures-heading">
        {props.children}
        <h2 id="figures-heading">Clicks</h2>
        <div class="card analytics-off">
          <p>
            <strong>Analytics is off on this server</strong>, so visits are not recorded: there are no charts or top lists to show. {props.off}
          </p>
          <p class="muted">
            Its administrator can turn analytics on with the <code>ANALYTICS</code> setting (<code>full</code> or <code>minimal</code>); the visits
            from then on are shown here.
          </p>
        </div>
      </section>
    );
  }
  return (
    <section class="figures" aria-labelledby="figures-heading">
      <div class="toolbar">
        <h2 id="figures-heading">Clicks</h2>
        <RangePicker value={props.range} onChange={props.onRange} />
      </div>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {props.children}
      <div class="card">
        {props.series ? <ClicksChart series={props.series} hourly={isHourly(props.range)} /> : <p class="muted">Loading…</p>}
        <p class="muted counts">{props.counts}</p>
      </div>
      {props.extra}
      {props.level === 'minimal' ? (
        <p class="card muted minimal">
          This server records only when each visit happened and whether a bot made it (<code>ANALYTICS=minimal</code>): no referrers, countries,
          browsers, operating systems, devices or languages.
        </p>
      ) : (
        <div class="grid">
          {DIMENSIONS.map(([dimension, title]) => (
            <TopList key={dimension} title={title} list={props.tops[dimension]} />
          ))}
        </div>
      )}
      <div class="grid">
        <TopList title="Bots (not counted above)" list={props.tops.bots} empty="No bots in this range." />
      </div>
    </section>
  );
}
