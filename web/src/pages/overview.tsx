import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { TopList } from '../components/top-list';
import { paths } from '../router';
import { DIMENSIONS, Figures, useFigures } from './link-page';

const ALL = ['short-links', ...DIMENSIONS.map(([dimension]) => dimension), 'bots'];

/** The workspace: totals and top links for the range, then the same figures as a link's page. */
export function OverviewPage() {
  const figures = useFigures(undefined, ALL);
  const { tops, level } = figures;
  const [links, setLinks] = useState<number | null>(null);
  useEffect(() => {
    api.list(1, 1, '').then(
      (page) => setLinks(page.metadata.total),
      () => setLinks(null),
    );
  }, []);
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
