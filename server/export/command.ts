/**
 * `hearth export --format rocketchat --out DIR [--data-dir DIR]`: an export for Zulip's
 * importer from a data dir no server is using (a running server exports from its admin
 * window's Status page, or through POST /export/realm). Progress goes to stderr.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from '../app.js';
import { silentLogger } from '../log.js';
import { Store, StoreOpenError } from '../store/store.js';
import { writeRocketChatExport, type ExportProgress, type ExportSummary } from './rocketchat-export.js';
import { takeSnapshot } from './snapshot.js';

export class ExportRefused extends Error {}

export function progressLine(p: ExportProgress): string {
  if (p.phase === 'done') return 'done';
  if (p.phase === 'uploads') return `uploads: ${(p.done / 1048576).toFixed(1)} of ${(p.total / 1048576).toFixed(1)} MB`;
  return `${p.phase}: ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')}`;
}

export function summaryLines(s: ExportSummary, out: string): string[] {
  return [
    `Exported to ${out}:`,
    `  ${s.users} people, ${s.rooms} rooms (${s.topics} topics), ${s.messages.toLocaleString('en-US')} messages` +
      (s.messageDocuments !== s.messages ? ` (${s.messageDocuments.toLocaleString('en-US')} after splitting messages with several files)` : ''),
    `  ${s.reactions} reactions, ${s.uploads} uploads (${(s.uploadBytes / 1048576).toFixed(1)} MB), ${s.emoji} custom emoji`,
    ...(s.missingFiles.length ? [`  left out, no longer on disk: ${s.missingFiles.join(', ')}`] : []),
    'Next: on the Zulip server, ./manage.py convert_rocketchat_data, then ./manage.py import;',
    "then 'hearth zulip-fixup' with the hearth-fixup.json in that folder (Hearth's help center, /help/moving-to-zulip, has the steps).",
  ];
}

export async function runExportCommand(opts: { dataDir: string; out: string }, note: (line: string) => void): Promise<ExportSummary> {
  const dataDir = resolve(opts.dataDir);
  const out = resolve(opts.out);
  if (!existsSync(join(dataDir, 'manifest.json'))) throw new ExportRefused(`${dataDir} holds no Hearth data`);
  let store: Store;
  try {
    store = await Store.open(dataDir);
  } catch (err) {
    if (err instanceof StoreOpenError) {
      throw new ExportRefused(`${err.message} Export from its organization settings (Status, Export for Zulip) or stop it first.`);
    }
    throw err;
  }
  try {
    const { app } = createApp({ store, log: silentLogger });
    if (!store.realm.data.realm) throw new ExportRefused(`${dataDir} has no organization yet`);
    const snap = takeSnapshot(app);
    let last = '';
    const summary = await writeRocketChatExport(snap, out, {
      onProgress: (p) => {
        const line = progressLine(p);
        if (line.split(':')[0] !== last.split(':')[0] || p.phase === 'messages' || p.phase === 'uploads') {
          if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${line}`);
          else if (line.split(':')[0] !== last.split(':')[0]) note(line);
        }
        last = line;
      },
    });
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    for (const line of summaryLines(summary, out)) note(line);
    return summary;
  } finally {
    await store.close();
  }
}
