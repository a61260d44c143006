/**
 * Signing in: email and password, for a session cookie (no key kept by the page); the one form of
 * the web app (the chat's page, and the organization settings' "sign in as an administrator").
 * It names the organization, with its icon and description, as Zulip's login page does.
 */
import { useEffect, useState } from 'preact/hooks';
import { serverSettings, type ApiError, type ServerSettings } from './store/api.js';
import { sanitizeOwnImages } from './messages/html.js';
import { signIn } from './store/session.js';

/** `hearth demo`'s accounts (server/demo/roster.ts): public, like the demo itself. */
const DEMO_OWNER = 'maya@juniper.example';
const DEMO_PASSWORD = 'juniper-demo';

/** The sign-in page. */
export const SignIn = () => (
  <main class="signin" id="main">
    <SignInForm />
  </main>
);

/** The form; `onSignedIn` runs once signed in (the page otherwise follows the session signal). */
export function SignInForm({ onSignedIn }: { onSignedIn?: () => void }) {
  const [settings, setSettings] = useState<ServerSettings>({});
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void serverSettings().then(setSettings);
  }, []);
  const demo = settings.hearth_demo_organization === true;
  const httpsPort = typeof settings.hearth_https_port === 'number' ? settings.hearth_https_port : null;
  const plain = location.protocol === 'http:';
  const secureUrl = httpsPort ? `https://${location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname}:${httpsPort}${location.pathname}` : null;

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await signIn(email.trim(), password);
      onSignedIn?.();
    } catch (err) {
      const e2 = err as ApiError;
      setError(
        e2.code === 'AUTHENTICATION_FAILED'
          ? 'That email and password do not match an account here.'
          : e2.code === 'RATE_LIMIT_HIT'
            ? 'Too many attempts. Wait a minute, then try again.'
            : e2.message,
      );
      setBusy(false);
    }
  }

  const realm = typeof settings.realm_name === 'string' && settings.realm_name ? settings.realm_name : 'Hearth';
  return (
    <form class="card" onSubmit={submit} aria-labelledby="signin-title">
        <img src={typeof settings.realm_icon === 'string' ? settings.realm_icon : '/static/hearth-icon.png'} alt="" width={48} height={48} />
        <h1 id="signin-title">Sign in to {realm}</h1>
        {typeof settings.realm_description === 'string' && settings.realm_description && <div class="realm-description rendered" dangerouslySetInnerHTML={{ __html: sanitizeOwnImages(settings.realm_description) }} />}
        {plain && (
          <section class="insecure-note" aria-label="Connection not encrypted">
            <p>
              <strong>This connection is not encrypted:</strong> others on the network could read your password.
              {secureUrl ? (
                <>
                  {' '}
                  Use the secure address, <a href={secureUrl}>{secureUrl}</a>. The first time on this device, <a href="/hearth/trust">trust this server</a> first.
                </>
              ) : (
                ' Ask whoever runs Hearth to turn on HTTPS.'
              )}
            </p>
          </section>
        )}
        {demo && (
          <section class="demo-note" aria-label="Demo organization">
            <p>
              <strong>This is a demo organization</strong>, made by <code>hearth demo</code>: its people and messages are made up. Every demo account's password is{' '}
              <code>{DEMO_PASSWORD}</code>; the command printed them all.
            </p>
            <button
              type="button"
              onClick={() => {
                setEmail(DEMO_OWNER);
                setPassword(DEMO_PASSWORD);
              }}
            >
              Fill in the owner's account ({DEMO_OWNER})
            </button>
          </section>
        )}
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </label>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="hint">No account yet? Ask whoever runs Hearth in your office for an invite link. New to Hearth? Read <a href="/help/getting-started">Getting started</a>.</p>
    </form>
  );
}
