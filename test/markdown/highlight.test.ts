import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeBlockHtml } from '../../server/markdown/fences.js';
import { highlightCode, MAX_HIGHLIGHT_CHARS, profileGrammars } from '../../server/markdown/highlight.js';
import { renderFullHtml, renderMessage, type RenderContext } from '../../server/markdown/index.js';
import { LEXER_NAMES } from '../../server/markdown/pygments-names.js';
import { PYGMENTS_CLASSES } from '../../server/markdown/sanitize-lists.js';
import { sanitizeXss } from '../../server/markdown/sanitize-xss.js';

/**
 * Code highlighting against what Zulip's server writes: Python-Markdown's CodeHilite with Pygments
 * (cssclass codehilite, wrapcode) and data-code-language from Pygments' lexer name. The expected
 * HTML of each family is Pygments 2.20's output for the same code; the Python and TeX cases are
 * Zulip's own fixtures (zerver/tests/fixtures/markdown_test_cases.json).
 */
const ctx: RenderContext = { usersByName: () => [], userById: () => undefined, groupByName: () => undefined, channelByName: () => undefined };
const html = (content: string, extra: Partial<RenderContext> = {}) => renderMessage(content, { ...ctx, ...extra }).html;
const block = (name: string, inner: string) => `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${inner}</code></pre></div>`;

/** [fence language, Pygments' name, code, the inside of <code> as Pygments writes it]. */
const FAMILIES: [string, string, string, string][] = [
  // biome-ignore-start lint/suspicious/noTemplateCurlyInString: JavaScript source under test, not templates
  ["python", "Python", "x = f\"hi {y}\" + 'b\\n'  # note\nprint(len([1, 2.5]), True, None, self.z)\n",
    "<span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"sa\">f</span><span class=\"s2\">\"hi </span><span class=\"si\">{</span><span class=\"n\">y</span><span class=\"si\">}</span><span class=\"s2\">\"</span> <span class=\"o\">+</span> <span class=\"s1\">'b</span><span class=\"se\">\\n</span><span class=\"s1\">'</span>  <span class=\"c1\"># note</span>\n<span class=\"nb\">print</span><span class=\"p\">(</span><span class=\"nb\">len</span><span class=\"p\">([</span><span class=\"mi\">1</span><span class=\"p\">,</span> <span class=\"mf\">2.5</span><span class=\"p\">]),</span> <span class=\"kc\">True</span><span class=\"p\">,</span> <span class=\"kc\">None</span><span class=\"p\">,</span> <span class=\"bp\">self</span><span class=\"o\">.</span><span class=\"n\">z</span><span class=\"p\">)</span>\n"],
  ["js", "JavaScript", "// greet\nconst x = 42, y = 'str';\nlet z = `t ${x} u`;\nfunction greet(name) {\n  if (name === null) return undefined;\n  return console.log(\"Hello \" + name, this.x);\n}\n",
    "<span class=\"c1\">// greet</span>\n<span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">42</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">y</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s1\">'str'</span><span class=\"p\">;</span>\n<span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"nx\">z</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sb\">`t </span><span class=\"si\">${</span><span class=\"nx\">x</span><span class=\"si\">}</span><span class=\"sb\"> u`</span><span class=\"p\">;</span>\n<span class=\"kd\">function</span><span class=\"w\"> </span><span class=\"nx\">greet</span><span class=\"p\">(</span><span class=\"nx\">name</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">  </span><span class=\"k\">if</span><span class=\"w\"> </span><span class=\"p\">(</span><span class=\"nx\">name</span><span class=\"w\"> </span><span class=\"o\">===</span><span class=\"w\"> </span><span class=\"kc\">null</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"kc\">undefined</span><span class=\"p\">;</span>\n<span class=\"w\">  </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"nx\">console</span><span class=\"p\">.</span><span class=\"nx\">log</span><span class=\"p\">(</span><span class=\"s2\">\"Hello \"</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"nx\">name</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"k\">this</span><span class=\"p\">.</span><span class=\"nx\">x</span><span class=\"p\">);</span>\n<span class=\"p\">}</span>\n"],
  ["java", "Java", "import java.util.List;\n\npublic class Hello {\n    private static final int N = 10;\n    public static void main(String args) {\n        System.out.println(\"Hi\" + args.length); // done\n    }\n}\n",
    "<span class=\"kn\">import</span><span class=\"w\"> </span><span class=\"nn\">java.util.List</span><span class=\"p\">;</span>\n\n<span class=\"kd\">public</span><span class=\"w\"> </span><span class=\"kd\">class</span> <span class=\"nc\">Hello</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">    </span><span class=\"kd\">private</span><span class=\"w\"> </span><span class=\"kd\">static</span><span class=\"w\"> </span><span class=\"kd\">final</span><span class=\"w\"> </span><span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"n\">N</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mi\">10</span><span class=\"p\">;</span>\n<span class=\"w\">    </span><span class=\"kd\">public</span><span class=\"w\"> </span><span class=\"kd\">static</span><span class=\"w\"> </span><span class=\"kt\">void</span><span class=\"w\"> </span><span class=\"nf\">main</span><span class=\"p\">(</span><span class=\"n\">String</span><span class=\"w\"> </span><span class=\"n\">args</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">        </span><span class=\"n\">System</span><span class=\"p\">.</span><span class=\"na\">out</span><span class=\"p\">.</span><span class=\"na\">println</span><span class=\"p\">(</span><span class=\"s\">\"Hi\"</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"n\">args</span><span class=\"p\">.</span><span class=\"na\">length</span><span class=\"p\">);</span><span class=\"w\"> </span><span class=\"c1\">// done</span>\n<span class=\"w\">    </span><span class=\"p\">}</span>\n<span class=\"p\">}</span>\n"],
  ["c", "C", "#include <stdio.h>\n#define N 10\n/* main */\nint main(int argc, char **argv) {\n    unsigned long x = 0x1F;\n    printf(\"%d\\n\", argc); // print\n    return x > 2 ? 0 : -1;\n}\n",
    "<span class=\"cp\">#include</span><span class=\"w\"> </span><span class=\"cpf\">&lt;stdio.h&gt;</span>\n<span class=\"cp\">#define N 10</span>\n<span class=\"cm\">/* main */</span>\n<span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"nf\">main</span><span class=\"p\">(</span><span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"n\">argc</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"kt\">char</span><span class=\"w\"> </span><span class=\"o\">**</span><span class=\"n\">argv</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">    </span><span class=\"kt\">unsigned</span><span class=\"w\"> </span><span class=\"kt\">long</span><span class=\"w\"> </span><span class=\"n\">x</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mh\">0x1F</span><span class=\"p\">;</span>\n<span class=\"w\">    </span><span class=\"n\">printf</span><span class=\"p\">(</span><span class=\"s\">\"%d</span><span class=\"se\">\\n</span><span class=\"s\">\"</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"n\">argc</span><span class=\"p\">);</span><span class=\"w\"> </span><span class=\"c1\">// print</span>\n<span class=\"w\">    </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"n\">x</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"mi\">2</span><span class=\"w\"> </span><span class=\"o\">?</span><span class=\"w\"> </span><span class=\"mi\">0</span><span class=\"w\"> </span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"mi\">-1</span><span class=\"p\">;</span>\n<span class=\"p\">}</span>\n"],
  ["go", "Go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 3\n\tfmt.Println(\"hi\", x) // print\n}\n",
    "<span class=\"kn\">package</span><span class=\"w\"> </span><span class=\"nx\">main</span>\n\n<span class=\"kn\">import</span><span class=\"w\"> </span><span class=\"s\">\"fmt\"</span>\n\n<span class=\"kd\">func</span><span class=\"w\"> </span><span class=\"nx\">main</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">\t</span><span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span><span class=\"mi\">3</span>\n<span class=\"w\">\t</span><span class=\"nx\">fmt</span><span class=\"p\">.</span><span class=\"nx\">Println</span><span class=\"p\">(</span><span class=\"s\">\"hi\"</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">x</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"c1\">// print</span>\n<span class=\"p\">}</span>\n"],
  ["bash", "Bash", "#!/bin/bash\n# deploy\nset -e\nfor f in *.txt; do\n  echo \"file: $f\" > /dev/null\n  export X=1\ndone\nif [ -z \"$HOME\" ]; then exit 1; fi\nls -la | grep foo\n",
    "<span class=\"ch\">#!/bin/bash</span>\n<span class=\"c1\"># deploy</span>\n<span class=\"nb\">set</span><span class=\"w\"> </span>-e\n<span class=\"k\">for</span><span class=\"w\"> </span>f<span class=\"w\"> </span><span class=\"k\">in</span><span class=\"w\"> </span>*.txt<span class=\"p\">;</span><span class=\"w\"> </span><span class=\"k\">do</span>\n<span class=\"w\">  </span><span class=\"nb\">echo</span><span class=\"w\"> </span><span class=\"s2\">\"file: </span><span class=\"nv\">$f</span><span class=\"s2\">\"</span><span class=\"w\"> </span>&gt;<span class=\"w\"> </span>/dev/null\n<span class=\"w\">  </span><span class=\"nb\">export</span><span class=\"w\"> </span><span class=\"nv\">X</span><span class=\"o\">=</span><span class=\"m\">1</span>\n<span class=\"k\">done</span>\n<span class=\"k\">if</span><span class=\"w\"> </span><span class=\"o\">[</span><span class=\"w\"> </span>-z<span class=\"w\"> </span><span class=\"s2\">\"</span><span class=\"nv\">$HOME</span><span class=\"s2\">\"</span><span class=\"w\"> </span><span class=\"o\">]</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"k\">then</span><span class=\"w\"> </span><span class=\"nb\">exit</span><span class=\"w\"> </span><span class=\"m\">1</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"k\">fi</span>\nls<span class=\"w\"> </span>-la<span class=\"w\"> </span><span class=\"p\">|</span><span class=\"w\"> </span>grep<span class=\"w\"> </span>foo\n"],
  ["sql", "SQL", "SELECT u.id, COUNT(*) AS n\nFROM users u\nJOIN orders o ON o.user_id = u.id\nWHERE u.name LIKE 'a%' AND o.total > 10.5 -- big\nGROUP BY u.id;\n",
    "<span class=\"k\">SELECT</span><span class=\"w\"> </span><span class=\"n\">u</span><span class=\"p\">.</span><span class=\"n\">id</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"k\">COUNT</span><span class=\"p\">(</span><span class=\"o\">*</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"k\">AS</span><span class=\"w\"> </span><span class=\"n\">n</span>\n<span class=\"k\">FROM</span><span class=\"w\"> </span><span class=\"n\">users</span><span class=\"w\"> </span><span class=\"n\">u</span>\n<span class=\"k\">JOIN</span><span class=\"w\"> </span><span class=\"n\">orders</span><span class=\"w\"> </span><span class=\"n\">o</span><span class=\"w\"> </span><span class=\"k\">ON</span><span class=\"w\"> </span><span class=\"n\">o</span><span class=\"p\">.</span><span class=\"n\">user_id</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"n\">u</span><span class=\"p\">.</span><span class=\"n\">id</span>\n<span class=\"k\">WHERE</span><span class=\"w\"> </span><span class=\"n\">u</span><span class=\"p\">.</span><span class=\"n\">name</span><span class=\"w\"> </span><span class=\"k\">LIKE</span><span class=\"w\"> </span><span class=\"s1\">'a%'</span><span class=\"w\"> </span><span class=\"k\">AND</span><span class=\"w\"> </span><span class=\"n\">o</span><span class=\"p\">.</span><span class=\"n\">total</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"mi\">10</span><span class=\"p\">.</span><span class=\"mi\">5</span><span class=\"w\"> </span><span class=\"c1\">-- big</span>\n<span class=\"k\">GROUP</span><span class=\"w\"> </span><span class=\"k\">BY</span><span class=\"w\"> </span><span class=\"n\">u</span><span class=\"p\">.</span><span class=\"n\">id</span><span class=\"p\">;</span>\n"],
  ["json", "JSON", "{\n  \"name\": \"hearth\",\n  \"version\": 1.5,\n  \"tags\": [\"a\", \"b\"],\n  \"ok\": true,\n  \"none\": null\n}\n",
    "<span class=\"p\">{</span>\n<span class=\"w\">  </span><span class=\"nt\">\"name\"</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"s2\">\"hearth\"</span><span class=\"p\">,</span>\n<span class=\"w\">  </span><span class=\"nt\">\"version\"</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mf\">1.5</span><span class=\"p\">,</span>\n<span class=\"w\">  </span><span class=\"nt\">\"tags\"</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"p\">[</span><span class=\"s2\">\"a\"</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"s2\">\"b\"</span><span class=\"p\">],</span>\n<span class=\"w\">  </span><span class=\"nt\">\"ok\"</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">true</span><span class=\"p\">,</span>\n<span class=\"w\">  </span><span class=\"nt\">\"none\"</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">null</span>\n<span class=\"p\">}</span>\n"],
  ["yaml", "YAML", "# config\nname: hearth\nversion: 1.2\nitems:\n  - a\n  - \"b\"\nenabled: true\n",
    "<span class=\"c1\"># config</span>\n<span class=\"nt\">name</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">hearth</span>\n<span class=\"nt\">version</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">1.2</span>\n<span class=\"nt\">items</span><span class=\"p\">:</span>\n<span class=\"w\">  </span><span class=\"p p-Indicator\">-</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">a</span>\n<span class=\"w\">  </span><span class=\"p p-Indicator\">-</span><span class=\"w\"> </span><span class=\"s\">\"b\"</span>\n<span class=\"nt\">enabled</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">true</span>\n"],
  ["toml", "TOML", "# settings\ntitle = \"TOML\"\n\n[owner]\nname = 'Tom'\nport = 8080\n",
    "<span class=\"c1\"># settings</span>\n<span class=\"n\">title</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s2\">\"TOML\"</span>\n\n<span class=\"k\">[owner]</span>\n<span class=\"n\">name</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s1\">'Tom'</span>\n<span class=\"n\">port</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mi\">8080</span>\n"],
  ["html", "HTML", "<!DOCTYPE html>\n<html lang=\"en\">\n<body>\n  <!-- note -->\n  <a href=\"/x\" class='y'>Link &amp; more</a>\n</body>\n</html>\n",
    "<span class=\"cp\">&lt;!DOCTYPE html&gt;</span>\n<span class=\"p\">&lt;</span><span class=\"nt\">html</span> <span class=\"na\">lang</span><span class=\"o\">=</span><span class=\"s\">\"en\"</span><span class=\"p\">&gt;</span>\n<span class=\"p\">&lt;</span><span class=\"nt\">body</span><span class=\"p\">&gt;</span>\n  <span class=\"cm\">&lt;!-- note --&gt;</span>\n  <span class=\"p\">&lt;</span><span class=\"nt\">a</span> <span class=\"na\">href</span><span class=\"o\">=</span><span class=\"s\">\"/x\"</span> <span class=\"na\">class</span><span class=\"o\">=</span><span class=\"s\">'y'</span><span class=\"p\">&gt;</span>Link <span class=\"ni\">&amp;amp;</span> more<span class=\"p\">&lt;/</span><span class=\"nt\">a</span><span class=\"p\">&gt;</span>\n<span class=\"p\">&lt;/</span><span class=\"nt\">body</span><span class=\"p\">&gt;</span>\n<span class=\"p\">&lt;/</span><span class=\"nt\">html</span><span class=\"p\">&gt;</span>\n"],
  ["xml", "XML", "<?xml version=\"1.0\"?>\n<root attr=\"1\">\n  <child>text</child>\n  <!-- c -->\n</root>\n",
    "<span class=\"cp\">&lt;?xml version=\"1.0\"?&gt;</span>\n<span class=\"nt\">&lt;root</span><span class=\"w\"> </span><span class=\"na\">attr=</span><span class=\"s\">\"1\"</span><span class=\"nt\">&gt;</span>\n<span class=\"w\">  </span><span class=\"nt\">&lt;child&gt;</span>text<span class=\"nt\">&lt;/child&gt;</span>\n<span class=\"w\">  </span><span class=\"cm\">&lt;!-- c --&gt;</span>\n<span class=\"nt\">&lt;/root&gt;</span>\n"],
  ["css", "CSS", "/* theme */\nbody .main > #nav a:hover {\n  color: #fff;\n  margin: 0 auto 10px;\n  display: none !important;\n}\n",
    "<span class=\"c\">/* theme */</span>\n<span class=\"nt\">body</span><span class=\"w\"> </span><span class=\"p\">.</span><span class=\"nc\">main</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"p\">#</span><span class=\"nn\">nav</span><span class=\"w\"> </span><span class=\"nt\">a</span><span class=\"p\">:</span><span class=\"nd\">hover</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">  </span><span class=\"k\">color</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mh\">#fff</span><span class=\"p\">;</span>\n<span class=\"w\">  </span><span class=\"k\">margin</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mi\">0</span><span class=\"w\"> </span><span class=\"kc\">auto</span><span class=\"w\"> </span><span class=\"mi\">10</span><span class=\"kt\">px</span><span class=\"p\">;</span>\n<span class=\"w\">  </span><span class=\"k\">display</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">none</span><span class=\"w\"> </span><span class=\"cp\">!important</span><span class=\"p\">;</span>\n<span class=\"p\">}</span>\n"],
  ["diff", "Diff", "diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n context\n-old line\n+new line\n",
    "<span class=\"gh\">diff --git a/x b/x</span>\n<span class=\"gh\">index 1..2 100644</span>\n<span class=\"gd\">--- a/x</span>\n<span class=\"gi\">+++ b/x</span>\n<span class=\"gu\">@@ -1,3 +1,3 @@</span>\n<span class=\"w\"> </span>context\n<span class=\"gd\">-old line</span>\n<span class=\"gi\">+new line</span>\n"],
  ["rust", "Rust", "fn main() {\n    let v = vec![1, 2];\n    println!(\"{:?}\", v);\n}\n",
    "<span class=\"k\">fn</span><span class=\"w\"> </span><span class=\"nf\">main</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"p\">{</span>\n<span class=\"w\">    </span><span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"n\">v</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"fm\">vec!</span><span class=\"p\">[</span><span class=\"mi\">1</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"mi\">2</span><span class=\"p\">];</span>\n<span class=\"w\">    </span><span class=\"fm\">println!</span><span class=\"p\">(</span><span class=\"s\">\"{:?}\"</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"n\">v</span><span class=\"p\">);</span>\n<span class=\"p\">}</span>\n"],
  ["console", "Bash Session", "$ ls -la\ntotal 0\nuser@host:~$ echo \"hi\" | grep h\nhi\n# apt-get install x\n",
    "<span class=\"gp\">$ </span>ls<span class=\"w\"> </span>-la\n<span class=\"go\">total 0</span>\n<span class=\"gp\">user@host:~$ </span><span class=\"nb\">echo</span><span class=\"w\"> </span><span class=\"s2\">\"hi\"</span><span class=\"w\"> </span><span class=\"p\">|</span><span class=\"w\"> </span>grep<span class=\"w\"> </span>h\n<span class=\"go\">hi</span>\n<span class=\"gp\"># </span>apt-get<span class=\"w\"> </span>install<span class=\"w\"> </span>x\n"],
  ["docker", "Docker", "FROM node:20-alpine AS build\n# build\nWORKDIR /app\nRUN npm ci && npm run build\nENV PORT=8080\nEXPOSE 8080\nCMD [\"node\", \"server.js\"]\n",
    "<span class=\"k\">FROM</span><span class=\"w\"> </span><span class=\"s\">node:20-alpine</span><span class=\"w\"> </span><span class=\"k\">AS</span><span class=\"w\"> </span><span class=\"s\">build</span>\n<span class=\"c\"># build</span>\n<span class=\"k\">WORKDIR</span><span class=\"w\"> </span><span class=\"s\">/app</span>\n<span class=\"k\">RUN</span><span class=\"w\"> </span>npm<span class=\"w\"> </span>ci<span class=\"w\"> </span><span class=\"o\">&amp;&amp;</span><span class=\"w\"> </span>npm<span class=\"w\"> </span>run<span class=\"w\"> </span>build\n<span class=\"k\">ENV</span><span class=\"w\"> </span><span class=\"nv\">PORT</span><span class=\"o\">=</span><span class=\"m\">8080</span>\n<span class=\"k\">EXPOSE</span><span class=\"w\"> </span><span class=\"s\">8080</span>\n<span class=\"k\">CMD</span><span class=\"w\"> </span><span class=\"p\">[</span><span class=\"s2\">\"node\"</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"s2\">\"server.js\"</span><span class=\"p\">]</span>\n"],
  ["make", "Makefile", "CC = gcc\nCFLAGS := -O2 -Wall\n\n# build\nall: main.o util.o\n\t$(CC) $(CFLAGS) -o app $^\n\nclean:\n\trm -f *.o\n",
    "<span class=\"nv\">CC</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span>gcc\n<span class=\"nv\">CFLAGS</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span>-O2<span class=\"w\"> </span>-Wall\n\n<span class=\"c\"># build</span>\n<span class=\"nf\">all</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"n\">main</span>.<span class=\"n\">o</span> <span class=\"n\">util</span>.<span class=\"n\">o</span>\n<span class=\"w\">\t</span><span class=\"k\">$(</span>CC<span class=\"k\">)</span><span class=\"w\"> </span><span class=\"k\">$(</span>CFLAGS<span class=\"k\">)</span><span class=\"w\"> </span>-o<span class=\"w\"> </span>app<span class=\"w\"> </span>$^\n\n<span class=\"nf\">clean</span><span class=\"o\">:</span>\n<span class=\"w\">\t</span>rm<span class=\"w\"> </span>-f<span class=\"w\"> </span>*.o\n"],
// biome-ignore-end lint/suspicious/noTemplateCurlyInString: end of the table
];

describe('code highlighting: Zulip markup', () => {
  for (const [lang, name, code, inner] of FAMILIES) {
    it(`${name}: exactly Pygments' classes and spans`, () => {
      assert.equal(html('```' + lang + '\n' + code + '```'), block(name, inner));
    });
  }

  it("Zulip's fixtures: Python, the py2 alias, TeX, an invented language", () => {
    const speak = '<span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n' +
      '    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n';
    assert.equal(html('Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~'), '<p>Hamlet said:</p>\n' + block('Python', speak));
    assert.equal(html('``` py2\ndef speak(self):\n    x = 1\n```'), block('Python 2.x', speak));
    const tex = '<span class="k">\\pi</span> <span class="k">\\textbf</span><span class="nb">{</span> is not <span class="nb">}</span> 3.14\n';
    assert.equal(html('```tex\n\n\\pi \\textbf{ is not } 3.14\n```'), block('TeX', tex));
    assert.equal(html('```latex\n\n\\pi \\textbf{ is not } 3.14\n```'), block('TeX', tex));
    assert.equal(html('``` inventedlanguage\ndef speak(self):\n    x = 1\n```'), block('inventedlanguage', 'def speak(self):\n    x = 1\n'));
  });

  it("aliases take Pygments' lexer name; an alias Pygments lacks stays plain with the alias, as in Zulip", () => {
    const cases: [string, string][] = [
      ['js', 'JavaScript'], ['JavaScript', 'JavaScript'], ['sh', 'Bash'], ['zsh', 'Bash'], ['shell', 'Bash'], ['c++', 'C++'], ['cs', 'C#'],
      ['golang', 'Go'], ['rs', 'Rust'], ['rb', 'Ruby'], ['ps1', 'PowerShell'], ['docker', 'Docker'], ['dockerfile', 'Docker'],
      ['make', 'Makefile'], ['md', 'Markdown'], ['udiff', 'Diff'], ['postgresql', 'PostgreSQL SQL dialect'], ['html', 'HTML'],
      ['kotlin', 'Kotlin'], ['swift', 'Swift'], ['php', 'PHP'], ['ini', 'INI'], ['objective-c', 'Objective-C'], ['text', 'Text only'],
    ];
    for (const [alias, name] of cases) assert.match(html('```' + alias + '\nx\n```'), new RegExp(`^<div class="codehilite" data-code-language="${name.replace(/[+#]/g, '\\$&')}">`), alias);
    // Pygments has no `yml` or `kt` alias: Zulip leaves those blocks plain, keeping the alias.
    assert.equal(html('```yml\na: 1\n```'), block('yml', 'a: 1\n'));
    assert.equal(html('```kt\nval x = 1\n```'), block('kt', 'val x = 1\n'));
    // A language Pygments knows but Hearth does not highlight: its name, plain text.
    assert.equal(html('```fortran\nprogram x\n```'), block('Fortran', 'program x\n'));
    // The common forty all highlight something.
    for (const alias of ['python', 'javascript', 'typescript', 'java', 'c', 'cpp', 'csharp', 'go', 'rust', 'ruby', 'php', 'kotlin', 'swift', 'bash',
      'powershell', 'sql', 'json', 'yaml', 'toml', 'html', 'xml', 'css', 'scss', 'less', 'markdown', 'diff', 'docker', 'make', 'ini', 'lua', 'perl',
      'r', 'scala', 'haskell', 'elixir', 'erlang', 'clojure', 'dart', 'julia', 'nginx', 'graphql', 'protobuf', 'ocaml', 'tex', 'objective-c']) {
      assert.match(html('```' + alias + '\nif (x) { return "y" } # z 1\n+ added\n```'), /<span class="[a-zA-Z0-9 -]+">/, alias);
    }
  });

  it('text in a block with a language keeps its quotes (as Zulip\'s lxml writes it); without one, quotes are escaped', () => {
    assert.equal(html('```inventedlanguage\na "b" \'c\' <d> & e\n```'), block('inventedlanguage', 'a "b" \'c\' &lt;d&gt; &amp; e\n'));
    assert.equal(html('```\na "b" \'c\'\n```'), '<div class="codehilite"><pre><span></span><code>a &quot;b&quot; &#39;c&#39;\n</code></pre></div>');
    assert.equal(html('```js\nlet s = "<b>";\n```'),
      block('JavaScript', '<span class="kd">let</span><span class="w"> </span><span class="nx">s</span><span class="w"> </span><span class="o">=</span><span class="w"> </span><span class="s2">"&lt;b&gt;"</span><span class="p">;</span>\n'));
  });

  it("a fence without a language takes the organization's default, in quotes too, not in spoilers or indented code", () => {
    const python = { defaultCodeBlockLanguage: 'Python' };
    const x = '<span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\n';
    assert.equal(html('```\nx = 1\n```', python), block('Python', x));
    assert.equal(html('```text\nx = 1\n```', python), block('Text only', 'x = 1\n'));
    assert.equal(html('```quote\n~~~\nx = 1\n~~~\n```', python), `<blockquote>\n${block('Python', x)}\n</blockquote>`);
    assert.equal(html('```spoiler h\n~~~\nx = 1\n~~~\n```', python),
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>h</p>\n</div><div class="spoiler-content" aria-hidden="true">\n' +
        '<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>\n</div></div>');
    assert.equal(html('    x = 1', python), '<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>');
    assert.equal(html('```\nx = 1\n```', { defaultCodeBlockLanguage: 'nosuch' }), block('nosuch', 'x = 1\n'));
  });

  it('the sanitiser keeps highlighted code byte for byte, and only Pygments\' classes are written', () => {
    const seen = new Set<string>();
    for (const [lang, , code] of FAMILIES) {
      const raw = renderFullHtml('```' + lang + '\n' + code + '```', ctx);
      assert.equal(sanitizeXss(raw), raw, lang);
      for (const m of raw.matchAll(/<span class="([^"]+)">/g)) for (const c of m[1]!.split(' ')) seen.add(c);
    }
    for (const c of seen) assert.ok(PYGMENTS_CLASSES.includes(c), c);
    // A class outside the list is dropped; a Pygments class elsewhere than on a span too.
    assert.equal(sanitizeXss('<span class="k evil">x</span><div class="k">y</div>'), '<span class="k">x</span><div>y</div>');
  });

  it('highlighted code goes in after the sanitiser at a placeholder that cannot be forged', () => {
    const out = html('```js\nlet a = 1;\n```\nhearthcode0n0e and `hearthcode0n0e`');
    assert.match(out, /^<div class="codehilite" data-code-language="JavaScript"><pre><span><\/span><code><span class="kd">let<\/span>/);
    assert.ok(out.endsWith('<p>hearthcode0n0e and <code>hearthcode0n0e</code></p>'), out);
    assert.ok(!/hearthcode[0-9a-f]{32}/.test(out), out);
  });

  it('every highlighted lexer is a Pygments lexer name', () => {
    const names = new Set(LEXER_NAMES.values());
    for (const name of Object.keys(profileGrammars())) assert.ok(names.has(name), name);
  });

  it('bounded: 10,000 characters in an unknown language, hostile input for known grammars, long lines and words', () => {
    const t0 = performance.now();
    const unknown = 'x'.repeat(10_000);
    assert.equal(html('```nosuch\n' + unknown + '\n```'), block('nosuch', unknown + '\n'));
    assert.ok(performance.now() - t0 < 50, 'unknown language: plain at once');
    const hostile: [string, string][] = [
      ['typescript', '`${'.repeat(3333)],
      ['rust', '/*'.repeat(5000)],
      ['swift', '/*'.repeat(5000)],
      ['csharp', ('List<int> a b c d e f g\n').repeat(400)],
      ['csharp', 'a'.repeat(99) + ' ' + ('a'.repeat(99) + ' ').repeat(99)],
      ['console', ('$ ' + '"$('.repeat(30) + '\n').repeat(108)],
      ['console', '$ echo hi | grep h\n'.repeat(520)],
      ['java', ('x'.repeat(400) + '\n').repeat(24)],
      ['python', '"\\'.repeat(5000)],
      ['javascript', '('.repeat(10_000)],
      ['css', '<a '.repeat(3333)],
      ['c', ' '.repeat(9_999) + 'x'],
    ];
    for (const [lang, code] of hostile) {
      const t = performance.now();
      const out = html('```' + lang + '\n' + code.slice(0, 10_000) + '\n```');
      const ms = performance.now() - t;
      assert.ok(ms < 600, `${lang}: ${ms.toFixed(0)} ms`);
      assert.match(out, /^<div class="codehilite" data-code-language="[^"]+"><pre><span><\/span><code>/);
    }
    // Past the caps, plain text at once.
    assert.equal(highlightCode('x = 1\n'.repeat(MAX_HIGHLIGHT_CHARS / 6 + 1), 'Python'), undefined);
    assert.equal(highlightCode('x'.repeat(600), 'Python'), undefined);
    assert.equal(highlightCode('a'.repeat(101), 'C'), undefined);
    assert.equal(highlightCode('{'.repeat(100), 'JSON') !== undefined, true);
  });

  it('never throws: odd input, a Pygments name Hearth does not highlight, an empty block', () => {
    for (const code of ['\u0000\u0001\ud800', '\\', '"', '/*', '<!--', '$((', '#!', '@@', '\t\t']) {
      for (const name of Object.keys(profileGrammars())) assert.equal(typeof highlightCode(code, name), 'string', name);
    }
    assert.equal(highlightCode('x', 'Fortran'), undefined);
    assert.equal(codeBlockHtml('', 'python'), '<div class="codehilite" data-code-language="Python"><pre><span></span><code></code></pre></div>\n');
  });
});
