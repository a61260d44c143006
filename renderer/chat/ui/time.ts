/** Dates and times in the reader's own time zone and language; 12- or 24-hour as the `twenty_four_hour_time` setting says. */
import { twentyFourHour } from '../store/state.js';

const timeFmts = [false, true].map((h24) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', hourCycle: h24 ? 'h23' : 'h12' }));
const dayFmt = new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
const fullFmts = [false, true].map((h24) => new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', hourCycle: h24 ? 'h23' : 'h12' }));

/** Formatting with Intl is slow next to rendering: each distinct second is formatted once. */
function cached(format: (seconds: number) => string): (seconds: number) => string {
  const memo = new Map<number, string>();
  return (seconds) => {
    let s = memo.get(seconds);
    if (s === undefined) {
      if (memo.size > 20_000) memo.clear();
      s = format(seconds);
      memo.set(seconds, s);
    }
    return s;
  };
}

const timesOf = timeFmts.map((f) => cached((seconds) => f.format(new Date(seconds * 1000))));
const fullTimesOf = fullFmts.map((f) => cached((seconds) => f.format(new Date(seconds * 1000))));
/** Reading the setting here makes every component that shows a time follow it when it changes. */
export const timeOf = (seconds: number) => timesOf[Number(twentyFourHour.value)]!(seconds);
export const fullTimeOf = (seconds: number) => fullTimesOf[Number(twentyFourHour.value)]!(seconds);
export const isoOf = cached((seconds) => new Date(seconds * 1000).toISOString());

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

export const dayKey = cached((seconds) => new Date(seconds * 1000).toDateString());
