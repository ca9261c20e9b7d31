import { ApiTokens } from './api-tokens';
import { Domains } from './domains';
import { Members } from './members';

/** The workspace's settings: its API tokens, its members and its domains. */
export function SettingsPage() {
  return (
    <>
      <section class="card" aria-labelledby="api-tokens">
        <ApiTokens headingId="api-tokens" />
      </section>
      <section class="card" aria-labelledby="members">
        <Members headingId="members" />
      </section>
      <section class="card" aria-labelledby="domains">
        <Domains headingId="domains" />
      </section>
    </>
  );
}
