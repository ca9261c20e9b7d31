import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ActionsHeader } from './actions-header';
import { ConfirmDialog } from './confirm-dialog';

/** A Settings list's state: what useSettingsList gives its page and SettingsList draws. */
export interface SettingsListState<T> {
  /** The list; null until it has loaded. */
  readonly items: T[] | null;
  readonly error: string | null;
  readonly setError: (error: string | null) => void;
  /** What the last change did, for screen readers. */
  readonly notice: string;
  readonly setNotice: (notice: string) => void;
  /** How many times the list has loaded, for a control that must be drawn again with the list. */
  readonly reloads: number;
  readonly reload: () => void;
  /** After a change that worked: say what happened, and load the list again. */
  readonly changed: (message: string) => void;
}

/**
 * A list on the Settings page (tokens, passkeys, members, domains): loaded at first and again on `reload`,
 * the error of its load (a page sets its changes' errors there too), and the notice a change leaves for
 * screen readers. `reloads` counts the loads, for a control that must be drawn again with the list.
 */
export function useSettingsList<T>(load: () => Promise<T[]>, failure: string): SettingsListState<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let current = true;
    load().then(
      (answer) => current && setItems(answer),
      (e: unknown) => current && setError(e instanceof ApiError ? e.message : failure),
    );
    return () => {
      current = false;
    };
  }, [reloads]);

  const reload = () => setReloads((n) => n + 1);
  const changed = (message: string) => {
    setNotice(message);
    reload();
  };
  return { items, error, setError, notice, setNotice, reloads, reload, changed };
}

/** A column of a Settings table: its heading (each cell's data-label too, shown beside it on a phone) and its cells. */
export interface Column<T> {
  readonly label: string;
  readonly cell: (item: T) => ComponentChildren;
  /** The cells' class: `break` for long words, `date` for dates. */
  readonly class?: string;
}

/** How a Settings list removes one of its items: the item's button, the question before it, and the call. */
export interface Removal<T> {
  /** The button's word, on each item and in the question: Remove, Revoke. */
  readonly action: string;
  /** What the item is called in its button's name (`Remove grace@example.com`), so a screen reader tells the buttons apart. */
  readonly name: (item: T) => string;
  /** Whether the caller may remove this one; every one when not given. */
  readonly allowed?: (item: T) => boolean;
  /** The question's title, and what it says when the failure is not the API's own. */
  readonly title: string;
  readonly failure: string;
  /** What the removal does, said in the question. */
  readonly warning: (item: T) => ComponentChildren;
  /** Removes it; answers what to tell the person. */
  readonly act: (item: T) => Promise<string>;
  /** After a removal that worked (the list is loading again): what else follows from it. */
  readonly onRemoved?: (item: T) => void;
}

type Layout<T> =
  /** A table, one row an item, its last column the item's button. */
  | { readonly table: { readonly caption: string; readonly class: string; readonly columns: readonly Column<T>[] }; readonly cards?: undefined }
  /** A list of cards, each drawn by the page, given the item's button to place. */
  | {
      readonly cards: {
        readonly class: string;
        readonly itemClass: string;
        readonly card: (item: T, removeButton: ComponentChildren) => ComponentChildren;
      };
      readonly table?: undefined;
    };

/**
 * A list on the Settings page as each one shows it: the notice of the last change (for screen readers), the
 * error, what an empty list says, the items (a table, or the page's cards), and the question before an item
 * is removed, which reloads the list when the removal works.
 */
export function SettingsList<T>(
  props: Layout<T> & {
    readonly list: SettingsListState<T>;
    /** Said when the list is empty; none: the table is drawn empty. */
    readonly empty?: string;
    /** Each item's key among the others. */
    readonly itemKey: (item: T) => string | number;
    /** None: no item's button and no actions column (a caller that may not remove any). */
    readonly removal?: Removal<T>;
  },
) {
  const { list, removal } = props;
  const [removing, setRemoving] = useState<T | null>(null);
  const items = list.items;

  const removeButton = (item: T) =>
    removal && (removal.allowed?.(item) ?? true) ? (
      <button type="button" class="danger" aria-label={`${removal.action} ${removal.name(item)}`} onClick={() => setRemoving(item)}>
        {removal.action}
      </button>
    ) : null;

  const done = (item: T) => (message?: string) => {
    setRemoving(null);
    if (message) {
      list.changed(message);
      removal?.onRemoved?.(item);
    }
  };

  return (
    <>
      <p class="notice" role="status">
        {list.notice}
      </p>
      {list.error && (
        <p class="error" role="alert">
          {list.error}
        </p>
      )}
      {items && items.length === 0 && props.empty !== undefined && <p class="muted">{props.empty}</p>}
      {items && (items.length > 0 || props.empty === undefined) && props.table && (
        <div class="table-wrap">
          <table class={`links ${props.table.class}`}>
            <caption class="visually-hidden">{props.table.caption}</caption>
            <thead>
              <tr>
                {props.table.columns.map((column) => (
                  <th key={column.label} scope="col">
                    {column.label}
                  </th>
                ))}
                {removal && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr key={props.itemKey(item)}>
                  {props.table!.columns.map((column) => (
                    <td key={column.label} data-label={column.label} class={column.class}>
                      {column.cell(item)}
                    </td>
                  ))}
                  {removal && <td class="actions">{removeButton(item)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {items && items.length > 0 && props.cards && (
        <ul class={props.cards.class}>
          {items.map((item) => (
            <li key={props.itemKey(item)} class={props.cards!.itemClass}>
              {props.cards!.card(item, removeButton(item))}
            </li>
          ))}
        </ul>
      )}
      {removal && removing !== null && (
        <ConfirmDialog
          title={removal.title}
          action={removal.action}
          failure={removal.failure}
          act={() => removal.act(removing)}
          onDone={done(removing)}
        >
          {removal.warning(removing)}
        </ConfirmDialog>
      )}
    </>
  );
}
