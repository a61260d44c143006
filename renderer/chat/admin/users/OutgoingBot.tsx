/**
 * Outgoing-webhook bots under the bots list: each one's endpoint URL and message format
 * (`PATCH /bots/{id}` with Zulip's `service_payload_url` and `service_interface`), and how its
 * last call went (Hearth's `hearth_last_call`, from register's `realm_bots`). `OutgoingFields`:
 * those two fields, also in the Add bot dialog.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { patch } from '../api.js';
import { fetchIntegrations, type RealmBot } from '../integrations/integrations-state.js';

export const OUTGOING_WEBHOOK = 3;

/** Zulip's Service interfaces, as its bot settings name them. */
const INTERFACES = [
  { id: 1, name: 'Zulip' },
  { id: 2, name: 'Slack compatible' },
];

type LastCall = NonNullable<RealmBot['hearth_last_call']>;

export const lastCallText = (last: LastCall | null | undefined): string =>
  last ? `Last call ${new Date(last.timestamp * 1000).toLocaleString()}: ${last.ok ? 'OK' : 'failed'}, ${last.text}` : 'Not called yet.';

export function OutgoingBots({ bots }: { bots: readonly User[] }) {
  const outgoing = bots.filter((b) => b.bot_type === OUTGOING_WEBHOOK && b.is_active);
  const [details, setDetails] = useState<ReadonlyMap<number, RealmBot> | null>(null);
  const [notice, setNotice] = useNotice();
  const [tick, setTick] = useState(0);
  const ids = outgoing.map((b) => b.user_id).join(',');
  const id = useId();
  // Read again when the list of outgoing bots changes, or after a save (tick).
  useEffect(() => {
    if (!ids) return;
    let live = true;
    fetchIntegrations().then(
      (s) => live && setDetails(new Map((s.realm_bots ?? []).map((b) => [b.user_id, b]))),
      (err: unknown) => live && setNotice({ kind: 'error', text: `Could not load the outgoing webhooks: ${err instanceof Error ? err.message : String(err)}` }),
    );
    return () => {
      live = false;
    };
  }, [ids, tick, setNotice]);
  if (!outgoing.length) return null;
  return (
    <section class="outgoing-bots" aria-labelledby={id}>
      <h3 id={id}>Outgoing webhooks</h3>
      <p class="hint">Hearth calls these bots' URLs when someone mentions them or sends them a direct message; their answer is posted back.</p>
      <Notice notice={notice} />
      {outgoing.map((bot) => (
        <OutgoingBot key={bot.user_id} bot={bot} detail={details?.get(bot.user_id) ?? null} loading={!details} saved={() => setTick((t) => t + 1)} />
      ))}
    </section>
  );
}

function OutgoingBot({ bot, detail, loading, saved }: { bot: User; detail: RealmBot | null; loading: boolean; saved: () => void }) {
  const service = detail?.services?.[0];
  const [url, setUrl] = useState<string | null>(null);
  const [format, setFormat] = useState<number | null>(null);
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const shownUrl = url ?? service?.base_url ?? '';
  const shownFormat = format ?? service?.interface ?? 1;
  const last = detail?.hearth_last_call;
  return (
    <form
      class="card outgoing-bot"
      aria-label={`Outgoing webhook of ${bot.full_name}`}
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(ev) => {
        ev.preventDefault();
        void run(async () => {
          await patch(`/bots/${bot.user_id}`, { service_payload_url: JSON.stringify(shownUrl.trim()), service_interface: shownFormat });
          setNotice({ kind: 'ok', text: `Saved the outgoing webhook of ${bot.full_name}.` });
          setUrl(null);
          setFormat(null);
          saved();
        });
      }}
    >
      <h4>{bot.full_name}</h4>
      <OutgoingFields names={['service_payload_url', 'service_interface']} disabled={loading} url={shownUrl} setUrl={setUrl} format={shownFormat} setFormat={setFormat} />
      <p class={`last-call${last ? (last.ok ? ' ok' : ' failed') : ''}`}>{loading ? 'Loading…' : lastCallText(last)}</p>
      <div class="actions">
        <BusyButton type="submit" busy={busy} disabled={loading}>
          Save
        </BusyButton>
      </div>
      <Notice notice={notice} />
    </form>
  );
}

/** An outgoing webhook's endpoint URL and message format; `names`: the form's names for both. */
export function OutgoingFields({
  names,
  disabled,
  url,
  setUrl,
  format,
  setFormat,
}: {
  names: readonly [string, string];
  disabled?: boolean;
  url: string;
  setUrl: (url: string) => void;
  format: number;
  setFormat: (format: number) => void;
}) {
  return (
    <>
      <Field label="Endpoint URL">
        {(p) => <input {...p} type="url" name={names[0]} required disabled={disabled} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <Field label="Outgoing webhook message format">
        {(p) => (
          <select {...p} name={names[1]} disabled={disabled} value={String(format)} onChange={(e) => setFormat(Number(e.currentTarget.value))}>
            {INTERFACES.map((i) => (
              <option key={i.id} value={String(i.id)}>
                {i.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
