import type { Caller } from '../accounts/caller.js';
import { requireRole } from '../accounts/roles.js';
import type { TagRecord, TagStore } from '../storage/stores/tags.js';
import { checkTagColor, checkTagName, TAG_ERRORS } from './tag-names.js';

/** A workspace's tags (decision 0040): listed with their links, renamed, recoloured, deleted. Links carry them (LinkService). */
export class TagService {
  constructor(private readonly store: Pick<TagStore, 'list' | 'edit' | 'delete'>) {}

  /** GET /v3/tags: every tag of the caller's workspace, sorted by name ignoring case, tags without links included. */
  list(caller: Caller): Promise<TagRecord[]> {
    return this.store.list(caller.accountId);
  }

  /** PATCH /v3/tags/{name}: a new name (another case of its own is one) and/or colour; a name another tag has is a conflict. */
  async edit(caller: Caller, name: string, changes: { readonly name?: string; readonly color?: string | null }): Promise<TagRecord> {
    const current = checkTagName(name);
    const edit = {
      ...(changes.name !== undefined && { name: checkTagName(changes.name) }),
      ...(changes.color !== undefined && { color: checkTagColor(changes.color) }),
    };
    // A viewer reads the tags (GET) but may not change them.
    requireRole(caller, 'links:write');
    const outcome = await this.store.edit(caller.accountId, current, edit);
    if (outcome === 'notFound') throw TAG_ERRORS.notFound();
    if (outcome === 'nameTaken') throw TAG_ERRORS.nameTaken();
    return outcome.edited;
  }

  /** DELETE /v3/tags/{name}: off every link of the workspace (their other tags stay), then gone. */
  async delete(caller: Caller, name: string): Promise<void> {
    const current = checkTagName(name);
    requireRole(caller, 'links:write');
    if (!(await this.store.delete(caller.accountId, current))) throw TAG_ERRORS.notFound();
  }
}
