import { ApiTokens } from './api-tokens';

/** The workspace's settings: its API tokens. */
export function SettingsPage() {
  return (
    <section class="card" aria-labelledby="api-tokens">
      <ApiTokens headingId="api-tokens" />
    </section>
  );
}
