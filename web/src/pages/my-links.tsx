import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Link, type LinkPage } from '../api';
import { ActionsHeader } from '../components/actions-header';
import { AppLink } from '../components/app-link';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { Modal } from '../components/modal';
import { QrCode } from '../components/qr-code';
import { formatDate, linkStatus } from '../format';
import { paths } from '../router';
import { TagChips } from '../tags/tag-chips';
import { describeFilter, isFiltering, searchWithFilter, type TagFilter } from '../tags/tag-filter';
import { TagFilterBar } from '../tags/tag-filter-bar';
import { useKnownTags, useTagColors, useTagFilter } from '../tags/use-tags';
import { EditLink } from './edit-link';

const PER_PAGE = 20;

type Dialog = { kind: 'edit' | 'delete' | 'qr'; link: Link } | null;

/** The caller's links, newest first: search, a filter by tags, pages, and each link's tags, copy, QR, edit and delete. */
export function MyLinksPage() {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<LinkPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState('');

  const [reloads, setReloads] = useState(0);
  const load = () => setReloads((n) => n + 1);
  const [filter, setFilter] = useTagFilter();
  const known = useKnownTags(reloads);
  const colors = useTagColors(known);
  const filterBy = (next: TagFilter) => {
    setFilter(next);
    setPage(1);
  };
  const filtered = isFiltering(filter) ? ` ${describeFilter(filter)}` : '';
  useEffect(() => {
    // Only the answer to the newest request is shown, whatever order the answers arrive in.
    let current = true;
    setError(null);
    api.list(page, PER_PAGE, query, filter).then(
      (answer) => current && setData(answer),
      (e: unknown) => current && setError(e instanceof ApiError ? e.message : 'Could not load your links.'),
    );
    return () => {
      current = false;
    };
  }, [page, query, reloads, searchWithFilter('', filter)]);

  // The search runs as the user types, a moment after the last key.
  useEffect(() => {
    if (search.trim() === query) return;
    const timer = setTimeout(() => {
      setQuery(search.trim());
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [search, query]);

  const lastPage = data ? Math.max(1, Math.ceil(data.metadata.total / PER_PAGE)) : 1;
  const close = (message?: string) => {
    setDialog(null);
    if (message) {
      setNotice(message);
      load();
    }
  };

  return (
    <>
      <div class="toolbar">
        <div class="field inline grow">
          <label for="search">Search</label>
          <input
            id="search"
            type="search"
            value={search}
            onInput={(e) => setSearch((e.currentTarget as HTMLInputElement).value)}
            placeholder="Slug, destination or comment"
          />
        </div>
        <AppLink href={paths.shorten} class="button primary">
          New link
        </AppLink>
      </div>
      <TagFilterBar id="links-filter" known={known} filter={filter} onChange={filterBy} />
      <p class="notice" role="status">
        {notice}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {data && data.links.length === 0 && (
        <p class="muted">{query || filtered ? `No link${filtered}${query ? ` matches “${query}”` : ''}.` : 'No links yet: shorten one.'}</p>
      )}
      {data && data.links.length > 0 && (
        <div class="table-wrap">
          <table class="links">
            <caption class="visually-hidden">
              Your links{filtered}, newest first{query ? `, matching “${query}”` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Short link</th>
                <th scope="col">Destination</th>
                <th scope="col" class="num">
                  Clicks
                </th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <ActionsHeader />
              </tr>
            </thead>
            <tbody>
              {data.links.map((link) => (
                <tr key={link.shortUrl}>
                  {/* Long keys and destinations end in an ellipsis, whole on hover and focus (both are links) and in their title. */}
                  <td data-label="Short link" class="key">
                    <AppLink href={paths.link(link.domainName, link.slug)} class="clip" title={link.shortUrl}>
                      {link.shortUrl.replace(/^https?:\/\//, '')}
                    </AppLink>
                    {link.comment && (
                      <span class="muted clip" title={link.comment}>
                        {link.comment}
                      </span>
                    )}
                    <TagChips tags={link.tags} colors={colors} onPick={(name) => filterBy({ ...filter, tags: [name], mode: 'any' })} />
                  </td>
                  <td data-label="Destination" class="destination">
                    <a href={link.originalUrl} class="clip" title={link.originalUrl} target="_blank" rel="noreferrer">
                      {link.originalUrl}
                    </a>
                  </td>
                  <td data-label="Clicks" class="num">
                    {link.statsClicks}
                  </td>
                  <td data-label="Created" class="date">
                    {formatDate(link.createdAt)}
                  </td>
                  <td data-label="Status">
                    <span class={`badge ${linkStatus(link).kind}`}>{linkStatus(link).text}</span>
                  </td>
                  <td class="actions">
                    <CopyButton text={link.shortUrl} label={`Copy ${link.shortUrl}`} />
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`QR code of ${link.shortUrl}`}
                      onClick={() => setDialog({ kind: 'qr', link })}
                    >
                      QR
                    </button>
                    <button type="button" class="secondary" aria-label={`Edit ${link.shortUrl}`} onClick={() => setDialog({ kind: 'edit', link })}>
                      Edit
                    </button>
                    <button type="button" class="danger" aria-label={`Delete ${link.shortUrl}`} onClick={() => setDialog({ kind: 'delete', link })}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.metadata.total > PER_PAGE && (
        <nav class="pager" aria-label="Pages">
          <button type="button" class="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page} of {lastPage}
          </span>
          <button type="button" class="secondary" disabled={page >= lastPage} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}
      {dialog?.kind === 'qr' && (
        <Modal title="QR code" onClose={() => close()}>
          <QrCode shortUrl={dialog.link.shortUrl} name={dialog.link.slug} size={240} />
          <div class="dialog-actions">
            <button type="button" class="secondary" onClick={() => close()}>
              Close
            </button>
          </div>
        </Modal>
      )}
      {dialog?.kind === 'edit' && <EditLink link={dialog.link} onDone={close} />}
      {dialog?.kind === 'delete' && <DeleteLink link={dialog.link} onDone={close} />}
    </>
  );
}

function DeleteLink(props: { link: Link; onDone: (message?: string) => void }) {
  const remove = async () => {
    await api.remove(props.link.domainName, props.link.slug);
    return `Deleted ${props.link.shortUrl}.`;
  };
  return (
    <ConfirmDialog title="Delete this link?" action="Delete link" failure="Could not delete the link." act={remove} onDone={props.onDone}>
      <strong class="break">{props.link.shortUrl}</strong> will stop redirecting at once. This cannot be undone.
    </ConfirmDialog>
  );
}
