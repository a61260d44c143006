/** Status, Export for Zulip: `POST /export/realm` with progress, and the past exports. */
import type { User } from '../server/protocol/user.js';
import { ApiError, type Api } from './admin-api.js';

/** A past export as `GET /export/realm` lists it (Zulip's shape; what this card shows). */
interface RealmExport {
  id: number;
  export_time: number;
  export_type: number;
  pending: boolean;
  export_url: string | null;
  deleted_timestamp: number | null;
  failed_timestamp: number | null;
}

/** The running export's progress (`GET /hearth/export`: null when none runs). */
interface ExportRun {
  id: number;
  phase: string;
  done: number;
  total: number;
  error: string | null;
}
import { Notice, busy, errorText, h } from './dom.js';
import { formatBytes } from './status-format.js';

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
export function exportSection(api: Api): HTMLElement {
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
    h('p', {}, "Writes this organization in the form Zulip's importer reads, for moving to a Zulip server. The help center's ", h('a', { href: '/help/moving-to-zulip' }, 'Moving to Zulip'), ' page has the steps.'),
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

  const render = (exports: RealmExport[]) => {
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
    render((await api.get<{ exports: RealmExport[] }>('/export/realm')).exports);
  };

  let lastText = '';
  const show = (p: Pick<ExportRun, 'phase' | 'done' | 'total'>) => {
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
      const { export: current } = await api.get<{ export: ExportRun | null }>('/hearth/export');
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

  void api.get<User>('/users/me').then(
    (me) => {
      if (me.role !== ROLE_OWNER) {
        exportType = EXPORT_PUBLIC;
        ownerNote.hidden = false;
        start.textContent = 'Export public channels for Zulip';
      }
    },
    () => undefined,
  );
  api.get<{ export_consents: { consented: boolean }[] }>('/export/realm/consents').then(
    (c) => {
      consents.replaceChildren(consentText(c.export_consents), ' (stop Hearth and run ', h('code', {}, 'hearth export'), ' for everything).');
    },
    (err) => consents.replaceChildren(`Could not load who allows exporting their private data: ${errorText(err)}`),
  );
  list.append(h('li', { class: 'loading' }, 'Loading exports…'));
  reload().then(
    async () => {
      const { export: current } = await api.get<{ export: ExportRun | null }>('/hearth/export');
      if (current && !current.error && current.phase !== 'done') void busy(start, notice, followAndList);
    },
    (err) => list.replaceChildren(h('li', { class: 'notice notice-error', role: 'alert' }, `Could not load the exports: ${errorText(err)}`)),
  ).catch(() => undefined);
  return card;
}
