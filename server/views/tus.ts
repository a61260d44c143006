/**
 * `/api/v1/tus` (and `/json/tus`): resumable uploads (the tus 1.0 protocol) through @tus/server
 * with @tus/file-store under `uploads/tus/` in the data dir, so an interrupted
 * upload resumes after a restart (the store keeps each upload's length and
 * metadata in a JSON file beside its bytes, and the offset is the bytes' size).
 *
 * Served through the route table (tusRoutes in server/routes.ts), so the router's
 * gate authenticates as for every route: Basic (API key) under /api/v1, the session
 * cookie with its CSRF token under /json/; OPTIONS (the protocol's discovery) needs
 * no credentials. The request's bytes are the upload's: the router reads no body.
 * As Zulip's tusd hooks: a declared length over `max_file_upload_size_mib` is refused with
 * 413 and a deferred length with 411; `filename` and `filetype` come from
 * Upload-Metadata; a declared length over the organization's upload quota, a guest's daily
 * allowance or the disk's free space is refused with 413 and the message the plain endpoint gives;
 * the request that completes the upload is answered
 * `200 {"url", "filename"}`, the file having become the same attachment the
 * plain endpoint makes. Each upload's ID starts with its owner's user ID, and
 * nobody else can see, continue or end it.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type ServerOptions } from '@tus/server';
import { doStoreUpload } from '../actions/attachments.js';
import type { App, View } from '../context.js';
import { HearthError } from '../errors.js';
import { checkDiskSpace, checkUploadAllowed, maxUploadBytes, maxUploadMib } from '../lib/uploads/limits.js';
import { uploadUrl } from '../lib/uploads/names.js';
import type { UserRecord } from '../store/records.js';

export const TUS_PATH = '/api/v1/tus';
/** The web client's mirror of TUS_PATH (the router serves every /api/v1 route under /json/ too). */
const JSON_TUS_PATH = '/json/tus';

const UPLOAD_ID = /^(\d{1,12})-[0-9a-f]{32}$/;

/** Unfinished uploads one account may have at once (a client uploads a few files at a time). */
const MAX_UNFINISHED_PER_USER = 50;

/** An unfinished upload may be resumed for a week; afterwards it is deleted. */
const UNFINISHED_TTL_MS = 7 * 86_400_000;

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];
type Upload = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[1];

/** A tus-level refusal: the library sends `status_code` with `body`. */
const reject = (status: number, message: string) => ({ status_code: status, body: `${JSON.stringify({ message })}\n` });

/**
 * The library's file store, with each upload's two files (bytes and `.json` record) made mode
 * 0600 before it writes them (it would make them 0644; rewriting a file keeps its mode).
 */
class PrivateFileStore extends FileStore {
  override async create(file: Upload): Promise<Upload> {
    if (UPLOAD_ID.test(file.id)) {
      for (const name of [file.id, `${file.id}.json`]) await writeFile(join(this.directory, name), '', { mode: 0o600, flag: 'wx' });
    }
    return super.create(file);
  }
}

/** A refusal of the upload views (quota, guest allowance, disk) as the tus hook answers it: 413, as Zulip's. */
const refusal = (err: unknown) => (err instanceof HearthError ? reject(413, err.message) : err);

/** The tus routes' views for one App (the routes themselves: tusRoutes in server/routes.ts). */
export interface TusViews {
  /** POST, HEAD, PATCH, DELETE and OPTIONS: handed to @tus/server, which writes the response. */
  request: View;
  /**
   * GET and PUT, which tus does not have: 405 (on GET @tus/server would serve a finished
   * upload's bytes without our access checks).
   */
  notTus: View;
}

export function tusViews(app: App): TusViews {
  const directory = join(app.config.dataDir, 'uploads', 'tus');
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  chmodSync(directory, 0o700);
  /** Each in-flight request's caller and tus path (the library hands hooks its own request object). */
  const callers = new WeakMap<IncomingMessage, { user: UserRecord | null; base: string; res: ServerResponse }>();
  const callerOf = (req: TusRequest) => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    return node ? callers.get(node) : undefined;
  };
  /** Uploads whose creation passed the limits and whose record may not be on disk yet (until their response ends). */
  const creating = new Map<string, { userId: number; size: number }>();

  // No tus `expiration` extension: with it the library re-reads a finished upload after our hook
  // moved it away. Stale unfinished uploads are swept here instead.
  const store = new PrivateFileStore({ directory });
  /** Unfinished uploads older than the TTL are swept when a new one starts, at most hourly. */
  let lastSweep = 0;
  const sweep = () => {
    if (Date.now() - lastSweep < 3_600_000) return;
    lastSweep = Date.now();
    sweepStale(store).catch((err: unknown) => app.log.error('tus sweep failed', { error: String(err) }));
  };
  const tus = new Server({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    // An upload created under /json/ continues there (where the session cookie is the credential).
    generateUrl: (req, { path, id }) => `${callerOf(req)?.base ?? path}/${id}`,
    // Credentials are an Authorization header or a CSRF-checked session: no browser origin gets CORS access.
    allowedOrigins: [],
    maxSize: () => maxUploadBytes(app),
    namingFunction: (req) => {
      const user = callerOf(req)?.user;
      if (!user) throw reject(401, 'Unauthenticated upload');
      return `${user.id}-${randomBytes(16).toString('hex')}`;
    },
    onIncomingRequest: async (req, id) => {
      const m = UPLOAD_ID.exec(id);
      if (!m || Number(m[1]) !== callerOf(req)?.user?.id) throw reject(404, 'Upload not found');
    },
    onUploadCreate: async (req, upload) => {
      if (upload.sizeIsDeferred || upload.size === undefined) throw reject(411, 'SizeIsDeferred is not supported');
      const user = callerOf(req)?.user;
      if (!user) throw reject(401, 'Unauthenticated upload');
      // As Zulip's pre-create hook: the quota is checked on the declared length (and again when the
      // upload is recorded), with every unfinished upload's declared length counted too.
      const listed = await unfinishedUploads(store);
      const pending = { all: 0, mine: 0, unwritten: 0, mineCount: 0 };
      const count = (userId: number, size: number, written: number) => {
        pending.all += size;
        if (userId === user.id) {
          pending.mine += size;
          pending.mineCount++;
        }
        pending.unwritten += Math.max(0, size - written);
      };
      for (const u of listed) if (!creating.has(u.id)) count(u.userId, u.size, u.written);
      for (const c of creating.values()) count(c.userId, c.size, 0);
      // Tiny uploads never finished would pass any quota: their number is held too.
      if (pending.mineCount >= MAX_UNFINISHED_PER_USER) {
        throw reject(429, `At most ${MAX_UNFINISHED_PER_USER} uploads may be unfinished at once: finish or cancel some first.`);
      }
      try {
        checkUploadAllowed(app, user, upload.size, pending);
      } catch (err) {
        throw refusal(err);
      }
      creating.set(upload.id, { userId: user.id, size: upload.size });
      const res = callerOf(req)?.res;
      if (res && !res.writableFinished) res.once('close', () => creating.delete(upload.id));
      else creating.delete(upload.id);
      try {
        await checkDiskSpace(app, upload.size + pending.unwritten);
      } catch (err) {
        creating.delete(upload.id);
        throw refusal(err);
      }
      return {};
    },
    onUploadFinish: async (req, upload) => finish(app, store, callerOf(req)?.user ?? undefined, upload),
    onResponseError: (_req, err) => {
      // The library's own "Maximum size exceeded" (a declared length over maxSize), in Zulip's words.
      if (err === ERRORS.ERR_MAX_SIZE_EXCEEDED) {
        return reject(413, `Uploaded file is larger than the allowed limit of ${maxUploadMib(app)} MiB`);
      }
      return undefined;
    },
  });

  return {
    async request({ user, koa: ctx }) {
      callers.set(ctx.req, { user, base: ctx.path.startsWith('/json/') ? JSON_TUS_PATH : TUS_PATH, res: ctx.res });
      if (ctx.method === 'POST') sweep();
      ctx.respond = false;
      try {
        await tus.handle(ctx.req, ctx.res);
      } catch (err) {
        app.log.error('tus request failed', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        if (!ctx.res.headersSent) ctx.res.statusCode = 500;
        ctx.res.end();
      }
    },
    notTus({ koa: ctx }) {
      ctx.status = 405;
      ctx.set('Allow', 'DELETE, HEAD, OPTIONS, PATCH, POST');
      ctx.body = { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' };
    },
  };
}

/** The upload is complete: it becomes a stored file, answered as Zulip's pre-finish hook does. */
async function finish(app: App, store: FileStore, user: UserRecord | undefined, upload: Upload) {
  if (!user) throw reject(401, 'Unauthenticated upload');
  const meta = upload.metadata ?? {};
  let a;
  try {
    a = await doStoreUpload(app, user.id, {
      from: join(store.directory, upload.id),
      name: meta.filename ?? '',
      clientType: meta.filetype,
      size: upload.size ?? upload.offset,
    });
  } catch (err) {
    // Over a limit by now (other uploads were recorded meanwhile): the bytes are gone, and so is the upload.
    if (!(err instanceof HearthError) || err.status >= 500) throw err;
    await store.remove(upload.id).catch(() => undefined);
    await store.configstore.delete(upload.id).catch(() => undefined);
    throw refusal(err);
  }
  // The bytes moved; the upload's own record goes too (a later HEAD is a 404).
  await store.configstore.delete(upload.id);
  const url = uploadUrl(a.path_id);
  return {
    status_code: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, filename: a.file_name }),
  };
}

/** Unfinished uploads on disk: owner, declared length and bytes received. */
async function unfinishedUploads(store: FileStore): Promise<{ id: string; userId: number; size: number; written: number }[]> {
  const out = [];
  for (const id of (await store.configstore.list?.()) ?? []) {
    const m = UPLOAD_ID.exec(id);
    const upload = m ? await store.getUpload(id).catch(() => undefined) : undefined;
    if (!m || !upload || upload.size === undefined) continue;
    out.push({ id, userId: Number(m[1]), size: upload.size, written: upload.offset });
  }
  return out;
}

/** Deletes unfinished uploads created more than UNFINISHED_TTL_MS ago (bytes and record). */
async function sweepStale(store: FileStore): Promise<void> {
  const ids = (await store.configstore.list?.()) ?? [];
  const cutoff = Date.now() - UNFINISHED_TTL_MS;
  for (const id of ids) {
    const info = await store.configstore.get(id).catch(() => undefined);
    const created = info?.creation_date ? Date.parse(info.creation_date) : NaN;
    if (Number.isFinite(created) && created < cutoff) await store.remove(id).catch(() => undefined);
  }
}
