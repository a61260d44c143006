/**
 * Settings: Hearth's server switches (owners): plain HTTP next to HTTPS (with the warning
 * that Zulip's Android app needs it), LAN discovery, the API rate limit, the organization's
 * upload quota and guests' daily upload allowance. Saved with PATCH /realm; the values in
 * effect come from GET /hearth/status.
 */
import type { Api } from './admin-api.js';
import { Notice, busy, errorText, field, h } from './dom.js';

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

export function securitySection(api: Api): HTMLElement {
  const notice = new Notice();
  const plain = h('input', { type: 'checkbox', id: 'plain-http' });
  const discovery = h('input', { type: 'checkbox', id: 'discovery' });
  const rate = h('input', { type: 'number', name: 'hearth_api_rate_limit', min: 0, max: 100000, step: 1 });
  const quota = h('input', { type: 'number', name: 'hearth_upload_quota_mib', min: 0, step: 1 });
  const guests = h('input', { type: 'number', name: 'hearth_guest_upload_mib_per_day', min: 0, max: 1048576, step: 1 });
  const used = h('p', { class: 'hint' });
  /** The upload limits as loaded: only a changed one is sent (an empty box would mean no quota). */
  let loaded: { quota: string; guests: string } | null = null;
  const https = h('p', { class: 'hint' }, 'Loading…');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'security-title' },
    h('h2', { id: 'security-title' }, 'Security'),
    https,
    h('div', { class: 'field check' }, plain, h('label', { for: 'plain-http' }, 'Also serve plain HTTP (unencrypted)')),
    h('p', { class: 'hint' }, "Zulip's Android app cannot use Hearth's HTTPS yet, so it needs plain HTTP. Turned off, HTTP only sends people to the HTTPS address and to the trust page."),
    h('div', { class: 'field check' }, discovery, h('label', { for: 'discovery' }, 'Announce this server on the local network (mDNS)')),
    field('API rate limit (requests a minute per person)', rate, "Zulip's default is 200; 0 turns it off. Apps and browsers stay far below it."),
    field('Upload quota for the organization (MiB)', quota, 'All uploaded files together (not avatars or emoji); empty: no quota. 10240 (10 GiB) unless changed.'),
    used,
    field('Uploads per guest in 24 hours (MiB)', guests, '0: guests cannot upload files.'),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save security settings')),
    notice.el,
  );
  api.get<SecurityStatus>('/hearth/status').then(
    (s) => {
      plain.checked = s.plain_http !== false;
      discovery.checked = s.discovery !== false;
      rate.value = String(s.api_rate_limit ?? 200);
      quota.value = s.upload_quota_mib === null || s.upload_quota_mib === undefined ? '' : String(s.upload_quota_mib);
      guests.value = String(s.guest_upload_mib_per_day ?? 100);
      used.textContent = `Uploaded files now take ${(Number(s.upload_space_used ?? 0) / 1048576).toFixed(1)} MiB.`;
      loaded = { quota: quota.value, guests: guests.value };
      https.textContent = s.https_port
        ? `HTTPS is on (port ${s.https_port}), with this server's own certificate authority: people install it once per device from the trust page.`
        : 'HTTPS is off: start Hearth with an HTTPS port to turn it on.';
      if (!s.https_port) plain.disabled = true;
    },
    (err) => notice.show('error', `Could not load the security settings: ${errorText(err)}`),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!plain.checked && !confirm("Turn plain HTTP off? Zulip's Android app and anyone using an http:// address will have to switch to HTTPS.")) return;
    void busy(form, notice, async () => {
      const uploads: Record<string, number | null> = {};
      if (loaded && quota.value !== loaded.quota) uploads.hearth_upload_quota_mib = quota.value === '' ? null : Number(quota.value);
      if (loaded && guests.value !== loaded.guests) uploads.hearth_guest_upload_mib_per_day = Number(guests.value);
      await api.patch('/realm', { hearth_plain_http: plain.checked, hearth_discovery: discovery.checked, hearth_api_rate_limit: Number(rate.value), ...uploads });
      if (loaded) loaded = { quota: quota.value, guests: guests.value };
      notice.show('ok', 'Security settings saved.');
    });
  });
  return form;
}
