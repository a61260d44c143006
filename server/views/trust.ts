/**
 * Getting people to trust this installation's certificate authority (server/tls/): the
 * certificate (`GET /hearth/ca.crt`, PEM, or DER with `?format=der`), an iOS/macOS
 * configuration profile (`/hearth/ca.mobileconfig`), and the trust page (`/hearth/trust`) with
 * the steps for each system and the SHA-256 fingerprint to compare. All served over plain
 * HTTP too: that is how a device first gets them. The page says what the authority may vouch
 * for, warns about one from before Name Constraints, and names the one it replaced; an owner
 * replaces it with `POST /hearth/tls/authority`.
 */
import { createHash, X509Certificate } from 'node:crypto';
import type { ApiRequest, ViewResult } from '../context.js';
import { errors } from '../errors.js';
import { escapeHtml } from '../protocol/html.js';
import { derOfCertificate, fingerprintOf, scopeOf } from '../tls/certificates.js';
import { setPageHeaders } from '../http/page-headers.js';
import { requireOwner } from '../lib/people/require.js';

function authority(req: ApiRequest): string {
  const ca = req.app.config.caCertificate;
  if (!ca) throw errors.notFound('HTTPS is off on this server, so it has no certificate authority to trust.');
  return ca;
}

/**
 * POST /hearth/tls/authority (owners): a new authority, with a new key and limited to local
 * names, in place of the current one; the server certificate it signs is served at once. Every
 * device that installed the old authority must install the new one (the trust page says so).
 */
export async function replaceCertificateAuthority(req: ApiRequest): Promise<ViewResult> {
  requireOwner(req);
  const tls = req.app.tls;
  if (!tls) throw errors.notFound('HTTPS is off on this server, so it has no certificate authority to replace.');
  await tls.replaceAuthority();
  return { ca_fingerprint_sha256: fingerprintOf(authority(req)) };
}

/** The authority's common name (what each system lists it as). */
const subjectOf = (pem: string) => /CN=([^\n]+)/.exec(new X509Certificate(pem).subject)?.[1] ?? 'Hearth authority';

/** GET /hearth/ca.crt: the authority certificate, PEM (or DER with ?format=der), as a download. */
export function caCertificate(req: ApiRequest): void {
  const ca = authority(req);
  const der = req.koa.query.format === 'der';
  const k = req.koa;
  k.set('X-Content-Type-Options', 'nosniff');
  k.set('Cache-Control', 'no-cache');
  k.set('Content-Disposition', `attachment; filename="${der ? 'hearth-ca.cer' : 'hearth-ca.crt'}"`);
  k.type = der ? 'application/x-x509-ca-cert' : 'application/x-pem-file';
  k.body = der ? derOfCertificate(ca) : ca;
}

/** A stable UUID for the profile's payloads, from the authority's fingerprint. */
function uuidOf(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}


/** GET /hearth/ca.mobileconfig: an Apple configuration profile that installs the authority as a root. */
export function caProfile(req: ApiRequest): void {
  const ca = authority(req);
  const fp = fingerprintOf(ca).replace(/:/g, '');
  const name = escapeHtml(subjectOf(ca));
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>PayloadCertificateFileName</key><string>hearth-ca.cer</string>
      <key>PayloadContent</key><data>${derOfCertificate(ca).toString('base64')}</data>
      <key>PayloadDescription</key><string>Lets this device check that it talks to your office's Hearth server.</string>
      <key>PayloadDisplayName</key><string>${name}</string>
      <key>PayloadIdentifier</key><string>org.hearth.chat.ca.${fp.slice(0, 16)}</string>
      <key>PayloadType</key><string>com.apple.security.root</string>
      <key>PayloadUUID</key><string>${uuidOf(`ca:${fp}`)}</string>
      <key>PayloadVersion</key><integer>1</integer>
    </dict>
  </array>
  <key>PayloadDescription</key><string>Installs the certificate authority of the Hearth chat server (SHA-256 ${escapeHtml(fingerprintOf(ca))}).</string>
  <key>PayloadDisplayName</key><string>Hearth: trust this server</string>
  <key>PayloadIdentifier</key><string>org.hearth.chat.trust.${fp.slice(0, 16)}</string>
  <key>PayloadRemovalDisallowed</key><false/>
  <key>PayloadType</key><string>Configuration</string>
  <key>PayloadUUID</key><string>${uuidOf(`profile:${fp}`)}</string>
  <key>PayloadVersion</key><integer>1</integer>
</dict>
</plist>
`;
  const k = req.koa;
  k.set('X-Content-Type-Options', 'nosniff');
  k.set('Content-Disposition', 'attachment; filename="hearth.mobileconfig"');
  k.type = 'application/x-apple-aspen-config';
  k.body = body;
}

const STEPS: [string, string[]][] = [
  ['Windows', [
    'Download <a href="/hearth/ca.crt?format=der">hearth-ca.cer</a> and open it.',
    'Click <b>Install Certificate…</b>, choose <b>Current User</b>, then <b>Place all certificates in the following store</b> → <b>Trusted Root Certification Authorities</b>, and finish.',
    'Restart the browser. Edge and Chrome use this list; Firefox has its own (below).',
  ]],
  ['macOS', [
    'Download <a href="/hearth/ca.crt">hearth-ca.crt</a> and open it: Keychain Access adds it to your login keychain.',
    'Double-click the certificate there, open <b>Trust</b>, set <b>When using this certificate</b> to <b>Always Trust</b>, and close the window (your password confirms it).',
    'Safari and Chrome then trust it; Firefox has its own list (below).',
  ]],
  ['Linux', [
    'Download <a href="/hearth/ca.crt">hearth-ca.crt</a>.',
    'Debian and Ubuntu: <code>sudo cp hearth-ca.crt /usr/local/share/ca-certificates/ &amp;&amp; sudo update-ca-certificates</code>. Fedora: <code>sudo cp hearth-ca.crt /etc/pki/ca-trust/source/anchors/ &amp;&amp; sudo update-ca-trust</code>. Command-line tools and Python then trust it.',
    'Chrome and Chromium keep their own list: <b>Settings</b> → <b>Privacy and security</b> → <b>Security</b> → <b>Manage certificates</b> → <b>Authorities</b> → <b>Import</b>, and tick <b>Trust this certificate for identifying websites</b>.',
  ]],
  ['Firefox (any system)', [
    '<b>Settings</b> → <b>Privacy &amp; Security</b> → <b>Certificates</b> → <b>View Certificates…</b> → <b>Authorities</b> → <b>Import…</b>, pick hearth-ca.crt and tick <b>Trust this CA to identify websites</b>.',
  ]],
  ['iPhone and iPad', [
    'Open this page in Safari and tap <a href="/hearth/ca.mobileconfig">the Hearth profile</a>, then <b>Allow</b>.',
    'In <b>Settings</b> → <b>General</b> → <b>VPN &amp; Device Management</b>, tap the Hearth profile and <b>Install</b>.',
    'Then <b>Settings</b> → <b>General</b> → <b>About</b> → <b>Certificate Trust Settings</b>: turn on full trust for the Hearth authority.',
  ]],
  ['Android', [
    'Download <a href="/hearth/ca.crt?format=der">hearth-ca.cer</a>.',
    '<b>Settings</b> → <b>Security</b> (or <b>Security and privacy</b>) → <b>More security settings</b> → <b>Encryption &amp; credentials</b> → <b>Install a certificate</b> → <b>CA certificate</b>, then pick the file.',
    'Browsers then trust it. Apps trust it only if they choose to: the Zulip app for Android does not yet, so in that app use the http:// address.',
  ]],
];

/** What an authority with Name Constraints may vouch for (server/tls/certificates.ts). */
const LIMITED = `<p>It can vouch only for this network's own names (such as <code>localhost</code> and names ending in <code>.local</code>) and private network addresses, never for a website on the internet.</p>`;
/** An authority from before Name Constraints: ask for a new one before installing it. */
const UNLIMITED = `<section class="card" aria-labelledby="unlimited-title"><h2 id="unlimited-title">Ask for a new authority first</h2>
<p class="notice notice-error">This authority was made by an earlier version of Hearth and is not limited to this office's network: whoever got hold of its key could pass any website off as genuine on a device that trusts it. Ask whoever runs Hearth to replace it (organization settings → <b>Status</b>) before you install it. A device that already trusts it keeps working until then.</p></section>`;

/** GET /hearth/trust: the trust page (plain HTTP too). */
export function trustPage(req: ApiRequest): void {
  const ca = req.app.config.caCertificate;
  const tls = req.app.config.tlsAddress;
  const host = req.koa.hostname.includes(':') ? `[${req.koa.hostname}]` : req.koa.hostname;
  const secure = tls ? `https://${host}:${tls.port}/` : null;
  const previous = req.app.tls?.previous ?? null;
  const limited = ca ? scopeOf(ca) !== null : false;
  const body = ca
    ? `<p>Hearth encrypts its connections with a certificate authority of its own, made on this computer for this office only. Install it once on each device: browsers and apps then connect over HTTPS, with no warning, and nobody else on the network can read passwords or messages.</p>
${limited ? LIMITED : UNLIMITED}
${previous ? `<section class="card" aria-labelledby="previous-title"><h2 id="previous-title">This authority is new</h2><p>Hearth's earlier authority was replaced by this one: a device that installed the earlier one shows a warning until it installs this one. Then remove the earlier one, in the same place, by its fingerprint:</p><p><code class="fingerprint">${escapeHtml(fingerprintOf(previous))}</code></p></section>` : ''}
<section class="card" aria-labelledby="fp-title"><h2 id="fp-title">Check before you trust</h2>
<p>This authority's SHA-256 fingerprint is</p><p><code class="fingerprint">${escapeHtml(fingerprintOf(ca))}</code></p>
<p>The organization settings show it in their <b>Status</b> section: compare the two before you install it.</p>
<p class="actions"><a class="button" href="/hearth/ca.crt">Download the certificate (.crt)</a> <a class="button secondary" href="/hearth/ca.crt?format=der">For Windows and Android (.cer)</a> <a class="button secondary" href="/hearth/ca.mobileconfig">Profile for iPhone, iPad and Mac</a></p></section>
${STEPS.map(([system, steps]) => `<section class="card"><h2>${escapeHtml(system)}</h2><ol>${steps.map((s) => `<li>${s}</li>`).join('')}</ol></section>`).join('\n')}
${secure ? `<p>Then open Hearth at <a href="${escapeHtml(secure)}">${escapeHtml(secure)}</a>.</p>` : ''}`
    : '<p>HTTPS is off on this server, so there is nothing to install. Ask whoever runs it to start it with HTTPS.</p>';
  setPageHeaders(req.koa);
  req.koa.set('Cache-Control', 'no-cache');
  req.koa.type = 'text/html; charset=utf-8';
  req.koa.body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trust this Hearth server</title><link rel="icon" href="/static/hearth-icon.png"><link rel="stylesheet" href="/help/help.css"></head>
<body><main class="page trust" id="main"><h1>Trust this Hearth server</h1>
${body}
</main></body></html>`;
}
