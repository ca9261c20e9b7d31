import { AppLink } from '../components/app-link';
import { paths } from '../router';
import { useSession } from '../session';
import { TagsSettings } from '../tags/tags-settings';
import { ApiTokens } from './api-tokens';
import { Domains } from './domains';
import { Members } from './members';
import { Passkeys } from './passkeys';
import { Webhooks } from './webhooks';

/**
 * The workspace's settings: its API tokens, its members, its domains, its tags and its webhooks; and, for a signed-in person, their own
 * password (a page of its own) and passkeys.
 */
export function SettingsPage() {
  const { person } = useSession();
  return (
    <>
      <section class="card" aria-labelledby="api-tokens">
        <ApiTokens headingId="api-tokens" />
      </section>
      {person && (
        <section class="card" aria-labelledby="password">
          <h2 id="password">Password</h2>
          <p>Change the password you sign in with; your other sessions end.</p>
          <AppLink href={paths.password}>Change your password</AppLink>
        </section>
      )}
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
      <section class="card" aria-labelledby="tags">
        <TagsSettings headingId="tags" />
      </section>
      <section class="card" aria-labelledby="webhooks">
        <Webhooks headingId="webhooks" />
      </section>
    </>
  );
}
