/**
 * Status: LAN URLs, version, uptime, data dir, connected clients, store size; "Back up now" with
 * progress; "Export for Zulip" (POST /export/realm) with progress and the past exports.
 */
import { ApiError, type Api, type Json } from './api.js';
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
  const page = h('div', { class: 'page' }, h('h1', {}, 'Status'), facts, backupSection(api), exportSection(api));
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
      const trust = s.ca_fingerprint_sha256 ? trustSection(api, s) : null;
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

/**
 * The certificate authority: its fingerprint, what it cannot vouch for, a warning when it is
 * one from before Name Constraints (it may vouch for any website), and an owner's "Replace".
 */
function trustSection(api: Api, s: Json): HTMLElement {
  const notice = new Notice();
  const fingerprint = h('code', { class: 'fingerprint', 'aria-label': 'SHA-256 fingerprint' }, String(s.ca_fingerprint_sha256));
  const unlimited = s.ca_name_constrained === false
    ? h('p', { class: 'notice notice-error' },
        'This authority was made by an earlier version of Hearth and may vouch for any website, not only for this office\'s server: whoever got hold of its key (from a stolen backup of this computer, say) could pass any site off as genuine on every device that trusts it. Replace it, then have everyone install the new one from the trust page.')
    : null;
  const leftOut = (s.https_names_left_out as string[] | undefined) ?? [];
  const replace = h('button', { type: 'button', class: unlimited ? '' : 'secondary' }, 'Replace the authority…');
  replace.addEventListener('click', () => {
    if (!confirm('Replace the certificate authority? Every device that installed the current one shows a certificate warning until it installs the new one from the trust page.')) return;
    notice.clear();
    void busy(replace, notice, async () => {
      const r = await api.post('/hearth/tls/authority', {});
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

const PHASE_LABELS: Record<string, string> = {
  'people and channels': 'People and channels',
  messages: 'Messages',
  uploads: 'Uploads',
  'custom emoji': 'Custom emoji',
};
const EXPORT_PUBLIC = 1;
const EXPORT_STANDARD = 2;
const ROLE_OWNER = 100;

const count = (n: number) => n.toLocaleString('en-US');

/** "Messages: 2,000 of 2,949"; for uploads, bytes ("Uploads: 1.5 MiB of 20.0 MiB"). */
function exportProgressText(p: { phase: string; done: number; total: number }): string {
  const label = PHASE_LABELS[p.phase] ?? p.phase;
  if (p.phase === 'uploads') return `${label}: ${formatBytes(p.done)} of ${formatBytes(p.total)}`;
  if (p.phase === 'people and channels') return `${label}…`;
  return `${label}: ${count(p.done)} of ${count(p.total)}`;
}

/** "2 of 5 people allow exporting their private data; …" (GET /export/realm/consents). */
function consentText(consents: { consented: boolean }[]): string {
  const n = consents.filter((c) => c.consented).length;
  const m = consents.length;
  const allow = n === 1 ? 'allows' : 'allow';
  return `${count(n)} of ${count(m)} ${m === 1 ? 'person' : 'people'} ${allow} exporting their private data; direct messages and private channels of the others are left out`;
}

const exportDate = (seconds: number) => new Date(seconds * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/**
 * "Export for Zulip": the organization as Zulip's importer reads it (the server writes a
 * .tar.gz in the background). An owner exports private data of the people who allow it; an
 * administrator who is not an owner, public channels only (Zulip's rule).
 */
function exportSection(api: Api): HTMLElement {
  const notice = new Notice();
  const consents = h('p', { class: 'export-consents' }, 'Loading who allows exporting their private data…');
  const ownerNote = h('p', { hidden: true },
    'Private channels and direct messages can be exported by an organization owner only; as an administrator you can export the public channels.');
  const progress = h('progress', { max: 1, value: 0, hidden: true, 'aria-label': 'Export progress' });
  const progressText = h('p', { class: 'export-progress', role: 'status', 'aria-live': 'polite', hidden: true });
  const start = h('button', { type: 'button' }, 'Export for Zulip');
  const pastTitle = h('h3', { id: 'exports-title', class: 'exports-title', tabindex: -1 }, 'Past exports');
  const list = h('ul', { class: 'plain-list export-list', 'aria-labelledby': 'exports-title' });
  const card = h(
    'section',
    { class: 'card', 'aria-labelledby': 'export-title' },
    h('h2', { id: 'export-title' }, 'Export for Zulip'),
    h('p', {}, "Writes this organization in the form Zulip's importer reads, for moving to a Zulip server. The README section “Moving to Zulip” has the steps."),
    consents,
    ownerNote,
    progress,
    progressText,
    notice.el,
    h('div', { class: 'actions' }, start),
    pastTitle,
    list,
  );
  let exportType = EXPORT_STANDARD;

  const render = (exports: Json[]) => {
    const sorted = [...exports].sort((a, b) => Number(b.export_time) - Number(a.export_time));
    list.replaceChildren(
      ...sorted.map((e) => {
        const date = exportDate(Number(e.export_time));
        const kind = e.export_type === EXPORT_PUBLIC ? 'public channels only' : 'with private data where allowed';
        const what = h('span', {}, h('strong', {}, date), ` · ${kind}`);
        let state: HTMLElement;
        if (e.pending) state = h('span', {}, 'Being written…');
        else if (e.failed_timestamp !== null) state = h('span', { class: 'export-failed' }, 'Failed: nothing to download');
        else if (e.deleted_timestamp !== null) state = h('span', { class: 'hint' }, `Deleted ${exportDate(Number(e.deleted_timestamp))}`);
        else if (!e.export_url) state = h('span', { class: 'hint' }, 'No file');
        else {
          const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Delete the export of ${date}` }, 'Delete');
          remove.addEventListener('click', () => {
            if (!confirm(`Delete the export of ${date}? Its file is removed from this computer.`)) return;
            void busy(remove, notice, async () => {
              await api.delete(`/export/realm/${e.id}`);
              notice.show('ok', `The export of ${date} was deleted.`);
              await reload();
              pastTitle.focus();
            });
          });
          state = h(
            'span',
            { class: 'row-actions' },
            h('a', { href: String(e.export_url), download: '', class: 'button secondary small', 'aria-label': `Download the export of ${date}` }, 'Download'),
            remove,
          );
        }
        return h('li', {}, what, state);
      }),
    );
    if (!list.children.length) list.append(h('li', { class: 'empty' }, 'No exports yet.'));
  };
  const reload = async () => {
    render((await api.get('/export/realm')).exports as Json[]);
  };

  let lastText = '';
  const show = (p: Json) => {
    const packing = p.phase === 'packing';
    const text = packing ? 'Packing the archive…' : exportProgressText({ phase: String(p.phase), done: Number(p.done), total: Number(p.total) });
    progress.hidden = false;
    progressText.hidden = false;
    if (packing || p.phase === 'people and channels') progress.removeAttribute('value');
    else {
      progress.max = Math.max(1, Number(p.total));
      progress.value = Number(p.done);
    }
    progress.setAttribute('aria-valuetext', text);
    // Only when it changes: each change is read out.
    if (text !== lastText) progressText.textContent = lastText = text;
  };
  const hideProgress = () => {
    progress.hidden = true;
    progressText.hidden = true;
    progressText.textContent = lastText = '';
  };
  /** Polls GET /hearth/export until the export is done or failed (or the page is left). */
  const follow = async () => {
    for (;;) {
      const { export: current } = await api.get('/hearth/export');
      if (!current) return hideProgress();
      if (current.error) {
        hideProgress();
        notice.show('error', `The export failed: ${current.error}`);
        return;
      }
      if (current.phase === 'done') {
        hideProgress();
        notice.show('ok', 'Export finished: download it from the list below.');
        return;
      }
      show(current);
      await new Promise((r) => setTimeout(r, 500));
      if (!card.isConnected) return;
    }
  };
  /** Follows the export to its end, then lists the exports again. */
  const followAndList = async () => {
    try {
      await follow();
    } finally {
      await reload();
    }
  };

  start.addEventListener('click', () => {
    notice.clear();
    void busy(start, notice, async () => {
      try {
        await api.post('/export/realm', { export_type: exportType });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'UNAUTHORIZED_PRINCIPAL') {
          throw new Error('Only an organization owner can export private channels and direct messages.');
        }
        throw err;
      }
      show({ phase: 'people and channels', done: 0, total: 1 });
      await reload();
      await followAndList();
    });
  });

  void api.get('/users/me').then(
    (me) => {
      if (me.role !== ROLE_OWNER) {
        exportType = EXPORT_PUBLIC;
        ownerNote.hidden = false;
        start.textContent = 'Export public channels for Zulip';
      }
    },
    () => undefined,
  );
  api.get('/export/realm/consents').then(
    (c) => {
      consents.replaceChildren(consentText(c.export_consents as { consented: boolean }[]), ' (stop Hearth and run ', h('code', {}, 'hearth export'), ' for everything).');
    },
    (err) => consents.replaceChildren(`Could not load who allows exporting their private data: ${errorText(err)}`),
  );
  list.append(h('li', { class: 'loading' }, 'Loading exports…'));
  reload().then(
    async () => {
      const { export: current } = await api.get('/hearth/export');
      if (current && !current.error && current.phase !== 'done') void busy(start, notice, followAndList);
    },
    (err) => list.replaceChildren(h('li', { class: 'notice notice-error', role: 'alert' }, `Could not load the exports: ${errorText(err)}`)),
  ).catch(() => undefined);
  return card;
}
