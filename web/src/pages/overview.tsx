import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { TopList } from '../components/top-list';
import { paths } from '../router';
import { searchWithFilter } from '../tags/tag-filter';
import { TagFilterBar } from '../tags/tag-filter-bar';
import { useKnownTags, useTagFilter } from '../tags/use-tags';
import { DIMENSIONS, Figures, useFigures } from './link-page';

const ALL = ['short-links', ...DIMENSIONS.map(([dimension]) => dimension), 'bots'];

/**
 * The workspace: totals and top links for the range, then the same figures as a link's page; all of them of the
 * links a filter by tags keeps, when one is set (kept in the page's address, as My links keeps its own).
 */
export function OverviewPage() {
  const [filter, setFilter] = useTagFilter();
  const known = useKnownTags();
  const figures = useFigures(undefined, ALL, filter);
  const { tops, level } = figures;
  const [links, setLinks] = useState<number | null>(null);
  useEffect(() => {
    let current = true;
    setLinks(null);
    api.list(1, 1, '', filter).then(
      (page) => current && setLinks(page.metadata.total),
      () => current && setLinks(null),
    );
    return () => {
      current = false;
    };
  }, [searchWithFilter('', filter)]);
  const clicks = figures.series?.data.reduce((sum, point) => sum + point.click, 0);
  const bots = tops.bots?.data.reduce((sum, entry) => sum + entry.click, 0);
  return (
    <Figures
      {...figures}
      counts="The chart counts visits by people to your links in the chosen range; bots' visits are counted apart, under Bot visits and Bots."
      off="The clicks of each link in My links still count every visit."
      extra={
        <div class="grid one">
          <TopList title="Top links" list={tops['short-links']} href={linkPage} />
        </div>
      }
    >
      <TagFilterBar id="overview-filter" known={known} filter={filter} onChange={setFilter} />
      <dl class="totals">
        {level !== 'off' && (
          <>
            <div>
              <dt>Clicks</dt>
              <dd>{clicks ?? '…'}</dd>
            </div>
            <div>
              <dt>Bot visits</dt>
              <dd>{bots ?? '…'}</dd>
            </div>
          </>
        )}
        <div>
          <dt>Links</dt>
          <dd>{links ?? '…'}</dd>
        </div>
      </dl>
    </Figures>
  );
}

/** A top link is labelled by its short URL: its page in the app is /app/links/{host}/{key}. */
function linkPage(shortUrl: string): string | undefined {
  try {
    const url = new URL(shortUrl);
    return paths.link(url.host, decodeURIComponent(url.pathname.slice(1)));
  } catch {
    return undefined;
  }
}
