/**
 * What the message store's indexes need of one segment's messages, as a sidecar body
 * (./segment-sidecar.ts): each message's ID, sender, channel or direct conversation, topic and
 * rows, and the segment's highest submessage ID. Opening reads these instead of the records.
 *
 * Body: u32 length of a JSON part ({topics, dms, rows, sub}: each distinct topic, conversation and
 * row list once), zero padding to 4 bytes, then six Int32 columns of `count` entries: ID, sender,
 * place (the channel ID, or -1 - the conversation's index), topic index, rows index, and the
 * length in bytes of the message's JSON (`layout`: where each message is in a segment file that is
 * exactly JSON.stringify of its messages, so one message is read without the rest).
 */
import { conversationKey, type MessageRecord } from './message-records.js';

/** One message as the indexes see it (a scratch object, reused for the next message). */
export type IndexedMessage = Pick<MessageRecord, 'id' | 'sender_id' | 'stream_id' | 'topic' | 'dm' | 'um'>;

interface Tables {
  topics: string[];
  dms: number[][];
  rows: number[][];
  sub: number;
}

const COLUMNS = 6;

export function encodeMessageSidecar(items: readonly MessageRecord[]): Uint8Array {
  const topics = new Map<string, number>();
  const dms = new Map<string, number>();
  const rows = new Map<readonly number[], number>();
  const t: Tables = { topics: [], dms: [], rows: [], sub: 0 };
  const n = items.length;
  const col = new Int32Array(COLUMNS * n);
  for (let i = 0; i < n; i++) {
    const m = items[i]!;
    col[i] = m.id;
    col[n + i] = m.sender_id;
    if (m.stream_id === null) {
      const key = conversationKey(m.dm ?? []);
      let d = dms.get(key);
      if (d === undefined) {
        dms.set(key, (d = t.dms.length));
        t.dms.push([...(m.dm ?? [])]);
      }
      col[2 * n + i] = -1 - d;
    } else col[2 * n + i] = m.stream_id;
    let ti = topics.get(m.topic);
    if (ti === undefined) {
      topics.set(m.topic, (ti = t.topics.length));
      t.topics.push(m.topic);
    }
    col[3 * n + i] = ti;
    let r = rows.get(m.um);
    if (r === undefined) {
      rows.set(m.um, (r = t.rows.length));
      t.rows.push([...m.um]);
    }
    col[4 * n + i] = r;
    const subs = m.submessages;
    if (subs?.length) t.sub = Math.max(t.sub, subs[subs.length - 1]!.id);
    col[5 * n + i] = Buffer.byteLength(JSON.stringify(m));
  }
  const json = Buffer.from(JSON.stringify(t));
  const at = 4 + json.length + ((4 - ((4 + json.length) % 4)) % 4);
  const out = new Uint8Array(at + col.byteLength);
  new DataView(out.buffer).setUint32(0, json.length, true);
  out.set(json, 4);
  out.set(new Uint8Array(col.buffer), at);
  return out;
}

/**
 * A body's columns (COLUMNS × `count` Int32s after the JSON part and its padding), or null when the
 * body's length says otherwise. In place when aligned (sidecars are written so): the caller uses
 * them before the next read into that buffer.
 */
function columnsOf(body: Buffer, count: number): Int32Array | null {
  const jsonLen = body.readUInt32LE(0);
  const at = 4 + jsonLen + ((4 - ((4 + jsonLen) % 4)) % 4);
  if (at + COLUMNS * 4 * count !== body.length) return null;
  const offset = body.byteOffset + at;
  return offset % 4 === 0 ? new Int32Array(body.buffer, offset, COLUMNS * count) : new Int32Array(body.buffer.slice(offset, offset + COLUMNS * 4 * count));
}

/** A body read: the columns (ID, sender, place, topic index, rows index; `count` each) and the tables they index. */
export interface DecodedSidecar {
  count: number;
  col: Int32Array;
  /** Each topic, interned. */
  topics: string[];
  dms: number[][];
  /** Each row list, held (RowLists) as many times as messages name it. */
  rows: (readonly number[])[];
  /** The segment's highest submessage ID. */
  sub: number;
}

/**
 * Reads a body: `hold` receives each distinct row list with how many messages hold it (and gives
 * the list to keep), `intern` each topic. Throws on a body that does not read, having held
 * nothing (the caller parses the segment instead).
 */
export function decodeMessageSidecar(
  body: Buffer,
  count: number,
  hold: (rows: number[], holders: number) => readonly number[],
  intern: (topic: string) => string,
): DecodedSidecar {
  const col = columnsOf(body, count);
  if (!col) throw new Error('sidecar columns do not match its count');
  const t = JSON.parse(body.toString('utf8', 4, 4 + body.readUInt32LE(0))) as Tables;
  const n = count;
  // Checked whole before anything is held or indexed: a body that does not read leaves no trace.
  const uses = new Int32Array(t.rows.length);
  for (let i = 0; i < n; i++) {
    const place = col[2 * n + i]!;
    const r = col[4 * n + i]!;
    if ((place < 0 && -1 - place >= t.dms.length) || !(col[3 * n + i]! >= 0 && col[3 * n + i]! < t.topics.length) || !(r >= 0 && r < t.rows.length)) {
      throw new Error('sidecar names a conversation, topic or rows it does not hold');
    }
    if (i > 0 && col[i]! <= col[i - 1]!) throw new Error('sidecar IDs out of order');
    uses[r]!++;
  }
  return { count, col, topics: t.topics.map(intern), dms: t.dms, rows: t.rows.map((r, i) => (uses[i]! > 0 ? hold(r, uses[i]!) : r)), sub: t.sub };
}

/**
 * Where each message of a segment is in its file (byte offset and length), from a sidecar's body:
 * null when the file (`size` bytes) is not exactly JSON.stringify of the messages (a later copy
 * was appended, or the rows were written in an older form), then the segment is read whole.
 */
export function messageLayout(body: Buffer, count: number, size: number): { ids: Int32Array; offsets: Int32Array; lengths: Int32Array } | null {
  const col = columnsOf(body, count);
  if (!col) return null;
  // Copies: the body's buffer is read into again.
  const ids = col.slice(0, count);
  const lengths = col.slice(5 * count, 6 * count);
  const offsets = new Int32Array(count);
  let pos = 1; // after "["
  for (let i = 0; i < count; i++) {
    if (!(lengths[i]! > 0)) return null;
    offsets[i] = pos;
    pos += lengths[i]! + 1; // the item, then "," (or "]" after the last)
  }
  return (count === 0 ? 2 : pos) === size ? { ids, offsets, lengths } : null;
}
