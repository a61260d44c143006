import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { renderContextFor } from '../../server/lib/messages/render-context.js';
import { renderMessage } from '../../server/markdown/index.js';
import { createChannel } from '../helpers/channels.js';
import { castOf, type Cast } from '../helpers/people.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Math through the API: POST /messages/render, and a message sent and fetched; hostile TeX answers quickly. */
describe('math over HTTP', () => {
  let ts: TestServer;
  let cast: Cast;
  before(async () => {
    ts = await startTestServer();
    cast = await castOf(ts, { owner: ts.owner });
    await createChannel(ts, ts.client(cast.owner), 'general');
  });
  after(() => ts.stop());

  it('POST /messages/render: inline math, a math block and a tex-error', async () => {
    const content = 'Euler: $$e^{i\\pi} + 1 = 0$$\n```math\n\\int_a^b f(t)\\, dt\n```\n$$\\frac{1}{$$';
    const res = await ts.client(cast.member).post('/messages/render', { content });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const rendered: string = res.body.rendered;
    assert.equal(rendered, renderMessage(content, renderContextFor(ts.app, cast.member.id)).html);
    assert.match(rendered, /^<p>Euler: <span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www\.w3\.org\/1998\/Math\/MathML">/);
    assert.match(rendered, /<\/p>\n<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math [^>]*display="block">/);
    assert.ok(rendered.endsWith('</span></span></span></span></p>\n<p><span class="tex-error">$$\\frac{1}{$$</span></p>'), rendered.slice(-200));
  });

  it('a sent message keeps its math; hostile TeX gets an answer, never a 500', async () => {
    const X = 'x'.repeat(1000);
    const hostile = `$$\\def\\a{${X}}\\def\\b{${'\\a'.repeat(100)}}\\def\\c{${'\\b'.repeat(9)}}\\c$$ $$\\def\\a{\\a\\a}\\a$$ ${'$$\\LaTeX$$ '.repeat(200)}`;
    const t0 = performance.now();
    const id = await sendStream(ts.client(cast.member), 'general', 'math', hostile.slice(0, 10_000));
    assert.ok(performance.now() - t0 < 3000, 'answered quickly');
    const sent = await sendStream(ts.client(cast.member), 'general', 'math', 'Area $$\\pi r^2$$');
    const body = await fetchMessages(ts.client(cast.owner), { narrow: JSON.stringify([{ operator: 'topic', operand: 'math' }]) });
    const byId = new Map<number, string>(body.messages.map((m: { id: number; content: string }) => [m.id, m.content]));
    assert.match(byId.get(id)!, /^<p><span class="tex-error">\$\$\\def\\a\{x+\}/);
    assert.match(byId.get(sent)!, /^<p>Area <span class="katex">.*<annotation encoding="application\/x-tex">\\pi r\^2<\/annotation>/);
  });
});
