/**
 * Settings: Hearth's server switches (owners): plain HTTP next to HTTPS (with the warning
 * that Zulip's Android app needs it), LAN discovery, and the API rate limit. Saved with
 * PATCH /realm; the values in effect come from GET /hearth/status.
 */
import type { Api } from './api.js';
import { Notice, busy, errorText, field, h } from './dom.js';

export function securitySection(api: Api): HTMLElement {
  const notice = new Notice();
  const plain = h('input', { type: 'checkbox', id: 'plain-http' });
  const discovery = h('input', { type: 'checkbox', id: 'discovery' });
  const rate = h('input', { type: 'number', name: 'hearth_api_rate_limit', min: 0, max: 100000, step: 1 });
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
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save security settings')),
    notice.el,
  );
  api.get('/hearth/status').then(
    (s) => {
      plain.checked = s.plain_http !== false;
      discovery.checked = s.discovery !== false;
      rate.value = String(s.api_rate_limit ?? 200);
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
      await api.patch('/realm', { hearth_plain_http: plain.checked, hearth_discovery: discovery.checked, hearth_api_rate_limit: Number(rate.value) });
      notice.show('ok', 'Security settings saved.');
    });
  });
  return form;
}
