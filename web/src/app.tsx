import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api';
import { AppLink } from './components/app-link';
import { TokenIdentity } from './components/token-identity';
import { WorkspaceSwitcher } from './components/workspace-switcher';
import { InvitationPage } from './pages/invitation';
import { LinkPage } from './pages/link-page';
import { MyLinksPage } from './pages/my-links';
import { OverviewPage } from './pages/overview';
import { PasswordPage } from './pages/password';
import { ResetPasswordPage } from './pages/reset-password';
import { SettingsPage } from './pages/settings';
import { ShortenPage } from './pages/shorten';
import { navigate, paths, type Route, useRoute } from './router';
import { currentToken, setPerson, signOut, useSession } from './session';
import { SignInDialog } from './sign-in';
import { takeSsoError } from './sso';

const TITLES: Record<Route['page'], string> = {
  shorten: 'Shorten a link',
  links: 'My links',
  link: 'Link',
  overview: 'Overview',
  settings: 'Settings',
  password: 'Change your password',
  invitation: 'Join a workspace',
  'reset-password': 'Set a new password',
  'not-found': 'Page not found',
};

const NEEDS_TOKEN = new Set<Route['page']>(['links', 'link', 'overview', 'settings', 'password']);

export function App() {
  const route = useRoute();
  const { signedIn, person } = useSession();
  // Back from single sign-on with an error: the dialog opens saying what went wrong.
  const [ssoError, setSsoError] = useState(takeSsoError);
  const [signingIn, setSigningIn] = useState(ssoError !== undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const title = route.page === 'link' ? `${route.domain}/${route.slug}` : TITLES[route.page];
  const first = useRef(true);

  // A new page: its title, and focus on its heading (not on the first load) so a screen reader starts there.
  useEffect(() => {
    document.title = `${title} · Brief`;
    if (first.current) first.current = false;
    else heading.current?.focus();
  }, [title]);

  // A person signed in earlier (the cookie lives on the server's side): asked once at load.
  useEffect(() => {
    if (currentToken() !== null) return;
    api.me().then(setPerson, () => {});
  }, []);

  const current = (page: Route['page']) =>
    route.page === page || (page === 'links' && route.page === 'link') || (page === 'settings' && route.page === 'password') ? 'page' : undefined;

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <AppLink href={paths.shorten} class="brand">
          Brief
        </AppLink>
        <nav aria-label="Main">
          <AppLink href={paths.shorten} aria-current={current('shorten')}>
            Shorten
          </AppLink>
          {signedIn && (
            <>
              <AppLink href={paths.links} aria-current={current('links')}>
                My links
              </AppLink>
              <AppLink href={paths.overview} aria-current={current('overview')}>
                Overview
              </AppLink>
              <AppLink href={paths.settings} aria-current={current('settings')}>
                Settings
              </AppLink>
            </>
          )}
        </nav>
        {person && <WorkspaceSwitcher person={person} />}
        {!person && signedIn && currentToken() && <TokenIdentity token={currentToken()!} />}
        {signedIn ? (
          <button
            type="button"
            class="secondary"
            onClick={async () => {
              if (person) await api.signOut().catch(() => {});
              signOut();
              navigate(paths.shorten);
            }}
          >
            Sign out
          </button>
        ) : (
          <button type="button" class="secondary" onClick={() => setSigningIn(true)}>
            Sign in
          </button>
        )}
      </header>
      <main id="main">
        <h1 ref={heading} tabIndex={-1} class={route.page === 'link' ? 'break' : undefined}>
          {title}
        </h1>
        {NEEDS_TOKEN.has(route.page) && !signedIn ? (
          <div class="card">
            <p>Sign in to see this page.</p>
            <button type="button" class="primary" onClick={() => setSigningIn(true)}>
              Sign in
            </button>
          </div>
        ) : (
          // A switch of workspace starts the page again, with the new workspace's data.
          <Page key={person?.workspace.id} route={route} onSignIn={() => setSigningIn(true)} />
        )}
      </main>
      <footer class="bottom">
        <a href="/docs">API documentation</a>
      </footer>
      {signingIn && (
        <SignInDialog
          error={ssoError}
          onDone={() => {
            setSigningIn(false);
            setSsoError(undefined);
          }}
        />
      )}
    </>
  );
}

function Page(props: { route: Route; onSignIn: () => void }) {
  const route = props.route;
  switch (route.page) {
    case 'shorten':
      return <ShortenPage onSignIn={props.onSignIn} />;
    case 'links':
      return <MyLinksPage />;
    case 'link':
      return <LinkPage key={`${route.domain}/${route.slug}`} domain={route.domain} slug={route.slug} />;
    case 'overview':
      return <OverviewPage />;
    case 'settings':
      return <SettingsPage />;
    case 'password':
      return <PasswordPage />;
    case 'invitation':
      return <InvitationPage />;
    case 'reset-password':
      return <ResetPasswordPage onSignIn={props.onSignIn} />;
    default:
      return (
        <div class="card">
          <p>There is no page here.</p>
          <AppLink href={paths.shorten}>Shorten a link</AppLink>
        </div>
      );
  }
}
