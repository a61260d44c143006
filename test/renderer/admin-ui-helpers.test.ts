/** The organization settings' pure helpers, under Node (no browser). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutInlineAttributes } from '../../renderer/purify.js';
import { roleName } from '../../renderer/chat/admin/api.js';
import { encode } from '../../renderer/api.js';
import { httpsSite, zuliprc, zuliprcSite } from '../../renderer/chat/settings/zuliprc.js';
import { formatBytes, formatUptime } from '../../renderer/chat/admin/status/format.js';

describe('organization settings helpers', () => {
  it('encodes parameters as Zulip clients do: strings raw, the rest JSON, undefined left out', () => {
    const p = encode({ name: 'Acme "Corp"', role: 300, flag: false, ids: [1, 2], obj: { a: 1 }, none: null, skip: undefined });
    assert.deepEqual([...p.entries()], [
      ['name', 'Acme "Corp"'],
      ['role', '300'],
      ['flag', 'false'],
      ['ids', '[1,2]'],
      ['obj', '{"a":1}'],
      ['none', 'null'],
    ]);
    assert.equal(roleName(200), 'Administrator');
    assert.equal(roleName(999), 'Role 999');
  });

  it('writes a zuliprc as the Zulip web app does', () => {
    assert.equal(zuliprc('bot@x.test', 'KEY', 'http://10.0.0.2:9991'), '[api]\nemail=bot@x.test\nkey=KEY\nsite=http://10.0.0.2:9991\n');
  });

  it('over HTTPS, the zuliprc names the HTTPS address and the authority for the Python library (cert_bundle)', () => {
    assert.equal(
      zuliprc('bot@x.test', 'KEY', httpsSite('http://10.0.0.2:9991', 9443), 'hearth-ca.crt'),
      '[api]\nemail=bot@x.test\nkey=KEY\nsite=https://10.0.0.2:9443\ncert_bundle=hearth-ca.crt\n',
    );
    assert.equal(httpsSite('http://[fd00::2]:9991', 9443), 'https://[fd00::2]:9443');
    assert.equal(httpsSite('http://10.0.0.2:9991', null), 'http://10.0.0.2:9991');
  });

  it('names a LAN address in the zuliprc when the page is on the server computer\'s loopback (the desktop window)', () => {
    const lan = ['http://127.0.0.1:9991', 'http://192.168.1.20:9991', 'http://10.0.0.2:9991'];
    for (const origin of ['http://127.0.0.1:9991', 'http://localhost:9991', 'http://[::1]:9991', 'http://127.0.0.2:9991']) {
      assert.equal(zuliprcSite(origin, lan), 'http://192.168.1.20:9991', origin);
    }
    // A browser elsewhere on the LAN: the address it used (it works from there).
    assert.equal(zuliprcSite('http://10.0.0.2:9991', lan), 'http://10.0.0.2:9991');
    assert.equal(zuliprcSite('http://hearth.lan:9991', lan), 'http://hearth.lan:9991');
    // No LAN address (a server bound to loopback only), or nothing usable: the page's own origin.
    assert.equal(zuliprcSite('http://127.0.0.1:9991', ['http://127.0.0.1:9991']), 'http://127.0.0.1:9991');
    assert.equal(zuliprcSite('http://127.0.0.1:9991', ['not a url', 'javascript:alert(1)']), 'http://127.0.0.1:9991');
    assert.equal(zuliprcSite('http://127.0.0.1:9991', []), 'http://127.0.0.1:9991');
  });

  it('drops style and on* attributes inside tags only, leaving text alone', () => {
    const cases: [string, string][] = [
      ['<p style="color:red">a</p>', '<p>a</p>'],
      [`<img src="x" onerror='alert(1)' ONLOAD=go alt="y">`, '<img src="x" alt="y">'],
      ['<span  style = "x" class="c">t</span>', '<span class="c">t</span>'],
      ['<p>style="kept" and onclick=kept in text</p>', '<p>style="kept" and onclick=kept in text</p>'],
      ['<a href="/x" title="onclick=1">l</a>', '<a href="/x" title="onclick=1">l</a>'],
      ['<p>1 < 2 and 3 > 2</p>', '<p>1 < 2 and 3 > 2</p>'],
    ];
    for (const [input, output] of cases) assert.equal(withoutInlineAttributes(input), output, input);
  });

  it('formats sizes and uptimes for the status page', () => {
    assert.equal(formatBytes(0), '0 bytes');
    assert.equal(formatBytes(1023), '1023 bytes');
    assert.equal(formatBytes(1536), '1.5 KiB');
    assert.equal(formatBytes(5 * 1024 ** 3), '5.0 GiB');
    assert.equal(formatUptime(42), '42 s');
    assert.equal(formatUptime(125), '2 min');
    assert.equal(formatUptime(3 * 3600 + 60 * 7), '3 h 7 min');
    assert.equal(formatUptime(2 * 86400 + 5 * 3600), '2 d 5 h');
  });
});
