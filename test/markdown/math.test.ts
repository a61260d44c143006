import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderDescription, renderMessage, type RenderContext } from '../../server/markdown/index.js';
import { MAX_MATH_MS, MAX_TEX_CHARS } from '../../server/markdown/math.js';
import { putTrustedBack } from '../../server/markdown/trusted-html.js';
import { newState } from '../../server/markdown/state.js';

/** Math (KaTeX 0.16) as Zulip's server renders it: exact HTML, errors, what cannot be smuggled, hostile TeX. */
const ctx: RenderContext = { usersByName: () => [], userById: () => undefined, groupByName: () => undefined, channelByName: () => undefined };
const html = (content: string) => renderMessage(content, ctx).html;

// Zulip's markup for these inputs (its Markdown test cases; KaTeX's HTML and MathML).
const MATHML = '<span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML">';
const TEXT_A_HTML =
  '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.75em;"></span>' +
  '<span class="mord text"><span class="mord">**a**</span></span></span></span>';

describe('math: Zulip markup', () => {
  it('inline $$…$$ is KaTeX HTML and MathML where it stands', () => {
    assert.equal(
      html('$$1 \\oplus 0 = 1$$'),
      `<p><span class="katex">${MATHML}<semantics><mrow><mn>1</mn><mo>⊕</mo><mn>0</mn><mo>=</mo><mn>1</mn></mrow>` +
        '<annotation encoding="application/x-tex">1 \\oplus 0 = 1</annotation></semantics></math></span>' +
        '<span class="katex-html" aria-hidden="true"><span class="base"><span class="strut" style="height:0.7278em;vertical-align:-0.0833em;"></span>' +
        '<span class="mord">1</span><span class="mspace" style="margin-right:0.2222em;"></span><span class="mbin">⊕</span>' +
        '<span class="mspace" style="margin-right:0.2222em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span>' +
        '<span class="mord">0</span><span class="mspace" style="margin-right:0.2778em;"></span><span class="mrel">=</span>' +
        '<span class="mspace" style="margin-right:0.2778em;"></span></span><span class="base"><span class="strut" style="height:0.6444em;"></span>' +
        '<span class="mord">1</span></span></span></span></p>',
    );
  });

  it('no Markdown inside math, inline or in a ```math block (one <p>, katex-display, display="block")', () => {
    const inner = '<semantics><mrow><mtext>**a**</mtext></mrow><annotation encoding="application/x-tex">\\text{**a**}</annotation></semantics></math></span>';
    assert.equal(html('$$\\text{**a**}$$'), `<p><span class="katex">${MATHML}${inner}${TEXT_A_HTML}</span></p>`);
    const block = `<p><span class="katex-display"><span class="katex">${MATHML.slice(0, -1)} display="block">${inner}${TEXT_A_HTML}</span></span></p>`;
    assert.equal(html('~~~math\n\\text{**a**}\n~~~'), block);
    assert.equal(html('```math\n\\text{**a**}   \n```'), block, 'trailing spaces dropped');
  });

  it('a block holds each paragraph in display mode, joined by a blank line, in one <p>', () => {
    const out = html('text\n```math\na\n\nb\n```\nafter');
    assert.match(out, /^<p>text<\/p>\n<p><span class="katex-display">.*<\/span>\n\n<span class="katex-display">.*<\/span><\/p>\n<p>after<\/p>$/s);
    assert.equal((out.match(/class="katex-display"/g) ?? []).length, 2);
    assert.equal(html('```math\n```'), '', 'an empty block shows nothing');
    assert.match(html('````quote\n```math\nx\n```\n````'), /^<blockquote>\n<p><span class="katex-display">/, 'inside a quote');
  });

  it('only `math` fences are math (tex and latex are TeX code); an organization whose default language is math gets it for bare fences', () => {
    assert.match(html('```MATH\nx\n```'), /^<p><span class="katex-display">/);
    for (const lang of ['tex', 'latex']) assert.match(html(`\`\`\`${lang}\n\\pi\n\`\`\``), /^<div class="codehilite" data-code-language="TeX">/);
    const mathDefault = { ...ctx, defaultCodeBlockLanguage: 'math' };
    assert.match(renderMessage('```\nx^2\n```', mathDefault).html, /^<p><span class="katex-display">/);
    assert.match(renderMessage('````spoiler s\n```\nx^2\n```\n````', mathDefault).html, /<div class="codehilite"><pre>/, 'not inside a spoiler');
  });

  it('where Zulip takes $$ as math and where not', () => {
    assert.match(html('Tickets are $5 to $20, ($$x \\approx 500\\$$$)'), /^<p>Tickets are \$5 to \$20, \(<span class="katex">.*<mn>500<\/mn><mi mathvariant="normal">\$<\/mi>.*<\/span>\)<\/p>$/);
    for (const text of ['$$x=3\ny=4$$', '$$_$$ is a fun money-related smiley!', 'We are going to make some $$$ or maybe even $$$$!', '$foo is$$', 'a$$x$$', '$$x$$b', '$$$x$$']) {
      assert.ok(!html(text).includes('katex'), text);
    }
    assert.equal(html('`$$a$$`'), '<p><code>$$a$$</code></p>');
    assert.match(html('**$$x$$** and ($$y$$).'), /^<p><strong><span class="katex">.*<\/span><\/strong> and \(<span class="katex">.*<\/span>\)\.<\/p>$/);
    assert.match(renderDescription('Area: $$\\pi r^2$$'), /^<p>Area: <span class="katex">/, 'descriptions too');
  });

  it('bad TeX is a tex-error with the source, escaped as Zulip does', () => {
    assert.equal(
      html("$$\\<script type='text/javascript'>alert('xss');</script>$$\n\n~~~math\n\\<script type='text/javascript'>alert('xss');</script>\n~~~"),
      "<p><span class=\"tex-error\">$$\\&lt;script type='text/javascript'&gt;alert('xss');&lt;/script&gt;$$</span></p>\n" +
        '<p><span class="tex-error">\\&lt;script type=&#x27;text/javascript&#x27;&gt;alert(&#x27;xss&#x27;);&lt;/script&gt;</span></p>',
    );
    assert.equal(html('$$\\error{**a**}$$'), '<p><span class="tex-error">$$\\error{**a**}$$</span></p>');
    assert.equal(html('~~~math\n\\error{**a**}\n~~~'), '<p><span class="tex-error">\\error{**a**}</span></p>');
    assert.match(html('```math\nx\n\n\\frac{\n```'), /<span class="katex-display">.*<\/span>\n\n<span class="tex-error">\\frac\{<\/span><\/p>$/s);
  });
});

describe('math: nothing smuggled through $$ or the placeholders', () => {
  it('TeX is text: tags, links, classes, styles and images from TeX stay out', () => {
    const out = html('$$\\text{<img src=x onerror=alert(1)>}$$');
    assert.ok(!out.includes('<img'), out);
    assert.ok(out.includes('&lt;img src=x onerror=alert(1)&gt;'));
    const hostile = [
      '\\href{javascript:alert(1)}{x}', '\\url{javascript:alert(1)}', '\\htmlClass{message_inline_image}{x}', '\\htmlId{app}{x}',
      '\\htmlStyle{position:fixed;top:0}{x}', '\\htmlData{foo=bar}{x}', '\\includegraphics{https://evil.example/a.png}',
      '\\text{"><script>alert(1)</script>}', '\\textcolor{red;background:url(x)}{x}',
    ];
    for (const tex of hostile) {
      for (const out of [html(`$$${tex}$$`), html(`\`\`\`math\n${tex}\n\`\`\``)]) {
        // (The TeX itself is in the MathML's annotation, as text.)
        assert.ok(!/<a |href=|<img|<script|data-foo=|id="app"|class="message_inline_image"|style="[^"]*(position|url\()/.test(out), `${tex}: ${out}`);
      }
    }
  });

  it('the rest of the message is still sanitised, and no style escapes the math', () => {
    const out = html('<span style="position:fixed">x</span> $$y$$ <script>alert(1)</script> [a](javascript:alert(1))');
    assert.ok(out.startsWith('<p>&lt;span style=&quot;position:fixed&quot;&gt;x&lt;/span&gt; <span class="katex">'), out);
    assert.ok(out.endsWith(' &lt;script&gt;alert(1)&lt;/script&gt; [a](javascript:alert(1))</p>'), out);
    for (const m of out.matchAll(/style="([^"]*)"/g)) assert.match(m[1]!, /^([a-z-]+:[-0-9.]+em;)+$/, 'only KaTeX sizes');
  });

  it('a placeholder typed by hand stays text (the nonce is new each render)', () => {
    const forged = 'hearthmath00000000000000000000000000000000n0e';
    const out = html(`${forged} $$x$$ ${forged}`);
    assert.equal(out.split(forged).length, 3);
    assert.equal((out.match(/class="katex"/g) ?? []).length, 1);
    assert.ok(!html('$$x$$ $$y$$').includes('hearthmath'), 'every placeholder is filled in');
  });

  it('a placeholder inside a tag is dropped, never filled in', () => {
    const state = newState(ctx, true);
    state.trusted = { nonce: 'abc', html: ['<b>math</b>'] };
    assert.equal(putTrustedBack('<p title="hearthmathabcn0e">hearthmathabcn0e</p>', state), '<p title=""><b>math</b></p>');
  });
});

describe('math: hostile TeX renders or errs in bounded time', () => {
  const X = 'x'.repeat(1000);
  const cases: [string, string][] = [
    ['\\def recursion', '$$\\def\\a{\\a}\\a$$'],
    ['\\def doubling', '$$\\def\\a{\\a\\a}\\a$$'],
    ['nested macros (900 expansions of 1,000 tokens)', `$$\\def\\a{${X}}\\def\\b{${'\\a'.repeat(100)}}\\def\\c{${'\\b'.repeat(9)}}\\c$$`],
    ['argument doubling', `$$\\def\\d#1{#1#1}${'\\d{'.repeat(14)}x${'}'.repeat(14)}$$`],
    ['\\edef doubling', `$$\\def\\x{y}${'\\edef\\x{\\x\\x}'.repeat(30)}\\x$$`],
    ['\\expandafter doubling', `$$\\def\\b#1{#1#1}${'\\expandafter\\b\\expandafter{'.repeat(14)}x${'}'.repeat(14)}$$`],
    ['huge \\rule', '$$\\rule{100000em}{100000em}$$'],
    ['4,000 nested braces', `$$${'{'.repeat(4000)}x${'}'.repeat(4000)}$$`],
    ['large builtin expansions', Array(4).fill(`$$${'\\LaTeX'.repeat(330)}$$`).join(' ')],
    ['many formulas', Array(600).fill('$$\\frac{a}{b}$$').join(' ')],
    ['a long block', `\`\`\`math\n${'x+'.repeat(4990)}\n\`\`\``],
  ];
  for (const [name, content] of cases) {
    it(name, () => {
      const t0 = performance.now();
      const out = html(content);
      const ms = performance.now() - t0;
      assert.ok(ms < MAX_MATH_MS + 1500, `${name}: ${ms} ms`);
      assert.match(out, /^<p>/);
      assert.ok(out.length < 1_000_000, `${out.length} characters`);
    });
  }

  it('what passes a bound is a tex-error', () => {
    assert.match(html(`$$\\def\\a{${X}}\\def\\b{${'\\a'.repeat(100)}}\\def\\c{${'\\b'.repeat(9)}}\\c$$`), /^<p><span class="tex-error">\$\$\\def/);
    assert.match(html('$$\\def\\a{\\a}\\a$$'), /tex-error/);
    assert.match(html(`$$${'x'.repeat(MAX_TEX_CHARS + 1)}$$`), /^<p><span class="tex-error">/);
    assert.match(html(`$$${'x'.repeat(MAX_TEX_CHARS)}$$`), /^<p><span class="katex">/);
    const rule = html('$$\\rule{100000em}{100000em}$$');
    assert.ok(!/style="[^"]*\d{3,}(\.\d+)?em/.test(rule), 'sizes capped by maxSize');
    assert.match(html('$$\\newcommand{\\sq}[1]{#1^2}\\sq{a}+\\sq{b}$$'), /^<p><span class="katex">/, 'ordinary macros work');
  });
});
