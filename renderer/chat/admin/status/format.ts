/** Sizes and durations as the Status section writes them. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[i]}`;
}

export function formatUptime(s: number): string {
  const d = Math.floor(s / 86400);
  const hrs = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d ? `${d} d ${hrs} h` : hrs ? `${hrs} h ${m} min` : m ? `${m} min` : `${s} s`;
}

/** Free disk space, with its share of the disk when known: `812.0 MiB (3% of 29.5 GiB)`. */
export function freeSpaceText(free: number, total: number | null | undefined): string {
  if (!total) return formatBytes(free);
  const pct = (free / total) * 100;
  return `${formatBytes(free)} (${pct < 1 && pct > 0 ? '<1' : Math.floor(pct)}% of ${formatBytes(total)})`;
}
