// Accounts, which the v3 interface calls workspaces: made and found by name (`brief account`), the anonymous
// account every call without credentials acts for, and v3's check that a call names the caller's own.

import type { AccountRecord, AccountStore } from '../storage/stores/accounts.js';
import { ACCOUNT_ERRORS } from './account-errors.js';
import type { Caller } from './caller.js';
import { workspaceUuid } from './ids.js';

export const ANONYMOUS_ACCOUNT = 'anonymous';
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

export class AccountService {
  private anonymousId: number | undefined;

  constructor(private readonly store: Pick<AccountStore, 'create' | 'byName' | 'list'>) {}

  async anonymousCaller(): Promise<Caller> {
    this.anonymousId ??= (await this.byName(ANONYMOUS_ACCOUNT)).id;
    return { accountId: this.anonymousId, anonymous: true };
  }

  async create(name: string): Promise<AccountRecord> {
    if (!ACCOUNT_NAME.test(name)) {
      throw ACCOUNT_ERRORS.badName();
    }
    const account = await this.store.create(name);
    if (!account) throw ACCOUNT_ERRORS.nameTaken(name);
    return account;
  }

  async byName(name: string): Promise<AccountRecord> {
    const account = await this.store.byName(name);
    if (!account) throw ACCOUNT_ERRORS.noSuchAccount(name);
    return account;
  }

  list(): Promise<AccountRecord[]> {
    return this.store.list();
  }

  /**
   * v3's `workspaceId`: absent, empty or the string `undefined` (one client sends it) mean
   * the caller's own workspace; any other value must be it, else it is not found, like any
   * other account's resource.
   */
  checkWorkspace(caller: Caller, workspaceId: string | undefined): void {
    if (workspaceId === undefined || workspaceId === '' || workspaceId === 'undefined') return;
    if (caller.anonymous || workspaceId !== workspaceUuid(caller.accountId)) throw ACCOUNT_ERRORS.workspaceNotFound();
  }
}
