/**
 * Rocket.Chat usernames for an export. Zulip's converter turns a mention back with
 * `content.replace('@' + username, '@**Full Name**')`, one user at a time, so no username
 * may be a prefix of another (`@al` would eat the start of `@alice`). Each person gets the
 * local part of their email when it is a prefix of no one else's and no one else's is a
 * prefix of it; the rest get `local_<ID padded to one width>`: the `_` marks where the
 * suffix starts (a base never holds one) and equal-width IDs cannot be prefixes of each
 * other, so the whole set is prefix-free.
 */

function base(email: string): string {
  const local = email.split('@')[0] ?? '';
  const slug = local
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return slug || 'user';
}

/** Usernames by user ID. */
export function assignUsernames(users: { id: number; email: string }[]): Map<number, string> {
  const width = String(Math.max(0, ...users.map((u) => u.id))).length;
  const bases = users.map((u) => ({ id: u.id, base: base(u.email) }));
  const sorted = [...bases].sort((a, b) => (a.base < b.base ? -1 : a.base > b.base ? 1 : 0));
  const clash = new Set<number>();
  // In sorted order, a base that is a prefix of another is directly followed by one it prefixes.
  for (let i = 0; i + 1 < sorted.length; i++) {
    if (sorted[i + 1]!.base.startsWith(sorted[i]!.base)) {
      clash.add(sorted[i]!.id);
      clash.add(sorted[i + 1]!.id);
    }
  }
  const out = new Map<number, string>();
  for (const { id, base: b } of bases) {
    out.set(id, clash.has(id) ? `${b}_${String(id).padStart(width, '0')}` : b);
  }
  return out;
}

/** Whether no name in the list is a prefix of another (the property the converter needs). */
export function isPrefixFree(names: string[]): boolean {
  const sorted = [...names].sort();
  for (let i = 0; i + 1 < sorted.length; i++) if (sorted[i + 1]!.startsWith(sorted[i]!)) return false;
  return true;
}
