/** The chat's check of KaTeX's inline styles (renderer/chat/messages/katex-style.ts), under Node. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { katexStyle, renameStyles } from '../../renderer/chat/messages/katex-style.js';

describe("KaTeX's inline styles in the chat", () => {
  it("keeps KaTeX's own declarations", () => {
    for (const s of [
      'height:0.7278em;vertical-align:-0.0833em;',
      'top:-2.55em;margin-left:0em;margin-right:0.05em;',
      'margin-right:0.19445em;position:relative;top:-0.0006em;',
      'min-width:0.853em;height:1.08em;',
      'border-right-width:0.4em;border-top-width:0.4em;bottom:0em;',
      'color:#cc0000;',
      'color:red;',
      'background-color:#eeeeee;',
      'margin:0 -0.2em;',
      'text-shadow:0.02em 0.01em 0.04px;',
      'border-style:solid;border-width:0.04em;',
      'stroke-width:0.046em',
    ]) {
      assert.ok(katexStyle(s), s);
    }
    assert.equal(katexStyle('height:0.75em; vertical-align: -0.25em'), 'height:0.75em;vertical-align:-0.25em');
  });

  it('refuses every declaration of a style that has one of another kind', () => {
    for (const s of [
      'position:fixed;top:0',
      'position:absolute',
      'height:1em;background:url(https://evil.example/x.png)',
      'background-image:url(x)',
      'color:expression(alert(1))',
      'color:rgb(0,0,0)',
      'color:var(--x)',
      'height:calc(100vh)',
      'height:100vh',
      'width:100%',
      'top:-5000em',
      'margin-right:-20000px',
      'z-index:9',
      'display:none',
      'height:1em;display:block',
      'height',
      '--x:1em',
      'height:1em /* */',
      'font-size:100em',
    ]) {
      assert.equal(katexStyle(s), null, s);
    }
    assert.equal(katexStyle(''), null);
  });
});

describe("KaTeX's style attributes renamed before parsing", () => {
  it('renames the attribute in tags, never the same characters in text', () => {
    const html =
      '<p><span class="katex"><span class="strut" style="height:1em;"></span></span></p>\n' +
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="s1">\'&lt;p style="color: red"&gt;\'</span>\n</code></pre></div>';
    assert.equal(
      renameStyles(html),
      '<p><span class="katex"><span class="strut" data-hearth-style="height:1em;"></span></span></p>\n' +
        '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="s1">\'&lt;p style="color: red"&gt;\'</span>\n</code></pre></div>',
    );
    assert.equal(renameStyles('<pre><code>key: &lt;p style="a"&gt;\n</code></pre>'), '<pre><code>key: &lt;p style="a"&gt;\n</code></pre>');
  });
});
