/**
 * Pictures for the demo organization, drawn here so the demo needs no network and no files:
 * a portrait-style avatar per person (head and shoulders on a coloured tile), a bar chart
 * and a mockup to upload into conversations, and two custom emoji. PNGs through the
 * avatar module's encoder; deterministic.
 */
import { encodePng } from '../lib/people/avatar.js';

type Rgb = [number, number, number];

function hsl(h: number, s: number, l: number): Rgb {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** A 256 px head-and-shoulders avatar on a tile of the given hue. */
export function portraitPng(hue: number, size = 256): Buffer {
  const bg = hsl(hue, 0.55, 0.78);
  const shirt = hsl((hue + 180) % 360, 0.45, 0.42);
  const skin = hsl(25 + (hue % 20), 0.45, 0.45 + (hue % 7) * 0.04);
  const hair = hsl((hue * 7) % 360, 0.3, 0.18 + (hue % 3) * 0.08);
  return encodePng(size, (x, y) => {
    const u = x / size;
    const v = y / size;
    const head = (u - 0.5) ** 2 + ((v - 0.4) / 1.15) ** 2 < 0.036;
    const hairCap = (u - 0.5) ** 2 + ((v - 0.33) / 1.0) ** 2 < 0.04 && v < 0.36;
    const shoulders = (u - 0.5) ** 2 / 0.12 + (v - 1.02) ** 2 / 0.13 < 1;
    if (hairCap) return hair;
    if (head) return skin;
    if (shoulders) return shirt;
    return bg;
  });
}

/** A bar chart (the Q3 pipeline) for #sales. */
export function chartPng(size = 480): Buffer {
  const bars = [0.35, 0.5, 0.45, 0.7, 0.82];
  return encodePng(size, (x, y) => {
    const u = x / size;
    const v = 1 - y / size;
    if (v < 0.08 || u < 0.08) return v < 0.075 || u < 0.075 ? [250, 250, 250] : [90, 90, 90];
    const i = Math.floor((u - 0.1) / 0.17);
    const inBar = i >= 0 && i < bars.length && (u - 0.1) % 0.17 < 0.12 && v < bars[i]! + 0.08;
    if (inBar) return i === bars.length - 1 ? [224, 112, 63] : [80, 130, 200];
    return Math.round(v * 100) % 20 === 0 ? [230, 230, 230] : [250, 250, 250];
  });
}

/** A phone-screen mockup (the onboarding flow) for #design. */
export function mockupPng(size = 480): Buffer {
  return encodePng(size, (x, y) => {
    const u = x / size;
    const v = y / size;
    const inPhone = u > 0.3 && u < 0.7 && v > 0.06 && v < 0.94;
    if (!inPhone) return [238, 232, 224];
    if (u < 0.32 || u > 0.68 || v < 0.1 || v > 0.9) return [40, 40, 40];
    if (v < 0.2) return [180, 68, 27];
    if (v > 0.74 && v < 0.82 && u > 0.38 && u < 0.62) return [224, 112, 63];
    if (((v - 0.3) * 20) % 2 < 0.6 && v > 0.3 && v < 0.66 && u > 0.36 && u < 0.64 - (v % 0.07)) return [200, 200, 200];
    return [255, 255, 255];
  });
}

/** Custom emoji: a juniper sprig (a green tree) and "ship it" (an orange rocket-ish arrow). */
export function juniperEmojiPng(size = 64): Buffer {
  return encodePng(size, (x, y) => {
    const u = x / size - 0.5;
    const v = y / size;
    if (v > 0.78 && Math.abs(u) < 0.06) return [120, 80, 40];
    const width = (v - 0.1) * 0.55;
    if (v > 0.1 && v < 0.8 && Math.abs(u) < width && (v * 10) % 2.2 > 0.3) return [34, 120, 60];
    return [255, 255, 255];
  });
}

export function shipitEmojiPng(size = 64): Buffer {
  return encodePng(size, (x, y) => {
    const u = x / size - 0.5;
    const v = y / size;
    if (v < 0.45 && Math.abs(u) < v * 0.9) return [224, 112, 63];
    if (v >= 0.45 && v < 0.9 && Math.abs(u) < 0.13) return [224, 112, 63];
    return [255, 255, 255];
  });
}
