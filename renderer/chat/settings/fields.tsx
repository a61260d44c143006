/** A setting's checkbox and its radio group, saved as soon as changed. */
import type { ComponentChildren } from 'preact';
import { save, setting } from './save.js';

export function Check({ name, label, fallback = false }: { name: string; label: ComponentChildren; fallback?: boolean }) {
  return (
    <label class="check">
      <input type="checkbox" checked={setting(name, fallback)} onChange={(e) => save({ [name]: e.currentTarget.checked })} />
      {label}
    </label>
  );
}

export function Choice({ name, legend, options }: { name: string; legend: string; options: [number | boolean, string][] }) {
  const cur = setting<unknown>(name, options[0]![0]);
  return (
    <fieldset class="choice">
      <legend>{legend}</legend>
      {options.map(([value, label]) => (
        <label class="check" key={String(value)}>
          <input type="radio" name={name} checked={cur === value} onChange={() => save({ [name]: value })} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}
