/**
 * The page an invite link opens (`/join/<key>/`, served by server/views/invites.ts): a colleague
 * creates their own account (`POST /json/hearth/join`, which also signs this browser in with a
 * session cookie), then is offered the chat and learns how to connect a Zulip app. The key is read
 * from the address and sent only with the join call (the page's other requests carry no referrer).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, post } from '../api.js';
import type { ServerSettings } from '../chat/admin/api.js';
import { BusyButton } from '../chat/ui/BusyButton.js';
import { useBusy } from '../chat/ui/busy.js';
import { Qr } from '../chat/ui/ConnectList.js';
import { Field } from '../chat/ui/Field.js';
import { Notice, errorText, useNotice } from '../chat/ui/Notice.js';

const MIN_PASSWORD = 8;

/** The invite key in the address (`/join/<key>/`); null: missing or mangled. */
const keyOf = (path: string): string | null => /^\/join\/([a-z0-9]{1,64})\/?$/.exec(path)?.[1] ?? null;

/** What `POST /hearth/join` answers (the account's email and the server URL the apps use). */
interface Joined {
  email: string;
  realm_url: string;
}

export function Join() {
  const [key] = useState(() => keyOf(location.pathname));
  const [settings, setSettings] = useState<ServerSettings | { error: string } | null>(null);
  const [joined, setJoined] = useState<Joined | null>(null);
  useEffect(() => {
    if (!key) return;
    get<ServerSettings>('/server_settings').then(setSettings, (err: unknown) => setSettings({ error: `Could not reach the server: ${errorText(err)}` }));
  }, [key]);
  let content;
  if (!key)
    content = (
      <p class="notice notice-error" role="alert">
        This invite link is incomplete. Copy the whole link and open it again.
      </p>
    );
  else if (!settings)
    content = (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  else if ('error' in settings)
    content = (
      <p class="notice notice-error" role="alert">
        {settings.error}
      </p>
    );
  else if (joined) content = <Welcome joined={joined} />;
  else
    content = (
      <>
        <SecureFirst joinKey={key} httpsPort={settings.hearth_https_port} />
        <JoinForm joinKey={key} realmName={settings.realm_name || 'the team'} onJoined={setJoined} />
      </>
    );
  return (
    <main id="main" class="standalone">
      {content}
    </main>
  );
}

/**
 * On plain HTTP with HTTPS available: the trust page first, then the same invite over HTTPS,
 * so the new password never crosses the network in clear text.
 */
function SecureFirst({ joinKey, httpsPort }: { joinKey: string; httpsPort: number | null | undefined }) {
  if (location.protocol !== 'http:' || typeof httpsPort !== 'number') return null;
  const host = location.hostname.includes(':') ? `[${location.hostname}]` : location.hostname;
  const secure = `https://${host}:${httpsPort}/join/${joinKey}/`;
  return (
    <section class="notice notice-info" aria-label="Connection not encrypted">
      <p>
        <strong>This connection is not encrypted.</strong> Before you choose a password: <a href="/hearth/trust">trust this server</a> on this device (once), then open the
        secure invite link:
      </p>
      <p>
        <a href={secure}>{secure}</a>
      </p>
    </section>
  );
}

function JoinForm({ joinKey, realmName, onJoined }: { joinKey: string; realmName: string; onJoined: (j: Joined) => void }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  useEffect(() => {
    document.title = `Join ${realmName}`;
  }, [realmName]);

  function submit(e: Event) {
    e.preventDefault();
    setNotice(null);
    const form = e.currentTarget as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    void run(async () => {
      const res = await post<Joined>('/hearth/join', { key: joinKey, full_name: value('full_name').trim(), email: value('email').trim(), password: value('password') });
      onJoined({ email: String(res.email), realm_url: String(res.realm_url) });
    });
  }

  return (
    <form class="card" aria-labelledby="join-title" aria-busy={busy ? 'true' : undefined} onSubmit={submit}>
      <h1 id="join-title">Join {realmName}</h1>
      <p>You were invited to this team chat. Create your account:</p>
      <Field label="Your name">{(p) => <input {...p} name="full_name" required autoComplete="name" maxLength={100} />}</Field>
      <Field label="Email" hint="Your login; it does not need to receive mail.">
        {(p) => <input {...p} name="email" type="email" required autoComplete="email" />}
      </Field>
      <Field label="Password" hint={`At least ${MIN_PASSWORD} characters.`}>
        {(p) => <input {...p} name="password" type="password" required minLength={MIN_PASSWORD} autoComplete="new-password" />}
      </Field>
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton type="submit" class="primary" busy={busy}>
          Create my account
        </BusyButton>
      </div>
    </form>
  );
}

/** Joined and signed in: the chat in this browser, and the server URL (with its QR code) for the apps. */
function Welcome({ joined }: { joined: Joined }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="card" aria-labelledby="welcome-title">
      <h1 id="welcome-title" tabIndex={-1} ref={heading}>
        Your account is ready
      </h1>
      <p>You are signed in. Chat in this browser:</p>
      <p class="actions">
        <a href="/" class="button primary">
          Open the chat
        </a>
      </p>
      <div class="apps">
        <h2>On your phone or desktop</h2>
        <p>Install a Zulip app, choose "Add an organization" and enter this server URL, then sign in with your email and password:</p>
        <p>
          <code class="server-url">{joined.realm_url}</code>
        </p>
        <p>Email: {joined.email}</p>
        <Qr text={joined.realm_url} />
      </div>
    </section>
  );
}
