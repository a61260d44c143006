/** Status: LAN URLs, version, uptime, data dir, connected clients, store size; "Back up now" with progress. */
import type { Api, Json } from './api.js';
import { Notice, busy, errorText, field, h, loading } from './dom.js';
import { desktop } from './desktop.js';
import { connectList } from './qr.js';

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[i]}`;
}

export function formatUptime(s: number): string {
  const d = Math.floor(s / 86400);
  const hrs = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${hrs} h` : hrs ? `${hrs} h ${m} min` : m ? `${m} min` : `${s} s`;
}

/** In the desktop window: a folder picker for the backup destination. */
function chooseButton(input: HTMLInputElement): HTMLElement | null {
  const choose = desktop()?.chooseFolder;
  if (!choose) return null;
  const b = h('button', { type: 'button', class: 'secondary' }, 'Choose folder…');
  b.addEventListener('click', () =>
    void choose().then((dir) => {
      if (dir) input.value = dir;
    }),
  );
  return h('div', { class: 'actions' }, b);
}

export function statusPage(api: Api): HTMLElement {
  const facts = h('div', {}, loading('status'));
  const page = h('div', { class: 'page' }, h('h1', {}, 'Status'), facts, backupSection(api));
  api.get('/hearth/status').then(
    (s) => {
      const rows: [string, string][] = [
        ['Version', `Hearth ${s.version} (Zulip API feature level ${s.zulip_feature_level})`],
        ['Running for', formatUptime(Number(s.uptime_seconds))],
        ['Data folder', String(s.data_dir)],
        ['Connected clients', String(s.connected_clients)],
        ['Store size', formatBytes(Number(s.store_bytes))],
        ['HTTPS', s.https_port ? `On, port ${s.https_port}` : 'Off'],
      ];
      const trust = s.ca_fingerprint_sha256
        ? h('section', { class: 'card', 'aria-labelledby': 'trust-title' },
            h('h2', { id: 'trust-title' }, 'Certificate authority'),
            h('p', {}, 'People install this server\'s own authority once per device, then connect over HTTPS. They compare this fingerprint with the one their trust page shows:'),
            h('p', {}, h('code', { class: 'fingerprint', 'aria-label': 'SHA-256 fingerprint' }, String(s.ca_fingerprint_sha256))),
            h('p', {}, h('a', { href: '/hearth/trust' }, 'Open the trust page'), ' (downloads and steps for each system).'))
        : null;
      const storage = s.storage_error
        ? h('p', { class: 'notice notice-error', role: 'alert' },
            `Hearth cannot save to its data folder (${s.storage_error}): every change is refused until it can. Free some disk space or check the folder; Hearth retries by itself.`)
        : null;
      facts.replaceChildren(
        ...(storage ? [storage] : []),
        h('section', { class: 'card', 'aria-labelledby': 'server-title' }, h('h2', { id: 'server-title' }, 'Server'),
          h('dl', { class: 'facts' }, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])), openDataFolderButton()),
        h('section', { class: 'card', 'aria-labelledby': 'connect-title' }, h('h2', { id: 'connect-title' }, 'How people connect'), connectList(s.lan_urls as string[])),
        ...(trust ? [trust] : []),
      );
    },
    (err) => facts.replaceChildren(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not load the status: ${errorText(err)}`)),
  );
  return page;
}

/** In the desktop window: a button that opens the data folder in the file manager. */
function openDataFolderButton(): HTMLElement | null {
  const open = desktop()?.openDataFolder;
  if (!open) return null;
  const b = h('button', { type: 'button', class: 'secondary' }, 'Open data folder');
  b.addEventListener('click', () => void open());
  return h('div', { class: 'actions' }, b);
}

function backupSection(api: Api): HTMLElement {
  const notice = new Notice();
  const destination = h('input', { name: 'destination', required: true, autocomplete: 'off', placeholder: '/media/usb/hearth-backup' });
  const progress = h('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'Backup progress' });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'backup-title' },
    h('h2', { id: 'backup-title' }, 'Backup'),
    field('Destination folder', destination, 'A folder on the computer running Hearth (for example a USB disk). A new dated folder is made inside it.'),
    chooseButton(destination),
    progress,
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Back up now')),
  );
  const show = (b: Json) => {
    progress.hidden = b.state === 'idle';
    progress.max = Math.max(1, Number(b.total_bytes));
    progress.value = Number(b.copied_bytes);
    if (b.state === 'running') notice.show('info', `Copying… ${formatBytes(Number(b.copied_bytes))} of ${formatBytes(Number(b.total_bytes))}`);
    else if (b.state === 'done') notice.show('ok', `Backup complete: ${formatBytes(Number(b.total_bytes))} copied to ${b.destination}.`);
    else if (b.state === 'failed') notice.show('error', `Backup failed: ${b.error ?? 'unknown error'}`);
  };
  const follow = async () => {
    for (;;) {
      const b = await api.get('/hearth/backup');
      show(b);
      if (b.state !== 'running') return;
      await new Promise((r) => setTimeout(r, 400));
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    void busy(form, notice, async () => {
      show(await api.post('/hearth/backup', { destination: destination.value }));
      await follow();
    });
  });
  api.get('/hearth/backup').then(
    (b) => {
      if (b.state === 'running') void busy(form, notice, follow);
      else if (b.state !== 'idle') show(b);
    },
    () => undefined,
  );
  return form;
}
