import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { renderMessage } from '../../server/markdown/index.js';
import { ALLOWED_ATTRIBUTES, ALLOWED_TAGS } from '../../server/markdown/sanitize-lists.js';
import { sanitizeXss } from '../../server/markdown/sanitize-xss.js';
import { renderedOf } from '../../server/store/message-records.js';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The OWASP XSS filter-evasion vectors (test/fixtures/xss-vectors.json, plus
 * Markdown-specific ones) through every field Hearth renders: message
 * preview (/messages/render), sent messages, channel and folder
 * descriptions, the organization description. No output may carry anything
 * a browser would run.
 */
const VECTORS: string[] = JSON.parse(readFileSync(new URL('../fixtures/xss-vectors.json', import.meta.url), 'utf8'));

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&(quot|apos|amp|lt|gt|colon|tab|newline);?/gi, (_, n: string) =>
      ({ quot: '"', apos: "'", amp: '&', lt: '<', gt: '>', colon: ':', tab: '\t', newline: '\n' })[n.toLowerCase()]!,
    );

/** Every way the HTML could run script, as a list of problems (empty when safe). */
export function scriptCapable(html: string): string[] {
  const problems: string[] = [];
  if (/<script|<iframe|<object|<embed|<svg|<math|<style|<link|<meta|<base|<form|<input|<frame|<body/i.test(html)) {
    problems.push('dangerous tag');
  }
  if (/<[!?]/.test(html)) problems.push('comment or processing instruction');
  for (const m of html.matchAll(/<\/?([a-zA-Z][^\s/>]*)([^>]*)>/g)) {
    const tag = m[1]!.toLowerCase();
    if (!ALLOWED_TAGS.includes(tag)) problems.push(`tag <${tag}>`);
    for (const a of m[2]!.matchAll(/([^\s="']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const name = a[1]!.toLowerCase();
      const value = decode((a[2] ?? '').replace(/^["']|["']$/g, ''));
      if (name.startsWith('on')) problems.push(`event handler ${name}`);
      if (name === 'style') problems.push('style attribute');
      if (!(ALLOWED_ATTRIBUTES[tag] ?? []).includes(name)) problems.push(`attribute ${name} on <${tag}>`);
      const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
      if (/^(javascript|data|vbscript|file):/.test(compact)) problems.push(`URL ${value}`);
      if ((name === 'href' || name === 'src') && compact.startsWith('//')) problems.push(`protocol-relative ${value}`);
    }
  }
  return problems;
}

function assertSafe(html: string, vector: string, where: string): void {
  assert.deepEqual(scriptCapable(html), [], `${where}: ${JSON.stringify(vector)} rendered as ${JSON.stringify(html)}`);
}

describe('XSS corpus', () => {
  it('has the cheat-sheet vectors', () => {
    assert.ok(VECTORS.length >= 100);
    assert.ok(VECTORS.some((v) => v.includes('<IMG SRC=&#106;&#97;')));
  });

  it('the checker itself catches script-capable HTML', () => {
    for (const bad of [
      '<script>x</script>', '<img src=x onerror=alert(1)>', '<a href="javascript:x">', '<a href="&#106;avascript:x">',
      '<a href="jav&#x09;ascript:x">', '<div style="x">', '<svg>', '<iframe>', '<a href="//evil">', '<p onclick="x">',
    ]) {
      assert.notDeepEqual(scriptCapable(bad), [], bad);
    }
    assert.deepEqual(scriptCapable('<p><a href="https://x.org">x</a> &lt;script&gt;</p>'), []);
  });

  it('the sanitiser alone removes what a renderer bug could let through', () => {
    for (const v of VECTORS) assertSafe(sanitizeXss(v), v, 'sanitiser');
    assert.equal(sanitizeXss('<a href="javascript:alert(1)" class="stream evil">x</a>'), '<a class="stream">x</a>');
    assert.equal(sanitizeXss('<span class="emoji emoji-1f600" onclick="x" style="y">:a:</span>'), '<span class="emoji emoji-1f600">:a:</span>');
  });

  it('renders every vector safely (renderer + sanitiser)', () => {
    const ctx = {
      usersByName: () => [{ id: 1, full_name: 'x' }],
      userById: () => ({ id: 1, full_name: '"><script>alert(1)</script>' }),
      groupByName: (n: string) => ({ id: 2, name: n }),
      channelByName: (n: string) => ({ id: 3, name: n }),
      realmEmoji: (n: string) => ({ id: '1', name: n, source_url: 'javascript:alert(1)' }),
    };
    // Linkifiers that link every text run, to hostile targets the sanitiser must still refuse.
    let n = 0;
    const hostileUrls = ['javascript:alert(1)', 'https://x.example/"><script>alert(1)</script>', ' data:text/html,<script>'];
    const linkifying = {
      ...ctx,
      linkify: (text: string) => [{ text: text.slice(0, 3) }, { text: text.slice(3), url: hostileUrls[n++ % hostileUrls.length]! }],
    };
    for (const v of VECTORS) {
      assertSafe(renderMessage(v, ctx).html, v, 'renderMessage');
      assertSafe(renderMessage(`**${v}** ${v}\n\n> ${v}\n\n- ${v}`, ctx).html, v, 'renderMessage in context');
      assertSafe(renderMessage(`${v} [${v}](https://x.example) ${v}`, linkifying).html, v, 'renderMessage with linkifiers');
    }
    assert.ok(n > VECTORS.length, 'the linkifier ran');
  });
});

describe('XSS corpus through the API', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    await createChannel(ts, ts.client(cast.owner), 'general');
  });
  after(() => ts.stop());

  it('POST /messages/render', async () => {
    const client = ts.client(cast.member);
    for (const v of VECTORS) {
      const res = await client.post('/messages/render', { content: v });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertSafe(res.body.rendered, v, '/messages/render');
    }
  });

  it('sent messages, as stored and as fetched', async () => {
    const client = ts.client(cast.owner);
    const ids: number[] = [];
    for (const v of VECTORS) ids.push(await sendStream(client, 'general', 'xss', v));
    for (const [i, id] of ids.entries()) assertSafe(renderedOf(ts.store.messages.get(id)!), VECTORS[i]!, 'stored message');
    const res = await client.get('/messages', { anchor: 'newest', num_before: VECTORS.length, num_after: 0, apply_markdown: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const m of res.body.messages as { id: number; content: string }[]) {
      assertSafe(m.content, VECTORS[ids.indexOf(m.id)] ?? '', 'fetched message');
    }
  });

  it('channel descriptions', async () => {
    const owner = ts.client(cast.owner);
    for (const [i, v] of VECTORS.entries()) {
      const res = await owner.post('/users/me/subscriptions', { subscriptions: [{ name: `xss ${i}`, description: v.slice(0, 1024) }] });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const channels = ts.store.channels.data.channels.filter((c) => c.name.startsWith('xss '));
    assert.equal(channels.length, VECTORS.length);
    for (const c of channels) assertSafe(c.rendered_description, c.description, 'channel description');
    const listed = await owner.get('/streams');
    for (const c of listed.body.streams as { name: string; rendered_description: string }[]) {
      assertSafe(c.rendered_description, c.name, 'GET /streams');
    }
    const id = channels[0]!.id;
    for (const v of VECTORS.slice(0, 40)) {
      const res = await owner.patch(`/streams/${id}`, { description: v.slice(0, 1024) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assertSafe(ts.store.channels.data.channels.find((c) => c.id === id)!.rendered_description, v, 'updated channel description');
    }
  });

  it('channel folder descriptions', async () => {
    const admin = ts.client(cast.admin);
    for (const [i, v] of VECTORS.entries()) {
      const res = await admin.post('/channel_folders/create', { name: `folder ${i}`, description: v.slice(0, 1024) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const folders = ts.store.channelFolders.data.folders.filter((f) => f.name.startsWith('folder '));
    assert.equal(folders.length, VECTORS.length);
    for (const f of folders) assertSafe(f.rendered_description, f.description, 'folder description');
    const listed = await admin.get('/channel_folders');
    for (const f of listed.body.channel_folders as { rendered_description: string; description: string }[]) {
      assertSafe(f.rendered_description, f.description, 'GET /channel_folders');
    }
  });

  it('organization description', async () => {
    const owner = ts.client(cast.owner);
    for (const v of VECTORS.filter((x) => !/[\u0000-\u001f]/.test(x)).slice(0, 40)) {
      const res = await owner.patch('/realm', { description: v });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const settings = await owner.get('/server_settings');
      assertSafe(settings.body.realm_description, v, 'realm_description');
    }
  });
});
