/**
 * Settings: Hearth's server switches (owners): plain HTTP next to HTTPS (with the warning that
 * Zulip's Android app needs it), LAN discovery, the API rate limit, the organization's upload quota
 * and guests' daily upload allowance. Saved with PATCH /realm; the values in effect come from
 * GET /hearth/status.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { errorText, Notice, useNotice } from '../../ui/Notice.js';
import { get, patch } from '../api.js';
import { CardForm } from './CardForm.js';

/** What this card reads of `GET /hearth/status`. */
interface SecurityStatus {
  plain_http?: boolean;
  discovery?: boolean;
  api_rate_limit?: number;
  upload_quota_mib?: number | null;
  guest_upload_mib_per_day?: number;
  upload_space_used?: number;
  https_port?: number | null;
}

interface Values {
  plain: boolean;
  discovery: boolean;
  rate: string;
  quota: string;
  guests: string;
}

export function SecurityCard() {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [status, setStatus] = useState<SecurityStatus | null>(null);
  const [values, setValues] = useState<Values>({ plain: false, discovery: false, rate: '', quota: '', guests: '' });
  /** The upload limits as loaded: only a changed one is sent (an empty box would mean no quota). */
  const loaded = useRef<{ quota: string; guests: string } | null>(null);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((now) => ({ ...now, [key]: value }));
  const id = useId();

  useEffect(() => {
    let live = true;
    get<SecurityStatus>('/hearth/status').then(
      (s) => {
        if (!live) return;
        const v: Values = {
          plain: s.plain_http !== false,
          discovery: s.discovery !== false,
          rate: String(s.api_rate_limit ?? 200),
          quota: s.upload_quota_mib === null || s.upload_quota_mib === undefined ? '' : String(s.upload_quota_mib),
          guests: String(s.guest_upload_mib_per_day ?? 100),
        };
        loaded.current = { quota: v.quota, guests: v.guests };
        setValues(v);
        setStatus(s);
      },
      (err: unknown) => live && setNotice({ kind: 'error', text: `Could not load the security settings: ${errorText(err)}` }),
    );
    return () => {
      live = false;
    };
  }, [setNotice]);

  const https = !status
    ? 'Loading…'
    : status.https_port
      ? `HTTPS is on (port ${status.https_port}), with this server's own certificate authority: people install it once per device from the trust page.`
      : 'HTTPS is off: start Hearth with an HTTPS port to turn it on.';

  return (
    <CardForm
      title="Security"
      busy={busy}
      onSubmit={() => {
        if (!values.plain && !confirm("Turn plain HTTP off? Zulip's Android app and anyone using an http:// address will have to switch to HTTPS.")) return;
        const v = values;
        void run(async () => {
          const uploads: Record<string, number | null> = {};
          const before = loaded.current;
          if (before && v.quota !== before.quota) uploads.hearth_upload_quota_mib = v.quota === '' ? null : Number(v.quota);
          if (before && v.guests !== before.guests) uploads.hearth_guest_upload_mib_per_day = Number(v.guests);
          await patch('/realm', { hearth_plain_http: v.plain, hearth_discovery: v.discovery, hearth_api_rate_limit: Number(v.rate), ...uploads });
          if (before) loaded.current = { quota: v.quota, guests: v.guests };
          setNotice({ kind: 'ok', text: 'Security settings saved.' });
        });
      }}
    >
      <p class="hint">{https}</p>
      <div class="field check">
        <input type="checkbox" id={`${id}-plain-http`} checked={values.plain} disabled={Boolean(status) && !status?.https_port} onChange={(e) => set('plain', e.currentTarget.checked)} />
        <label for={`${id}-plain-http`}>Also serve plain HTTP (unencrypted)</label>
      </div>
      <p class="hint">Zulip's Android app cannot use Hearth's HTTPS yet, so it needs plain HTTP. Turned off, HTTP only sends people to the HTTPS address and to the trust page.</p>
      <div class="field check">
        <input type="checkbox" id={`${id}-discovery`} checked={values.discovery} onChange={(e) => set('discovery', e.currentTarget.checked)} />
        <label for={`${id}-discovery`}>Announce this server on the local network (mDNS)</label>
      </div>
      <Field label="API rate limit (requests a minute per person)" hint="Zulip's default is 200; 0 turns it off. Apps and browsers stay far below it.">
        {(p) => <input {...p} type="number" name="hearth_api_rate_limit" min={0} max={100000} step={1} value={values.rate} onInput={(e) => set('rate', e.currentTarget.value)} />}
      </Field>
      <Field label="Upload quota for the organization (MiB)" hint="All uploaded files together (not avatars or emoji); empty: no quota. 10240 (10 GiB) unless changed.">
        {(p) => <input {...p} type="number" name="hearth_upload_quota_mib" min={0} step={1} value={values.quota} onInput={(e) => set('quota', e.currentTarget.value)} />}
      </Field>
      <p class="hint">{status ? `Uploaded files now take ${(Number(status.upload_space_used ?? 0) / 1048576).toFixed(1)} MiB.` : ''}</p>
      <Field label="Uploads per guest in 24 hours (MiB)" hint="0: guests cannot upload files.">
        {(p) => <input {...p} type="number" name="hearth_guest_upload_mib_per_day" min={0} max={1048576} step={1} value={values.guests} onInput={(e) => set('guests', e.currentTarget.value)} />}
      </Field>
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Save security settings
        </BusyButton>
      </div>
      <Notice notice={notice} />
    </CardForm>
  );
}
