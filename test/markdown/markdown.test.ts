import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emojiByName, zulipCode } from '../../server/lib/emoji/unicode.js';
import { plainHtml, renderDescription, renderFullHtml, renderMessage, type RenderContext } from '../../server/markdown/index.js';
import { sanitizeXss } from '../../server/markdown/sanitize-xss.js';
import { encodeHashComponent, safeHref } from '../../server/markdown/urls.js';

/** Zulip-flavoured Markdown: each feature's exact HTML (Zulip's markup), mention sets, hostile input. */
const users = [
  { id: 4, full_name: 'King Hamlet' },
  { id: 5, full_name: 'Mel' },
  { id: 6, full_name: 'Twin' },
  { id: 7, full_name: 'Twin' },
  { id: 8, full_name: 'Gone', is_active: false },
  { id: 9, full_name: 'Twin', is_active: false },
];
const ctx: RenderContext = {
  usersByName: (n) => users.filter((u) => u.full_name.toLowerCase() === n.toLowerCase()),
  userById: (id) => users.find((u) => u.id === id),
  groupByName: (n) =>
    n.toLowerCase() === 'support' ? { id: 17, name: 'support' } : n === 'old' ? { id: 18, name: 'old', deactivated: true } : undefined,
  channelByName: (n) => (n.toLowerCase() === 'denmark' ? { id: 1, name: 'Denmark' } : n === 'a b.c' ? { id: 9, name: 'a b.c' } : undefined),
};
const html = (content: string) => renderMessage(content, ctx).html;

describe('markdown: Zulip markup', () => {
  const cases: [string, string, string][] = [
    ['paragraph', 'test_input', '<p>test_input</p>'],
    ['line breaks', 'test\nbar', '<p>test<br>\nbar</p>'],
    ['strong, em, del', '**foo** *foo* ~~gone~~', '<p><strong>foo</strong> <em>foo</em> <del>gone</del></p>'],
    ['no underscore emphasis', '_foo_ __foo__', '<p>_foo_ __foo__</p>'],
    ['heading needs a space', '# Hello world\n\n#Hello', '<h1>Hello world</h1>\n<p>#Hello</p>'],
    ['no setext headings', 'Title\n===', '<p>Title<br>\n===</p>'],
    ['raw HTML is text', '<h1>stay normal</h1> thanks', '<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>'],
    ['script is text', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['inline code', '`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
    ['reference links disabled', 'Hello [world]\n\n[world]: https://google.com',
      '<p>Hello [world]</p>\n<p>[world]: <a href="https://google.com">https://google.com</a></p>'],
    ['autolink', 'see https://github.com/x', '<p>see <a href="https://github.com/x">https://github.com/x</a></p>'],
    ['link with text', '[hello](https://github.com)', '<p><a href="https://github.com">hello</a></p>'],
    ['link without text shows the URL', '[](https://github.com)', '<p><a href="https://github.com">https://github.com</a></p>'],
    ['& < > in a link\'s address and title, escaped once', '[x](https://example.com/?a=1&b=2 "Tom & Jerry <3") https://example.com/?c=3&d=4',
      '<p><a href="https://example.com/?a=1&amp;b=2" title="Tom &amp; Jerry &lt;3">x</a> <a href="https://example.com/?c=3&amp;d=4">https://example.com/?c=3&amp;d=4</a></p>'],
    ['tel and sms links', '[call](tel:+14155551234) [text](sms:+14155551234)',
      '<p><a href="tel:+14155551234">call</a> <a href="sms:+14155551234">text</a></p>'],
    ['email', 'mail a@b.com', '<p>mail <a href="mailto:a@b.com">a@b.com</a></p>'],
    ['javascript: link stays text', '[foo](javascript:alert(1))', '<p>[foo](javascript:alert(1))</p>'],
    ['data: link stays text', '[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['angle autolink with bad scheme', '<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>'],
    ['image syntax is ! and a link', '![alt](https://x.org/a.png)', '<p>!<a href="https://x.org/a.png">alt</a></p>'],
    ['blockquote', '> Hello World!\n\n> Hello Universe!',
      '<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>'],
    ['list', '* One item\n* Two items', '<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>'],
    ['fenced code with language', 'Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~',
      '<p>Hamlet said:</p>\n<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span>' +
        '<span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n</code></pre></div>'],
    ['invented language kept', '``` inventedlanguage\ndef speak(self):\n```',
      '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n</code></pre></div>'],
    ['code without language, escaped, trailing spaces dropped', '```\n<b> & "x"  \n```',
      '<div class="codehilite"><pre><span></span><code>&lt;b&gt; &amp; &quot;x&quot;\n</code></pre></div>'],
    ['indented code', '    def foo(): pass', '<div class="codehilite"><pre><span></span><code>def foo(): pass\n</code></pre></div>'],
    ['unclosed fence runs to the end', '~~~\nx = 1', '<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>'],
    ['inline triple backticks are not a fence', '``` one ``` x', '<p><code>one</code> x</p>'],
    ['fenced quote', 'Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~',
      '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>'],
    ['fence inside a quote', '```quote\n~~~\ncode\n~~~\nafter\n```',
      '<blockquote>\n<div class="codehilite"><pre><span></span><code>code\n</code></pre></div>\n<p>after</p>\n</blockquote>'],
    ['spoiler', '```spoiler header\ncontent\n```\noutside spoiler\n',
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>'],
    ['spoiler without header', '```spoiler\ncontent\n```',
      '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>'],
    ['spoiler header escaped', '```spoiler <script>alert(1)</script>\nx\n```',
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>x</p>\n</div></div>'],
    ['emoji', ':smile: :airplane: :+1:',
      '<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> ' +
        '<span aria-label="airplane" class="emoji emoji-2708" role="img" title="airplane">:airplane:</span> ' +
        '<span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>'],
    ['emoji without spaces', ':cat:hello:dog:',
      '<p><span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span>hello' +
        '<span aria-label="dog" class="emoji emoji-1f415" role="img" title="dog">:dog:</span></p>'],
    ['unknown emoji and skin tones stay text', ':not_an_emoji: :skin-tone-2: x::y::z', '<p>:not_an_emoji: :skin-tone-2: x::y::z</p>'],
    ['emoji with underscores', ':thumbs_up:', '<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span></p>'],
    ['channel link', '#**Denmark**', '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>'],
    ['channel topic link', '#**Denmark>some topic**',
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/some.20topic">#Denmark &gt; some topic</a></p>'],
    ['empty topic link', '#**Denmark>**',
      '<p><a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-Denmark/topic/">#Denmark &gt; <em>general chat</em></a></p>'],
    ['message link', '#**Denmark>t@12**',
      '<p><a class="message-link" href="/#narrow/channel/1-Denmark/topic/t/near/12">#Denmark &gt; t @ 💬</a></p>'],
    ['channel name encoded', '#**a b.c**', '<p><a class="stream" data-stream-id="9" href="/#narrow/channel/9-a-b.2Ec">#a b.c</a></p>'],
    ['unknown channel is text', '#**Nowhere**', '<p>#<strong>Nowhere</strong></p>'],
    ['me message', '/me is testing', '<p>/me is testing</p>'],
    ['global time', '<time:31 Dec 2017> and <time:1496701800>',
      '<p><time datetime="2017-12-31T00:00:00Z">31 Dec 2017</time> and <time datetime="2017-06-05T22:30:00Z">1496701800</time></p>'],
    ['global time with a zone', '<time:2017-06-05T22:30:00+02:00>', '<p><time datetime="2017-06-05T20:30:00Z">2017-06-05T22:30:00+02:00</time></p>'],
    ['bad time', '<time:<alert(1)>>', '<p>&lt;time:&lt;alert(1)&gt;&gt;</p>'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(html(input), expected));
  }

  it('the sanitiser keeps all of the renderer\'s own markup (allow-list complete)', () => {
    const extra = ['[a.pdf](/user_uploads/2/ab/tok/a.png "t")', '| a | b |\n|:--|--:|\n| 1 | 2 |', '1. a\n2. b\n\n3) c', '---',
      '@**Mel** @_**|4** @**all** @_**topic** @*support*', '```spoiler *h*\n> q\n```', 'a  \nb', '- [ ] task'];
    for (const input of [...cases.map((c) => c[1]), ...extra]) {
      const raw = renderFullHtml(input, ctx);
      assert.equal(sanitizeXss(raw), raw, input);
    }
  });

  it('links to uploads: attachment, image preview, paths', () => {
    const r = renderMessage('[a.pdf](/user_uploads/2/ab/tok/a.pdf) and [pic](/user_uploads/2/cd/tok/p.png)', ctx);
    assert.equal(
      r.html,
      '<p><a href="/user_uploads/2/ab/tok/a.pdf">a.pdf</a> and <a href="/user_uploads/2/cd/tok/p.png">pic</a></p>\n' +
        // Zulip's title is the link's text; without an upload lookup (uploadPreview), the original is previewed.
        '<div class="message_inline_image"><a href="/user_uploads/2/cd/tok/p.png" title="pic"><img src="/user_uploads/2/cd/tok/p.png"></a></div>',
    );
    assert.deepEqual(r.uploadPaths, ['/user_uploads/2/ab/tok/a.pdf', '/user_uploads/2/cd/tok/p.png']);
    assert.deepEqual([r.hasLink, r.hasAttachment, r.hasImage], [true, true, true]);
    const plain = renderMessage('no links here', ctx);
    assert.deepEqual([plain.hasLink, plain.hasAttachment, plain.hasImage, plain.uploadPaths], [false, false, false, []]);
    const ext = renderMessage('https://example.com/x.png', ctx);
    assert.deepEqual([ext.hasLink, ext.hasAttachment, ext.hasImage], [true, false, false]);
  });

  it('is_me_message', () => {
    assert.equal(renderMessage('/me waves', ctx).isMeMessage, true);
    assert.equal(renderMessage('hi /me', ctx).isMeMessage, false);
  });
});

describe('markdown: mentions', () => {
  it('user mentions by name, by id, silent; sets', () => {
    const r = renderMessage('@**King Hamlet** hi @_**Mel** @**|5**', ctx);
    assert.equal(
      r.html,
      '<p><span class="user-mention" data-user-id="4">@King Hamlet</span> hi ' +
        '<span class="user-mention silent" data-user-id="5">Mel</span> <span class="user-mention" data-user-id="5">@Mel</span></p>',
    );
    assert.deepEqual([...r.mentionedUserIds].sort(), [4, 5]);
    assert.equal(renderMessage('@_**Mel**', ctx).mentionedUserIds.size, 0);
  });

  it('name|id must agree; ambiguous names need the id; unknown names are text', () => {
    assert.equal(html('@**Mel|4**'), '<p>@<strong>Mel|4</strong></p>');
    assert.equal(html('@**Twin**'), '<p>@<strong>Twin</strong></p>');
    const r = renderMessage('@**Twin|7**', ctx);
    assert.equal(r.html, '<p><span class="user-mention" data-user-id="7">@Twin</span></p>');
    assert.deepEqual([...r.mentionedUserIds], [7]);
    assert.equal(html('@**Nobody**'), '<p>@<strong>Nobody</strong></p>');
    assert.equal(html('mail@**Mel**'), '<p>mail@<strong>Mel</strong></p>');
  });

  it('deactivated users and groups are mentioned silently', () => {
    const r = renderMessage('@**Gone** @*old*', ctx);
    assert.equal(
      r.html,
      '<p><span class="user-mention silent" data-user-id="8">Gone</span> <span class="user-group-mention silent" data-user-group-id="18">old</span></p>',
    );
    assert.deepEqual([r.mentionedUserIds.size, r.mentionedGroupIds.size], [0, 0]);
  });

  it('wildcards', () => {
    for (const w of ['all', 'everyone', 'channel', 'stream']) {
      const r = renderMessage(`@**${w}**`, ctx);
      assert.equal(r.html, `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@${w}</span></p>`);
      assert.deepEqual([r.channelWildcard, r.topicWildcard], [true, false]);
    }
    const t = renderMessage('@**topic**', ctx);
    assert.equal(t.html, '<p><span class="topic-mention">@topic</span></p>');
    assert.deepEqual([t.channelWildcard, t.topicWildcard], [false, true]);
    const silent = renderMessage('@_**all** @_**topic**', ctx);
    assert.equal(
      silent.html,
      '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
    );
    assert.deepEqual([silent.channelWildcard, silent.topicWildcard], [false, false]);
  });

  it('group mentions', () => {
    const r = renderMessage('@*support* and @_*support* and @*nogroup*', ctx);
    assert.equal(
      r.html,
      '<p><span class="user-group-mention" data-user-group-id="17">@support</span> and ' +
        '<span class="user-group-mention silent" data-user-group-id="17">support</span> and @<em>nogroup</em></p>',
    );
    assert.deepEqual([...r.mentionedGroupIds], [17]);
  });

  it('mentions inside quotes are silent and mention nobody', () => {
    const r = renderMessage('> @**Mel** @*support* @**all**\n\n```quote\n@**King Hamlet**\n```', ctx);
    assert.equal(
      r.html,
      '<blockquote>\n<p><span class="user-mention silent" data-user-id="5">Mel</span> ' +
        '<span class="user-group-mention silent" data-user-group-id="17">support</span> ' +
        '<span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>\n' +
        '<blockquote>\n<p><span class="user-mention silent" data-user-id="4">King Hamlet</span></p>\n</blockquote>',
    );
    assert.deepEqual([r.mentionedUserIds.size, r.mentionedGroupIds.size, r.channelWildcard], [0, 0, false]);
  });

  it('mentions in lists, tables, spoilers and headings count', () => {
    const r = renderMessage('- @**Mel**\n\n| a |\n|---|\n| @**King Hamlet** |\n\n```spoiler @*support*\n@**topic**\n```', ctx);
    assert.deepEqual([...r.mentionedUserIds].sort(), [4, 5]);
    assert.deepEqual([...r.mentionedGroupIds], [17]);
    assert.equal(r.topicWildcard, true);
  });

  it('mentions in code are text', () => {
    const r = renderMessage('`@**Mel**`\n```\n@**Mel**\n```', ctx);
    assert.equal(r.mentionedUserIds.size, 0);
    assert.match(r.html, /<code>@\*\*Mel\*\*<\/code>/);
  });

  it('descriptions render Markdown without mentions', () => {
    assert.equal(renderDescription('**Hi** @**Mel** :smile:'),
      '<p><strong>Hi</strong> @<strong>Mel</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>');
    assert.equal(renderDescription('  '), '');
  });
});

describe('markdown: hostile input', () => {
  it('3,000 nested > falls back to escaped text instead of crashing', () => {
    const input = '>'.repeat(3000) + ' deep';
    assert.throws(() => renderFullHtml(input, ctx), RangeError);
    const r = renderMessage(input, ctx);
    assert.equal(r.html, `<p>${'&gt;'.repeat(3000)} deep</p>`);
  });

  it('deep fenced quotes are bounded; other deep structures render', () => {
    const fences = renderMessage('```quote\n'.repeat(1100), ctx).html;
    assert.ok((fences.match(/<blockquote>/g) ?? []).length <= 16);
    const lists = Array.from({ length: 400 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n').slice(0, 10_000);
    assert.match(renderMessage(lists, ctx).html, /^<ul>/);
  });

  it('cutting long text for speed keeps links and addresses whole', () => {
    const url = `https://e.com/${'a'.repeat(700)}`;
    for (let pad = 180; pad < 420; pad += 7) {
      const r = html(`${'x'.repeat(pad)} ${url} ${'y'.repeat(pad)} me@example.com *em*`);
      assert.ok(r.includes(`<a href="${url}">${url}</a>`), `url after ${pad}`);
      assert.ok(r.includes('<a href="mailto:me@example.com">me@example.com</a>'), `address after ${pad}`);
      assert.ok(r.includes('<em>em</em>'));
    }
  });

  it('content far over the message limit is not parsed', () => {
    const input = '**b** '.repeat(10_000).trimEnd();
    assert.ok(html(input) === `<p>${input}</p>`, 'rendered as escaped text');
  });

  it('10,000-character hostile inputs finish quickly', () => {
    const inputs = ['*a'.repeat(5000), ':a'.repeat(5000), '['.repeat(10_000), '@**'.repeat(3333), ':'.repeat(10_000), 'a\n'.repeat(5000)];
    for (const input of inputs) {
      const t0 = performance.now();
      const r = renderMessage(input, ctx);
      assert.ok(performance.now() - t0 < 3000, `${input.slice(0, 6)} took too long`);
      assert.ok(r.html.length > 0);
    }
  });
});

describe('markdown: plain fast path matches the parser', () => {
  const alphabet = ['a', 'b', 'Z', ' ', '  ', '.', ',', '!', '?', "'", '"', '(', ')', '<', '>', '#', '-', '+', '=', '1', '2.', '/', '%', '$', 'é', '日', '\n', '\n\n', '\t', '{', '}', '^'];
  it('random strings', () => {
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    let fast = 0;
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const len = 1 + rand(30);
      for (let j = 0; j < len; j++) s += alphabet[rand(alphabet.length)];
      const plain = plainHtml(s);
      if (plain === undefined) continue;
      fast++;
      assert.equal(plain, renderFullHtml(s, ctx), JSON.stringify(s));
    }
    assert.ok(fast > 200, `fast path taken ${fast} times`);
    assert.equal(plainHtml("it's ok"), "<p>it&#39;s ok</p>");
    assert.equal(plainHtml('- item'), undefined);
  });
});

describe('markdown: helpers', () => {
  it('emoji names map to Zulip emoji codes', () => {
    assert.deepEqual(emojiByName('+1'), { name: '+1', code: '1f44d' });
    assert.equal(emojiByName('thumbs_up')?.code, '1f44d');
    assert.equal(emojiByName('smile')?.code, '1f642');
    assert.equal(emojiByName('grinning')?.code, '1f600');
    assert.equal(emojiByName('heart')?.code, '2764');
    assert.equal(emojiByName('woman_shrugging')?.code, '1f937-200d-2640');
    assert.equal(emojiByName('nonexistent_emoji'), undefined);
    assert.equal(emojiByName('skin-tone-2'), undefined);
    assert.equal(zulipCode('0023-FE0F-20E3'), '0023-20e3');
  });

  it('safe link targets', () => {
    for (const ok of ['https://x.org', 'http://x', 'mailto:a@b.c', '/user_uploads/1/x', '#narrow/channel/1-x', 'HTTPS://X.ORG']) {
      assert.equal(safeHref(ok), ok, ok);
    }
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:x', 'java\tscript:x', 'data:text/html,x',
      'vbscript:x', '//evil.com', '/\\evil.com', 'file:///etc/passwd', '&#106;avascript:x', 'relative/path', '']) {
      assert.equal(safeHref(bad), undefined, bad);
    }
  });

  it('hash components as Zulip encodes them', () => {
    assert.equal(encodeHashComponent('some topic'), 'some.20topic');
    assert.equal(encodeHashComponent("a.b(c)!'"), 'a.2Eb.28c.29.21.27');
  });
});
