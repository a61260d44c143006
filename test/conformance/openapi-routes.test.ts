/**
 * Every operation in Zulip's OpenAPI description is answered by a route: called over
 * HTTP (as a member, with made-up path IDs and no parameters), none may get the router's
 * "Not Found" or "Method Not Allowed". An error from the view (missing argument, no such
 * object, not permitted, not available here) is fine: it proves the route is there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OpenApi, skipWithoutOpenApi } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Pages of Zulip's API documentation that the description lists as operations but no server serves. */
const DOCUMENTATION_ONLY = new Set(['/real-time', '/rest-error-handling', '/zulip-outgoing-webhook']);

/** Operations that would end the caller's identity: each gets an account of its own. */
const IDENTITY_CHANGING = new Set(['DELETE /users/me', 'POST /users/me/api_key/regenerate']);

const SAMPLE_PATH_VALUES: Record<string, string> = {
  filename: 'ab/abcdefghijklmnopqrstuvwx/notes.txt',
  emoji_name: 'no_such_emoji',
  email: 'nobody@example.com',
  fragment: 'narrow/is/alerted',
};

describe("every route in Zulip's OpenAPI description is served", { skip: skipWithoutOpenApi('the OpenAPI route checks') }, () => {
  let ts: TestServer;
  before(async () => {
    ts = await startTestServer();
  });
  after(() => ts.stop());

  it('no operation gets the router\'s 404 or 405', async () => {
    const paths = new OpenApi().doc.paths as Record<string, Record<string, unknown>>;
    const [member] = await ts.people('Mel');
    const unrouted: string[] = [];
    let operations = 0;
    for (const [path, ops] of Object.entries(paths)) {
      if (DOCUMENTATION_ONLY.has(path)) continue;
      for (const method of Object.keys(ops).map((m) => m.toUpperCase())) {
        if (!['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].includes(method)) continue;
        operations++;
        const url = path.replace(/\{([a-z_]+)\}/g, (_, name: string) => SAMPLE_PATH_VALUES[name] ?? '999999');
        const client = IDENTITY_CHANGING.has(`${method} ${path}`) ? (await ts.people('Temp'))[0].client : member.client;
        const res = await client.call(method, url);
        const routerAnswer = (res.status === 404 && res.body.msg === 'Not Found') || res.status === 405;
        if (routerAnswer || res.status === 401 || res.status >= 500) unrouted.push(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    assert.ok(operations > 120, `the description lists ${operations} operations`);
    assert.deepEqual(unrouted, []);
  });
});
