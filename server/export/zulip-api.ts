/** A small client for Zulip's REST API (Basic auth with an API key), as the fix-up uses it. */

export class ZulipApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
  }
}

export type Json = Record<string, unknown>;

export class ZulipApi {
  private readonly base: string;
  private readonly auth: string;

  constructor(site: string, email: string, apiKey: string) {
    this.base = `${site.replace(/\/+$/, '')}/api/v1`;
    this.auth = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
  }

  async call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, params: Json = {}): Promise<Json> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) {
      if (v !== undefined) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const query = method === 'GET' && [...form].length ? `?${form}` : '';
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}${query}`, {
        method,
        headers: { authorization: this.auth, ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
        ...(method === 'GET' ? {} : { body: form.toString() }),
      });
    } catch (err) {
      throw new ZulipApiError(`cannot reach ${this.base}: ${(err as Error).message}`, 0, 'NETWORK');
    }
    const text = await res.text();
    let body: Json;
    try {
      body = JSON.parse(text) as Json;
    } catch {
      throw new ZulipApiError(`${method} ${path}: HTTP ${res.status}, not a Zulip API answer`, res.status, 'NOT_JSON');
    }
    if (res.status === 429) {
      const wait = Number(body['retry-after'] ?? res.headers.get('retry-after') ?? 1);
      await new Promise((r) => setTimeout(r, Math.min(60, Math.max(0.1, wait)) * 1000));
      return this.call(method, path, params);
    }
    if (body.result !== 'success') throw new ZulipApiError(`${method} ${path}: ${String(body.msg ?? res.status)}`, res.status, String(body.code ?? ''));
    return body;
  }
}
