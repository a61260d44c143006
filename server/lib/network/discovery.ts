/**
 * LAN discovery by mDNS/DNS-SD (bonjour-service): the server is announced as `_http._tcp`
 * and, with HTTPS on, `_https._tcp`, named after the organization, with TXT records for the
 * path and `hearth=1` (how `hearth discover` tells Hearth servers apart); the records name
 * `<host>.local`, so that name resolves where the system does not already answer for it.
 * The owners' `hearth_discovery` switch turns it off (checked every 15 s). Failures (no
 * multicast on this network) are logged, never fatal.
 */
import { hostname } from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import type { App } from '../../context.js';

export interface DiscoveryPorts {
  http: number;
  https: number | null;
}

/** Starts announcing (and following the switch); returns the way to stop. */
export function startDiscovery(app: App, ports: DiscoveryPorts): () => Promise<void> {
  const state: { bonjour: Bonjour | null; name: string; services: Service[] } = { bonjour: null, name: '', services: [] };
  const host = `${hostname().replace(/\.local$/, '')}.local`;
  const wanted = () => app.store.realm.data.realm !== null && app.store.realm.data.realm.settings.hearth_discovery !== false;
  const stopAnnouncing = () =>
    new Promise<void>((resolve) => {
      const b = state.bonjour;
      state.bonjour = null;
      state.services = [];
      if (!b) return resolve();
      b.unpublishAll(() => {
        b.destroy();
        resolve();
      });
    });
  const announce = () => {
    const name = app.store.realm.data.realm!.name || 'Hearth';
    try {
      const b = new Bonjour({}, (err: Error) => app.log.warn('LAN discovery error', { error: err.message }));
      const txt = { path: '/', hearth: '1' };
      state.services = [b.publish({ name, type: 'http', port: ports.http, host, txt })];
      if (ports.https !== null) state.services.push(b.publish({ name, type: 'https', port: ports.https, host, txt }));
      for (const s of state.services) s.on('error', (err: Error) => app.log.warn('LAN discovery error', { error: err.message }));
      state.bonjour = b;
      state.name = name;
    } catch (err) {
      app.log.warn('LAN discovery unavailable', { error: String(err) });
    }
  };
  const follow = () => {
    const on = wanted();
    const renamed = on && state.bonjour && state.name !== (app.store.realm.data.realm!.name || 'Hearth');
    if ((!on || renamed) && state.bonjour) void stopAnnouncing().then(() => renamed && wanted() && announce());
    else if (on && !state.bonjour) announce();
  };
  follow();
  const timer = setInterval(follow, 15_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await stopAnnouncing();
  };
}

export interface FoundServer {
  name: string;
  url: string;
}

/** Hearth servers announced on the LAN within `ms` (`hearth discover`). */
export function discoverServers(ms = 3000): Promise<FoundServer[]> {
  const bonjour = new Bonjour();
  const found = new Map<string, FoundServer>();
  const take = (scheme: 'http' | 'https') => (s: Service) => {
    if (s.txt?.hearth !== '1') return;
    const address = s.addresses?.find((a) => !a.includes(':')) ?? s.host;
    const url = `${scheme}://${address}:${s.port}${s.txt?.path ?? '/'}`;
    found.set(url, { name: s.name, url });
  };
  bonjour.find({ type: 'http' }, take('http'));
  bonjour.find({ type: 'https' }, take('https'));
  return new Promise((resolve) =>
    setTimeout(() => {
      bonjour.destroy();
      resolve([...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.url.localeCompare(b.url)));
    }, ms),
  );
}
