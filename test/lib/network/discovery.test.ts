/**
 * LAN discovery: a server started with discovery is found by a browse in the same test
 * (`hearth discover`'s code, then the command itself), over http and https, named after the
 * organization; with the owners' switch off nothing is announced. Skipped with a notice
 * where this machine's network carries no multicast.
 */
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { doCreateRealm } from '../../../server/actions/users.js';
import { discoverServers } from '../../../server/lib/network/discovery.js';
import { silentLogger } from '../../../server/log.js';
import { startServer } from '../../../server/start.js';
import { runCli } from '../../helpers/cli.js';

/** Whether a multicast datagram sent here comes back (no: a network without multicast). */
function multicastWorks(): Promise<boolean> {
  return new Promise((resolve) => {
    const group = '239.255.42.99';
    const s = createSocket({ type: 'udp4', reuseAddr: true });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      s.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 1500);
    s.on('error', () => done(false));
    s.on('message', (m) => m.toString() === 'hearth-probe' && done(true));
    s.bind(0, () => {
      try {
        s.addMembership(group);
        s.setMulticastLoopback(true);
        s.send('hearth-probe', s.address().port, group);
      } catch {
        done(false);
      }
    });
  });
}

const works = await multicastWorks();
if (!works) process.stderr.write('notice: this network carries no multicast: the LAN discovery tests are skipped\n');

describe('LAN discovery (mDNS/DNS-SD)', { skip: works ? false : 'no multicast on this network', timeout: 60_000 }, () => {
  it('announces http and https named after the organization; hearth discover lists them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hearth-mdns-'));
    const s = await startServer({ dataDir: dir, host: '0.0.0.0', port: 0, httpsPort: 0, log: silentLogger, discovery: false });
    const name = `Discovery Office ${process.pid}`;
    const owner = await doCreateRealm(s.server.app, name, { email: 'o@example.com', password: 'long enough password', fullName: 'O' });
    const auth = `Basic ${Buffer.from(`o@example.com:${owner.api_key}`).toString('base64')}`;
    await s.stop();
    const running = await startServer({ dataDir: dir, host: '0.0.0.0', port: 0, httpsPort: 0, log: silentLogger, discovery: true });
    try {
      const found = (await discoverServers(2500)).filter((f) => f.name === name);
      const urls = found.map((f) => f.url);
      assert.ok(urls.some((u) => u.startsWith('http://') && u.endsWith(`:${running.port}/`)), JSON.stringify(found));
      assert.ok(urls.some((u) => u.startsWith('https://') && u.endsWith(`:${running.httpsPort}/`)), JSON.stringify(found));
      const cli = await runCli(['discover', '--timeout', '2']);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, new RegExp(`^${name}\\thttp://[^\\s]+:${running.port}/$`, 'm'));
    } finally {
      await running.stop();
    }
    // The owners' switch off (PATCH /realm): not announced.
    const again = await startServer({ dataDir: dir, host: '0.0.0.0', port: 0, log: silentLogger, discovery: false });
    const off1 = await fetch(`${again.url.replace('0.0.0.0', '127.0.0.1')}/api/v1/realm`, { method: 'PATCH', headers: { authorization: auth }, body: new URLSearchParams({ hearth_discovery: 'false' }) });
    assert.equal(off1.status, 200, await off1.text());
    await again.stop();
    const off = await startServer({ dataDir: dir, host: '0.0.0.0', port: 0, log: silentLogger, discovery: true });
    try {
      const quiet = (await discoverServers(2000)).filter((f) => f.name === name && f.url.endsWith(`:${off.port}/`));
      assert.deepEqual(quiet, []);
    } finally {
      await off.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
