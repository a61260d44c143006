/**
 * HTTPS with this installation's own authority while the server runs (start.ts makes one when
 * HTTPS is on): the first check at start, one every ten minutes (a new address or name, a
 * nearing end), and the owner's replacement of the authority (POST /hearth/tls/authority),
 * one at a time, each handing what changed to `serve` (new credentials for the listener, the
 * authority people download).
 */
import { hostname } from 'node:os';
import type { Logger } from '../log.js';
import { namesOf } from './certificates.js';
import { ensureTls, replaceAuthority, type TlsMaterial } from './files.js';

export interface TlsServiceOptions {
  dataDir: string;
  log: Logger;
  /** Called with the authority and server certificate to use from now on. */
  serve(material: TlsMaterial): void;
}

/** The authority's name: this computer's, so people can tell it apart from another office's. */
export const authorityLabel = (host = hostname()) => `Hearth authority for ${host}`;

const listed = (m: TlsMaterial) => [...m.leftOut.dns, ...m.leftOut.ips];

export class TlsService {
  private current: TlsMaterial | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: TlsServiceOptions) {}

  /** The authority this one replaced (PEM), for the trust page to name; null when none was. */
  get previous(): string | null {
    return this.current?.previous ?? null;
  }

  /** This computer's names and addresses the authority may not vouch for (left out of the server certificate). */
  get leftOut(): string[] {
    return this.current ? listed(this.current) : [];
  }

  /** The first check, at start: makes what is missing and serves it. */
  async start(): Promise<TlsMaterial> {
    const m = await this.one(() => ensureTls(this.opts.dataDir, authorityLabel()));
    if (!m.limited) {
      this.opts.log.warn('the certificate authority is from an earlier Hearth and may vouch for any website; an owner can replace it on the Status page (everyone then installs the new one)');
    }
    if (m.leftOut.dns.length || m.leftOut.ips.length) this.opts.log.info('left out of the server certificate: the authority may not vouch for them', { names: listed(m) });
    return m;
  }

  /** Re-checks the names and the end date; a re-issued certificate is served. */
  async check(): Promise<void> {
    const m = await this.one(() => ensureTls(this.opts.dataDir, authorityLabel()));
    if (m.reissued) this.opts.log.info('server certificate re-issued', { names: namesOf(m.server.cert), left_out: listed(m) });
  }

  /** A new authority (and server certificate) in place of the current one, served at once. */
  async replaceAuthority(): Promise<TlsMaterial> {
    const m = await this.one(() => replaceAuthority(this.opts.dataDir, authorityLabel()));
    this.opts.log.warn('certificate authority replaced: every device must install the new one from the trust page');
    return m;
  }

  /** Every ten minutes, check(); returns the stop. */
  watch(everyMs = 10 * 60_000): () => void {
    const timer = setInterval(() => {
      this.check().catch((err: unknown) => this.opts.log.warn('server certificate check failed', { error: String(err) }));
    }, everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Runs `job` after the one before it; serves what it returns when the authority or certificate changed. */
  private one(job: () => Promise<TlsMaterial>): Promise<TlsMaterial> {
    const next = this.running.then(job, job).then((m) => {
      const changed = !this.current || m.reissued || m.ca.cert !== this.current.ca.cert;
      this.current = m;
      if (changed) this.opts.serve(m);
      return m;
    });
    this.running = next.catch(() => undefined);
    return next;
  }
}
