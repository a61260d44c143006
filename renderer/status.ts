/**
 * Status: LAN URLs, version, uptime, data dir, connected clients, store size; "Back up now" with
 * progress (status-backup.ts); "Export for Zulip" (POST /export/realm) with progress and the past
 * exports (status-export.ts).
 */
import type { Api } from './admin-api.js';
import { Notice, busy, errorText, h, loading } from './dom.js';
import { desktop } from './desktop.js';
import { connectList } from './qr.js';
import { backupSection } from './status-backup.js';
import { exportSection } from './status-export.js';
import { formatBytes, formatUptime } from './status-format.js';

export { formatBytes, formatUptime };

/** What the status page shows of `GET /hearth/status`. */
interface ServerStatus {
  version: string;
  zulip_feature_level: number;
  uptime_seconds: number;
  data_dir: string;
  connected_clients: number;
  store_bytes: number;
  https_port?: number | null;
  lan_urls: string[];
  storage_error?: string | null;
  ca_fingerprint_sha256?: string | null;
  ca_name_constrained?: boolean;
  https_names_left_out?: string[];
}

export function statusPage(api: Api): HTMLElement {
  const facts = h('div', {}, loading('status'));
  const page = h('div', { class: 'page' }, h('h1', {}, 'Status'), facts, backupSection(api), exportSection(api));
  api.get<ServerStatus>('/hearth/status').then(
    (s) => {
      const rows: [string, string][] = [
        ['Version', `Hearth ${s.version} (Zulip API feature level ${s.zulip_feature_level})`],
        ['Running for', formatUptime(Number(s.uptime_seconds))],
        ['Data folder', String(s.data_dir)],
        ['Connected clients', String(s.connected_clients)],
        ['Store size', formatBytes(Number(s.store_bytes))],
        ['HTTPS', s.https_port ? `On, port ${s.https_port}` : 'Off'],
      ];
      const trust = s.ca_fingerprint_sha256 ? trustSection(api, s) : null;
      const storage = s.storage_error
        ? h('p', { class: 'notice notice-error', role: 'alert' },
            `Hearth cannot save to its data folder (${s.storage_error}): every change is refused until it can. Free some disk space or check the folder; Hearth retries by itself.`)
        : null;
      facts.replaceChildren(
        ...(storage ? [storage] : []),
        h('section', { class: 'card', 'aria-labelledby': 'server-title' }, h('h2', { id: 'server-title' }, 'Server'),
          h('dl', { class: 'facts' }, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])), openDataFolderButton()),
        h('section', { class: 'card', 'aria-labelledby': 'connect-title' }, h('h2', { id: 'connect-title' }, 'How people connect'), connectList(s.lan_urls)),
        ...(trust ? [trust] : []),
      );
    },
    (err) => facts.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not load the status: ${errorText(err)}`)),
  );
  return page;
}

/**
 * The certificate authority: its fingerprint, what it cannot vouch for, a warning when it is
 * one from before Name Constraints (it may vouch for any website), and an owner's "Replace".
 */
function trustSection(api: Api, s: ServerStatus): HTMLElement {
  const notice = new Notice();
  const fingerprint = h('code', { class: 'fingerprint', 'aria-label': 'SHA-256 fingerprint' }, String(s.ca_fingerprint_sha256));
  const unlimited = s.ca_name_constrained === false
    ? h('p', { class: 'notice notice-error' },
        'This authority was made by an earlier version of Hearth and may vouch for any website, not only for this office\'s server: whoever got hold of its key (from a stolen backup of this computer, say) could pass any site off as genuine on every device that trusts it. Replace it, then have everyone install the new one from the trust page.')
    : null;
  const leftOut = s.https_names_left_out ?? [];
  const replace = h('button', { type: 'button', class: unlimited ? '' : 'secondary' }, 'Replace the authority…');
  replace.addEventListener('click', () => {
    if (!confirm('Replace the certificate authority? Every device that installed the current one shows a certificate warning until it installs the new one from the trust page.')) return;
    notice.clear();
    void busy(replace, notice, async () => {
      const r = await api.post<{ ca_fingerprint_sha256: string }>('/hearth/tls/authority', {});
      fingerprint.textContent = String(r.ca_fingerprint_sha256);
      unlimited?.remove();
      notice.show('ok', 'A new authority is in use. Everyone installs it from the trust page, and removes the old one.');
    });
  });
  return h('section', { class: 'card', 'aria-labelledby': 'trust-title' },
    h('h2', { id: 'trust-title' }, 'Certificate authority'),
    ...(unlimited ? [unlimited] : []),
    h('p', {}, 'People install this server\'s own authority once per device, then connect over HTTPS. They compare this fingerprint with the one their trust page shows:'),
    h('p', {}, fingerprint),
    h('p', {}, h('a', { href: '/hearth/trust' }, 'Open the trust page'), ' (downloads and steps for each system).'),
    ...(leftOut.length
      ? [h('p', {}, `HTTPS does not work by ${leftOut.join(', ')}: the authority may not vouch for ${leftOut.length === 1 ? 'it' : 'them'}. People use this computer's .local name or a private address (a new computer name is covered once the authority is replaced).`)]
      : []),
    notice.el,
    h('div', { class: 'actions' }, replace));
}

/** In the desktop window: a button that opens the data folder in the file manager. */
function openDataFolderButton(): HTMLElement | null {
  const open = desktop()?.openDataFolder;
  if (!open) return null;
  const b = h('button', { type: 'button', class: 'secondary' }, 'Open data folder');
  b.addEventListener('click', () => void open());
  return h('div', { class: 'actions' }, b);
}
