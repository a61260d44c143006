/** Invite links, so colleagues create their own accounts (GET /invites, POST/DELETE /invites/multiuse). */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { copyText } from '../../ui/clipboard.js';
import { Field } from '../../ui/Field.js';
import { errorText, Notice, type SetNotice, useNotice } from '../../ui/Notice.js';
import { del, get, post, ROLES, roleName } from '../api.js';

const EXPIRY: readonly { minutes: number | null; label: string }[] = [
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '7 days' },
  { minutes: 10 * 24 * 60, label: '10 days' },
  { minutes: 30 * 24 * 60, label: '30 days' },
  { minutes: null, label: 'Never' },
];
const DEFAULT_EXPIRY = EXPIRY.findIndex((e) => e.minutes === 10 * 24 * 60);

/** An invitation as `GET /invites` lists it (Zulip's shape; only the fields this section shows). */
interface Invite {
  id: number;
  is_multiuse: boolean;
  invited_as: number;
  /** Seconds since the epoch; null: never expires. */
  expiry_date: number | null;
  link_url?: string;
}

const when = (seconds: number | null) => (seconds === null ? 'never expires' : `expires ${new Date(seconds * 1000).toLocaleString()}`);

export function Invites() {
  const [notice, setNotice] = useNotice();
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [role, setRole] = useState(400);
  const [expiry, setExpiry] = useState(DEFAULT_EXPIRY);
  const [created, setCreated] = useState<string | null>(null);
  const [busy, run] = useBusy(setNotice);

  const reload = useCallback(async () => {
    try {
      setInvites((await get<{ invites: Invite[] }>('/invites')).invites.filter((i) => i.is_multiuse));
    } catch (err) {
      setNotice({ kind: 'error', text: `Could not load invite links: ${errorText(err)}` });
    }
  }, [setNotice]);
  useEffect(() => void reload(), [reload]);

  const create = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const res = await post<{ invite_link: string }>('/invites/multiuse', {
        invite_as: role,
        invite_expires_in_minutes: EXPIRY[expiry]!.minutes,
        include_realm_default_subscriptions: true,
      });
      setCreated(String(res.invite_link));
      setNotice({ kind: 'ok', text: 'Invite link created: send it to the people who should join.' });
      await reload();
    });
  };

  return (
    <section class="card invites-card" aria-labelledby="invites-title">
      <h2 id="invites-title">Invite links</h2>
      <p class="hint">Anyone with a link can create their own account until it expires or you revoke it; new accounts join the default channels.</p>
      <form class="inline-form" aria-busy={busy ? 'true' : undefined} onSubmit={create}>
        <Field label="Joins as">
          {(ids) => (
            <select {...ids} name="invite_as" value={String(role)} onChange={(e) => setRole(Number(e.currentTarget.value))}>
              {ROLES.filter((r) => r.id !== 100).map((r) => (
                <option key={r.id} value={String(r.id)}>
                  {r.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Link expires after">
          {(ids) => (
            <select {...ids} name="invite_expires_in_minutes" value={String(expiry)} onChange={(e) => setExpiry(Number(e.currentTarget.value))}>
              {EXPIRY.map((x, i) => (
                <option key={x.label} value={String(i)}>
                  {x.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <BusyButton type="submit" busy={busy}>
          Create invite link
        </BusyButton>
      </form>
      {created && <CreatedLink link={created} setNotice={setNotice} />}
      <Notice notice={notice} />
      <ul class="plain-list" aria-label="Invite links">
        {invites?.map((inv) => (
          <InviteItem key={inv.id} invite={inv} setNotice={setNotice} reload={reload} />
        ))}
        {invites?.length === 0 && <li class="empty">No active invite links.</li>}
      </ul>
    </section>
  );
}

function CreatedLink({ link, setNotice }: { link: string; setNotice: SetNotice }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <div class="inline-form new-invite">
      <input ref={input} readOnly value={link} aria-label="New invite link" />
      <button
        type="button"
        class="secondary"
        onClick={() =>
          void copyText(link, input.current).then(
            () => setNotice({ kind: 'ok', text: 'Link copied.' }),
            (err: unknown) => setNotice({ kind: 'error', text: errorText(err) }),
          )
        }
      >
        Copy
      </button>
    </div>
  );
}

function InviteItem({ invite: inv, setNotice, reload }: { invite: Invite; setNotice: SetNotice; reload: () => Promise<void> }) {
  const [busy, run] = useBusy(setNotice);
  const revoke = () =>
    void run(async () => {
      await del(`/invites/multiuse/${inv.id}`);
      setNotice({ kind: 'ok', text: 'Invite link revoked: it no longer works.' });
      await reload();
    });
  return (
    <li>
      <span>
        {`${roleName(inv.invited_as)} · ${when(inv.expiry_date)} · `}
        <code>{inv.link_url}</code>
      </span>
      <BusyButton class="secondary small" aria-label={`Revoke the invite link ${inv.id}`} busy={busy} onClick={revoke}>
        Revoke
      </BusyButton>
    </li>
  );
}
