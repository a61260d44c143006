/**
 * First-run setup, the page the server serves at `/admin/` (and `/` redirects to) while there is no
 * organization: the organization and its owner (`POST /json/hearth/setup`, no session needed), then
 * the owner is signed in with the password just chosen (`POST /json/login`: the web app's one
 * session), then how people connect. From another computer the server asks for the one-time setup
 * token `hearth serve` prints: the desktop window passes it in the address (`#setup_token=`, or
 * `?setup_token=`), which the page takes and removes from the address bar.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, get, post } from '../api.js';
import { signIn } from '../session.js';
import { BusyButton } from '../chat/ui/BusyButton.js';
import { useBusy } from '../chat/ui/busy.js';
import { ConnectList } from '../chat/ui/ConnectList.js';
import { Field } from '../chat/ui/Field.js';
import { Notice, errorText, useNotice } from '../chat/ui/Notice.js';
import { Loading } from '../chat/ui/TableBox.js';

/** Whether the server still needs its first-run setup (`GET /hearth/setup`). */
interface SetupState {
  needs_setup: boolean;
  setup_token_required?: boolean;
}

/** Where "Continue to administration" goes: the organization settings in the chat page. */
const ADMINISTRATION = '/#organization/users';

/** The one-time setup token in the address (`#setup_token=` or `?setup_token=`), taken out of the address bar. */
function takeSetupToken(): string | null {
  const token = new URLSearchParams(location.hash.slice(1)).get('setup_token') ?? new URLSearchParams(location.search).get('setup_token');
  if (token) history.replaceState(null, '', location.pathname);
  return token;
}

/** The page: asks the server whether setup is still needed, then the form, then how people connect. */
export function Setup() {
  const [token, setToken] = useState<string | null>(takeSetupToken);
  const [state, setState] = useState<SetupState | { error: string } | null>(null);
  const [lanUrls, setLanUrls] = useState<readonly string[] | null>(null);
  useEffect(() => {
    // The desktop window may pass the token to a page already open (a hash change, no load).
    const onHash = () => {
      if (!location.hash.includes('setup_token=')) return;
      const fresh = takeSetupToken();
      if (fresh) setToken(fresh);
    };
    window.addEventListener('hashchange', onHash);
    get<SetupState>('/hearth/setup').then(
      (s) => {
        // Set up meanwhile (another window, or a page left open): the web app takes over from here.
        if (!s.needs_setup) location.replace('/admin/');
        else setState(s);
      },
      (err: unknown) => setState({ error: errorText(err) }),
    );
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  let content;
  if (lanUrls) content = <Ready urls={lanUrls} />;
  else if (!state || ('needs_setup' in state && !state.needs_setup)) content = <Loading what="Hearth" />;
  else if ('error' in state)
    content = (
      <p class="notice notice-error" role="alert">
        {state.error}
      </p>
    );
  else content = <SetupForm key={token ?? ''} urlToken={token} tokenRequired={Boolean(state.setup_token_required)} onDone={setLanUrls} />;
  return (
    <main id="main" class="standalone">
      {content}
    </main>
  );
}

/** The organization and its owner; `onDone` gets the server's LAN addresses. */
function SetupForm({ urlToken, tokenRequired, onDone }: { urlToken: string | null; tokenRequired: boolean; onDone: (urls: readonly string[]) => void }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  // The address's token, until the server refuses it (stale): then the field asks for one.
  const [passed, setPassed] = useState(urlToken);
  // Shown when needed: from another computer without a token in the address, or after one was refused.
  const [askToken, setAskToken] = useState(tokenRequired && !urlToken);
  const confirmRef = useRef<HTMLInputElement>(null);

  function submit(e: Event) {
    e.preventDefault();
    setNotice(null);
    const form = e.currentTarget as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    const password = value('password');
    if (password !== value('password_confirm')) {
      setNotice({ kind: 'error', text: 'The passwords do not match.' });
      confirmRef.current?.focus();
      return;
    }
    const email = value('email');
    void run(async () => {
      const res = await post<{ lan_urls: string[] }>('/hearth/setup', {
        realm_name: value('realm_name'),
        full_name: value('full_name'),
        email,
        password,
        setup_token: passed ?? (askToken ? value('setup_token') : undefined),
      }).catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'SETUP_TOKEN_REQUIRED') {
          setPassed(null);
          setAskToken(true);
        }
        throw err;
      });
      // The answer also carries the owner's API key (for scripts): the page does not keep it.
      // Should signing in fail, the organization still exists: "Continue" then shows the sign-in form.
      await signIn(email.trim(), password).catch(() => undefined);
      onDone(res.lan_urls);
    });
  }

  return (
    <form class="card" aria-labelledby="setup-title" aria-busy={busy ? 'true' : undefined} onSubmit={submit}>
      <h1 id="setup-title">Set up Hearth</h1>
      <p>Create your organization and its owner account. You can change everything later.</p>
      <Field label="Organization name">{(p) => <input {...p} name="realm_name" required maxLength={40} autoComplete="organization" />}</Field>
      <Field label="Your name">{(p) => <input {...p} name="full_name" required maxLength={100} autoComplete="name" />}</Field>
      <Field label="Your email" hint="You sign in with this address.">
        {(p) => <input {...p} name="email" type="email" required autoComplete="email" />}
      </Field>
      <Field label="Password" hint="At least 8 characters.">
        {(p) => <input {...p} name="password" type="password" required minLength={8} autoComplete="new-password" />}
      </Field>
      <Field label="Confirm password">{(p) => <input {...p} ref={confirmRef} name="password_confirm" type="password" required autoComplete="new-password" />}</Field>
      {askToken && (
        <Field label="Setup token" hint="Printed by hearth serve in its terminal (the desktop app passes it for you): setup from another computer needs it.">
          {(p) => <input {...p} name="setup_token" required autoComplete="off" />}
        </Field>
      )}
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton type="submit" class="primary" busy={busy}>
          Create organization
        </BusyButton>
      </div>
    </form>
  );
}

/** Done: how people connect (the LAN addresses with their QR codes), then the organization settings or the chat. */
function Ready({ urls }: { urls: readonly string[] }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="card" aria-labelledby="connect-title">
      <h1 id="connect-title" tabIndex={-1} ref={heading}>
        Your organization is ready
      </h1>
      <ConnectList urls={urls} />
      <div class="actions">
        {/* The chat page (a page load): the organization settings are one of its views. */}
        <button type="button" class="primary" onClick={() => location.assign(ADMINISTRATION)}>
          Continue to administration
        </button>
        <a href="/" class="button">
          Open the chat
        </a>
      </div>
    </section>
  );
}
