/**
 * `hearth export --format rocketchat`: the demo organization exported from its data dir, read as
 * Zulip's converter reads it, with counts equal to Hearth's (messages, reactions, uploads and their
 * bytes, custom emoji); and the refusals: a data dir a running server holds, a folder that is not
 * empty, a format other than rocketchat, a dir with no Hearth data.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildDemo } from '../../server/demo/build.js';
import { silentLogger } from '../../server/log.js';
import { startServer } from '../../server/start.js';
import { Store } from '../../server/store/store.js';
import { runCli } from '../helpers/cli.js';
import { convert } from '../helpers/rocketchat-converter.js';

describe('hearth export (the command line)', { timeout: 180_000 }, () => {
  let root: string;
  let demo: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-export-'));
    demo = join(root, 'demo');
    await buildDemo(demo, () => undefined, Date.UTC(2026, 10, 25, 12));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it("exports the demo organization; the converter's reading of it matches Hearth's counts", async () => {
    const out = join(root, 'out');
    const res = await runCli(['export', '--format', 'rocketchat', '--out', out, '--data-dir', demo]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /^Exported to .*:$/m);
    assert.match(res.stderr, /convert_rocketchat_data/);
    const files = new Map<string, Buffer>();
    for (const name of await readdir(out)) files.set(name, await readFile(join(out, name)));
    const converted = convert(files);

    const store = await Store.open(demo, { lock: false, readOnlyOpen: true });
    try {
      const messages = [...store.messages.all()];
      const ids = new Set(converted.messages.map((m) => m.id.replace(/f\d+$/, '')));
      assert.equal(ids.size, messages.length);
      assert.equal(converted.messages.flatMap((m) => m.reactions).length, messages.reduce((n, m) => n + (m.reactions?.length ?? 0), 0));
      const uploads = store.attachments.collection.data.attachments.filter((a) => a.message_ids.length);
      const exportedFiles = new Map(converted.messages.filter((m) => m.file).map((m) => [m.file!.name, m.file!.bytes.length]));
      assert.equal(exportedFiles.size, new Set(uploads.map((a) => a.file_name)).size);
      for (const a of uploads) assert.equal(exportedFiles.get(a.file_name), a.size, a.file_name);
      assert.equal(converted.emoji.length, store.emoji.data.emoji.filter((e) => !e.deactivated).length);
      assert.equal(converted.users.length, store.users.all().length + 2, "the people and the two system bots");
      const topics = new Set(messages.filter((m) => m.stream_id !== null).map((m) => `${m.stream_id} ${m.topic.toLowerCase()}`));
      assert.equal(JSON.parse(files.get('hearth-fixup.json')!.toString()).topics.length, topics.size);
      for (const m of converted.messages) assert.ok([...m.topic].length <= 60);
    } finally {
      await store.close();
    }
  });

  it('refuses a data dir a running server holds, a folder that is not empty, another format, a dir without data', async () => {
    const running = await startServer({ dataDir: demo, host: '127.0.0.1', port: 0, log: silentLogger });
    try {
      const busy = await runCli(['export', '--out', join(root, 'busy'), '--data-dir', demo]);
      assert.equal(busy.code, 1);
      assert.match(busy.stderr, /in use by another Hearth server .*Export from its organization settings/);
    } finally {
      await running.stop();
    }
    const full = join(root, 'full');
    await mkdir(full);
    await writeFile(join(full, 'keep.txt'), 'mine');
    const notEmpty = await runCli(['export', '--out', full, '--data-dir', demo]);
    assert.equal(notEmpty.code, 1);
    assert.match(notEmpty.stderr, /is not empty/);
    assert.equal(await readFile(join(full, 'keep.txt'), 'utf8'), 'mine');
    const slack = await runCli(['export', '--format', 'slack', '--out', join(root, 'slack'), '--data-dir', demo]);
    assert.equal(slack.code, 2);
    assert.match(slack.stderr, /only 'rocketchat'/);
    const empty = await runCli(['export', '--out', join(root, 'none'), '--data-dir', join(root, 'nothing')]);
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /holds no Hearth data/);
  });
});
