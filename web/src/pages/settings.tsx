import { useSession } from '../session';
import { ApiTokens } from './api-tokens';
import { Domains } from './domains';
import { Members } from './members';
import { Passkeys } from './passkeys';

/** The workspace's settings: its API tokens, its members and its domains; and, for a signed-in person, their own passkeys. */
export function SettingsPage() {
  const { person } = useSession();
  return (
    <>
      <section class="card" aria-labelledby="api-tokens">
        <ApiTokens headingId="api-tokens" />
      </section>
      {person && (
        <section class="card" aria-labelledby="passkeys">
          <Passkeys headingId="passkeys" />
        </section>
      )}
      <section class="card" aria-labelledby="members">
        <Members headingId="members" />
      </section>
      <section class="card" aria-labelledby="domains">
        <Domains headingId="domains" />
      </section>
    </>
  );
}
