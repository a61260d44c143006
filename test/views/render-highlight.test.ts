import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Highlighted code through the API: sent and fetched messages, the organization's default language, bounds. */
describe('code highlighting over HTTP', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    await createChannel(ts, ts.client(cast.owner), 'general');
  });
  after(() => ts.stop());

  const contentOf = async (id: number): Promise<string> => {
    const body = await fetchMessages(ts.client(cast.owner), { anchor: id, num_before: 0, num_after: 0 });
    return (body.messages as { id: number; content: string }[]).find((m) => m.id === id)!.content;
  };

  it("a sent message carries Pygments' spans, as Zulip's server stores it", async () => {
    const id = await sendStream(ts.client(cast.member), 'general', 'code', 'Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~');
    assert.equal(
      await contentOf(id),
      '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span>' +
        '<span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>',
    );
  });

  it("default_code_block_language: bare fences take it once set, and lose it once cleared", async () => {
    const bare = '```\nSELECT 1;\n```';
    const before = await ts.client(cast.member).post('/messages/render', { content: bare });
    assert.equal(before.body.rendered, '<div class="codehilite"><pre><span></span><code>SELECT 1;\n</code></pre></div>');
    const res = await ts.ownerClient.patch('/realm', { default_code_block_language: 'sql' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const sql = '<div class="codehilite" data-code-language="SQL"><pre><span></span><code><span class="k">SELECT</span><span class="w"> </span><span class="mi">1</span><span class="p">;</span>\n</code></pre></div>';
    const rendered = await ts.client(cast.member).post('/messages/render', { content: bare });
    assert.equal(rendered.body.rendered, sql);
    const id = await sendStream(ts.client(cast.member), 'general', 'code', bare);
    assert.equal(await contentOf(id), sql);
    // An explicit language still wins.
    const js = await ts.client(cast.member).post('/messages/render', { content: '```js\nnull\n```' });
    assert.equal(js.body.rendered, '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="kc">null</span>\n</code></pre></div>');
    await ts.ownerClient.patch('/realm', { default_code_block_language: '' });
    const after = await ts.client(cast.member).post('/messages/render', { content: bare });
    assert.equal(after.body.rendered, before.body.rendered);
  });

  it('10,000 characters of code in an unknown language or hostile for a grammar: answered quickly, plain or highlighted, never a 500', async () => {
    const cases = [
      '```nosuch\n' + 'x'.repeat(9_980) + '\n```',
      '```typescript\n' + '`${'.repeat(3_320) + '\n```',
      '```csharp\n' + 'List<int> a b c d e f g\n'.repeat(410) + '```',
      '```rust\n' + '/*'.repeat(4_980) + '\n```',
    ];
    for (const content of cases) {
      const t0 = performance.now();
      const id = await sendStream(ts.client(cast.member), 'general', 'hostile', content.slice(0, 10_000));
      assert.ok(performance.now() - t0 < 2_000, `answered in ${(performance.now() - t0).toFixed(0)} ms`);
      assert.match(await contentOf(id), /^<div class="codehilite" data-code-language="[^"]+"><pre><span><\/span><code>/);
    }
  });
});
