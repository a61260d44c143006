/**
 * The small HTTP client the demo builder uses to fill an organization through Hearth's own
 * API, as any Zulip client would: Basic auth with an API key, parameters form-encoded
 * (strings raw, everything else JSON), files as multipart. Errors throw with the server's msg.
 */
export interface DemoAccount {
  id: number;
  email: string;
  apiKey: string;
}

export type Params = Record<string, unknown>;

export class DemoClient {
  constructor(
    private readonly base: string,
    readonly account: DemoAccount,
  ) {}

  private auth(): string {
    return `Basic ${Buffer.from(`${this.account.email}:${this.account.apiKey}`).toString('base64')}`;
  }

  async call(method: string, path: string, params: Params = {}): Promise<Record<string, unknown>> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const query = method === 'GET' || method === 'DELETE';
    const url = `${this.base}/api/v1${path}${query && [...form].length ? `?${form}` : ''}`;
    const res = await fetch(url, {
      method,
      headers: { authorization: this.auth(), ...(query ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: query ? undefined : form,
    });
    return this.answer(res, `${method} ${path}`);
  }

  /** Multipart: one file (`field`) plus plain fields. */
  async upload(path: string, field: string, name: string, type: string, bytes: Buffer, fields: Params = {}): Promise<Record<string, unknown>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    form.set(field, new Blob([new Uint8Array(bytes)], { type }), name);
    const res = await fetch(`${this.base}/api/v1${path}`, { method: 'POST', headers: { authorization: this.auth() }, body: form });
    return this.answer(res, `POST ${path}`);
  }

  private async answer(res: Response, what: string): Promise<Record<string, unknown>> {
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || body.result !== 'success') throw new Error(`${what}: ${String(body.msg ?? res.status)}`);
    return body;
  }

  get = (path: string, params?: Params) => this.call('GET', path, params);
  post = (path: string, params?: Params) => this.call('POST', path, params);
  patch = (path: string, params?: Params) => this.call('PATCH', path, params);
}
