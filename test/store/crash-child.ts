/**
 * A child process for test/store/all-or-nothing.test.ts: it opens a message store and makes one
 * change that touches many messages across segments (a topic move, a channel marked read, a
 * topic deleted), then stops. File operations (open, write, sync, rename, unlink, truncate…) are
 * counted from the moment the store is open; with KILL_AT=n the process SIGKILLs itself just
 * before the nth, so the disk is left exactly as it was at that instant. Without it, the change
 * runs to the end (KILL_AFTER_MS=t: killed t ms after it began, wherever it is) and the process prints the number of operations, the bytes written and the
 * milliseconds the save took (JSON on stdout).
 *
 *   node --import tsx test/store/crash-child.ts prepare <dir>
 *   node --import tsx test/store/crash-child.ts <move|read|delete> <dir>
 *
 * STORE_DIR: the folder of the store modules (default server/store), so a copy of an older
 * version can be measured in the same run.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MessageStore as Store } from '../../server/store/messages.js';
import type { MessageRecord } from '../../server/store/message-records.js';

/** The data set: 6,720 messages in channel 1, every one but each fourth in topic "big" (5,040), seven segments. */
const TOTAL = 6720;
const isBig = (id: number) => id % 4 !== 0;
const READ = 1; // FLAG.read

const [, , mode, dir] = process.argv as [string, string, string, string];
const killAt = Number(process.env.KILL_AT ?? 0);
/** Or: SIGKILL this many milliseconds after the change began, wherever it is then. */
const killAfterMs = process.env.KILL_AFTER_MS === undefined ? null : Number(process.env.KILL_AFTER_MS);
const storeDir = resolve(process.env.STORE_DIR ?? new URL('../../server/store', import.meta.url).pathname);

const counter = { armed: false, ops: 0, bytes: 0 };
const step = (bytes = 0) => {
  if (!counter.armed) return;
  counter.ops++;
  if (counter.ops === killAt) process.kill(process.pid, 'SIGKILL');
  counter.bytes += bytes;
};
const sizeOf = (data: unknown, a: unknown[] = []): number => {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (ArrayBuffer.isView(data)) return typeof a[1] === 'number' ? a[1] : data.byteLength;
  return 0;
};

type Fn = (...a: unknown[]) => Promise<unknown>;
const p = fs.promises as unknown as Record<string, Fn>;
for (const name of ['open', 'rename', 'unlink', 'writeFile', 'copyFile', 'truncate', 'link']) {
  const orig = p[name]!;
  p[name] = function (this: unknown, ...a: unknown[]) {
    step(name === 'writeFile' ? sizeOf(a[1]) : 0);
    return orig.apply(this, a);
  };
}
syncBuiltinESMExports();
{
  const probe = await fs.promises.open(process.argv[1]!, 'r');
  const proto = Object.getPrototypeOf(probe) as Record<string, Fn>;
  await probe.close();
  for (const name of ['write', 'writeFile', 'sync', 'datasync', 'truncate']) {
    const orig = proto[name]!;
    proto[name] = function (this: unknown, ...a: unknown[]) {
      step(name === 'write' ? sizeOf(a[0], a.slice(1)) : name === 'writeFile' ? sizeOf(a[0]) : 0);
      return orig.apply(this, a);
    };
  }
}

const { MessageStore } = (await import(pathToFileURL(`${storeDir}/messages.ts`).href)) as { MessageStore: typeof Store };
const row = (user: number, flags: number) => user * 1024 + flags;

if (mode === 'prepare') {
  const store = await MessageStore.open(dir);
  const ids: number[] = [];
  for (let i = 1; i <= TOTAL; i++) {
    const m = store.add({
      sender_id: 1,
      stream_id: 1,
      topic: isBig(i) ? 'big' : 'other',
      content: `message ${i} ${'words '.repeat(20)}`,
      timestamp: 1_700_000_000 + i,
      um: [row(1, READ), row(2, 0), row(3, 0)],
    } as Omit<MessageRecord, 'id'>);
    ids.push(m.id);
    if (ids.length === 1000) await store.save(...ids.splice(0));
  }
  await store.save(...ids);
  await store.settled();
} else {
  const store = await MessageStore.open(dir);
  const big = store.topic(1, 'big').toArray();
  const all = store.channel(1).toArray();
  const started = performance.now();
  counter.armed = true;
  if (killAfterMs !== null) setTimeout(() => process.kill(process.pid, 'SIGKILL'), killAfterMs).unref();
  if (mode === 'move') {
    for (const id of big) store.relocate(store.get(id)!, { stream_id: 2, topic: 'moved' });
    await store.save(...big);
  } else if (mode === 'read') {
    for (const id of all) store.setRowFlags(store.get(id)!, 2, READ);
    await store.save(...all);
  } else if (mode === 'delete') {
    for (const id of big) store.remove(id);
    await store.save(...big);
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  await store.settled();
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ ops: counter.ops, bytes: counter.bytes, ms })}\n`);
}
