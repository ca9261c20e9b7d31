// Tags' contract (decision 0040): a workspace's tags, which of its live links carry them, and the filter lists and
// analytics take. Names reach storage checked (links/tag-names.ts); storage keeps the first spelling of a name.

/** A tag with how many live links carry it. */
export interface TagRecord {
  readonly name: string;
  /** `#rrggbb`, lower-case; null: none. */
  readonly color: string | null;
  readonly links: number;
}

/**
 * Which links to keep by their tags (names in any case): `any` of `tags` (or `all` of them), and none of `exclude`.
 * An empty `tags` keeps every link (but those excluded); a name no tag has matches nothing.
 */
export interface TagFilter {
  readonly tags: readonly string[];
  readonly mode: 'any' | 'all';
  readonly exclude: readonly string[];
}

/** What an edit of a tag came to. */
export type TagEditOutcome = { readonly edited: TagRecord } | 'notFound' | 'nameTaken';

export interface TagStore {
  /**
   * Sets each link's tags to exactly these names (one durable write): a name new to the workspace makes its tag, a
   * name it has in another case takes that tag. The links must be the workspace's live ones.
   */
  setTags(accountId: number, links: ReadonlyArray<{ readonly linkId: number; readonly tags: readonly string[] }>): Promise<void>;
  /** The tags (names, sorted ignoring case) of each of these links that has some, in one read. */
  tagsOf(linkIds: readonly number[]): Promise<Map<number, string[]>>;
  /** The workspace's tags, sorted by name ignoring case, each with its live links. */
  list(accountId: number): Promise<TagRecord[]>;
  /** Renames (`name`) and/or recolours (`color`, null: none) the workspace's tag named `name` in any case. */
  edit(accountId: number, name: string, changes: { readonly name?: string; readonly color?: string | null }): Promise<TagEditOutcome>;
  /** Deletes the workspace's tag named so (any case), taking it off every link (their other tags stay); false: no such tag. */
  delete(accountId: number, name: string): Promise<boolean>;
}
