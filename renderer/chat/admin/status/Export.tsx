/**
 * Status, "Export for Zulip": the organization as Zulip's importer reads it (`POST /export/realm`:
 * the server writes a .tar.gz in the background), with progress, and the past exports. An owner
 * exports private data of the people who allow it; an administrator who is not an owner, public
 * channels only (Zulip's rule).
 */
import type { User } from '../../../../server/protocol/user.js';
import { useEffect, useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { errorText, Notice, useNotice } from '../../ui/Notice.js';
import { ApiError, get, post } from '../api.js';
import { pause, useAlive } from './alive.js';
import { consentText, EXPORT_PUBLIC, EXPORT_STANDARD, type ExportProgress, type ExportRun, exportProgressText, indeterminate, type Loaded, type RealmExport } from './export-text.js';
import { PastExports } from './PastExports.js';

const ROLE_OWNER = 100;

export function Export() {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [owner, setOwner] = useState(true);
  const [consents, setConsents] = useState<Loaded<string>>(null);
  const [exports, setExports] = useState<Loaded<RealmExport[]>>(null);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const alive = useAlive();

  const reload = async () => {
    const { exports: list } = await get<{ exports: RealmExport[] }>('/export/realm');
    if (alive.current) setExports({ value: list });
  };

  /** Polls GET /hearth/export until the export is done or failed (or the section is left). */
  const follow = async () => {
    for (;;) {
      const { export: current } = await get<{ export: ExportRun | null }>('/hearth/export');
      if (!alive.current) return;
      if (!current) return setProgress(null);
      if (current.error) {
        setProgress(null);
        setNotice({ kind: 'error', text: `The export failed: ${current.error}` });
        return;
      }
      if (current.phase === 'done') {
        setProgress(null);
        setNotice({ kind: 'ok', text: 'Export finished: download it from the list below.' });
        return;
      }
      setProgress({ phase: String(current.phase), done: Number(current.done), total: Number(current.total) });
      await pause(500);
      if (!alive.current) return;
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

  useEffect(() => {
    get<User>('/users/me').then(
      (me) => alive.current && setOwner(me.role === ROLE_OWNER),
      () => undefined,
    );
    get<{ export_consents: { consented: boolean }[] }>('/export/realm/consents').then(
      (c) => alive.current && setConsents({ value: consentText(c.export_consents) }),
      (err: unknown) => alive.current && setConsents({ error: `Could not load who allows exporting their private data: ${errorText(err)}` }),
    );
    reload()
      .then(
        async () => {
          const { export: current } = await get<{ export: ExportRun | null }>('/hearth/export');
          if (alive.current && current && !current.error && current.phase !== 'done') void run(followAndList);
        },
        (err: unknown) => alive.current && setExports({ error: `Could not load the exports: ${errorText(err)}` }),
      )
      .catch(() => undefined);
  }, []);

  const start = () => {
    setNotice(null);
    void run(async () => {
      try {
        await post('/export/realm', { export_type: owner ? EXPORT_STANDARD : EXPORT_PUBLIC });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'UNAUTHORIZED_PRINCIPAL') {
          throw new Error('Only an organization owner can export private channels and direct messages.');
        }
        throw err;
      }
      setProgress({ phase: 'people and channels', done: 0, total: 1 });
      await reload();
      await followAndList();
    });
  };

  const text = progress ? exportProgressText(progress) : '';
  return (
    <section class="card status-card" aria-labelledby="export-title">
      <h2 id="export-title">Export for Zulip</h2>
      <p>
        Writes this organization in the form Zulip's importer reads, for moving to a Zulip server. The help center's <a href="/help/moving-to-zulip">Moving to Zulip</a> page has
        the steps.
      </p>
      <p class="export-consents">
        {!consents ? (
          'Loading who allows exporting their private data…'
        ) : 'error' in consents ? (
          consents.error
        ) : (
          <>
            {consents.value} (stop Hearth and run <code>hearth export</code> for everything).
          </>
        )}
      </p>
      {!owner && <p>Private channels and direct messages can be exported by an organization owner only; as an administrator you can export the public channels.</p>}
      {progress && (
        <progress
          max={Math.max(1, Number(progress.total))}
          value={indeterminate(progress) ? undefined : Number(progress.done)}
          aria-label="Export progress"
          aria-valuetext={text}
        />
      )}
      <p class="export-progress" role="status" aria-live="polite" hidden={!progress}>
        {text}
      </p>
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton busy={busy} onClick={start}>
          {owner ? 'Export for Zulip' : 'Export public channels for Zulip'}
        </BusyButton>
      </div>
      <PastExports exports={exports} reload={reload} setNotice={setNotice} />
    </section>
  );
}
