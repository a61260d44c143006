/** Dates and times in the reader's own time zone and language. */
const timeFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const dayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
const fullFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' });

export const timeOf = (seconds: number) => timeFmt.format(new Date(seconds * 1000));
export const fullTimeOf = (seconds: number) => fullFmt.format(new Date(seconds * 1000));
export const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

/** "Today", "Yesterday" or the date. */
export function dayOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  const today = new Date();
  const startOf = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((startOf(today) - startOf(d)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return dayFmt.format(d);
}

export const dayKey = (seconds: number) => new Date(seconds * 1000).toDateString();
